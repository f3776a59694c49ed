"""Engine jobs built from column chunks, equal values held once across every chunk.

A stored trace is read back a chunk of rows at a time (`planner.store.traces`); each chunk
arrives as one NumPy array per column of `JOB_COLUMNS` and becomes `Job`s here, then is
dropped, so the columns of only one chunk are ever in Python at once. A trace has a few
queues, users, statuses and pod shapes but millions of jobs: read from a column, each job's
would be an object of its own (a string about 55 bytes, a float 24), so `Sharing` keeps one
object per distinct value of those columns for the whole trace. Ids, submit times and
durations are unique per job and are not looked up.
"""

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from planner.core.errors import StoreError
from planner.core.model import Job

_CHANGED = "the trace's jobs changed while they were read; read them again"
SHARED_COLUMNS = ("pods", "gpus", "cpu", "mem_gib", "queue", "user_name", "priority", "status")
"""The `JOB_COLUMNS` whose equal values are one object (per column: 1 pod and 1.0 GPU stay an
int and a float)."""


@dataclass(slots=True)
class Sharing:
    """The one object of each distinct value seen so far, per column; keep one for a trace."""

    values: dict[str, dict[Hashable, Any]] = field(default_factory=dict)
    gpu_types: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def column(self, name: str, column: np.ndarray) -> list[Any]:
        """`column` as a list in which equal values are this cache's one object."""
        cache = self.values.setdefault(name, {})
        # floats by their bits: -0.0 and 0.0 are equal but not the same value
        keys = column.view(np.int64) if column.dtype == np.float64 else column
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        kept = np.empty(len(unique), dtype=object)
        kept[:] = [
            cache.setdefault(key, value)
            for key, value in zip(unique.tolist(), column[first].tolist(), strict=True)
        ]
        shared: list[Any] = kept[inverse].tolist()
        return shared

    def types(self, column: np.ndarray) -> list[tuple[str, ...]]:
        """The `gpu_types` column ("A100|H100", "" for any) as shared tuples of names."""
        texts = self.column("gpu_types", column)
        for text in set(texts) - self.gpu_types.keys():
            self.gpu_types[text] = tuple(t for t in text.split("|") if t)
        return [self.gpu_types[text] for text in texts]


def jobs_from_columns(columns: Mapping[str, np.ndarray], sharing: Sharing) -> list[Job]:
    """One `Job` per row of `columns` (the `JOB_COLUMNS`, NULLs as NaN or masked), in order."""
    shared = {name: sharing.column(name, columns[name]) for name in SHARED_COLUMNS}
    fields = zip(  # in `Job`'s field order
        columns["job_id"].tolist(),
        columns["submit_s"].tolist(),
        columns["duration_s"].tolist(),
        shared["pods"],
        shared["gpus"],
        shared["cpu"],
        shared["mem_gib"],
        sharing.types(columns["gpu_types"]),
        shared["queue"],
        shared["user_name"],
        shared["priority"],
        shared["status"],
        _optional(columns["start_s"]),
        _optional(columns["end_s"]),
        _optional(columns["withdraw_after_s"]),
        map(bool, columns["running_at_start"].tolist()),
        strict=True,
    )
    return [Job(*row) for row in fields]


def jobs_in_order(order: np.ndarray, chunks: Iterable[Mapping[str, np.ndarray]]) -> list[Job]:
    """The jobs of `chunks` (each with its rows' `row_number`s) in the order `order` lists
    their row numbers, equal values shared across chunks.

    Raises:
        StoreError: the chunks' rows are not those of `order` (the trace changed meanwhile).
    """
    by_number = np.argsort(order, kind="stable")
    numbers = order[by_number]
    sharing = Sharing()
    jobs: list[Job | None] = [None] * len(order)
    placed = 0
    for columns in chunks:
        row_numbers = columns["row_number"]
        if len(row_numbers) > len(jobs) - placed:
            raise StoreError(_CHANGED)
        found = np.searchsorted(numbers, row_numbers).clip(0, len(numbers) - 1)
        if not np.array_equal(numbers[found], row_numbers):
            raise StoreError(_CHANGED)
        for at, job in zip(
            by_number[found].tolist(), jobs_from_columns(columns, sharing), strict=True
        ):
            jobs[at] = job
        placed += len(row_numbers)
    if placed != len(jobs):
        raise StoreError(_CHANGED)
    return cast("list[Job]", jobs)  # every slot filled: one row per row number


def _optional(column: np.ndarray) -> list[float | None]:
    """A nullable float column with None for NULL: DuckDB's arrive as NaN or masked."""
    values = np.ma.getdata(column).astype(np.float64)
    missing = np.ma.getmaskarray(column) | np.isnan(values)
    if not missing.any():
        floats: list[float | None] = values.tolist()
        return floats
    held = values.astype(object)
    held[missing] = None
    optional: list[float | None] = held.tolist()
    return optional
