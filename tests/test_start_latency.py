"""Start latency in the replay: a job enters the queue `latency_s(job)` after its submission.

Hand-computed cases first, then invariants on random small traces and latency tables.
"""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.calibration import CalibrationSpec, StartLatencySpec
from planner.engine.latency import SizeClasses, StartLatency
from planner.engine.metrics import summarize, waited_s
from planner.engine.policy import Policy
from planner.engine.scenario import Scenario
from planner.engine.waits import REASON_CODES
from tests.test_engine_properties import (
    SETTINGS,
    assert_fits_nodes,
    clusters,
    holdings,
    jobs_with_deadlines,
    policies,
)

ONE_GPU = [NodeSpec("n0", "A100", 1, 0.0, 0.0)]
EIGHT_GPUS = [NodeSpec("n0", "A100", 8, 0.0, 0.0)]
LATENCY = REASON_CODES.index("start_latency")


def fixed(seconds: float) -> StartLatency:
    return StartLatency(SizeClasses(), {}, (seconds,), fixed_s=seconds)


def by_band(latencies: dict[str, float]) -> StartLatency:
    """One latency per GPU band (a one-value table: every job of the band draws it)."""
    return StartLatency(SizeClasses(), {k: (v,) for k, v in latencies.items()}, (0.0,))


def booked_latency(result: ReplayResult, i: int) -> float:
    waited = result.wait_by_reason[i]
    return 0.0 if waited is None else waited[LATENCY]


# --- by hand -----------------------------------------------------------------------------------


def test_on_an_idle_cluster_every_job_waits_exactly_its_fixed_latency() -> None:
    jobs = [Job("a", 0.0, 100.0, gpus=2.0), Job("b", 500.0, 10.0, gpus=1.0, pods=2)]

    result = simulate(jobs, EIGHT_GPUS, Policy(start_latency=fixed(30.0)))

    assert result.status == ["completed", "completed"]
    assert result.start_s == [30.0, 530.0]
    assert [waited_s(result, i) for i in range(2)] == [30.0, 30.0]
    assert [booked_latency(result, i) for i in range(2)] == [30.0, 30.0]
    summary = summarize(result)
    assert (summary.wait_s.p50, summary.wait_s.p90, summary.wait_s.max) == (30.0, 30.0, 30.0)
    by_reason = summary.waiting_gpu_hours_by_reason
    assert by_reason["start_latency"] == pytest.approx(30.0 * (2 + 2) / 3600)
    assert sum(by_reason.values()) == pytest.approx(by_reason["start_latency"])


def test_a_later_submission_with_less_latency_enters_the_queue_and_runs_first() -> None:
    # "first" (1 GPU, band gpu1) is submitted at 0 with 20 s latency: it enters at 20;
    # "second" (half a GPU, band share-large) at 5 with none: it enters at 5 and takes the GPU
    jobs = [Job("first", 0.0, 100.0, gpus=1.0), Job("second", 5.0, 100.0, gpus=0.6)]
    latency = by_band({"gpu1": 20.0, "share-large": 0.0})

    result = simulate(jobs, ONE_GPU, Policy(start_latency=latency))

    assert [job.job_id for job in result.jobs] == ["second", "first"]
    assert result.start_s == [5.0, 105.0]
    assert result.wait_by_reason[0] is None
    waited = result.wait_by_reason[1]
    assert waited is not None
    assert waited[LATENCY] == 20.0
    assert waited[REASON_CODES.index("cluster_full")] == 85.0


def test_a_deadline_before_the_job_enters_the_queue_withdraws_it_unstarted() -> None:
    job = Job("gave-up", 0.0, 100.0, withdraw_after_s=10.0)

    result = simulate([job], ONE_GPU, Policy(start_latency=fixed(60.0)))

    assert result.status == ["withdrawn"]
    assert (result.start_s, result.end_s, result.placement) == ([None], [10.0], [()])
    assert result.allocated_gpu_s == 0.0
    assert booked_latency(result, 0) == 10.0  # it waited in its latency until it gave up
    assert summarize(result).wait_s.jobs == 0


