"""What a replay means for a manager: utilization, waits, why jobs waited, fragmentation.

Pure arithmetic over a `ReplayResult`; numpy for the percentiles of a million waits.
Waits are measured on jobs that started (a job still waiting at the horizon has no wait
yet; it is counted in `still_waiting`). Percentiles interpolate linearly, as DuckDB's
`quantile_cont` does.
"""

from collections.abc import Iterable, Sequence

import numpy as np

from planner.core.model import is_useful
from planner.engine import ReplayResult
from planner.engine.summary import (
    Deadlock,
    Fragmentation,
    Livelock,
    PolicyUsed,
    PoolSharing,
    QueueSummary,
    ReplaySummary,
    Stats,
    TimelineSeries,
)
from planner.engine.wait_arrays import (
    codes,
    completion_times,
    gpu_job_mask,
    grouped,
    size_labels,
    started_waits,
    stats,
)
from planner.engine.wait_scope import ALL_JOBS, GPU_JOBS, check_wait_scope, scope_team
from planner.engine.waits import REASON_CODES


def in_wait_scope(result: ReplayResult, i: int, scope: str) -> bool:
    """Whether job `i`'s wait belongs to `scope` (see `planner.engine.wait_scope`)."""
    if scope == ALL_JOBS:
        return True
    if scope == GPU_JOBS:
        return result.jobs[i].total_gpus > 0
    return _queue(result, i) == scope_team(scope)


def useful_gpu_hours(
    result: ReplayResult,
    *,
    exclude_failed: bool = False,
    served: tuple[str, ...] = ("completed",),
    share: Sequence[float] | None = None,
) -> float:
    """GPU-hours of useful work the replay served: jobs whose replay status is in `served`
    ("completed" on the owned GPUs; add "burst" for a hybrid's cloud share) and whose work
    counts (`planner.core.model.is_useful`). The Replay page's and the TCO's one definition.
    With `share` (per job, as `run_share_in_window` gives it), each job counts that share."""
    if share is None:  # a share of 1.0 each: x * 1.0 == x, bit for bit
        return sum(
            job.gpu_hours
            for job, status in zip(result.jobs, result.status, strict=True)
            if status in served and is_useful(job, exclude_failed=exclude_failed)
        )
    return sum(
        job.gpu_hours * part
        for job, status, part in zip(result.jobs, result.status, share, strict=True)
        if status in served and is_useful(job, exclude_failed=exclude_failed)
    )


def run_share_in_window(result: ReplayResult, start_s: float, end_s: float) -> list[float]:
    """Per job, the share of its time on the replay's GPUs (each preempted run and the last)
    that falls within [start_s, end_s]: 1.0 exactly for a job that ran wholly inside, 0.0 for
    one that never ran there. A job's work is spread evenly over its runs, so its GPU-hours
    (GPUs x run time, as every figure counts a job) x this share is the work done within the
    window. Exact at the window's edges, which the timeline is not: its bins are wider than a
    second, start at time 0 rather than at the window, and count GPUs allocated rather than
    work done (container overhead, runs lost to preemption)."""
    shares: list[float] = []
    segments = result.segments
    for i, (start, end) in enumerate(zip(result.start_s, result.end_s, strict=True)):
        if i in segments or start is None or end is None:
            runs = [(a, b) for a, b, _ in segments.get(i, ())]
            if start is not None and end is not None:
                runs.append((start, end))
            shares.append(_share_inside(runs, start_s, end_s))
        elif start_s <= start and end <= end_s:  # the common case: one run, inside
            shares.append(1.0)
        else:
            shares.append(_share_inside(((start, end),), start_s, end_s))
    return shares


def _share_inside(runs: Sequence[tuple[float, float]], lo: float, hi: float) -> float:
    if not runs:
        return 0.0
    total = sum(b - a for a, b in runs)
    inside = sum(max(0.0, min(b, hi) - max(a, lo)) for a, b in runs)
    if inside >= total:  # wholly inside: counted whole, bit for bit
        return 1.0 if total > 0 or lo <= runs[-1][0] <= hi else 0.0
    return inside / total


