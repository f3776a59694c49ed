"""Scenario `priorities`: classes by name and priorities per queue override the trace's."""

import pytest

from planner.core.model import Job
from planner.engine import simulate
from planner.engine.scenario import Scenario

QUEUES = {
    "flavors": [{"name": "gpu", "gpu_type": ""}],
    "cluster_queues": [
        {
            "name": "shared",
            "preemption": {"within_cluster_queue": "LowerPriority"},
            "quotas": [{"flavor": "gpu", "gpus": 8}],
        }
    ],
    "local_queues": {"research": "shared", "prod": "shared"},
}
NODES = [("n0", "", 8, 0.0, 0.0)]
JOBS = [
    Job("research-run", 0, 1000, gpus=8, queue="research", priority=5),
    Job("prod-run", 100, 100, gpus=8, queue="prod", priority=0),
]


def _replay(priorities: dict[str, object] | None) -> list[float | None]:
    data: dict[str, object] = {"queues": QUEUES}
    if priorities is not None:
        data["priorities"] = priorities
    return simulate(JOBS, NODES, Scenario.model_validate(data).to_policy()).start_s


def test_trace_priorities_apply_without_a_mapping() -> None:
    # research (5) outranks prod (0): prod waits for the end at 1000
    assert _replay(None) == [0, 1000]


def test_a_priority_class_per_queue_overrides_the_trace() -> None:
    priorities = {"classes": {"production": 1000, "batch": 10}, "by_queue": {"prod": "production"}}
    # prod is now 1000 > research 5: it preempts research at 100
    assert _replay(priorities) == [200, 100]


def test_unknown_class_and_missing_queues_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown priority class 'gold'"):
        Scenario.model_validate({"queues": QUEUES, "priorities": {"by_queue": {"prod": "gold"}}})
    with pytest.raises(ValueError, match="needs queues"):
        Scenario.model_validate({"priorities": {"by_queue": {"prod": 3}}})


def test_the_preemptor_waits_for_its_victims_to_terminate() -> None:
    data = {
        "queues": QUEUES,
        "priorities": {"by_queue": {"prod": 1000}},
        "preemption": {"termination_grace_s": 30},
    }
    result = simulate(JOBS, NODES, Scenario.model_validate(data).to_policy())
    # evicted at 100, research's pods hold the 8 GPUs (and the quota) until 130
    assert result.start_s == [230, 130]
    assert result.segments[0][0][:2] == (0, 100)
    assert result.preemptions == 1
    assert result.wasted_gpu_s == pytest.approx(8 * (100 + 30))
    assert result.status == ["completed", "completed"]
