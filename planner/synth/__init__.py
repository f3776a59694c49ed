"""Synthetic GPU job traces shaped like published clusters: the sample-trace generator.

`trace` draws the rows and writes the CSV, `profiles` holds the calibrated profiles and their
sources, `teams` the per-team arrivals and campaigns, `growth` a growing demand year by year.
No pandas, no numpy: a trace depends only on its arguments.
"""

from planner.synth.profiles import PROFILES
from planner.synth.trace import COLUMNS, SynthRow, SynthSummary, generate, write_trace

__all__ = ["COLUMNS", "PROFILES", "SynthRow", "SynthSummary", "generate", "write_trace"]
