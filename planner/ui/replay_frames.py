"""Plot-ready tables for the replay page's figures, from a run's summary and timeline.

Pure pandas over `planner.engine.metrics.summarize`'s `ReplaySummary` and its timeline; labels
that the figures show come from the session's language here, so `planner.ui.charts` only
draws. Times are hours since the trace's start, waits minutes, work GPU-hours.
"""

from collections.abc import Mapping

import pandas as pd

from planner.core.model import GPU_SIZE_CLASSES
from planner.engine.summary import ReplaySummary, Stats, TimelineSeries
from planner.engine.waits import REASON_CODES
from planner.ui.i18n import t


def allocation_frame(tl: TimelineSeries) -> pd.DataFrame:
    """Mean allocated GPUs per timeline bin and pool: hours (bin start), pool, gpus."""
    hours = _bin_hours(tl, len(tl.allocated_gpus))
    rows = [
        {"hours": hour, "pool": pool, "gpus": gpus}
        for hour, per_pool in zip(hours, tl.allocated_gpus, strict=True)
        for pool, gpus in zip(tl.pools, per_pool, strict=True)
    ]
    return pd.DataFrame(rows, columns=["hours", "pool", "gpus"])


def queue_frame(tl: TimelineSeries) -> pd.DataFrame:
    """Mean queued jobs and GPUs per timeline bin: hours (bin start), jobs, gpus."""
    hours = _bin_hours(tl, len(tl.queued_jobs))
    return pd.DataFrame({"hours": hours, "jobs": tl.queued_jobs, "gpus": tl.queued_gpus})


FRAGMENTATION_MEASURES = ("unusable", "fgd")
"""`unusable`: idle GPUs on nodes where no pod of any waiting job fits (0 when nobody
waits). `fgd`: the FGD measure of idle GPUs against the trace's mix of requests."""


def fragmentation_frame(tl: TimelineSeries) -> pd.DataFrame:
    """Both fragmentation measures per bin (sampled at its start): hours, measure, label,
    gpus."""
    series = {"unusable": tl.unusable_idle_gpus, "fgd": tl.fgd_fragmented_gpus}
    rows = [
        {"hours": hour, "measure": measure, "label": t(f"replay.frag_{measure}"), "gpus": gpus}
        for measure in FRAGMENTATION_MEASURES
        for hour, gpus in zip(_bin_hours(tl, len(series[measure])), series[measure], strict=True)
    ]
    return pd.DataFrame(rows, columns=["hours", "measure", "label", "gpus"])


def _bin_hours(timeline: TimelineSeries, bins: int) -> list[float]:
    return [i * float(timeline.bin_s) / 3600.0 for i in range(bins)]


def _wait_rows(groups: Mapping[str, Stats], key: str, order: list[str]) -> pd.DataFrame:
    rows = [
        {key: name, "jobs": groups[name].jobs, "statistic": stat, "minutes": value / 60}
        for name in order
        if name in groups
        for stat, value in (("p50", groups[name].p50), ("p95", groups[name].p95))
        if value is not None
    ]
    return pd.DataFrame(rows, columns=[key, "jobs", "statistic", "minutes"])


def wait_by_size_frame(summary: ReplaySummary) -> pd.DataFrame:
    """Wait percentiles by GPU-size class, in size order: size, jobs, statistic, minutes."""
    order = [label for label, _, _ in GPU_SIZE_CLASSES]
    return _wait_rows(summary.wait_s_by_gpu_size, "size", order)


def wait_by_team_frame(summary: ReplaySummary) -> pd.DataFrame:
    """Wait percentiles by team (the trace's queue, or the ClusterQueue with queues), teams
    by name: team, jobs, statistic (p50, p95), minutes. Jobs that never started are out."""
    groups = summary.wait_s_by_queue
    return _wait_rows(groups, "team", sorted(groups))


def _reason_texts(code: str) -> dict[str, str]:
    return {"label": t(f"replay.reason.{code}"), "meaning": t(f"replay.meaning.{code}")}


def waiting_by_reason_frame(summary: ReplaySummary) -> pd.DataFrame:
    """GPU-hours of waiting per reason that occurred, largest first: reason, label,
    gpu_hours, meaning (the reason's one-line explanation)."""
    rows = [
        {"reason": reason, "gpu_hours": hours, **_reason_texts(reason)}
        for reason, hours in summary.waiting_gpu_hours_by_reason.items()
        if hours
    ]
    frame = pd.DataFrame(rows, columns=["reason", "label", "gpu_hours", "meaning"])
    return frame.sort_values("gpu_hours", ascending=False, ignore_index=True)


def waiting_by_reason_team_frame(summary: ReplaySummary) -> pd.DataFrame:
    """GPU-hours of waiting per team and reason, teams with the most waiting first and
    reasons in their fixed order: team, reason, label, gpu_hours, meaning."""
    per_team = summary.waiting_gpu_hours_by_queue
    teams = sorted(per_team, key=lambda team: (-sum(per_team[team].values()), team))
    rows = [
        {"team": team, "reason": code, "gpu_hours": per_team[team][code], **_reason_texts(code)}
        for team in teams
        for code in REASON_CODES
        if per_team[team].get(code)
    ]
    return pd.DataFrame(rows, columns=["team", "reason", "label", "gpu_hours", "meaning"])


def has_queues(summary: ReplaySummary) -> bool:
    """Whether the run had ClusterQueues (Kueue or Volcano queues)."""
    return summary.queues is not None


def preemptions_frame(s: ReplaySummary) -> pd.DataFrame:
    """Evictions per queue: every ClusterQueue (0 if none) and any other queue with one:
    queue, preemptions. Empty when nothing was evicted and there are no ClusterQueues."""
    counts: dict[str, int] = dict.fromkeys(s.queues.borrowed_gpu_hours if s.queues else {}, 0)
    counts |= s.preemptions_by_queue
    rows = [{"queue": queue, "preemptions": counts[queue]} for queue in sorted(counts)]
    return pd.DataFrame(rows, columns=["queue", "preemptions"])


def borrowing_frame(summary: ReplaySummary) -> pd.DataFrame:
    """GPU-hours each ClusterQueue borrowed above its nominal quota and lent of its unused
    quota: queue, kind (borrowed, lent), label, gpu_hours. Empty without ClusterQueues."""
    queues = summary.queues
    borrowed = queues.borrowed_gpu_hours if queues else {}
    lent = queues.lent_gpu_hours if queues else {}
    rows = [
        {"queue": queue, "kind": kind, "label": t(f"replay.{kind}"), "gpu_hours": hours}
        for queue in sorted(borrowed)
        for kind, hours in (("borrowed", borrowed[queue]), ("lent", lent.get(queue, 0.0)))
    ]
    return pd.DataFrame(rows, columns=["queue", "kind", "label", "gpu_hours"])
