"""Engine jobs built from column chunks of NumPy arrays, equal values held once across chunks.

A sweep's workers map the trace's columns from files (`planner.service.sweep_ship`) and the
benches build synthetic traces the same way; each chunk of rows arrives as one NumPy array
per column of `JOB_COLUMNS` and becomes `Job`s here. A trace has a few queues, users,
statuses, pod shapes and run times but millions of jobs: read from a column, each job's
would be an object of its own (a string about 55 bytes, a float 24), so `Sharing` keeps one
object per distinct value of those columns for the whole trace. Ids, submit times and
observed times are unique per job and are not looked up. A stored trace is read without
NumPy, from DuckDB's rows (`planner.service.job_rows`, sharing the same columns).
"""

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from planner.core.model import Job

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
int and a float); `job_rows.SHARED_COLUMNS` too, without importing NumPy there."""


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
        shared["duration_s"],
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