def summarize(
    result: ReplayResult, *, timeline: bool = False, wait_scope: str = GPU_JOBS
) -> ReplaySummary:
    """The replay's headline figures (`planner.core.serialize.to_json` gives the CLI's `--json`).

    `wait_s` is the waits of `wait_scope`'s jobs (GPU jobs by default: in a trace of mostly
    CPU-only jobs that start at once, all jobs' waits would hide how long GPU jobs wait);
    `wait_s_by_scope` gives GPU jobs and all jobs side by side.
    """
    check_wait_scope(wait_scope)
    jobs = result.jobs
    status = result.status
    capacity = sum(result.capacity_gpus.values())
    horizon = result.horizon_s
    waits = _waits(result, wait_scope)
    completion = completion_times(result)
    by_reason, by_queue = _waiting_gpu_hours(result)
    return ReplaySummary(
        jobs=len(jobs),
        completed=len(completion),
        unschedulable=status.count("unschedulable"),
        unfinished=status.count("unfinished"),
        withdrawn=status.count("withdrawn"),
        withdrawn_after_start=status.count("withdrawn-after-start"),
        withdrawn_observed=sum(1 for job in jobs if job.status == "withdrawn"),
        still_waiting=sum(
            1 for i, s in enumerate(status) if s == "unfinished" and result.start_s[i] is None
        ),
        gpu_capacity=capacity,
        gpu_capacity_by_pool=dict(result.capacity_gpus),
        horizon_s=horizon,
        allocated_gpu_hours=result.allocated_gpu_s / 3600.0,
        useful_gpu_hours=useful_gpu_hours(result),
        utilization=_ratio(result.allocated_gpu_s, capacity * horizon),
        wait_scope=wait_scope,
        wait_s=waits[0],
        wait_s_by_scope=waits[1],
        wait_s_by_gpu_size=waits[2],
        wait_s_by_queue=waits[3],
        completion_time_s=stats(completion),
        makespan_s=_makespan(result),
        waiting_gpu_hours_by_reason=by_reason,
        waiting_gpu_hours_by_queue=by_queue,
        idle_gpu_hours_held_by_partial_gangs=result.held_idle_gpu_s / 3600.0,
        deadlock=None if result.deadlock is None else Deadlock(**result.deadlock),
        livelock=None if result.livelock is None else Livelock(**result.livelock),
        unschedulable_by_reason=_count(result.unschedulable_reason.values()),
        fragmentation=_fragmentation(result, capacity),
        policy=PolicyUsed(
            result.policy.admission,
            result.policy.placement,
            result.policy.queueing,
            result.policy.seed,
        ),
        rounded_up_pods=result.rounded_up_pods,
        overhead_gpu_hours=result.overhead_gpu_s / 3600.0,
        preemptions=result.preemptions,
        preempted_jobs=len(result.segments),
        preemptions_by_queue=_preemptions_by_queue(result),
        wasted_gpu_hours=result.wasted_gpu_s / 3600.0,
        evicted_by_online=result.evicted_by_online,
        online_gpu_hours=result.online_gpu_s / 3600.0,
        burst=status.count("burst"),
        burst_gpu_hours=sum(jobs[i].gpu_hours for i, s in enumerate(status) if s == "burst"),
        sharing={p: PoolSharing(**v) for p, v in result.sharing.items()} or None,
        queues=_queue_summary(result),
        timeline=timeline_series(result) if timeline else None,
    )


def _waits(
    result: ReplayResult, wait_scope: str
) -> tuple[Stats, dict[str, Stats], dict[str, Stats], dict[str, Stats]]:
    """Waits of `wait_scope`'s jobs; of GPU jobs and all jobs; by GPU size; by queue."""
    found = started_waits(result)
    started, all_waits = found.started, found.waits
    gpu_jobs = gpu_job_mask(result)[started]
    queue_codes, queue_names = codes(_queues(result), len(result.jobs))
    queue_codes = queue_codes[started]
    if wait_scope == ALL_JOBS:
        scoped = all_waits
    elif wait_scope == GPU_JOBS:
        scoped = all_waits[gpu_jobs]
    else:
        team = scope_team(wait_scope)
        scoped = all_waits[queue_codes == (queue_names.index(team) if team in queue_names else -1)]
    size_codes, size_names = codes(size_labels(result), len(result.jobs))
    return (
        stats(scoped),
        {GPU_JOBS: stats(all_waits[gpu_jobs]), ALL_JOBS: stats(all_waits)},
        grouped(all_waits, size_codes[started], size_names),
        grouped(all_waits, queue_codes, queue_names),
    )


