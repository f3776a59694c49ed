"""The replay engine: jobs in, a simulated cluster's schedule out.

`simulate` and `ReplayResult` are the engine's public face; the loop and one module per
scheduling concern live beside this file.
"""

from planner.engine.compiled import use_compiled

use_compiled()  # before any other engine module is imported

from planner.engine.loop import ReplayResult, simulate  # noqa: E402

__all__ = ["ReplayResult", "simulate"]
