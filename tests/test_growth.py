"""Demand growth on plain jobs (`planner.synth.growth`): the arrival rate scaled by resampling
the trace's own jobs, and a synthetic team added; seeded, span-keeping, mix-keeping."""

import math
from collections import Counter
from typing import get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.cost.scenario import SynthProfile
from planner.synth.growth import (
    WEEK_S,
    TeamPlan,
    YearPlan,
    grow_year,
    scale_arrivals,
    team_jobs,
    time_warp,
)
from planner.synth.profiles import PROFILES

jobs_strategy = st.lists(
    st.builds(
        Job,
        job_id=st.uuids().map(str),
        submit_s=st.floats(0, 40 * 86_400.0),
        duration_s=st.floats(60, 5 * 86_400.0),
        pods=st.integers(1, 4),
        gpus=st.sampled_from([0.5, 1.0, 2.0, 8.0]),
    ),
    min_size=1,
    max_size=80,
    unique_by=lambda j: j.job_id,
)
factors = st.one_of(st.floats(0.05, 4.0), st.sampled_from([0.5, 1.0, 1.5, 2.0, 2.25, 3.0]))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _gpu_hours(jobs: list[Job]) -> float:
    return sum(j.gpu_hours for j in jobs)


def _span(jobs: list[Job]) -> tuple[float, float]:
    return min(j.submit_s for j in jobs), max(j.submit_s + j.duration_s for j in jobs)


@SETTINGS
@given(jobs=jobs_strategy, factor=factors, seed=st.integers(0, 2**31))
def test_gpu_hours_scale_by_the_factor_within_two_of_the_largest_jobs(
    jobs: list[Job], factor: float, seed: int
) -> None:
    grown = scale_arrivals(jobs, factor, seed=seed, year=2)

    # systematic sampling over jobs ranked by size: the extra draws' GPU-hours stray from
    # p x the total by less than two of the largest job's (module docstring); thinning
    # (f < 1) may keep the two jobs that bound the span on top of that
    largest = max(j.gpu_hours for j in jobs)
    bound = 2 * largest + (2 * largest if factor < 1 else 0.0)
    assert abs(_gpu_hours(grown) - factor * _gpu_hours(jobs)) <= bound + 1e-9 * _gpu_hours(jobs)


@SETTINGS
@given(jobs=jobs_strategy, factor=factors, seed=st.integers(0, 2**31))
def test_the_span_is_kept_and_every_copy_is_a_whole_number_of_weeks_from_its_job(
    jobs: list[Job], factor: float, seed: int
) -> None:
    grown = scale_arrivals(jobs, factor, seed=seed, year=3)

    assert _span(grown) == _span(jobs)
    by_id = {j.job_id: j for j in jobs}
    for job in grown:
        source = by_id[job.job_id.split("~", 1)[0]]
        weeks = (job.submit_s - source.submit_s) / WEEK_S
        assert weeks == pytest.approx(round(weeks), abs=1e-6)
        assert (job.duration_s, job.pods, job.gpus) == (source.duration_s, source.pods, source.gpus)
    assert len({j.job_id for j in grown}) == len(grown)


@SETTINGS
@given(jobs=jobs_strategy, factor=factors, seed=st.integers(0, 2**31))
def test_the_same_seed_gives_the_same_jobs_and_factor_one_is_the_trace(
    jobs: list[Job], factor: float, seed: int
) -> None:
    assert scale_arrivals(jobs, factor, seed=seed, year=2) == scale_arrivals(
        jobs, factor, seed=seed, year=2
    )
    assert scale_arrivals(jobs, 1.0, seed=seed, year=2) == jobs


@SETTINGS
@given(jobs=jobs_strategy, factor=st.floats(1.0, 4.0), seed=st.integers(0, 2**31))
def test_growing_keeps_every_job_at_least_floor_f_times(
    jobs: list[Job], factor: float, seed: int
) -> None:
    grown = scale_arrivals(jobs, factor, seed=seed, year=2)

    copies = Counter(j.job_id.split("~", 1)[0] for j in grown)
    assert all(math.floor(factor) <= copies[j.job_id] <= math.floor(factor) + 1 for j in jobs)
    assert len(grown) == pytest.approx(factor * len(jobs), abs=1.0)


