"""How a user asks for a file to be read: the format names, the censoring rule, `IngestOptions`.

Plain values only (no pandas): the command line lists these choices in its help, which must
answer without loading pandas, and the app builds options before anything is read.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from planner.ingest.limits import CHUNK_ROWS, ReadLimits

Format = Literal["generic", "openb-pods", "openb-nodes", "slurm", "nodes"]
FORMATS: tuple[str, ...] = get_args(Format)
JOB_FORMATS = ("generic", "openb-pods", "slurm")
NODE_FORMATS = ("openb-nodes", "nodes")

Censored = Literal["window", "reject"]
CENSORED_CHOICES: tuple[Censored, ...] = get_args(Censored)


@dataclass(frozen=True, slots=True)
class IngestOptions:
    """How to read a file; everything here is part of a trace's identity."""

    format: str | None = None
    mapping: Mapping[str, str] = field(default_factory=dict)
    tz: str = "UTC"
    max_gpus_per_pod: int = 8
    censored: Censored = "window"
    """Rows with no start and no run time that are not pending: "window" keeps them as
    running since the window start (flag running_at_start); "reject" rejects them as
    never_started. Rows with no end run to the window end either way."""
    chunk_rows: int = CHUNK_ROWS
    limits: ReadLimits = field(default_factory=ReadLimits)

    def identity(self) -> str:
        """Canonical text of the options that change the result (not the chunk size nor
        the limits: a file within them reads the same whatever they are)."""
        return json.dumps(
            {
                "format": self.format,
                "mapping": dict(sorted(self.mapping.items())),
                "tz": self.tz,
                "max_gpus_per_pod": self.max_gpus_per_pod,
                "censored": self.censored,
            },
            sort_keys=True,
        )
