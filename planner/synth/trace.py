"""A synthetic GPU job trace shaped like a published cluster, written as a generic CSV.

Each profile copies the headline statistics of a real trace (GPUs per job, run and queue
times, final-state shares) and adds a working-hours and working-week arrival pattern, so the
planner can be demonstrated and benchmarked without anyone's private job history. The
profiles and their sources are in `planner.synth.profiles`; profiles with per-team shares or
campaigns draw arrivals team by team (`planner.synth.teams`). Rows are streamed: memory
stays flat however many jobs are asked for. Output depends only on the arguments (seeded
generators, no clock); this module must not import pandas, numpy or anything that does I/O
beyond the one CSV file.
"""

import bisect
import csv
import itertools
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Generic, NamedTuple, TypeVar

from planner.core import atomic_file
from planner.core.errors import ScenarioError
from planner.synth.profiles import PROFILES, Profile
from planner.synth.teams import TeamArrivals

GPUS_PER_POD = 8
# 2026-01-05 is a Monday: traces start at local midnight so hour and weekday are plain
# arithmetic on seconds since start.
TRACE_START_LOCAL = datetime(2026, 1, 5)
_DAY_S = 86_400
# Arrival shape: rate = base × (1 + A·cos(2π(hour − peak)/24)) × (weekend factor on Sat/Sun).
# A = 0.6 gives a 4:1 afternoon-to-small-hours ratio; weekends run at half the weekday rate.
_DIURNAL_AMPLITUDE = 0.6
_DIURNAL_PEAK_HOUR = 14.0
_WEEKEND_FACTOR = 0.5
_PRIORITIES = ((0, 0.85), (1, 0.10), (2, 0.05))


class SynthRow(NamedTuple):
    """One CSV row; field order is `COLUMNS`. `gpus`, `cpu` and `mem_gib` are job totals."""

    job_id: str
    submit_time: str
    start_time: str
    end_time: str
    duration_s: int
    pods: int
    gpus: int
    gpu_type: str
    cpu: int
    mem_gib: int
    queue: str
    user: str
    priority: int
    status: str


COLUMNS: tuple[str, ...] = SynthRow._fields


@dataclass(frozen=True, slots=True)
class SynthSummary:
    """What `write_trace` wrote; submit times carry the profile's UTC offset."""

    path: Path
    profile: str
    jobs: int
    gpu_hours: float
    first_submit: datetime
    last_submit: datetime


_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class _Choice(Generic[_T]):
    """A discrete distribution sampled by bisecting cumulative weights (faster than choices)."""

    values: tuple[_T, ...]
    cumulative: tuple[float, ...]

    @classmethod
    def of(cls, pairs: tuple[tuple[_T, float], ...]) -> "_Choice[_T]":
        cumulative = tuple(itertools.accumulate(weight for _, weight in pairs))
        return cls(tuple(v for v, _ in pairs), tuple(c / cumulative[-1] for c in cumulative))

    def probabilities(self) -> Iterator[tuple[_T, float]]:
        pairs = itertools.pairwise((0.0, *self.cumulative))
        return ((value, high - low) for value, (low, high) in zip(self.values, pairs, strict=True))

    def sample(self, rng: random.Random) -> _T:
        # min() guards the last bucket against cumulative rounding just below 1.0
        index = bisect.bisect_right(self.cumulative, rng.random())
        return self.values[min(index, len(self.values) - 1)]


def _normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _capped_lognormal_mean(mu: float, sigma: float, cap: float) -> float:
    """E[min(X, cap)] for X ~ lognormal(mu, sigma)."""
    z = (math.log(cap) - mu) / sigma
    return math.exp(mu + sigma * sigma / 2) * _normal_cdf(z - sigma) + cap * (1.0 - _normal_cdf(z))


def _lognormal_sigma(median: float, mean: float, cap: float) -> float:
    """Sigma of a lognormal with this median whose mean, once capped at `cap`, is `mean`.

    Starts from the uncapped answer sqrt(2 ln(mean/median)); capping removes up to a sixth
    of the mean for the heaviest profiles, so sigma is widened by bisection to win it back.
    """
    mu = math.log(median)
    low = math.sqrt(2.0 * math.log(mean / median))
    high = low
    while _capped_lognormal_mean(mu, high, cap) < mean:
        high *= 1.25
        if high > 50.0:
            raise ValueError(f"mean {mean} is out of reach below cap {cap}")
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (
            (middle, high) if _capped_lognormal_mean(mu, middle, cap) < mean else (low, middle)
        )
    return (low + high) / 2


