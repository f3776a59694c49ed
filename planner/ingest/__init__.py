"""Ingestion edge: turn an export (CSV/TSV/XLSX, gzip, openb, Slurm) into canonical chunks.

This package reads files and uses pandas; it never touches the database. `planner.service.importer`
streams its chunks into the store.

Only re-exports: the options and format names (`options`, `limits`) at once, the names whose
modules import pandas on first use, so importing `planner.ingest.options` (the command line's
choices) does not load pandas.
"""

from importlib import import_module
from typing import TYPE_CHECKING

from planner.ingest.limits import ReadLimits
from planner.ingest.options import (
    CENSORED_CHOICES,
    FORMATS,
    JOB_FORMATS,
    NODE_FORMATS,
    IngestOptions,
)

__all__ = [
    "CENSORED_CHOICES",
    "FORMATS",
    "JOB_FORMATS",
    "NODE_FORMATS",
    "ChunkResult",
    "IngestOptions",
    "IngestReport",
    "JobStream",
    "ReadLimits",
    "ReportBuilder",
    "Source",
    "jobs_from",
    "open_jobs",
    "sniff",
]

_LAZY = {
    "ChunkResult": "planner.ingest.normalize",
    "IngestReport": "planner.ingest.report",
    "JobStream": "planner.ingest.read",
    "ReportBuilder": "planner.ingest.report",
    "Source": "planner.ingest.source",
    "jobs_from": "planner.ingest.read",
    "open_jobs": "planner.ingest.read",
    "sniff": "planner.ingest.read",
}
"""The re-exports that import pandas, by the module that owns each (PEP 562)."""

if TYPE_CHECKING:  # mypy reads the real imports, so a misspelt name is still an error
    from planner.ingest.normalize import ChunkResult
    from planner.ingest.read import JobStream, jobs_from, open_jobs, sniff
    from planner.ingest.report import IngestReport, ReportBuilder
    from planner.ingest.source import Source
else:

    def __getattr__(name: str) -> object:
        if name not in _LAZY:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value  # the next lookup finds it without coming here
        return value
