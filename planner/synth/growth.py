"""One year of grown demand from a trace's jobs: the arrival rate scaled, a synthetic team added.

The trace is a sample of one period of the workload (its span: first submit to last end).
A later year is the same span with more (or fewer) arrivals, so the planner's per-month
scaling of the span is unchanged and only the jobs differ:

* **Arrival rate x f** keeps the job mix by resampling the trace's own jobs. Each job is
  kept floor(f) times, and p = f - floor(f) of the jobs once more (for f < 1 that is
  thinning: p of the jobs kept). The extra ones are a systematic sample with a seeded random
  start over the jobs ranked by GPU-hours (ties in a seeded order): every job is drawn with
  probability p exactly, and because the ranking stratifies by size the extra GPU-hours are
  p x the trace's within two of the largest job's (Abel summation: the running count of
  draws never strays a whole job from p x the rank). Independent draws per job would miss
  by sqrt(p (1 - p) sum g_i^2), far more on a trace whose GPU-hours sit in a few big gangs.
  The first copy keeps the job's submit time; every extra copy is shifted by a whole number
  of weeks, drawn uniformly among the shifts that keep it inside the span, so the diurnal
  and weekly arrival shape holds (a trace shorter than a week gets copies at the same
  instant). The job that opens the span and the one that closes it are always kept, so the
  span, and with it the months a replay stands for, never changes (for f < 1 they may add
  their GPU-hours to the bound). Inter-arrival times shrink by f on average: f x the jobs
  in the same span.
* **Time-warp x w** compresses the trace's clock: every submit time moves toward the span's
  start to start + (submit - start) / w, run times unchanged, so the same jobs arrive w times
  as fast in a shorter span (a month holds about w x the work; exactly w x when run times
  are short next to the span). Deterministic; applied after the resampling.
* **A team** adds jobs of a synthetic profile (`planner.synth.profiles`) until they reach
  `share` of the year's GPU-hours, spread over the span in their own arrival order.

Pure and seeded: the same jobs, factor, year and seed give the same jobs (the generator is
`random.Random` seeded with a string of the seed and the year, so years draw independently).
Must not read files or a clock.
"""

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.synth.trace import SynthRow, generate

WEEK_S = 7 * 86_400.0
_TEAM_BATCH = 256
"""Synthetic jobs drawn at a time until the team's share is reached."""


@dataclass(frozen=True, slots=True)
class TeamPlan:
    """A synthetic team that joins: jobs of `profile` in queue `name`, `share` of the year's
    GPU-hours on top of the grown trace (0.25: a quarter as many GPU-hours again)."""

    name: str
    profile: str
    share: float
    gpu: str = ""
    """The GPU type its jobs ask for ("": any type)."""


@dataclass(frozen=True, slots=True)
class YearJobs:
    """One year's jobs and what made them."""

    year: int
    arrival_rate: float
    jobs: list[Job]
    team_jobs: int = 0
    time_warp: float = 1.0


@dataclass(frozen=True, slots=True)
class YearPlan:
    """What makes year `year` (1 = the trace's) of the demand."""

    year: int
    arrival_rate: float = 1.0
    time_warp: float = 1.0
    seed: int = 0
    team: TeamPlan | None = None


def grow_year(jobs: Sequence[Job], plan: YearPlan) -> YearJobs:
    """The year's jobs: resampled, time-warped, then the team's added inside the span."""
    grown = scale_arrivals(jobs, plan.arrival_rate, seed=plan.seed, year=plan.year)
    grown = time_warp(grown, plan.time_warp)
    team = plan.team
    added = [] if team is None else team_jobs(grown, team, seed=plan.seed, year=plan.year)
    return YearJobs(plan.year, plan.arrival_rate, grown + added, len(added), plan.time_warp)


def time_warp(jobs: Sequence[Job], factor: float) -> list[Job]:
    """`jobs` arriving `factor` times as fast (see the module's docstring)."""
    if factor <= 0 or not math.isfinite(factor):
        raise ValueError(f"a time-warp factor must be finite and > 0, not {factor}")
    if factor == 1.0 or not jobs:
        return list(jobs)
    start = min(j.submit_s for j in jobs)
    return [_moved(j, start + (j.submit_s - start) / factor - j.submit_s) for j in jobs]


