"""Observed against replayed: waits, their distributions, the allocated-GPU series and the
withdrawn count, for the jobs submitted in one window of the history.

The observed wait of a job is its observed start less its submission; jobs already running
when the export's window opened (censored on the left: their submission is unknown) and jobs
that never started are left out of waits. Both sides count the same jobs' waits: those that
started.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from planner.core.model import Job, gpu_size_class
from planner.twin.report import (
    WAIT_RATIO_LIMIT,
    WITHDRAWN_LIMIT,
    Comparison,
    GroupWaits,
    Miss,
    WaitQuantiles,
)

QUANTILES = ("p50", "p90", "p99")


@dataclass(frozen=True, slots=True)
class Outcome:
    start_s: float | None
    end_s: float | None
    withdrawn: bool
    """Never started (withdrawn while it waited)."""


def observed_outcome(job: Job, end_s: float) -> Outcome:
    if job.status == "withdrawn" or job.start_s is None:
        return Outcome(None, None, job.status == "withdrawn")
    return Outcome(job.start_s, end_s if job.end_s is None else job.end_s, False)


def observed_wait(job: Job) -> float | None:
    """Seconds from submission to the observed start; None where the history cannot say."""
    if job.start_s is None or job.status == "withdrawn" or job.running_at_start:
        return None
    return max(job.start_s - job.submit_s, 0.0)


def compare(
    jobs: Sequence[Job],
    observed: Mapping[str, Outcome],
    replayed: Mapping[str, Outcome],
    window_s: tuple[float, float],
    bin_s: float,
) -> Comparison:
    """Compare the jobs submitted in `window_s` (start inclusive, end exclusive)."""
    low, high = window_s
    chosen = [job for job in jobs if low <= job.submit_s < high and not job.running_at_start]
    obs = _waits(chosen, observed)
    rep = _waits(chosen, replayed)
    withdrawn = (
        sum(observed[j.job_id].withdrawn for j in chosen),
        sum(replayed[j.job_id].withdrawn for j in chosen),
    )
    qo, qr = quantiles(list(obs.values())), quantiles(list(rep.values()))
    ratios = {name: _ratio(getattr(qr, name), getattr(qo, name)) for name in (*QUANTILES, "mean")}
    corr, error, level = _allocation_fit(jobs, observed, replayed, window_s, bin_s)
    misses = judge(qo, qr, withdrawn)
    return Comparison(
        window_s=window_s,
        jobs=len(chosen),
        observed=qo,
        replayed=qr,
        ratios=ratios,
        waited_share=(_share_waited(obs), _share_waited(rep)),
        waiting_gpu_hours=(_gpu_hours(chosen, obs), _gpu_hours(chosen, rep)),
        ks_distance=ks_distance(list(obs.values()), list(rep.values())),
        wasserstein_s=wasserstein(list(obs.values()), list(rep.values())),
        allocation_bin_s=bin_s,
        allocation_correlation=corr,
        allocation_error=error,
        allocation_level_error=level,
        withdrawn=withdrawn,
        by_size=_groups(chosen, obs, rep, lambda j: gpu_size_class(j.total_gpus)),
        by_team=_groups(chosen, obs, rep, lambda j: j.queue),
        misses=misses,
        matches=not misses,
        verdict=verdict_text(misses),
    )


def _waits(jobs: Sequence[Job], outcomes: Mapping[str, Outcome]) -> dict[str, float]:
    waits = {}
    for job in jobs:
        start = outcomes[job.job_id].start_s
        if start is not None:
            waits[job.job_id] = max(start - job.submit_s, 0.0)
    return waits


def quantiles(values: Sequence[float]) -> WaitQuantiles:
    if not values:
        return WaitQuantiles(0, None, None, None, None)
    p50, p90, p99 = (float(v) for v in np.percentile(values, [50, 90, 99]))
    return WaitQuantiles(len(values), p50, p90, p99, float(np.mean(values)))


def _ratio(replayed: float | None, observed: float | None) -> float | None:
    if replayed is None or observed is None or observed <= 0:
        return None
    return replayed / observed


def judge(
    observed: WaitQuantiles, replayed: WaitQuantiles, withdrawn: tuple[int, int]
) -> tuple[Miss, ...]:
    """The figures outside the thresholds: p50, p90 and p99 each within a factor of
    `WAIT_RATIO_LIMIT` (from 1 s up: under a second the clock's resolution decides), and
    withdrawn jobs within `WITHDRAWN_LIMIT` (at least one job)."""
    misses = []
    for name in QUANTILES:
        o, r = getattr(observed, name), getattr(replayed, name)
        if o is None or r is None:
            continue
        if not 1 / WAIT_RATIO_LIMIT <= max(r, 1.0) / max(o, 1.0) <= WAIT_RATIO_LIMIT:
            misses.append(Miss(name, r, o))
    seen, replayed_count = withdrawn
    if abs(replayed_count - seen) > max(WITHDRAWN_LIMIT * seen, 1):
        misses.append(Miss("withdrawn", replayed_count, seen))
    return tuple(misses)


def verdict_text(misses: tuple[Miss, ...]) -> str:
    """The one-line verdict, thresholds stated (English; the pages word `misses` their way)."""
    rule = (
        f"p50, p90 and p99 waits within a factor of {WAIT_RATIO_LIMIT:g} and withdrawn jobs "
        f"within {WITHDRAWN_LIMIT:.0%}"
    )
    if not misses:
        return f"The replay matches what happened ({rule})."
    said = [
        f"withdrawn {m.replayed:,.0f} vs {m.observed:,.0f} observed"
        if m.quantity == "withdrawn"
        else f"{m.quantity} {m.replayed:,.0f} s vs {m.observed:,.0f} s observed"
        for m in misses
    ]
    return f"The replay does not match what happened ({rule}): {'; '.join(said)}."


def _share_waited(waits: Mapping[str, float]) -> float:
    return sum(1 for w in waits.values() if w > 0) / len(waits) if waits else 0.0


def _gpu_hours(jobs: Sequence[Job], waits: Mapping[str, float]) -> float:
    return sum(waits.get(job.job_id, 0.0) * job.total_gpus for job in jobs) / 3600.0


def _groups(
    jobs: Sequence[Job],
    obs: Mapping[str, float],
    rep: Mapping[str, float],
    key: Callable[[Job], str],
) -> tuple[GroupWaits, ...]:
    groups: dict[str, list[Job]] = {}
    for job in jobs:
        groups.setdefault(key(job), []).append(job)
    return tuple(
        GroupWaits(
            name,
            quantiles([obs[j.job_id] for j in members if j.job_id in obs]),
            quantiles([rep[j.job_id] for j in members if j.job_id in rep]),
        )
        for name, members in sorted(groups.items())
    )


def ks_distance(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Two-sample Kolmogorov-Smirnov statistic: the largest gap between the two CDFs."""
    if not a or not b:
        return None
    xa, xb = np.sort(a), np.sort(b)
    points = np.concatenate([xa, xb])
    fa = np.searchsorted(xa, points, side="right") / len(xa)
    fb = np.searchsorted(xb, points, side="right") / len(xb)
    return float(np.max(np.abs(fa - fb)))


def wasserstein(a: Sequence[float], b: Sequence[float]) -> float | None:
    """First Wasserstein (earth mover's) distance: the area between the two CDFs."""
    if not a or not b:
        return None
    xa, xb = np.sort(a), np.sort(b)
    points = np.sort(np.concatenate([xa, xb]))
    fa = np.searchsorted(xa, points[:-1], side="right") / len(xa)
    fb = np.searchsorted(xb, points[:-1], side="right") / len(xb)
    return float(np.sum(np.abs(fa - fb) * np.diff(points)))


def _allocation_fit(
    jobs: Sequence[Job],
    observed: Mapping[str, Outcome],
    replayed: Mapping[str, Outcome],
    window_s: tuple[float, float],
    bin_s: float,
) -> tuple[float | None, float | None, float | None]:
    """Correlation, relative error per bin and relative error of the total (the GPU-hours
    allocated over the whole window) of the allocated-GPU series, binned, over the window.

    The per-bin error counts work that only ran earlier or later than it did; the total's
    is what a cost over the window inherits (the Monte Carlo's demand spread)."""
    low, high = window_s
    bins = max(int(np.ceil((high - low) / bin_s)), 1)
    series = [np.zeros(bins), np.zeros(bins)]
    for job in jobs:
        for k, outcomes in enumerate((observed, replayed)):
            out = outcomes[job.job_id]
            if out.start_s is not None and out.end_s is not None:
                _add_interval(series[k], (out.start_s, out.end_s), job.total_gpus, low, bin_s)
    o, r = series[0] / bin_s, series[1] / bin_s
    if o.mean() <= 0:
        return None, None, None
    error = float(np.mean(np.abs(o - r)) / o.mean())
    level = float(abs(r.mean() - o.mean()) / o.mean())
    if bins < 2 or o.std() == 0 or r.std() == 0:
        return None, error, level
    return float(np.corrcoef(o, r)[0, 1]), error, level


def _add_interval(
    series: np.ndarray, interval: tuple[float, float], gpus: float, low: float, bin_s: float
) -> None:
    """Add `gpus` x the seconds of [start, end) inside each bin."""
    bins = len(series)
    a, b = (interval[0] - low) / bin_s, (interval[1] - low) / bin_s
    a, b = max(a, 0.0), min(b, float(bins))
    if b <= a:
        return
    first, last = int(a), min(int(np.ceil(b)) - 1, bins - 1)
    if first == last:
        series[first] += gpus * (b - a) * bin_s
        return
    series[first] += gpus * (first + 1 - a) * bin_s
    series[last] += gpus * (b - last) * bin_s
    if last > first + 1:
        series[first + 1 : last] += gpus * bin_s
