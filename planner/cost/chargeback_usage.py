"""What the chargeback measures: each team's GPU-hours on each option, each team's quota, and
the per-job lines, from the replays and cloud bills the TCO already made.

A team is a trace's queue value (`Job.queue`). GPU-hours are the jobs' GPUs x run time:

* self-hosted: jobs that ran on the owned GPUs (completed, or withdrawn after they started);
* hybrid: the same in the hybrid's replay, plus the jobs that burst to the cloud;
* a cloud option: every job it billed.

A team's quota is the nominal GPUs of the ClusterQueue its queue value goes to (Volcano queues
become ClusterQueues sized by their deserved share first); teams that share a ClusterQueue
share its quota equally, and a ClusterQueue no team of the trace reaches keeps its quota under
its own name (under the `quota` rule it pays its share of the idle GPUs).
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from planner.core.model import Job
from planner.cost.chargeback import ChargebackData, JobTable
from planner.engine.metrics import waited_s
from planner.engine.quota import QueueSetup
from planner.engine.result import ReplayResult

RAN = ("completed", "withdrawn-after-start")
"""Replay statuses whose jobs used the owned GPUs."""
MILLI = 1000.0


def team_hours(jobs: Iterable[Job], scale: float = 1.0) -> dict[str, float]:
    """GPU-hours by team of `jobs`, times `scale` (a trace's span to a month)."""
    out: dict[str, float] = defaultdict(float)
    for job in jobs:
        out[job.queue] += job.gpu_hours * scale
    return dict(out)


def served(result: ReplayResult, statuses: Sequence[str] = RAN) -> list[Job]:
    """The replay's jobs whose status is one of `statuses`."""
    return [job for job, s in zip(result.jobs, result.status, strict=True) if s in statuses]


def quotas(setup: QueueSetup | None, teams: Iterable[str]) -> dict[str, float]:
    """Each team's quota in GPUs (empty without ClusterQueues)."""
    if setup is None:
        return {}
    members: dict[int, list[str]] = defaultdict(list)
    for team in sorted(set(teams)):
        queue = setup.cluster_queue(team)
        if queue is not None:
            members[queue].append(team)
    out: dict[str, float] = {}
    for index, node in enumerate(setup.nodes):
        if not node.queue:
            continue
        gpus = sum(q.nominal for q in node.quotas.values()) / MILLI
        names = members.get(index) or [node.name]
        for name in names:
            out[name] = out.get(name, 0.0) + gpus / len(names)
    return out


def job_table(
    owned: ReplayResult,
    owned_shares: Sequence[float],
    hybrid: ReplayResult | None = None,
    hybrid_shares: Sequence[float] = (),
) -> JobTable:
    """The self-hosted replay's jobs, with their status in the hybrid's replay beside, and
    the GPU-hours each option's chargeback credits them: the hours of jobs that ran (and,
    in the hybrid, burst) times their `*_shares` within the trace's window."""
    jobs = owned.jobs
    outcomes = [_outcome(owned, i) for i in range(len(jobs))]
    credits = credited(owned, owned_shares, RAN)
    other: dict[str, tuple[str, float | None, float | None]] = {}
    if hybrid is not None:
        burst = credited(hybrid, hybrid_shares, (*RAN, "burst"))
        other = {job.job_id: (*_outcome(hybrid, i), burst[i]) for i, job in enumerate(hybrid.jobs)}
    in_hybrid = [other.get(j.job_id, ("", None, None)) for j in jobs] if hybrid else []
    return JobTable(
        job_id=tuple(j.job_id for j in jobs),
        team=tuple(j.queue for j in jobs),
        user=tuple(j.user for j in jobs),
        gpus=tuple(j.total_gpus for j in jobs),
        gpu_hours=tuple(j.gpu_hours for j in jobs),
        status=tuple(s for s, _ in outcomes),
        wait_s=tuple(w for _, w in outcomes),
        gpu_hours_in_window=tuple(credits),
        hybrid_status=tuple(s for s, _, _ in in_hybrid),
        hybrid_wait_s=tuple(w for _, w, _ in in_hybrid),
        hybrid_gpu_hours_in_window=tuple(c for _, _, c in in_hybrid),
    )


def credited(result: ReplayResult, shares: Sequence[float], statuses: Sequence[str]) -> list[float]:
    """Each job's GPU-hours credited within the window (0 for a job that did not run)."""
    return [
        job.gpu_hours * share if status in statuses else 0.0
        for job, status, share in zip(result.jobs, result.status, shares, strict=True)
    ]


def _outcome(result: ReplayResult, i: int) -> tuple[str, float | None]:
    started = result.start_s[i] is not None
    return result.status[i], waited_s(result, i) if started else None


def chargeback_data(
    usage: Mapping[str, Mapping[str, float]],
    setup: QueueSetup | None,
    source: str,
    jobs: JobTable | None = None,
) -> ChargebackData:
    """The report's chargeback data: `usage` by option and team, quotas from `setup`."""
    teams = {team for by_team in usage.values() for team in by_team}
    found = quotas(setup, teams)
    return ChargebackData(usage, found, source if found else "", jobs or JobTable())