def test_the_job_mix_is_kept_when_the_rate_grows_by_half() -> None:
    # 300 jobs of three sizes in equal numbers: the extra half is a third of each size
    jobs = [Job(f"j{i}", i * 600.0, 3_600.0, gpus=float(g)) for i, g in enumerate([1, 2, 8] * 100)]

    grown = scale_arrivals(jobs, 1.5, seed=11, year=2)

    assert Counter(j.gpus for j in grown) == {1.0: 150, 2.0: 150, 8.0: 150}
    assert _gpu_hours(grown) == pytest.approx(1.5 * _gpu_hours(jobs))


def test_another_seed_or_year_draws_other_copies() -> None:
    jobs = [Job(f"j{i}", i * 3_600.0, 1_800.0, gpus=float(1 + i % 8)) for i in range(400)]

    one = scale_arrivals(jobs, 1.5, seed=1, year=2)

    assert one != scale_arrivals(jobs, 1.5, seed=2, year=2)
    assert one != scale_arrivals(jobs, 1.5, seed=1, year=3)


def test_a_negative_factor_is_refused() -> None:
    with pytest.raises(ValueError, match="factor"):
        scale_arrivals([Job("a", 0.0, 60.0)], -1.0, seed=0, year=2)


def test_a_team_adds_its_share_of_gpu_hours_inside_the_span() -> None:
    jobs = [Job(f"j{i}", i * 3_600.0, 7_200.0, gpus=8.0) for i in range(24 * 30)]
    team = TeamPlan("newteam", "philly", 0.25, gpu="A100")

    added = team_jobs(jobs, team, seed=5, year=2)

    total = _gpu_hours(jobs)
    largest = max(j.gpu_hours for j in added)
    assert 0.25 * total <= _gpu_hours(added) < 0.25 * total + largest
    start, end = _span(jobs)
    assert all(start <= j.submit_s and j.submit_s + j.duration_s <= end for j in added)
    assert {j.queue for j in added} == {"newteam"}
    assert {j.gpu_types for j in added} == {("A100",)}
    assert added == team_jobs(jobs, team, seed=5, year=2)


def test_a_year_with_a_team_counts_its_jobs() -> None:
    jobs = [Job(f"j{i}", i * 3_600.0, 3_600.0, gpus=2.0) for i in range(200)]

    year = grow_year(jobs, YearPlan(2, arrival_rate=2.0, seed=3, team=TeamPlan("t", "helios", 0.5)))

    assert year.team_jobs > 0
    assert len(year.jobs) == 400 + year.team_jobs
    assert _span(year.jobs) == _span(jobs)


def test_an_unknown_profile_names_the_known_ones() -> None:
    with pytest.raises(ScenarioError, match="philly"):
        team_jobs([Job("a", 0.0, 3_600.0)], TeamPlan("t", "nope", 0.5), seed=0, year=1)


@SETTINGS
@given(jobs=jobs_strategy, factor=st.floats(0.2, 5.0))
def test_a_time_warp_compresses_the_submit_times_and_keeps_the_jobs(
    jobs: list[Job], factor: float
) -> None:
    warped = time_warp(jobs, factor)

    start = min(j.submit_s for j in jobs)
    for before, after in zip(jobs, warped, strict=True):
        assert after.submit_s - start == pytest.approx((before.submit_s - start) / factor)
        assert (after.job_id, after.duration_s, after.gpus) == (
            before.job_id,
            before.duration_s,
            before.gpus,
        )
    assert time_warp(jobs, 1.0) == jobs


def test_a_warped_year_fits_the_same_work_into_a_shorter_span() -> None:
    # a job of a minute every hour for 100 hours: twice as fast, half the span
    jobs = [Job(f"j{i}", i * 3_600.0, 60.0, gpus=1.0) for i in range(100)]

    year = grow_year(jobs, YearPlan(2, time_warp=2.0))

    start, end = _span(year.jobs)
    assert end - start == pytest.approx(99 * 1_800.0 + 60.0)
    assert _gpu_hours(year.jobs) == _gpu_hours(jobs)
    assert year.time_warp == 2.0


def test_a_team_with_no_job_short_enough_for_the_span_is_refused() -> None:
    # a span of half a second: every synthetic job runs a second or more
    with pytest.raises(ScenarioError, match="short enough"):
        team_jobs([Job("a", 0.0, 0.5)], TeamPlan("t", "llm", 0.5), seed=0, year=1)


def test_the_scenarios_team_profiles_are_the_synthetic_profiles() -> None:
    assert sorted(get_args(SynthProfile)) == sorted(PROFILES)