def _queue_summary(result: ReplayResult) -> QueueSummary | None:
    if result.cluster_queue is None:
        return None
    return QueueSummary(
        borrowed_gpu_hours={q: v / 3600.0 for q, v in result.borrowed_gpu_s.items()},
        lent_gpu_hours={q: v / 3600.0 for q, v in result.lent_gpu_s.items()},
        unmapped_queues=result.unmapped_queues,
        budget_used_gpu_hours_by_month={
            q: tuple(v / 3600.0 for v in months) for q, months in result.budget_used_gpu_s.items()
        },
    )


def timeline_series(result: ReplayResult) -> TimelineSeries:
    tl = result.timeline
    return TimelineSeries(
        bin_s=tl.bin_s,
        pools=tuple(tl.pools),
        allocated_gpus=tuple(tuple(row) for row in tl.allocated_gpus),
        held_idle_gpus=tuple(tl.held_idle_gpus),
        queued_jobs=tuple(tl.queued_jobs),
        queued_gpus=tuple(tl.queued_gpus),
        unusable_idle_gpus=tuple(tl.unusable_idle_gpus),
        fgd_fragmented_gpus=tuple(tl.fgd_fragmented_gpus),
    )


def _queues(result: ReplayResult) -> Iterable[str]:
    """Each job's `_queue`, in job order."""
    if result.cluster_queue is not None:
        return result.cluster_queue
    return (job.queue for job in result.jobs)


def _queue(result: ReplayResult, i: int) -> str:
    """The ClusterQueue when queues are configured, else the trace's queue."""
    if result.cluster_queue is not None:
        return result.cluster_queue[i]
    return result.jobs[i].queue


def waited_s(result: ReplayResult, i: int) -> float:
    """Time from submit to the last start, less the runs that were preempted."""
    start = result.start_s[i]
    if start is None:
        return 0.0
    ran = sum(end - begin for begin, end, _ in result.segments.get(i, ()))
    return start - result.jobs[i].submit_s - ran


def _preemptions_by_queue(result: ReplayResult) -> dict[str, int]:
    """Evictions (preemptions and online reclaims) of each queue's jobs, queues in order."""
    counts: dict[str, int] = {}
    for i, runs in result.segments.items():
        name = _queue(result, i)
        counts[name] = counts.get(name, 0) + len(runs)
    return dict(sorted(counts.items()))


def _waiting_gpu_hours(
    result: ReplayResult,
) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    overall = [0.0] * len(REASON_CODES)
    per_queue: dict[str, list[float]] = {}
    waits = result.wait_by_reason
    for i, job in enumerate(result.jobs):
        # each reason's sum runs over the jobs in order, as over the tuples: equal to the bit
        booked = [(r, seconds) for r, seconds in waits.entries(i) if seconds]
        if not booked:
            continue
        gpus = job.total_gpus / 3600.0
        name = _queue(result, i)
        queue = per_queue.get(name)
        if queue is None:
            queue = per_queue[name] = [0.0] * len(REASON_CODES)
        for r, seconds in booked:
            overall[r] += gpus * seconds
            queue[r] += gpus * seconds
    named = dict(zip(REASON_CODES, overall, strict=True))
    return named, {
        q: {code: hours for code, hours in zip(REASON_CODES, values, strict=True) if hours}
        for q, values in sorted(per_queue.items())
    }


def _makespan(result: ReplayResult) -> float | None:
    ends = (end for end, s in zip(result.end_s, result.status, strict=True) if s == "completed")
    last = max(ends, default=None)  # type: ignore[type-var]
    if last is None:
        return None
    return last - min(job.submit_s for job in result.jobs)


def _fragmentation(result: ReplayResult, capacity: float) -> Fragmentation:
    tl = result.timeline
    unusable = tl.unusable_idle_gpus
    fgd = tl.fgd_fragmented_gpus
    mean_unusable = float(np.mean(unusable)) if unusable else None
    return Fragmentation(
        mean_unusable_idle_gpus=mean_unusable,
        mean_unusable_idle_pct=_ratio(mean_unusable, capacity, pct=True),
        mean_fgd_fragmented_gpus=float(np.mean(fgd)) if fgd else None,
    )


def _count(values: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items()))


def _ratio(part: float | None, whole: float, *, pct: bool = False) -> float | None:
    if part is None or not whole:
        return None
    return part / whole * (100.0 if pct else 1.0)
