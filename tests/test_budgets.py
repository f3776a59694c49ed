"""GPU-hour budgets per ClusterQueue and month: admission stops once the month's budget is used."""

import pytest

from planner.core.model import Job
from planner.engine import simulate
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from planner.engine.quota import BUDGET_MONTH_S
from planner.engine.scenario import QueuesSpec
from planner.engine.waits import REASON_CODES

NODES = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 8, 0.0, 0.0)]


def policy(budget: float | None) -> Policy:
    spec = QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f"}],
            "cluster_queues": [
                {
                    "name": "team",
                    "quotas": [{"flavor": "f", "gpus": 16}],
                    "budget_gpu_hours_per_month": budget,
                }
            ],
        }
    )
    return Policy(queues=spec.to_setup(strict_default=False))


JOBS = [
    Job("first", 0, 3600, gpus=8, queue="team"),  # 8 GPU-h by 3600
    Job("second", 3600, 3600, gpus=8, queue="team"),  # 8 < 10 used: admitted, 16 by 7200
    Job("third", 7200, 3600, gpus=8, queue="team"),  # 16 >= 10: waits for next month
]


def test_admission_stops_once_the_month_budget_is_used_and_resumes_next_month() -> None:
    result = simulate(JOBS, NODES, policy(10))

    starts = dict(zip((j.job_id for j in result.jobs), result.start_s, strict=True))
    assert starts == {"first": 0, "second": 3600, "third": BUDGET_MONTH_S}
    third = [j.job_id for j in result.jobs].index("third")
    waited = result.wait_by_reason[third]
    assert waited is not None
    assert waited[REASON_CODES.index("over_budget")] == BUDGET_MONTH_S - 7200
    used = summarize(result).queues.budget_used_gpu_hours_by_month["team"]
    assert used == pytest.approx([16.0, 8.0])


def test_without_a_budget_nothing_waits() -> None:
    result = simulate(JOBS, NODES, policy(None))

    assert result.start_s == [0, 3600, 7200]
