"""Synthetic traces: the file format, determinism, and calibration against the source rows.

Calibration samples are 20,000 jobs with a fixed seed; each tolerance below is several
standard errors wide at that size, so a pass is not luck and a real drift fails.
"""

import csv
import statistics
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.errors import ScenarioError
from planner.synth import COLUMNS, PROFILES, SynthRow, generate, write_trace

HEADER = (
    "job_id,submit_time,start_time,end_time,duration_s,pods,gpus,gpu_type,cpu,mem_gib,"
    "queue,user,priority,status"
)
SAMPLE_JOBS = 20_000

_samples: dict[str, list[SynthRow]] = {}


def sample(profile: str) -> list[SynthRow]:
    """20,000 jobs of `profile`, generated once per test session."""
    if profile not in _samples:
        _samples[profile] = list(generate(profile, SAMPLE_JOBS, seed=7))
    return _samples[profile]


def queue_s(row: SynthRow) -> float:
    started = datetime.fromisoformat(row.start_time)
    return (started - datetime.fromisoformat(row.submit_time)).total_seconds()


def test_header_is_exactly_the_generic_columns(tmp_path: Path) -> None:
    path = tmp_path / "trace.csv"

    write_trace(path, profile="philly", jobs=5, seed=1)

    assert path.read_text(encoding="utf-8").splitlines()[0] == HEADER
    assert ",".join(COLUMNS) == HEADER


def test_same_seed_writes_identical_bytes_and_another_seed_does_not(tmp_path: Path) -> None:
    first, again, other = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "c.csv"

    write_trace(first, profile="llm", jobs=2_000, seed=42)
    write_trace(again, profile="llm", jobs=2_000, seed=42)
    write_trace(other, profile="llm", jobs=2_000, seed=43)

    assert first.read_bytes() == again.read_bytes()
    assert first.read_bytes() != other.read_bytes()


def test_summary_matches_the_rows_written(tmp_path: Path) -> None:
    path = tmp_path / "trace.csv"

    summary = write_trace(path, profile="helios", jobs=3_000, seed=5)

    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    gpu_hours = sum(int(r["gpus"]) * int(r["duration_s"]) for r in rows) / 3600
    assert summary.path == path
    assert summary.jobs == len(rows) == 3_000
    assert summary.gpu_hours == pytest.approx(gpu_hours)
    assert summary.first_submit == datetime.fromisoformat(rows[0]["submit_time"])
    assert summary.last_submit == datetime.fromisoformat(rows[-1]["submit_time"])


