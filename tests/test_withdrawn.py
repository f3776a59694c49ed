"""Withdrawn jobs in the replay: a deadline to start by, after which the job leaves the queue."""

import pytest

from planner.core.model import Job, is_useful
from planner.engine import simulate
from planner.engine.metrics import summarize
from planner.engine.policy import Policy

ONE_GPU = [("n0", "A100", 1, 0.0, 0.0)]
TWO_GPUS = [("n0", "A100", 2, 0.0, 0.0)]


def withdrawn(job_id: str, submit_s: float, after_s: float) -> Job:
    """A job observed as withdrawn: created, never scheduled, deleted `after_s` later."""
    return Job(job_id, submit_s, 0.0, gpus=1.0, status="withdrawn", withdraw_after_s=after_s)


def test_a_job_not_started_by_its_deadline_leaves_the_queue_holding_nothing() -> None:
    jobs = [Job("busy", 0.0, 100.0), withdrawn("gave-up", 10.0, 50.0)]

    result = simulate(jobs, ONE_GPU, Policy())

    assert result.status == ["completed", "withdrawn"]
    assert (result.start_s[1], result.end_s[1], result.placement[1]) == (None, 60.0, ())
    assert result.allocated_gpu_s == 100.0
    summary = summarize(result)
    assert (summary.withdrawn, summary.withdrawn_observed) == (1, 1)
    assert (summary.unfinished, summary.unschedulable, summary.still_waiting) == (0, 0, 0)
    assert (summary.wait_s.jobs, summary.wait_s.max) == (1, 0.0)  # started only


def test_a_withdrawn_job_the_replay_starts_holds_its_gpu_until_its_user_deleted_it() -> None:
    jobs = [Job("busy", 0.0, 100.0), withdrawn("gave-up", 10.0, 50.0)]

    result = simulate(jobs, TWO_GPUS, Policy())

    assert result.status == ["completed", "withdrawn-after-start"]
    assert (result.start_s[1], result.end_s[1]) == (10.0, 60.0)
    assert result.allocated_gpu_s == 100.0 + 50.0
    summary = summarize(result)
    assert (summary.withdrawn, summary.withdrawn_after_start) == (0, 1)
    assert summary.withdrawn_observed == 1


def test_a_deadline_only_bounds_the_wait_of_a_job_with_a_run_time() -> None:
    job = Job("patient", 0.0, 500.0, withdraw_after_s=60.0)

    result = simulate([job], ONE_GPU, Policy())

    assert result.status == ["completed"]
    assert (result.start_s[0], result.end_s[0]) == (0.0, 500.0)


def test_a_deadline_at_the_submit_instant_withdraws_before_the_scheduling_pass() -> None:
    result = simulate([withdrawn("instant", 5.0, 0.0)], ONE_GPU, Policy())

    assert result.status == ["withdrawn"]
    assert result.allocated_gpu_s == 0.0


def test_a_job_with_a_deadline_that_never_fits_is_withdrawn_not_unschedulable() -> None:
    job = Job("too-big", 0.0, 0.0, gpus=4.0, status="withdrawn", withdraw_after_s=30.0)

    result = simulate([job], ONE_GPU, Policy())

    assert result.status == ["withdrawn"]
    assert result.unschedulable_reason == {}
    assert result.end_s == [30.0]


def test_a_partly_placed_gang_releases_its_pods_at_the_deadline() -> None:
    # pod-by-pod admission: one of two pods lands and holds its GPU idle until the deadline
    jobs = [Job("busy", 0.0, 100.0), Job("gang", 1.0, 10.0, pods=2, withdraw_after_s=20.0)]

    result = simulate(jobs, TWO_GPUS, Policy(admission="pod"))

    assert result.status == ["completed", "withdrawn"]
    assert result.held_idle_gpu_s == pytest.approx(20.0)
    assert result.placement[1] == ()


def test_useful_work_is_every_job_that_ran_less_failed_ones_on_request() -> None:
    ran = Job("ran", 0.0, 10.0, status="running-at-end")
    failed = Job("failed", 0.0, 10.0, status="failed")
    gone = withdrawn("gone", 0.0, 5.0)

    assert [is_useful(j) for j in (ran, failed, gone)] == [True, True, False]
    assert [is_useful(j, exclude_failed=True) for j in (ran, failed, gone)] == [True, False, False]


def test_a_withdrawn_job_that_bursts_runs_in_the_cloud_until_its_user_deleted_it() -> None:
    # hybrid: the on-prem GPU is busy, so after 5 s of waiting the job goes to the cloud
    jobs = [Job("busy", 0.0, 100.0), withdrawn("gave-up", 10.0, 50.0)]
    too_big = Job("too-big", 0.0, 0.0, gpus=4.0, status="withdrawn", withdraw_after_s=30.0)

    result = simulate([*jobs, too_big], ONE_GPU, Policy(burst_after_s=5.0))

    by_id = {job.job_id: i for i, job in enumerate(result.jobs)}
    gave_up, big = by_id["gave-up"], by_id["too-big"]
    assert result.status[gave_up] == "burst"
    assert (result.start_s[gave_up], result.end_s[gave_up]) == (15.0, 60.0)
    assert result.status[big] == "burst"
    assert (result.start_s[big], result.end_s[big]) == (0.0, 30.0)
