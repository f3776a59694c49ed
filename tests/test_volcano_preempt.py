"""Volcano's preempt and reclaim actions finish every job (issue 31, item 1).

A preempted job goes back to its place in its shape's queue but to the back of the enqueue
gate's pending list. The replay used to offer only each shape's oldest waiting job, so once
younger jobs of that shape were let in and held the gate's whole budget, nothing of the shape
was ever offered again: the loop stopped with jobs waiting on an idle cluster.
"""

from collections import Counter

import pytest

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import simulate
from planner.engine.policy import Policy
from planner.engine.scenario import Scenario
from planner.engine.volcano import VolcanoSpec
from planner.service.replay import with_volcano_queues
from tests.test_engine_golden import TEAMS, nodes_plain, philly


def _policy(nodes: list[NodeSpec], volcano: dict[str, object]) -> Policy:
    scenario, _ = with_volcano_queues(Scenario(volcano=VolcanoSpec.model_validate(volcano)), nodes)
    return scenario.to_policy()


def _issue_case(*, preempt: bool, reclaim: bool) -> Policy:
    """Issue 31's set-up: four queues, weights 1, 2, 3, 1, capability 96 GPUs each."""
    nodes = nodes_plain(40)
    return _policy(
        nodes,
        {
            "queues": [
                {"name": f"q{n}", "weight": w, "capability": {"": 96}}
                for n, w in enumerate((1, 2, 3, 1))
            ],
            "preempt": preempt,
            "reclaim": reclaim,
            "local_queues": {team: f"q{n % 4}" for n, team in enumerate(TEAMS)},
        },
    )


@pytest.mark.parametrize(("preempt", "reclaim"), [(True, False), (True, True), (False, True)])
def test_issue_31_volcano_case_finishes_every_job(preempt: bool, reclaim: bool) -> None:
    """40 x 8 A100, 1,500 philly-profile jobs with submit times scaled by 0.05."""
    policy = _issue_case(preempt=preempt, reclaim=reclaim)

    result = simulate(philly(1500, 7, 0.05), nodes_plain(40), policy)

    assert Counter(result.status) == {"completed": 1500}
    assert result.deadlock is None


def test_a_preempted_job_runs_again_once_younger_jobs_of_its_shape_hold_the_gate() -> None:
    """3 nodes x 8 GPUs, one queue, gate limit 1.2 x 24 = 28.8 GPUs.

    t=0: L (2 pods x 8, priority 0) and B (8) start: 24 allocated.
    t=1: C, shaped like L, waits at the gate: 28.8 - 24 = 4.8 < 16.
    t=2: H (4 GPUs, priority 1) is let in (4 <= 4.8) and preempts L (the oldest of the
    lower-priority jobs); L goes back to the gate's pending list, behind C.
    Next pass: 28.8 - (8 + 4) = 16.8, so C (16) is let in and L (16) is not (0.8 left).
    The old replay offered only L, the shape's oldest waiting job, and stopped with jobs
    waiting on an idle cluster (at the end 28.8 - 16 for C = 12.8 < 16: L never let in).
    Now C, the shape's oldest Inqueue job, runs when H ends (t=12; quota 8 + 16 = 24 <= 24),
    and when C ends (t=22) the gate has 28.8 - 8 = 20.8 >= 16 and L runs again (t=22 to 1022).
    """
    nodes = nodes_plain(3)
    policy = _policy(nodes, {"queues": [{"name": "default"}], "preempt": True})
    jobs = [
        Job("L", 0.0, 1000.0, pods=2, gpus=8.0),
        Job("B", 0.0, 1000.0, gpus=8.0),
        Job("C", 1.0, 10.0, pods=2, gpus=8.0),
        Job("H", 2.0, 10.0, gpus=4.0, priority=1),
    ]

    result = simulate(jobs, nodes, policy)

    assert result.status == ["completed"] * 4
    assert result.start_s == [22.0, 0.0, 12.0, 2.0]
    assert result.end_s == [1022.0, 1000.0, 22.0, 12.0]
