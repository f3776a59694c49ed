"""A stored trace's jobs, read from rows of plain Python values, equal values held once.

`load_jobs` reads a trace a chunk of rows at a time (`planner.store.traces.job_row_chunks`:
DuckDB's own Python values, already in submit order) and builds `Job`s from each chunk, then
drops it, so the rows of only one chunk are ever in Python at once. A trace has a few queues,
users, statuses, pod shapes and run times but millions of jobs: read from a row, each job's
would be an object of its own (a string about 55 bytes, a float 24, each in a 32- or 64-byte
block), so `SharedValues` keeps one object per distinct value of `SHARED_COLUMNS` for the
whole trace. Ids, submit, start and end times are unique per job and are not looked up.
Nothing here imports NumPy, pandas or pyarrow: a replay of a stored trace pays for DuckDB
alone (`bench/bench_memory.py`).
"""

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import repeat
from math import copysign
from typing import Any

from planner.core.model import Job
from planner.store import Connection, Row, doing
from planner.store.traces import JOB_COLUMNS, job_row_chunks

LOAD_CHUNK_ROWS = 8_192
"""Jobs read from the store at a time (a multiple of this past `CHUNK_QUERIES` chunks): the
load holds one chunk's rows as Python values, never the whole trace's. Smaller chunks leave
less behind: 1,000,000 philly jobs held 390 B/job after a load in chunks of 65,536, 370 in
chunks of 8,192, no slower (`bench/bench_memory.py`)."""
SHARED_COLUMNS = (
    "duration_s",
    "pods",
    "gpus",
    "cpu",
    "mem_gib",
    "queue",
    "user_name",
    "priority",
    "status",
)
"""The `JOB_COLUMNS` whose equal values are one object (per column: 1 pod and 1.0 GPU stay an
int and a float). Run times repeat too (about 90,000 distinct in a million philly jobs)."""
_NAMES = tuple(name.strip() for name in JOB_COLUMNS.split(","))
_SHARED = tuple((_NAMES.index(name), name) for name in SHARED_COLUMNS)
_FLOATS = frozenset(("duration_s", "gpus", "cpu", "mem_gib"))
_GPU_TYPES = _NAMES.index("gpu_types")
_MINUS_ZERO = ("-0.0",)
"""The key of -0.0, which == 0.0 and hashes alike but is not the same value."""


@dataclass(slots=True)
class SharedValues:
    """The one object of each distinct value seen so far, per column; keep one for a trace."""

    values: dict[str, dict[Any, Any]] = field(default_factory=dict)
    gpu_types: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def column(self, name: str, values: Sequence[Any]) -> list[Any]:
        """Column `name`'s `values` as a list in which equal values are this cache's one object."""
        cache = self.values.setdefault(name, {})
        if name in _FLOATS and min(map(copysign, repeat(1.0), values), default=1.0) < 0:
            # a sign bit set: -0.0 (the schema allows no other negative) gets a key of its own
            return [cache.setdefault(_MINUS_ZERO if _minus_zero(v) else v, v) for v in values]
        return list(map(cache.setdefault, values, values))  # a C loop: no Python call per value

    def types(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """The `gpu_types` column ("A100|H100", "" for any) as shared tuples of names."""
        for text in set(texts) - self.gpu_types.keys():
            self.gpu_types[text] = tuple(t for t in text.split("|") if t)
        return list(map(self.gpu_types.__getitem__, texts))


def jobs_from_rows(rows: list[Row], shared: SharedValues) -> list[Job]:
    """One `Job` per row of `JOB_COLUMNS` in `rows`, in order, equal values `shared`; empties
    `rows` on the way, so the row tuples go before the jobs come."""
    if not rows:
        return []
    columns: list[Sequence[Any]] = list(zip(*rows, strict=True))
    rows.clear()
    for at, name in _SHARED:
        columns[at] = shared.column(name, columns[at])
    columns[_GPU_TYPES] = shared.types(columns[_GPU_TYPES])
    return list(map(Job, *columns))


def load_jobs(con: Connection, trace_id: str, chunk_rows: int = LOAD_CHUNK_ROWS) -> list[Job]:
    """A stored trace's jobs in submit order (ties in file order), read `chunk_rows` at a
    time; equal queues, users, statuses, pod shapes and run times are one object each."""
    shared = SharedValues()
    jobs: list[Job] = []
    with doing(f"read the jobs of trace {trace_id}"), _collector_paused():
        for rows in job_row_chunks(con, trace_id, chunk_rows):
            jobs += jobs_from_rows(rows, shared)
    return jobs


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while the block runs (as `engine.simulate` does):
    millions of new jobs and row tuples, no cycles; its rescans took 40% of a load."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _minus_zero(value: float) -> bool:
    return value == 0.0 and copysign(1.0, value) < 0
