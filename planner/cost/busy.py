"""How busy the allocated GPUs were, and what a busy GPU-hour costs (`docs/tco.md`).

A job's busy share (`gpu_util`, its GPUs' mean busy fraction, from a file or DCGM) is known
for some jobs only. The busy share of a set of jobs is measured over the jobs that have one:
busy GPU-hours (each such job's GPU-hours x its share) over their GPU-hours. Jobs without a
share are neither idle nor busy: they are left out of both sums, and the coverage says how
many there were. An option's cost per busy GPU-hour is its total over the useful GPU-hours
that were busy: `total / (useful GPU-hours x busy share)`, which is its cost per useful
GPU-hour divided by the busy share (useful GPU-hours as that figure counts them: the demand
served, and any left unserved and bought elsewhere).
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from planner.core.model import Job
from planner.core.notes import note
from planner.cost.tco import OptionReport


@dataclass(frozen=True, slots=True)
class BusyHours:
    """GPU-hours allocated to some jobs, those of them with a busy share, and the busy part."""

    allocated_gpu_hours: float = 0.0
    known_gpu_hours: float = 0.0
    """GPU-hours of the jobs with a busy share."""
    busy_gpu_hours: float = 0.0
    """Sum over the jobs with a busy share of their GPU-hours x that share."""

    @property
    def share(self) -> float | None:
        """Busy GPU-hours over the GPU-hours with a busy share (None: no share known)."""
        return self.busy_gpu_hours / self.known_gpu_hours if self.known_gpu_hours > 0 else None

    def plus(self, gpu_hours: float, util: float | None) -> "BusyHours":
        if util is None:
            return BusyHours(self.allocated_gpu_hours + gpu_hours, *self._known())
        return BusyHours(
            self.allocated_gpu_hours + gpu_hours,
            self.known_gpu_hours + gpu_hours,
            self.busy_gpu_hours + gpu_hours * util,
        )

    def _known(self) -> tuple[float, float]:
        return self.known_gpu_hours, self.busy_gpu_hours


@dataclass(frozen=True, slots=True)
class TeamBusy:
    """One team's (trace queue's) GPU-hours allocated and busy."""

    team: str
    hours: BusyHours


@dataclass(frozen=True, slots=True)
class BusyCost:
    """One option over one horizon: its cost per useful and per busy GPU-hour."""

    years: float
    option: str
    cost_per_useful_gpu_hour: float
    cost_per_busy_gpu_hour: float


@dataclass(frozen=True, slots=True)
class BusyShare:
    """The priced jobs' busy share, its coverage, by team, and each option's cost per busy
    GPU-hour (`planner tco --json` key `busy`; absent when no job has a share)."""

    share: float
    jobs: int
    """GPU jobs priced."""
    jobs_known: int
    """Of them, those with a busy share."""
    hours: BusyHours
    teams: tuple[TeamBusy, ...]
    costs: tuple[BusyCost, ...] = ()

    @property
    def known_hours_share(self) -> float:
        """The share of the allocated GPU-hours whose busy share is known."""
        total = self.hours.allocated_gpu_hours
        return self.hours.known_gpu_hours / total if total > 0 else 0.0

    def cost(self, years: float, option: str) -> BusyCost | None:
        return next((c for c in self.costs if c.years == years and c.option == option), None)


UNKNOWN_NOTE = note("busy_share_unknown")
"""What a report says when no priced job has a busy share."""


def busy_share(jobs: Sequence[Job], utils: Mapping[str, float]) -> BusyShare | None:
    """The busy share of `jobs` (GPU jobs only) from each job's share in `utils` (by job id;
    a job missing from it has none); None when none of them has one."""
    gpu_jobs = [j for j in jobs if j.total_gpus > 0]
    total = BusyHours()
    teams: dict[str, BusyHours] = {}
    for job in gpu_jobs:
        util = utils.get(job.job_id)
        total = total.plus(job.gpu_hours, util)
        teams[job.queue] = teams.get(job.queue, BusyHours()).plus(job.gpu_hours, util)
    if total.share is None:
        return None
    known = sum(1 for j in gpu_jobs if j.job_id in utils)
    by_team = tuple(TeamBusy(team, hours) for team, hours in sorted(teams.items()))
    return BusyShare(total.share, len(gpu_jobs), known, total, by_team)


def with_costs(busy: BusyShare, priced: Iterable[tuple[float, OptionReport]]) -> BusyShare:
    """`busy` with the cost per busy GPU-hour of each option priced over each horizon (years,
    option): its cost per useful GPU-hour / the busy share, the same as its total / (useful
    GPU-hours x busy share)."""
    costs = tuple(
        BusyCost(years, o.name, per_useful, per_useful / busy.share)
        for years, o in priced
        if (per_useful := o.cost_per_useful_gpu_hour) is not None and busy.share > 0
    )
    return BusyShare(busy.share, busy.jobs, busy.jobs_known, busy.hours, busy.teams, costs)
