"""Kueue classic preemption, worked by hand: reclaim, within-queue, checkpoints, minimisation."""

from pathlib import Path

import pytest

from planner.cli import main
from planner.engine import ReplayResult, simulate
from planner.metrics import summarize
from planner.model import Job
from planner.policy import Policy
from planner.preemption import Candidate, choose_victims
from planner.quota import QueueSetup
from planner.scenario import QueuesSpec
from planner.waits import REASON_CODES
from tests.conftest import write

TWO_NODES = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 8, 0.0, 0.0)]
PREEMPTED = REASON_CODES.index("preempted")


def setup(a_preemption: dict[str, object], *, a_gpus: float = 8, b_gpus: float = 8) -> QueueSetup:
    return QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f"}],
            "cluster_queues": [
                {
                    "name": "A",
                    "cohort": "org",
                    "quotas": [{"flavor": "f", "gpus": a_gpus}],
                    "preemption": a_preemption,
                },
                {"name": "B", "cohort": "org", "quotas": [{"flavor": "f", "gpus": b_gpus}]},
            ],
        }
    ).to_setup(strict_default=False)


def by_id(result: ReplayResult) -> dict[str, int]:
    return {job.job_id: i for i, job in enumerate(result.jobs)}


# B borrows A's idle quota from 0 with two 8-GPU jobs; A's job arrives at 30.
BORROWERS = [
    Job("b1", 0, 100, gpus=8, queue="B"),
    Job("b2", 0, 100, gpus=8, queue="B"),
    Job("a1", 30, 50, gpus=8, queue="A"),
]


def test_reclaim_evicts_a_borrower_and_it_restarts_from_zero_with_its_restart_overhead() -> None:
    result = simulate(
        BORROWERS,
        TWO_NODES,
        Policy(queues=setup({"reclaim_within_cohort": "Any"}), restart_overhead_s=5),
    )

    ix = by_id(result)
    # a1 takes back A's quota at 30 from the borrower started last (tie: b1, first in the trace)
    assert result.start_s[ix["a1"]] == 30
    assert [s[:2] for s in result.segments[ix["b1"]]] == [(0, 30)]
    # b1 requeues, restarts when a1 ends at 80 and runs all 100 s again plus 5 s restart
    assert (result.start_s[ix["b1"]], result.end_s[ix["b1"]]) == (80, 185)
    assert result.status[ix["b1"]] == "completed"
    assert result.preemptions == 1
    assert result.wasted_gpu_s == 8 * (30 + 5)
    assert result.wait_by_reason[ix["b1"]][PREEMPTED] == 50
    summary = summarize(result)
    assert summary["wasted_gpu_hours"] == pytest.approx(280 / 3600)
    assert summary["wait_s"]["max"] == 50  # b1 waited 50 s in all; its first run is not a wait


def test_a_checkpoint_keeps_the_work_done_before_it() -> None:
    policy = Policy(
        queues=setup({"reclaim_within_cohort": "Any"}),
        checkpoint_interval_s=20,
        restart_overhead_s=5,
    )

    result = simulate(BORROWERS, TWO_NODES, policy)

    ix = by_id(result)
    # ran 30 s, checkpointed at 20: 10 s lost; remaining 100 - 20 + 5 = 85 from 80
    assert result.end_s[ix["b1"]] == 165
    assert result.wasted_gpu_s == 8 * (10 + 5)


def test_without_a_preemption_policy_the_owner_waits_for_its_own_quota() -> None:
    result = simulate(BORROWERS, TWO_NODES, Policy(queues=setup({})))

    ix = by_id(result)
    assert result.preemptions == 0
    assert result.start_s[ix["a1"]] == 100
    assert result.wait_by_reason[ix["a1"]][REASON_CODES.index("quota")] == 70


def test_reclaim_lower_priority_spares_equal_and_higher_priorities() -> None:
    jobs = [*BORROWERS[:2], Job("a1", 30, 50, gpus=8, queue="A", priority=0)]

    result = simulate(
        jobs, TWO_NODES, Policy(queues=setup({"reclaim_within_cohort": "LowerPriority"}))
    )

    assert result.preemptions == 0


