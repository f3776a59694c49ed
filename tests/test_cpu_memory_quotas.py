"""CPU and memory quotas beside GPU quotas: a job needs all its covered resources to fit."""

from planner.core.model import Job
from planner.engine import simulate
from planner.engine.policy import Policy
from planner.engine.scenario import QueuesSpec
from planner.engine.waits import REASON_CODES

NODES = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 8, 0.0, 0.0)]  # nodes do not limit CPU


def policy(quota: dict[str, object]) -> Policy:
    spec = QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f"}],
            "cluster_queues": [{"name": "team", "quotas": [{"flavor": "f", **quota}]}],
        }
    )
    return Policy(queues=spec.to_setup(strict_default=False))


# two 4-GPU jobs asking 40 cores each: GPUs fit the 16-GPU quota, CPU does not fit 64 cores
JOBS = [
    Job("a", 0, 100, gpus=4, cpu=40, queue="team"),
    Job("b", 0, 100, gpus=4, cpu=40, queue="team"),
]


def test_a_cpu_quota_holds_back_a_job_whose_gpus_would_fit() -> None:
    result = simulate(JOBS, NODES, policy({"gpus": 16, "cpu": 64}))

    assert sorted(result.start_s) == [0, 100]  # type: ignore[type-var]
    waited = [w for w in result.wait_by_reason if w]
    assert waited[0][REASON_CODES.index("quota")] == 100


def test_without_a_cpu_quota_cpu_is_not_limited() -> None:
    result = simulate(JOBS, NODES, policy({"gpus": 16}))

    assert result.start_s == [0, 0]


def test_a_memory_quota_counts_every_pod() -> None:
    jobs = [Job("gang", 0, 100, pods=2, gpus=8, mem_gib=300, queue="team")]

    held = simulate(jobs, NODES, policy({"gpus": 16, "mem_gib": 500}))
    admitted = simulate(jobs, NODES, policy({"gpus": 16, "mem_gib": 600}))

    assert held.unschedulable_reason == {0: "more_than_queue_quota"}
    assert admitted.status == ["completed"]