def _run_lognormal(profile: Profile, gpus: _Choice[int]) -> tuple[float, float]:
    """(mu, sigma) of the run-time lognormal of a 1-GPU job; a g-GPU job adds e·ln g to mu.

    With a size exponent e the run times are a mixture over GPU counts: sigma is found by
    bisection so the mixture's capped mean is `run_mean_s`, and for each sigma mu by
    bisection so the mixture's median is `run_median_s`.
    """
    median, cap = profile.run_median_s, profile.run_max_s
    if profile.run_gpu_exponent == 0.0:
        return math.log(median), _lognormal_sigma(median, profile.run_mean_s, cap)
    shifts = [(profile.run_gpu_exponent * math.log(g), p) for g, p in gpus.probabilities()]

    def mu_for(sigma: float) -> float:
        def below_median(mu: float) -> float:
            z = [(math.log(median) - mu - shift) / sigma for shift, _ in shifts]
            return sum(p * _normal_cdf(x) for x, (_, p) in zip(z, shifts, strict=True))

        return _bisect(lambda mu: 0.5 - below_median(mu), math.log(median) - 20, math.log(median))

    def mean_for(sigma: float) -> float:
        mu = mu_for(sigma)
        return sum(p * _capped_lognormal_mean(mu + shift, sigma, cap) for shift, p in shifts)

    sigma = _bisect(lambda s: mean_for(s) - profile.run_mean_s, 0.05, 10.0)
    return mu_for(sigma), sigma


def _bisect(increasing: Callable[[float], float], low: float, high: float) -> float:
    """The root of an increasing function between `low` and `high`."""
    for _ in range(80):
        middle = (low + high) / 2
        low, high = (middle, high) if increasing(middle) < 0 else (low, middle)
    return (low + high) / 2


def _gpu_choice(profile: Profile) -> _Choice[int]:
    """Powers of two up to `gpu_max`: `single_gpu_share` on 1, a geometric tail on the rest.

    Tail weight of 2^k is r^k; r is found by bisection on log r so the overall mean is
    `gpu_mean` (the tail mean rises monotonically with r).
    """
    sizes = [1 << k for k in range(1, int(math.log2(profile.gpu_max)) + 1)]
    single = profile.single_gpu_share
    target = (profile.gpu_mean - single) / (1.0 - single)

    def tail_mean(log_r: float) -> float:
        weights = [math.exp(log_r * k) for k in range(1, len(sizes) + 1)]
        return sum(s * w for s, w in zip(sizes, weights, strict=True)) / sum(weights)

    low, high = -20.0, 20.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if tail_mean(middle) < target else (low, middle)
    weights = [math.exp(low * k) for k in range(1, len(sizes) + 1)]
    tail = [(1.0 - single) * w / sum(weights) for w in weights]
    pairs = ((1, single), *zip(sizes, tail, strict=True))
    return _Choice.of(pairs)


@dataclass(frozen=True, slots=True)
class _Model:
    """A profile turned into ready-to-sample distributions; built once per trace."""

    profile: Profile
    gpus: _Choice[int]
    run_mu: float
    run_sigma: float
    queue_mu: float
    queue_sigma: float
    status: _Choice[str]
    gpu_type: _Choice[str]
    team: _Choice[int]
    user_in_team: _Choice[int]
    priority: _Choice[int]
    base_per_s: float
    peak_rate_per_s: float
    origin: datetime  # trace start, local midnight with the profile's offset


def _zipf(count: int) -> tuple[tuple[int, float], ...]:
    return tuple((index, 1.0 / (index + 1)) for index in range(count))


def _model(profile: Profile) -> _Model:
    nonzero_queue_mean = profile.queue_mean_s / (1.0 - profile.queue_zero_share)
    # Base rate is set so the week-long average equals jobs_per_day: the diurnal factor
    # averages 1 over a day and the weekly factor averages (5 + 2 × weekend) / 7.
    week_average = (5.0 + 2.0 * _WEEKEND_FACTOR) / 7.0
    base_per_s = profile.jobs_per_day / _DAY_S / week_average
    gpus = _gpu_choice(profile)
    run_mu, run_sigma = _run_lognormal(profile, gpus)
    return _Model(
        profile=profile,
        gpus=gpus,
        run_mu=run_mu,
        run_sigma=run_sigma,
        queue_mu=math.log(profile.queue_nonzero_median_s),
        queue_sigma=_lognormal_sigma(
            profile.queue_nonzero_median_s, nonzero_queue_mean, profile.queue_max_s
        ),
        status=_Choice.of(tuple(profile.status_shares)),
        gpu_type=_Choice.of(tuple(profile.gpu_types)),
        team=_Choice.of(_zipf(profile.teams)),
        user_in_team=_Choice.of(_zipf(profile.users_per_team)),
        priority=_Choice.of(_PRIORITIES),
        base_per_s=base_per_s,
        peak_rate_per_s=base_per_s * (1.0 + _DIURNAL_AMPLITUDE),
        origin=TRACE_START_LOCAL.replace(tzinfo=timezone(timedelta(hours=profile.utc_offset_h))),
    )


