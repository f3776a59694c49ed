"""Container overhead: multi-pod jobs run slower on ordinary networks and storage."""

import pytest

from planner.core.model import Job
from planner.engine import simulate
from planner.engine.metrics import summarize
from planner.engine.overhead import Overhead
from planner.engine.policy import Policy
from planner.engine.scenario import Scenario

NODES = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 8, 0.0, 0.0)]


def test_one_pod_pays_nothing_and_large_gangs_approach_the_full_penalty() -> None:
    worst = Overhead("tcp", "nfs")

    assert worst.factor(1) == 1.0
    assert worst.factor(2) == pytest.approx(1 + 0.35 / 2)
    assert worst.factor(64) == pytest.approx(1 + 0.35 * 63 / 64)
    assert Overhead("rdma", "parallel-fs").factor(1024) < 1.05  # within 5%, as documented
    assert Overhead().factor(16) == 1.0


def test_the_replay_stretches_multi_pod_runs_and_reports_the_overhead() -> None:
    jobs = [Job("gang", 0, 100, pods=2, gpus=8), Job("single", 0, 100, pods=1, gpus=8)]

    result = simulate(
        jobs, [*NODES, ("n3", "A100", 8, 0.0, 0.0)], Policy(overhead=Overhead("tcp", "nfs"))
    )

    ends = dict(zip((j.job_id for j in result.jobs), result.end_s, strict=True))
    assert ends == {"gang": pytest.approx(117.5), "single": 100}
    assert summarize(result).overhead_gpu_hours == pytest.approx(16 * 17.5 / 3600)


def test_scenario_overhead_reaches_the_policy() -> None:
    scenario = Scenario.model_validate(
        {"overhead": {"network": "iptables", "storage": "parallel-fs"}}
    )

    policy = scenario.to_policy()

    assert policy.overhead == Overhead("iptables", "parallel-fs")
    assert policy.overhead.factor(2) == pytest.approx(1 + 0.15 / 2)