@pytest.mark.parametrize("bad", ["pai", "", "Philly"])
def test_unknown_profile_is_refused_before_any_row_naming_the_known_ones(bad: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        generate(bad, 10, seed=1)  # not iterated: the check must be eager

    assert all(name in str(caught.value) for name in PROFILES)


@pytest.mark.parametrize("jobs", [0, -3])
def test_fewer_than_one_job_is_refused(jobs: int, tmp_path: Path) -> None:
    with pytest.raises(ScenarioError):
        write_trace(tmp_path / "t.csv", profile="philly", jobs=jobs, seed=1)

    assert not (tmp_path / "t.csv").exists()


@given(
    profile=st.sampled_from(sorted(PROFILES)),
    jobs=st.integers(1, 40),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=60, deadline=None)
def test_every_row_is_consistent(profile: str, jobs: int, seed: int) -> None:
    rows = list(generate(profile, jobs, seed))

    assert len(rows) == jobs
    assert len({r.job_id for r in rows}) == jobs
    submits = [datetime.fromisoformat(r.submit_time) for r in rows]
    assert submits == sorted(submits)
    for row, submitted in zip(rows, submits, strict=True):
        started = datetime.fromisoformat(row.start_time)
        ended = datetime.fromisoformat(row.end_time)
        assert row.duration_s >= 1
        assert started >= submitted
        assert ended - started == timedelta(seconds=row.duration_s)
        assert row.status in {"completed", "failed", "cancelled"}
        assert row.priority in {0, 1, 2}


@pytest.mark.parametrize(("profile", "offset"), [("philly", "-08:00"), ("helios", "+08:00")])
def test_trace_starts_on_monday_in_the_profiles_time_zone(profile: str, offset: str) -> None:
    rows = sample(profile)

    first = datetime.fromisoformat(rows[0].submit_time)
    assert first.date().isoformat() == "2026-01-05"
    assert first.weekday() == 0
    assert all(r.end_time.endswith(offset) for r in rows[:100])


# Source: acme_cluster_summary.csv, rows Philly, Helios and Kalos.
CALIBRATION = {
    "philly": {"gpu_mean": 1.928, "run_median_s": 874.0, "queue_median_s": 189.0,
               "completed": 0.604, "cancelled": 0.09, "failed": 0.305},
    "helios": {"gpu_mean": 3.716, "run_median_s": 206.0, "queue_median_s": 0.0,
               "completed": 0.624, "cancelled": 0.221, "failed": 0.155},
    "llm": {"gpu_mean": 26.77, "run_median_s": 124.0, "queue_median_s": 17.0,
            "completed": 0.541, "cancelled": 0.062, "failed": 0.397},
    "teams": {"gpu_mean": 4.038, "run_median_s": 280.0, "queue_median_s": 0.0,
              "completed": 0.607, "cancelled": 0.201, "failed": 0.192},
}  # fmt: skip


@pytest.mark.parametrize("profile", sorted(CALIBRATION))
def test_gpu_counts_match_the_source_mean_and_median(profile: str) -> None:
    gpus = [r.gpus for r in sample(profile)]

    # Standard error of the mean is at most ~5 % (llm, driven by rare 512-1024-GPU gangs).
    assert statistics.mean(gpus) == pytest.approx(CALIBRATION[profile]["gpu_mean"], rel=0.15)
    assert statistics.median(gpus) == 1
    assert max(gpus) <= PROFILES[profile].gpu_max
    assert all(g & (g - 1) == 0 for g in gpus)  # powers of two


@pytest.mark.parametrize("profile", sorted(CALIBRATION))
def test_run_and_queue_medians_match_the_source(profile: str) -> None:
    rows = sample(profile)
    expected = CALIBRATION[profile]

    # Median of 20k lognormal draws: standard error ~2-3 %, so 10 % is a real check.
    run_median = statistics.median(r.duration_s for r in rows)
    assert run_median == pytest.approx(expected["run_median_s"], rel=0.10)
    queue_median = statistics.median(queue_s(r) for r in rows)
    assert queue_median == pytest.approx(expected["queue_median_s"], rel=0.15, abs=1.0)


@pytest.mark.parametrize("profile", sorted(CALIBRATION))
def test_final_state_shares_match_the_source(profile: str) -> None:
    counts = Counter(r.status for r in sample(profile))

    # Share standard error is at most 0.0035 at 20k jobs.
    for status in ("completed", "cancelled", "failed"):
        assert counts[status] / SAMPLE_JOBS == pytest.approx(CALIBRATION[profile][status], abs=0.02)


def test_run_time_tail_is_heavy_and_capped() -> None:
    durations = [r.duration_s for r in sample("philly")]

    assert statistics.mean(durations) > 5 * statistics.median(durations)
    assert max(durations) <= PROFILES["philly"].run_max_s


def test_gangs_above_a_node_use_whole_eight_gpu_pods() -> None:
    rows = sample("llm")

    multi = [r for r in rows if r.gpus > 8]
    assert len(multi) > 1_000
    assert all(r.pods * 8 == r.gpus for r in multi)
    assert all(r.pods == 1 for r in rows if r.gpus <= 8)


def test_cpu_and_memory_are_job_totals_scaled_by_gpus() -> None:
    profile = PROFILES["philly"]

    for row in sample("philly")[:2_000]:
        assert profile.cpu_per_gpu[0] <= row.cpu / row.gpus <= profile.cpu_per_gpu[1]
        assert profile.mem_gib_per_gpu[0] <= row.mem_gib / row.gpus <= profile.mem_gib_per_gpu[1]


def test_teams_are_skewed_and_users_belong_to_one_team() -> None:
    rows = sample("helios")

    teams = Counter(r.queue for r in rows).most_common()
    assert 6 <= len(teams) <= 12
    assert teams[0][1] > 3 * teams[-1][1]
    team_of_user = {r.user: r.queue for r in rows}
    assert all(team_of_user[r.user] == r.queue for r in rows)
    assert len(team_of_user) >= 2 * len(teams)
    assert Counter(r.gpu_type for r in rows)[""] > 0


def test_working_hours_are_busier_than_nights() -> None:
    hours = Counter(datetime.fromisoformat(r.submit_time).hour for r in sample("philly"))

    daytime = sum(hours[h] for h in range(10, 18))
    night = sum(hours[h] for h in (22, 23, 0, 1, 2, 3, 4, 5))
    assert daytime > 2 * night


def test_weekdays_are_busier_than_weekends() -> None:
    rows = sample("llm")  # ~17 weeks at 170 jobs/day
    per_day = Counter(datetime.fromisoformat(r.submit_time).date() for r in rows)
    full_days = sorted(per_day)[:-1]  # the last day is cut short by the job count

    weekday = [per_day[d] for d in full_days if d.weekday() < 5]
    weekend = [per_day[d] for d in full_days if d.weekday() >= 5]
    assert len(weekend) >= 20
    assert statistics.mean(weekend) < 0.7 * statistics.mean(weekday)
    average = statistics.mean(per_day[d] for d in full_days)
    assert average == pytest.approx(PROFILES["llm"].jobs_per_day, rel=0.1)


# The "teams" profile (the queue demo): Helios Uranus jobs, Earth VC shares, campaigns.
URANUS_GPU_S_PER_JOB_RATIO = 80_700 / (4.038 * 9_163.725)  # GPU time per job / product of means
DEMO_GPUS = 512


def test_teams_big_jobs_run_longer_as_on_uranus() -> None:
    rows = sample("teams")
    gpus = [r.gpus for r in rows]
    runs = [r.duration_s for r in rows]

    # One 64-GPU week-long job moves the 20k-job ratio by ~0.05; seeds give 1.9-2.4.
    per_job = statistics.mean(g * d for g, d in zip(gpus, runs, strict=True))
    ratio = per_job / (statistics.mean(gpus) * statistics.mean(runs))
    assert ratio == pytest.approx(URANUS_GPU_S_PER_JOB_RATIO, rel=0.25)
    single = statistics.median(r.duration_s for r in rows if r.gpus == 1)
    gangs = statistics.median(r.duration_s for r in rows if r.gpus >= 16)
    assert gangs > 3 * single
    assert max(runs) <= PROFILES["teams"].run_max_s


def test_teams_mostly_run_small_jobs_with_some_gangs_up_to_one_quota() -> None:
    gpus = [r.gpus for r in sample("teams")]

    assert sum(g <= 8 for g in gpus) / len(gpus) > 0.85
    assert 0.03 < sum(g >= 16 for g in gpus) / len(gpus) < 0.15
    assert max(gpus) == DEMO_GPUS // 8


def test_teams_offer_about_80_percent_of_the_demo_cluster() -> None:
    rows = sample("teams")
    first, last = (datetime.fromisoformat(rows[i].submit_time) for i in (0, -1))

    gpu_s = sum(r.gpus * r.duration_s for r in rows)
    load = gpu_s / (DEMO_GPUS * (last - first).total_seconds())
    # Uranus: 26.56e9 GPU-s on 2,119 GPUs over 181 days = 0.80; campaigns of the biggest
    # team move a 45-day sample by up to ±0.15.
    assert load == pytest.approx(0.80, abs=0.18)


def test_team_shares_follow_the_earth_vc_demand() -> None:
    counts = Counter(r.queue for r in sample("teams"))
    weights = PROFILES["teams"].team_weights

    for letter, weight in zip("abcdefgh", weights, strict=True):
        assert counts[f"team-{letter}"] / SAMPLE_JOBS == pytest.approx(
            weight / sum(weights), abs=0.04
        )


def test_team_campaigns_are_bursty_and_not_synchronised() -> None:
    per_team: dict[str, Counter[object]] = {}
    for row in sample("teams"):
        day = datetime.fromisoformat(row.submit_time).date()
        if day.weekday() < 5:  # the common weekly cycle is not what is tested here
            per_team.setdefault(row.queue, Counter())[day] += 1
    days = sorted({day for counts in per_team.values() for day in counts})[:-1]
    series = {team: [counts[day] for day in days] for team, counts in per_team.items()}

    # Without campaigns every team's weekday counts vary by ~0.14 (Poisson and hours only).
    for counts in series.values():
        assert statistics.pstdev(counts) / statistics.mean(counts) > 0.4
    teams = sorted(series)
    pairs = [(a, b) for i, a in enumerate(teams) for b in teams[i + 1 :]]
    correlation = statistics.mean(statistics.correlation(series[a], series[b]) for a, b in pairs)
    assert correlation < 0.2