def test_a_burst_threshold_passed_during_the_latency_bursts_on_entering_if_it_cannot_start() -> (
    None
):
    jobs = [Job("busy", 0.0, 100.0), Job("late", 1.0, 10.0), Job("free", 200.0, 10.0)]
    policy = Policy(start_latency=fixed(30.0), burst_after_s=10.0)

    result = simulate(jobs, ONE_GPU, policy)

    # busy enters at 30 and runs; late enters at 31 (past its threshold, 11) and bursts at
    # once; free enters at 230 on an idle cluster and starts although its threshold passed
    assert [job.job_id for job in result.jobs] == ["busy", "late", "free"]
    assert result.status == ["completed", "burst", "completed"]
    assert result.start_s == [30.0, 31.0, 230.0]
    assert booked_latency(result, 1) == 30.0


def test_a_job_still_in_its_latency_at_the_horizon_books_it_up_to_the_horizon() -> None:
    result = simulate(
        [Job("a", 0.0, 10.0)], ONE_GPU, Policy(start_latency=fixed(60.0), horizon_s=20.0)
    )

    assert (result.status, result.start_s) == (["unfinished"], [None])
    assert booked_latency(result, 0) == 20.0
    assert summarize(result).still_waiting == 1


def test_a_scenario_with_a_fixed_calibration_floor_replays_the_same() -> None:
    scenario = Scenario.model_validate({"calibration": {"start_latency": {"fixed_s": 30}}})
    jobs = [Job("a", 0.0, 100.0), Job("b", 5.0, 10.0), Job("w", 0.0, 5.0, withdraw_after_s=10)]

    from_yaml = simulate(jobs, EIGHT_GPUS, scenario.to_policy())
    by_hand = simulate(jobs, EIGHT_GPUS, Policy(start_latency=fixed(30.0)))

    assert scenario.to_policy().start_latency == fixed(30.0)
    # entering at 30 (a, w: tied, in the order given) and 35 (b); w gave up at 10
    assert [job.job_id for job in from_yaml.jobs] == ["a", "w", "b"]
    assert from_yaml.status == by_hand.status == ["completed", "withdrawn", "completed"]
    assert from_yaml.start_s == by_hand.start_s == [30.0, None, 35.0]
    assert from_yaml.wait_by_reason == by_hand.wait_by_reason


def test_a_fitted_calibration_block_round_trips_into_the_policy() -> None:
    latency = StartLatency(
        SizeClasses(0.47, (16.0, 32.0)),
        {"gpu1/mem0": (0.0, 1.0, 4.0), "gpu1": (0.0, 2.0, 8.0)},
        (0.0, 2.0, 30.0),
        seed=3,
    )
    spec = CalibrationSpec.from_fit(
        latency,
        fitted_on="openb (t1)",
        fit_until_s=1000.0,
        validation_window_s=(1000.0, 2000.0),
        effective_gpu_share=0.4,
        policy_fit={"admission": "gang", "queueing": "fifo", "score": 0.12},
        validation={"p50_ratio": 1.0, "p90_ratio": 0.55, "p99_ratio": 1.06, "verdict": "ok"},
    )
    scenario = Scenario.model_validate({"calibration": spec.model_dump()})

    assert scenario.to_policy().start_latency == latency
    note = scenario.calibration.error_bar() if scenario.calibration else None
    assert note is not None
    assert (note.validation.p90_ratio, note.validation.withdrawn_ratio) == (0.55, None)
    assert note.validation_window_s == (1000.0, 2000.0)


def test_a_calibration_needs_quantiles_or_a_fixed_latency() -> None:
    with pytest.raises(ValueError, match="fallback"):
        StartLatencySpec()
    with pytest.raises(ValueError, match="ascending"):
        StartLatencySpec(fallback=(5.0, 1.0))
    with pytest.raises(ValueError, match="extra"):
        Scenario.model_validate({"calibration": {"start_latency": {"fixed": 5}}})


