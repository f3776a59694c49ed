"""Synthetic GPU job traces shaped like published clusters, written as a generic CSV.

Each profile copies the headline statistics of a real trace (GPUs per job, run and queue
times, final-state shares) and adds a working-hours and working-week arrival pattern, so the
planner can be demonstrated and benchmarked without anyone's private job history. Rows are
streamed: memory stays flat however many jobs are asked for. Output depends only on the
arguments (one `random.Random(seed)`, no clock); this module must not import pandas, numpy
or anything that does I/O beyond the one CSV file.
"""

import bisect
import csv
import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Generic, NamedTuple, TypeVar

from planner.errors import ScenarioError

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


@dataclass(frozen=True, slots=True)
class Profile:
    """Calibration of one synthetic cluster; times in seconds, shares in 0–1.

    `gpu_mean`, `gpu_max`, run and queue statistics and `status_shares` are copied from the
    trace authors' summaries; the remaining fields are our assumptions, flagged where set.
    """

    name: str
    utc_offset_h: int
    jobs_per_day: float
    gpu_mean: float
    gpu_max: int
    single_gpu_share: float  # ≥ 0.5 keeps the median at 1 GPU, as in every source row
    run_median_s: float
    run_mean_s: float
    run_max_s: float
    queue_zero_share: float  # jobs that start the second they are submitted
    queue_nonzero_median_s: float
    queue_mean_s: float  # over all jobs, zeros included
    queue_max_s: float
    status_shares: tuple[tuple[str, float], ...]  # completed, cancelled, failed
    gpu_types: tuple[tuple[str, float], ...]  # "" = any type will do
    teams: int
    users_per_team: int
    cpu_per_gpu: tuple[int, int]
    mem_gib_per_gpu: tuple[int, int]


_QUEUE_MAX_S = 14 * _DAY_S  # assumption: the sources give no queue-time maximum

PROFILES: dict[str, Profile] = {
    # Source: /work/shared/traces/helios-philly-acme-aggregates/acme_cluster_summary.csv,
    # row "Philly". 112,956 GPU jobs over the 74 days of philly_node_sequence.csv
    # (2017-10-03 .. 2017-12-15) ≈ 1,500 jobs/day; 11 teams = the 11 VCs of philly_vc_nodes.csv.
    "philly": Profile(
        name="philly", utc_offset_h=-8, jobs_per_day=1_500.0,
        gpu_mean=1.928, gpu_max=128, single_gpu_share=0.70,
        run_median_s=874.0, run_mean_s=18_006.055, run_max_s=4_240_676.0,
        queue_zero_share=0.0, queue_nonzero_median_s=189.0, queue_mean_s=3_760.604,
        queue_max_s=_QUEUE_MAX_S,
        status_shares=(("completed", 0.604), ("cancelled", 0.09), ("failed", 0.305)),
        gpu_types=(("V100", 0.95), ("", 0.05)),  # stand-in: Philly's own cards are not sold
        teams=11, users_per_team=6, cpu_per_gpu=(6, 12), mem_gib_per_gpu=(40, 100),
    ),
    # Source: same file, row "Helios" (= "total" of helios_cluster_summary.csv).
    # 1,580,464 GPU jobs over the 181 days of earth_vc_gpu_number.csv ≈ 8,700 jobs/day.
    # Median queue is 0: 60 % start at once (assumed) and the rest have a 60 s median.
    "helios": Profile(
        name="helios", utc_offset_h=8, jobs_per_day=8_700.0,
        gpu_mean=3.716, gpu_max=2048, single_gpu_share=0.60,
        run_median_s=206.0, run_mean_s=6_651.681, run_max_s=4_320_009.0,
        queue_zero_share=0.60, queue_nonzero_median_s=60.0, queue_mean_s=862.047,
        queue_max_s=_QUEUE_MAX_S,
        status_shares=(("completed", 0.624), ("cancelled", 0.221), ("failed", 0.155)),
        gpu_types=(("V100", 0.90), ("A100", 0.05), ("", 0.05)),
        teams=12, users_per_team=8, cpu_per_gpu=(6, 12), mem_gib_per_gpu=(40, 100),
    ),
    # Source: same file, row "Kalos" (Acme, LLM development, 2023). 19,907 GPU jobs over
    # roughly four months (May–Aug 2023, AcmeTrace README) ≈ 170 jobs/day. CPU and memory
    # per GPU follow the README's example rows (960 CPUs and 1,000 GB per 8-GPU pod).
    "llm": Profile(
        name="llm", utc_offset_h=8, jobs_per_day=170.0,
        gpu_mean=26.77, gpu_max=1024, single_gpu_share=0.55,
        run_median_s=124.0, run_mean_s=1_259.689, run_max_s=625_740.0,
        queue_zero_share=0.0, queue_nonzero_median_s=17.0, queue_mean_s=214.179,
        queue_max_s=_QUEUE_MAX_S,
        status_shares=(("completed", 0.541), ("cancelled", 0.062), ("failed", 0.397)),
        gpu_types=(("A100", 0.70), ("H800", 0.25), ("", 0.05)),  # mix is our choice
        teams=8, users_per_team=10, cpu_per_gpu=(12, 16), mem_gib_per_gpu=(100, 125),
    ),
}  # fmt: skip


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
    return _Model(
        profile=profile,
        gpus=_gpu_choice(profile),
        run_mu=math.log(profile.run_median_s),
        run_sigma=_lognormal_sigma(profile.run_median_s, profile.run_mean_s, profile.run_max_s),
        queue_mu=math.log(profile.queue_nonzero_median_s),
        queue_sigma=_lognormal_sigma(
            profile.queue_nonzero_median_s, nonzero_queue_mean, profile.queue_max_s
        ),
        status=_Choice.of(tuple(profile.status_shares)),
        gpu_type=_Choice.of(tuple(profile.gpu_types)),
        team=_Choice.of(_zipf(profile.teams)),
        user_in_team=_Choice.of(_zipf(profile.users_per_team)),
        priority=_Choice.of(_PRIORITIES),
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


def _job(model: _Model, job_id: str, submit_s: int, rng: random.Random) -> SynthRow:
    profile = model.profile
    gpus = model.gpus.sample(rng)
    run = rng.lognormvariate(model.run_mu, model.run_sigma)
    duration_s = max(1, min(round(run), int(profile.run_max_s)))
    queue_s = 0
    if rng.random() >= profile.queue_zero_share:
        delay = rng.lognormvariate(model.queue_mu, model.queue_sigma)
        queue_s = min(round(delay), int(profile.queue_max_s))
    start_s = submit_s + queue_s
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
    t_s = 0.0
    for number in range(1, jobs + 1):
        t_s = _next_arrival(t_s, model, rng)
        yield _job(model, f"j{number:0{width}d}", int(t_s), rng)


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
    with path.open("w", encoding="utf-8", newline="") as handle:
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
