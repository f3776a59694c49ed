"""Hybrid bursting inside the replay: a job still waiting `burst_after_s` after its
submission runs in the cloud, so cost and waits come from the same run."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import simulate
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from tests.test_engine_properties import SETTINGS, clusters, job_lists, policies

ONE_8 = [("n0", "A100", 8, 0.0, 0.0)]


def test_jobs_that_would_wait_past_the_threshold_burst_and_the_rest_run_on_prem() -> None:
    jobs = [Job("a", 0, 1000, gpus=8), Job("b", 10, 500, gpus=8), Job("c", 950, 50, gpus=8)]
    result = simulate(jobs, ONE_8, Policy(burst_after_s=100))
    # b would wait until 1000 (990 s): it bursts at 110; c waits 50 s and runs on prem
    assert result.status == ["completed", "burst", "completed"]
    assert result.start_s == [0, 110, 1000]
    assert result.end_s == [1000, 610, 1050]
    assert result.placement[1] == ()
    summary = summarize(result)
    assert (summary.burst, summary.burst_gpu_hours) == (1, pytest.approx(8 * 500 / 3600))
    assert summary.allocated_gpu_hours == pytest.approx(8 * 1050 / 3600)


@settings(SETTINGS, max_examples=100)
@given(
    jobs=job_lists(),
    nodes=clusters(),
    policy=policies(admission="gang"),
    threshold=st.sampled_from([0.0, 30.0, 300.0]),
)
def test_bursting_caps_waits_and_keeps_every_gpu_hour(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy, threshold: float
) -> None:
    result = simulate(jobs, nodes, replace(policy, burst_after_s=threshold))
    never = set(simulate(jobs, nodes, policy).unschedulable_reason)

    done_on_prem = burst = 0.0
    for i, job in enumerate(result.jobs):
        status, start, end = result.status[i], result.start_s[i], result.end_s[i]
        assert status in {"completed", "burst"}, status  # nothing is left unschedulable
        assert start is not None
        assert end is not None
        assert start - job.submit_s <= threshold + 1e-6  # nobody waits past the threshold
        assert end - start == pytest.approx(job.duration_s)
        if status == "burst":
            assert result.placement[i] == ()
            # what can never run on prem leaves at once, the rest after the threshold
            waited = 0.0 if i in never else threshold
            assert start - job.submit_s == pytest.approx(waited)
            burst += job.gpu_hours
        else:
            done_on_prem += job.gpu_hours
    assert done_on_prem + burst == pytest.approx(sum(j.gpu_hours for j in result.jobs))
    assert result.allocated_gpu_s / 3600 == pytest.approx(done_on_prem)


@settings(SETTINGS, max_examples=50)
@given(jobs=job_lists(), nodes=clusters(), policy=policies(admission="gang"))
def test_a_threshold_beyond_every_wait_changes_nothing(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    plain = simulate(jobs, nodes, policy)
    late = simulate(jobs, nodes, replace(policy, burst_after_s=1e12))

    # only jobs the cluster can never run differ: they go to the cloud at once
    never = set(plain.unschedulable_reason)
    assert [s for i, s in enumerate(late.status) if i not in never] == [
        s for i, s in enumerate(plain.status) if i not in never
    ]
    assert all(late.status[i] == "burst" for i in never)
    assert [s for i, s in enumerate(late.start_s) if i not in never] == [
        s for i, s in enumerate(plain.start_s) if i not in never
    ]