# --- invariants --------------------------------------------------------------------------------

BANDS = ("cpu", "share-small", "share-large", "gpu1", "gpus>1")


# Built once, not per draw (a new strategy is validated and labelled each time it is drawn).
FIXED_FLOORS = st.sampled_from([0.0, 1.0, 30.0, 250.0])
STEPS = st.lists(st.integers(0, 100).map(float), min_size=1, max_size=4)
FIRST_STEPS = st.sampled_from([0.0, 0.0, 5.0, 0.5])
LABELS = st.lists(st.sampled_from([*BANDS, "gpu1/mem0", "gpu1/mem1"]), max_size=4)
MEMORY_EDGES = st.sampled_from([(), (8.0,)])
LATENCY_SEEDS = st.integers(0, 3)


@st.composite
def latencies(draw: st.DrawFn) -> StartLatency:
    """A fixed floor, or random ascending tables for some classes and a fallback."""
    if draw(st.booleans()):
        return fixed(draw(FIXED_FLOORS))

    def table() -> tuple[float, ...]:
        steps = draw(STEPS)
        first = draw(FIRST_STEPS)
        out = [first]
        for step in steps:
            out.append(out[-1] + step)
        return tuple(out)

    labels = draw(LABELS)
    return StartLatency(
        SizeClasses(0.5, draw(MEMORY_EDGES)),
        {label: table() for label in labels},
        table(),
        seed=draw(LATENCY_SEEDS),
    )


@SETTINGS
@given(jobs=jobs_with_deadlines(), nodes=clusters(), policy=policies(), latency=latencies())
def test_with_start_latency_no_job_starts_early_no_node_overfills_and_every_second_is_booked(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy, latency: StartLatency
) -> None:
    result = simulate(jobs, nodes, replace(policy, start_latency=latency))

    assert sorted(job.job_id for job in result.jobs) == sorted(job.job_id for job in jobs)
    assert len(result.status) == len(result.wait_by_reason) == len(jobs)
    spans = holdings(result)
    for t in sorted({start for start, _, _ in spans}):
        active = [i for start, end, i in spans if start <= t < end]
        assert_fits_nodes(result, nodes, active, f"at {t}")
    held = sum(sum(g for _, g in result.placement[i]) * (end - start) for start, end, i in spans)
    assert result.allocated_gpu_s == pytest.approx(held, rel=1e-6, abs=1e-6)
    for i, job in enumerate(result.jobs):
        own = latency.latency_s(job)
        start, waited = result.start_s[i], result.wait_by_reason[i]
        total = 0.0 if waited is None else sum(waited)
        if start is not None and result.status[i] != "burst":
            assert start >= job.submit_s + own, job  # it entered the queue at that sum
            assert total == pytest.approx(start - job.submit_s, abs=1e-6), job
            assert booked_latency(result, i) == pytest.approx(own), job
        elif result.status[i] == "unschedulable":
            assert waited is None
        elif result.status[i] == "withdrawn" and waited is not None:  # waited until it gave up
            end = result.end_s[i]
            assert end is not None
            assert total == pytest.approx(end - job.submit_s, abs=1e-6), job
            assert booked_latency(result, i) == pytest.approx(min(own, end - job.submit_s))
    summary = summarize(result)
    waiting = sum(
        job.total_gpus * (sum(w) if w is not None else 0.0) / 3600
        for job, w in zip(result.jobs, result.wait_by_reason, strict=True)
    )
    assert sum(summary.waiting_gpu_hours_by_reason.values()) == pytest.approx(waiting, abs=1e-9)


@SETTINGS
@given(jobs=jobs_with_deadlines(), nodes=clusters(), policy=policies())
def test_a_fixed_latency_of_zero_is_exactly_no_latency(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    plain = simulate(jobs, nodes, policy)
    zero = simulate(jobs, nodes, replace(policy, start_latency=fixed(0.0)))

    for name in ReplayResult.__slots__:
        if name != "policy":
            assert getattr(zero, name) == getattr(plain, name), name