def test_within_queue_lower_priority_evicts_the_lowest_priority_most_recent_job() -> None:
    jobs = [
        Job("low-old", 0, 100, gpus=4, queue="A", priority=1),
        Job("low-new", 10, 100, gpus=4, queue="A", priority=1),
        Job("high", 20, 10, gpus=4, queue="A", priority=5),
    ]
    queues = setup({"within_cluster_queue": "LowerPriority"}, a_gpus=8, b_gpus=0)

    result = simulate(jobs, TWO_NODES, Policy(queues=queues))

    ix = by_id(result)
    assert result.start_s[ix["high"]] == 20
    assert list(result.segments) == [ix["low-new"]]
    assert result.start_s[ix["low-new"]] == 30  # back when high ends; A's quota is 8


def test_a_job_younger_than_the_minimum_run_time_is_not_preempted() -> None:
    policy = Policy(queues=setup({"reclaim_within_cohort": "Any"}), min_run_s=60)

    result = simulate(BORROWERS, TWO_NODES, policy)

    ix = by_id(result)
    assert result.preemptions == 1
    assert result.start_s[ix["a1"]] == 60  # the borrowers become eligible at 60


def test_victims_are_minimised_after_the_greedy_pass() -> None:
    # needs 6. Order: other queues first, most recent first: 1 (size 1), 2 (size 2), then
    # the own queue's 3 (size 5): greedy 1 + 2 + 5 = 8 >= 6. Walking back over 2 then 1:
    # without 2, 1 + 5 = 6 still fits, so 2 is spared; without 1, 5 < 6, so 1 stays.
    sizes = {1: 1, 2: 2, 3: 5}
    candidates = [
        Candidate(1, 0, 9.0, True),
        Candidate(2, 0, 5.0, True),
        Candidate(3, 0, 0.0, False),
    ]

    victims = choose_victims(candidates, lambda chosen: sum(sizes[c.job] for c in chosen) >= 6)

    assert victims is not None
    assert sorted(v.job for v in victims) == [1, 3]


def test_schedule_has_a_preempted_row_per_evicted_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        tmp_path,
        "jobs.csv",
        "job_id,submit_time,duration_s,gpus,queue\nb1,0,100,8,B\nb2,0,100,8,B\na1,30,50,8,A\n",
    )
    scenario = write(
        tmp_path,
        "s.yaml",
        "trace: jobs.csv\ncluster:\n  pools: [{gpu_type: A100, gpus_per_node: 8, count: 2}]\n"
        "queues:\n  flavors: [{name: f}]\n  cluster_queues:\n"
        "    - {name: A, cohort: org, quotas: [{flavor: f, gpus: 8}], preemption: {reclaim_within_cohort: Any}}\n"
        "    - {name: B, cohort: org, quotas: [{flavor: f, gpus: 8}]}\n",
    )
    out = tmp_path / "schedule.csv"

    assert (
        main(
            [
                "replay",
                "--scenario",
                str(scenario),
                "--db",
                str(tmp_path / "p.duckdb"),
                "--schedule-out",
                str(out),
            ]
        )
        == 0
    )

    rows = out.read_text().splitlines()[1:]
    b1 = [row.split(",") for row in rows if row.startswith("b1,")]
    assert [(r[3], r[4], r[9]) for r in b1] == [
        ("0", "30", "preempted"),
        ("80", "180", "completed"),
    ]
    assert b1[1][11] == "50"  # waited 50 s in all
    capsys.readouterr()


def test_a_queue_mapped_priority_overrides_the_trace_and_drives_preemption() -> None:
    spec = QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f"}],
            "cluster_queues": [
                {
                    "name": "A",
                    "quotas": [{"flavor": "f", "gpus": 8}],
                    "preemption": {"within_cluster_queue": "LowerPriority"},
                }
            ],
            "local_queues": {"batch": "A", "prod": "A"},
            "queue_priority": {"prod": 100},
        }
    ).to_setup(strict_default=False)
    # both have priority 0 in the trace; prod's jobs get 100 from the mapping
    jobs = [
        Job("batch-job", 0, 100, gpus=8, queue="batch"),
        Job("prod-job", 10, 50, gpus=8, queue="prod"),
    ]

    result = simulate(jobs, TWO_NODES, Policy(queues=spec))

    ix = by_id(result)
    assert result.start_s[ix["prod-job"]] == 10
    assert [s[:2] for s in result.segments[ix["batch-job"]]] == [(0, 10)]
    assert result.end_s[ix["batch-job"]] == 160
