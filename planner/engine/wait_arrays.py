"""A replay's per-job waits and completion times as numpy arrays, and their statistics.

`summarize` reads ten million jobs: a Python list per figure (job numbers, waits, labels)
cost more memory than the replay itself. Here every per-job figure is one typed array
filled straight from the result (`np.fromiter`), and groups are a stable sort of small
integer codes, so a group's values keep their job order and every statistic is the one
the lists gave, bit for bit. Percentiles interpolate linearly, as DuckDB's
`quantile_cont` does.
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from planner.core.model import gpu_size_class
from planner.engine.result import ReplayResult
from planner.engine.summary import Stats

_PERCENTILES = (50, 90, 95, 99)
_NAN = math.nan


@dataclass(frozen=True, slots=True)
class StartedWaits:
    """The waits of the jobs that started, in job order, and which jobs those are."""

    started: np.ndarray
    """One bool per job."""
    waits: np.ndarray
    """Seconds from submit to the last start, less preempted runs, per started job."""


def started_waits(result: ReplayResult) -> StartedWaits:
    """`metrics.waited_s` of every started job, as one array."""
    n = len(result.jobs)
    start = np.fromiter((_NAN if s is None else s for s in result.start_s), np.float64, n)
    submit = np.fromiter((job.submit_s for job in result.jobs), np.float64, n)
    waits = start - submit
    del submit
    for i, runs in result.segments.items():
        if result.start_s[i] is not None:
            waits[i] -= sum(end - begin for begin, end, _ in runs)
    started = ~np.isnan(start)
    return StartedWaits(started, waits[started])


def completion_times(result: ReplayResult) -> np.ndarray:
    """End less submit of each completed job, in job order (0.0 if it has no end)."""
    n = len(result.jobs)
    done = np.fromiter((s == "completed" for s in result.status), np.bool_, n)
    end = np.fromiter((_NAN if e is None else e for e in result.end_s), np.float64, n)[done]
    submit = np.fromiter((job.submit_s for job in result.jobs), np.float64, n)[done]
    return np.where(np.isnan(end), 0.0, end - submit)


def gpu_job_mask(result: ReplayResult) -> np.ndarray:
    """One bool per job: whether it asks for GPUs."""
    return np.fromiter((job.total_gpus > 0 for job in result.jobs), np.bool_, len(result.jobs))


def codes(labels: Iterable[str], n: int) -> tuple[np.ndarray, list[str]]:
    """Each of `n` labels as a small integer, and the labels by code."""
    seen: dict[str, int] = {}
    coded = np.fromiter((seen.setdefault(label, len(seen)) for label in labels), np.int64, n)
    return coded, list(seen)


def size_labels(result: ReplayResult) -> Iterable[str]:
    """Each job's GPU size class (`gpu_size_class`), looked up once per distinct count."""
    memo: dict[float, str] = {}
    for job in result.jobs:
        gpus = job.total_gpus
        label = memo.get(gpus)
        if label is None:
            label = memo[gpus] = gpu_size_class(gpus)
        yield label


def stats(values: np.ndarray) -> Stats:
    if not len(values):
        return Stats(jobs=0)
    p50, p90, p95, p99 = np.percentile(values, _PERCENTILES)
    return Stats(
        jobs=len(values),
        mean=float(values.mean()),
        p50=float(p50),
        p90=float(p90),
        p95=float(p95),
        p99=float(p99),
        max=float(values.max()),
    )


def grouped(values: np.ndarray, coded: np.ndarray, names: Sequence[str]) -> dict[str, Stats]:
    """`stats` of the values of each code that occurs, keyed by its name, names sorted;
    `coded` holds one code per value."""
    order = np.argsort(coded, kind="stable")  # stable: a group keeps its values' order
    bounds = np.searchsorted(coded[order], np.arange(len(names) + 1))
    found = {
        names[c]: stats(values[order[bounds[c] : bounds[c + 1]]])
        for c in range(len(names))
        if bounds[c + 1] > bounds[c]
    }
    return dict(sorted(found.items()))