def _load_factor(t_s: float) -> float:
    """Arrival rate at `t_s` relative to the base rate (local time, trace starts Monday)."""
    hour = (t_s / 3600.0) % 24.0
    daily = 1.0 + _DIURNAL_AMPLITUDE * math.cos(2.0 * math.pi * (hour - _DIURNAL_PEAK_HOUR) / 24)
    weekday = int(t_s // _DAY_S) % 7
    return daily * (_WEEKEND_FACTOR if weekday >= 5 else 1.0)


def _next_arrival(t_s: float, model: _Model, rng: random.Random) -> float:
    """Next arrival of the non-homogeneous Poisson process, by thinning (Lewis–Shedler)."""
    peak_factor = 1.0 + _DIURNAL_AMPLITUDE
    while True:
        t_s += rng.expovariate(model.peak_rate_per_s)
        if rng.random() * peak_factor <= _load_factor(t_s):
            return t_s


def _job(
    model: _Model, job_id: str, submit_s: int, rng: random.Random, team: int | None
) -> SynthRow:
    """One job; `team` None draws it from the profile's Zipf team mix."""
    profile = model.profile
    gpus = model.gpus.sample(rng)
    mu = model.run_mu + profile.run_gpu_exponent * math.log(gpus)
    run = rng.lognormvariate(mu, model.run_sigma)
    duration_s = max(1, min(round(run), int(profile.run_max_s)))
    queue_s = 0
    if rng.random() >= profile.queue_zero_share:
        delay = rng.lognormvariate(model.queue_mu, model.queue_sigma)
        queue_s = min(round(delay), int(profile.queue_max_s))
    start_s = submit_s + queue_s
    if team is None:
        team = model.team.sample(rng)
    origin = model.origin
    user = team * profile.users_per_team + model.user_in_team.sample(rng)
    return SynthRow(
        job_id=job_id,
        submit_time=(origin + timedelta(seconds=submit_s)).isoformat(),
        start_time=(origin + timedelta(seconds=start_s)).isoformat(),
        end_time=(origin + timedelta(seconds=start_s + duration_s)).isoformat(),
        duration_s=duration_s,
        pods=gpus // GPUS_PER_POD if gpus > GPUS_PER_POD else 1,
        gpus=gpus,
        gpu_type=model.gpu_type.sample(rng),
        cpu=gpus * rng.randint(*profile.cpu_per_gpu),
        mem_gib=gpus * rng.randint(*profile.mem_gib_per_gpu),
        queue=f"team-{chr(ord('a') + team)}",
        user=f"u{user:04d}",
        priority=model.priority.sample(rng),
        status=model.status.sample(rng),
    )


def _rows(model: _Model, jobs: int, seed: int) -> Iterator[SynthRow]:
    rng = random.Random(seed)
    width = len(str(jobs))
    teams = _team_arrivals(model.profile, seed)
    t_s = 0.0
    team: int | None = None
    for number in range(1, jobs + 1):
        if teams is None:
            t_s = _next_arrival(t_s, model, rng)
        else:
            t_s, team = teams.next(t_s, model.base_per_s, rng)
        yield _job(model, f"j{number:0{width}d}", int(t_s), rng, team)


def _team_arrivals(profile: Profile, seed: int) -> TeamArrivals | None:
    """Per-team arrivals for profiles with team weights or campaigns, else None."""
    if not profile.team_weights and profile.campaigns is None:
        return None
    weights = profile.team_weights or tuple(w for _, w in _zipf(profile.teams))
    peak = 1.0 + _DIURNAL_AMPLITUDE
    return TeamArrivals(weights, profile.campaigns, _load_factor, peak, seed)


def generate(profile: str, jobs: int, seed: int) -> Iterator[SynthRow]:
    """Yield `jobs` rows of `profile` in submit order, lazily; same arguments, same rows.

    Raises:
        ScenarioError: unknown profile or fewer than one job (checked on call, not on the
            first `next`).
    """
    if profile not in PROFILES:
        known = ", ".join(sorted(PROFILES))
        raise ScenarioError(f"Unknown trace profile {profile!r}; choose one of: {known}.")
    if jobs < 1:
        raise ScenarioError(f"A synthetic trace needs at least 1 job, not {jobs}.")
    return _rows(_model(PROFILES[profile]), jobs, seed)


def write_trace(path: Path, *, profile: str, jobs: int, seed: int) -> SynthSummary:
    """Stream a synthetic trace to `path` as CSV (header `COLUMNS`), one row at a time.

    The bytes depend only on the arguments: `\\n` line endings, UTF-8, no timestamps.
    """
    rows = generate(profile, jobs, seed)
    gpu_seconds = 0
    first = last = ""
    with atomic_file.opened(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in rows:
            writer.writerow(row)
            gpu_seconds += row.gpus * row.duration_s
            first = first or row.submit_time
            last = row.submit_time
    return SynthSummary(
        path=path,
        profile=profile,
        jobs=jobs,
        gpu_hours=gpu_seconds / 3600.0,
        first_submit=datetime.fromisoformat(first),
        last_submit=datetime.fromisoformat(last),
    )