def scale_arrivals(jobs: Sequence[Job], factor: float, *, seed: int, year: int) -> list[Job]:
    """`jobs` with the arrival rate times `factor` (see the module's docstring)."""
    if factor < 0 or not math.isfinite(factor):
        raise ValueError(f"an arrival-rate factor must be finite and >= 0, not {factor}")
    if factor == 1.0 or not jobs:
        return list(jobs)
    start = min(j.submit_s for j in jobs)
    end = max(j.submit_s + j.duration_s for j in jobs)
    anchors = {_first(jobs, start), _last(jobs, end)}
    rng = random.Random(f"growth:{seed}:{year}")
    whole = int(factor)
    extra = _systematic(jobs, factor - whole, rng)
    out: list[Job] = []
    for index, job in enumerate(jobs):
        copies = whole + (1 if index in extra else 0)
        if index in anchors:
            copies = max(copies, 1)
        out.extend(
            job if copy == 0 else _copy(job, copy, year, _shift(job, start, end, rng))
            for copy in range(copies)
        )
    out.sort(key=lambda j: j.submit_s)
    return out


def team_jobs(jobs: Sequence[Job], team: TeamPlan, *, seed: int, year: int) -> list[Job]:
    """Jobs of `team.profile` worth `team.share` of `jobs`' GPU-hours, inside their span
    (a synthetic job longer than the span is left out: it would stretch the months)."""
    if not jobs or team.share <= 0:
        return []
    start = min(j.submit_s for j in jobs)
    end = max(j.submit_s + j.duration_s for j in jobs)
    target = team.share * sum(j.gpu_hours for j in jobs)
    drawn: list[Job] = []
    total, batch = 0.0, 0
    while total < target:
        # one seed per (seed, year, batch): batches of one year never repeat another's
        batch_seed = random.Random(f"team:{seed}:{year}:{batch}").getrandbits(62)
        fits = [
            r
            for r in generate(team.profile, _TEAM_BATCH, batch_seed)
            if r.duration_s <= end - start
        ]
        if not fits:
            raise ScenarioError(
                f"team {team.name}: no {team.profile} job is short enough for the trace's "
                f"span of {end - start:,.0f} s; use a longer trace or another profile"
            )
        for row in fits:
            if total >= target:
                break
            drawn.append(_team_job(row, team, f"{team.name}~y{year}b{batch}-{row.job_id}"))
            total += drawn[-1].gpu_hours
        batch += 1
    return _spread(drawn, start, end)


def _team_job(row: SynthRow, team: TeamPlan, job_id: str) -> Job:
    """A synthetic row as one of the team's jobs (its time is set by `_spread`)."""
    pods = row.pods
    return Job(
        job_id=job_id,
        submit_s=0.0,
        duration_s=float(row.duration_s),
        pods=pods,
        gpus=row.gpus / pods,
        cpu=row.cpu / pods,
        mem_gib=row.mem_gib / pods,
        gpu_types=(team.gpu,) if team.gpu else (),
        queue=team.name,
        user=f"{team.name}-{row.user}",
    )


def _spread(drawn: list[Job], start: float, end: float) -> list[Job]:
    """The drawn jobs' arrivals laid evenly over [start, end) in their draw order, each
    ending by `end` (the profile's own arrival times would fill another span)."""
    count = len(drawn)
    return [
        replace(job, submit_s=min(start + (end - start) * k / count, end - job.duration_s))
        for k, job in enumerate(drawn)
    ]


def _systematic(jobs: Sequence[Job], share: float, rng: random.Random) -> set[int]:
    """Indices of `share` of the jobs: a systematic sample over the jobs ranked by GPU-hours."""
    if share <= 0:
        return set()
    tie = [rng.random() for _ in jobs]
    ranked = sorted(range(len(jobs)), key=lambda i: (jobs[i].gpu_hours, tie[i]))
    start = rng.random()
    return {
        index
        for rank, index in enumerate(ranked)
        if math.floor(start + (rank + 1) * share) > math.floor(start + rank * share)
    }


def _shift(job: Job, start: float, end: float, rng: random.Random) -> float:
    """A whole number of weeks that keeps the job inside [start, end]."""
    earliest = -math.floor((job.submit_s - start) / WEEK_S)
    latest = math.floor((end - job.duration_s - job.submit_s) / WEEK_S)
    return rng.randint(earliest, max(earliest, latest)) * WEEK_S


def _copy(job: Job, copy: int, year: int, shift_s: float) -> Job:
    # a copy is a new arrival, not one censored by the window
    moved = replace(_moved(job, shift_s), running_at_start=False)
    return replace(moved, job_id=f"{job.job_id}~y{year}c{copy}")


def _moved(job: Job, shift_s: float) -> Job:
    """`job` submitted `shift_s` later, its observed start and end with it."""
    return replace(
        job,
        submit_s=job.submit_s + shift_s,
        start_s=None if job.start_s is None else job.start_s + shift_s,
        end_s=None if job.end_s is None else job.end_s + shift_s,
    )


def _first(jobs: Sequence[Job], start: float) -> int:
    return next(i for i, j in enumerate(jobs) if j.submit_s == start)


def _last(jobs: Sequence[Job], end: float) -> int:
    return next(i for i, j in enumerate(jobs) if j.submit_s + j.duration_s == end)
