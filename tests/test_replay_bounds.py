"""A replay's memory and work are bounded by its jobs and events, not by simulated time.

The hostile probe of issue 18 replayed ten 60 s jobs and one of 1e8 s: the timeline kept a
bin of ~1.5 s to the last event (67 million bins, 14.8 GB). Absurd horizons (`inf`, 1e300)
hung or exhausted memory. Here the timeline is capped by coarsening, GPU-seconds stay
conserved through it, and times past what a replay simulates are refused by name.
"""

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from planner.cli import main
from planner.core.config import NodeSpec
from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.policy import MAX_SIMULATED_S, Policy
from planner.engine.scenario import PolicySpec, PreemptionCostSpec
from planner.engine.timeline import MAX_BINS as _MAX_BINS

ONE_8: list[NodeSpec] = [("n1", "A100", 8, 0.0, 0.0)]


def short_jobs_and_one_long(long_s: float) -> list[Job]:
    return [Job(f"j{k}", k * 60.0, 60.0) for k in range(10)] + [Job("long", 0.0, long_s)]


def integral(result: ReplayResult) -> float:
    """GPU-seconds allocated, from the timeline's per-bin means."""
    timeline = result.timeline
    return sum(sum(pools) for pools in timeline.allocated_gpus) * timeline.bin_s


@pytest.mark.parametrize("long_s", [1e6, 1e8, 3e9])
def test_one_very_long_job_keeps_the_timeline_small(long_s: float) -> None:
    result = simulate(short_jobs_and_one_long(long_s), ONE_8, Policy())
    timeline = result.timeline
    # before the cap: one ~1.5 s bin to the end, 666,667 bins for 1e6 s and 67 M for 1e8 s
    assert len(timeline.allocated_gpus) <= _MAX_BINS
    series = (
        timeline.held_idle_gpus,
        timeline.queued_jobs,
        timeline.queued_gpus,
        timeline.unusable_idle_gpus,
        timeline.fgd_fragmented_gpus,
    )
    assert all(len(s) == len(timeline.allocated_gpus) for s in series)
    assert result.status == ["completed"] * 11
    assert result.horizon_s == pytest.approx(long_s)
    assert integral(result) == pytest.approx(result.allocated_gpu_s, rel=1e-9)
    assert result.allocated_gpu_s == pytest.approx(10 * 60.0 + long_s)


@settings(max_examples=60, deadline=None)
@given(
    durations=st.lists(
        st.floats(1.0, 1e9, allow_nan=False, allow_infinity=False), min_size=1, max_size=8
    ),
    gaps=st.lists(st.floats(0.0, 1e7), min_size=8, max_size=8),
    gpus=st.lists(st.sampled_from([0.5, 1.0, 2.0, 4.0, 8.0]), min_size=8, max_size=8),
)
def test_timeline_is_capped_and_conserves_gpu_seconds(
    durations: list[float], gaps: list[float], gpus: list[float]
) -> None:
    submit, jobs = 0.0, []
    for k, duration in enumerate(durations):
        submit += gaps[k]
        jobs.append(Job(f"j{k}", submit, duration, gpus=gpus[k]))
    result = simulate(jobs, ONE_8, Policy(queueing="backfill"))
    assert len(result.timeline.allocated_gpus) <= _MAX_BINS
    assert integral(result) == pytest.approx(result.allocated_gpu_s, rel=1e-6)
    # a bin's mean never exceeds the cluster (coarsening averages, it does not add)
    assert max(max(pools) for pools in result.timeline.allocated_gpus) <= 8 + 1e-9


@pytest.mark.parametrize("horizon", [math.inf, math.nan, 1e300, -5.0])
def test_the_engine_refuses_a_horizon_it_cannot_simulate(horizon: float) -> None:
    with pytest.raises(ScenarioError, match="horizon_s"):
        simulate(short_jobs_and_one_long(100.0), ONE_8, Policy(horizon_s=horizon))


def test_a_job_ending_past_a_century_is_refused_by_name() -> None:
    jobs = [*short_jobs_and_one_long(100.0), Job("ms-as-s", 0.0, 1.7e12)]
    with pytest.raises(ScenarioError, match=r"job 'ms-as-s'.*milliseconds"):
        simulate(jobs, ONE_8, Policy())


def test_a_horizon_of_a_century_is_still_simulated() -> None:
    result = simulate(short_jobs_and_one_long(100.0), ONE_8, Policy(horizon_s=MAX_SIMULATED_S))
    assert result.horizon_s == MAX_SIMULATED_S
    assert len(result.timeline.allocated_gpus) <= _MAX_BINS


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("horizon_s", math.inf, "finite number"),
        ("horizon_s", math.nan, "finite number"),
        ("horizon_s", 1e300, "less than or equal to 3153600000"),
        ("pod_timeout_s", 1e12, "less than or equal to 3153600000"),
        ("backoff_max_s", math.inf, "finite number"),
    ],
)
def test_scenario_policy_times_are_finite_and_bounded(
    field: str, value: float, expected: str
) -> None:
    with pytest.raises(ValidationError, match=expected) as err:
        PolicySpec.model_validate({field: value})
    assert err.value.errors()[0]["loc"] == (field,)


def test_preemption_delays_are_bounded_too() -> None:
    with pytest.raises(ValidationError, match="less than or equal to 3153600000"):
        PreemptionCostSpec.model_validate({"termination_grace_s": 1e15})


@pytest.mark.parametrize("value", ["inf", "1e300", "nan"])
def test_cli_horizon_gets_one_line_naming_the_field(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = "data/traces/sample.csv"
    db = str(tmp_path / "p.duckdb")
    code = main(["replay", trace, "--nodes", "1", "--horizon-s", value, "--db", db])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: horizon_s: ")
    assert len(err.strip().splitlines()) == 1
