"""Kueue classic preemption, worked by hand: reclaim, within-queue, checkpoints, minimisation."""

from pathlib import Path

import pytest

from planner.cli import main
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from planner.engine.preemption import Candidate, choose_victims
from planner.engine.quota import QueueSetup
from planner.engine.scenario import QueuesSpec
from planner.engine.waits import REASON_CODES
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
    assert summary.wasted_gpu_hours == pytest.approx(280 / 3600)
    assert summary.wait_s.max == 50  # b1 waited 50 s in all; its first run is not a wait


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


def cohort(
    preemption_c: dict[str, object],
    *,
    a_gpus: float,
    c_gpus: float,
    preemption_a: dict[str, object] | None = None,
) -> QueueSetup:
    """A and C share cohort org (A does not preempt unless told); D stands alone."""
    return QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f"}],
            "cluster_queues": [
                {
                    "name": "A",
                    "cohort": "org",
                    "quotas": [{"flavor": "f", "gpus": a_gpus}],
                    "preemption": preemption_a or {},
                },
                {
                    "name": "C",
                    "cohort": "org",
                    "quotas": [{"flavor": "f", "gpus": c_gpus}],
                    "preemption": preemption_c,
                },
                {"name": "D", "quotas": [{"flavor": "f", "gpus": 16}]},
            ],
        }
    ).to_setup(strict_default=False)


def span(result: ReplayResult, job_id: str) -> tuple[float | None, float | None]:
    """Start and end of a job's last (or only) run."""
    i = by_id(result)[job_id]
    return result.start_s[i], result.end_s[i]


def evicted(result: ReplayResult, job_id: str) -> list[tuple[float, float]]:
    """Start and end of each of a job's runs that ended in an eviction."""
    return [(start, end) for start, end, _ in result.segments.get(by_id(result)[job_id], [])]


def replay_with_grace(jobs: list[Job], queues: QueueSetup) -> ReplayResult:
    """On two 8-GPU nodes; an evicted job's pods hold its GPUs and quota for 20 s."""
    return simulate(jobs, TWO_NODES, Policy(queues=queues, termination_grace_s=20))


def test_the_reclaimed_quota_goes_to_the_preemptor_not_back_to_its_victim() -> None:
    # The cohort's quota is 4 (A 1, C 3). a-job (priority 1) takes all 4 at 0, borrowing 3.
    # c-big needs 4 > C's nominal 3, so it may not preempt; it heads C's queue, waiting.
    # c-small (1 GPU, within C's nominal) reclaims at 5: a-job's pods hold its 4 GPUs and the
    # quota until 25. At 25 a-job and c-big would each fit again and both come before c-small
    # in their queues; the preemptor goes first (Kueue prefers it once its victims are gone),
    # so a-job is not readmitted only to be evicted again every 20 s (it used to livelock).
    jobs = [
        Job("a-job", 0, 100, gpus=4, queue="A", priority=1),
        Job("c-big", 0, 10, gpus=4, queue="C"),
        Job("c-small", 5, 10, gpus=1, queue="C"),
    ]
    queues = cohort({"reclaim_within_cohort": "Any"}, a_gpus=1, c_gpus=3)

    result = replay_with_grace(jobs, queues)

    assert (result.livelock, result.preemptions) == (None, 1)
    assert evicted(result, "a-job") == [(0, 5)]
    # c-small 25-35; then a-job (higher priority) 35-135, all 100 s again; c-big 135-145
    assert {job.job_id: span(result, job.job_id) for job in jobs} == {
        "c-small": (25, 35),
        "a-job": (35, 135),
        "c-big": (135, 145),
    }
    assert result.status == ["completed"] * 3
    # 5 s of a-job's work lost plus the 20 s its pods held the GPUs: 4 x 25
    assert result.wasted_gpu_s == 100
    # a-job 4 x (25 + 100), c-small 1 x 10, c-big 4 x 10
    assert result.allocated_gpu_s == 4 * 125 + 10 + 40


def test_no_victim_is_evicted_while_the_preemptor_still_would_not_fit_on_the_nodes() -> None:
    # Two 8-GPU nodes. d1 (6 GPUs, queue D outside the cohort) takes one; b1 (4, borrowed
    # from C's idle quota) and d2 (3) share the other. a1 needs one 8-GPU pod in C (nominal
    # 8): evicting b1 would give it the quota at 10, but no node would have 8 free GPUs, so
    # b1 keeps running. At 50 d1 ends, its node is free, and evicting b1 lets a1 start.
    jobs = [
        Job("d1", 0, 50, gpus=6, queue="D"),
        Job("b1", 0, 100, gpus=4, queue="A"),
        Job("d2", 0, 1000, gpus=3, queue="D"),
        Job("a1", 10, 20, gpus=8, queue="C"),
    ]
    policy = Policy(queues=cohort({"reclaim_within_cohort": "Any"}, a_gpus=0, c_gpus=8))

    result = simulate(jobs, TWO_NODES, policy)

    ix = by_id(result)
    first_run = {"d1": result.placement[ix["d1"]], "d2": result.placement[ix["d2"]]}
    first_run["b1"] = result.segments[ix["b1"]][0][2]
    node = {job: placed[0][0] for job, placed in first_run.items()}
    assert node["d1"] != node["d2"] == node["b1"]
    assert result.preemptions == 1
    assert evicted(result, "b1") == [(0, 50)]
    assert span(result, "a1") == (50, 70)
    # b1 borrows C's quota again once a1 has given it back, and runs its 100 s from 70
    assert span(result, "b1") == (70, 170)
    assert result.wasted_gpu_s == 4 * 50


def test_a_preemptor_keeps_its_queue_head_while_its_victims_terminate() -> None:
    # C's quota is 4; older jobs of equal priority may evict newer ones. old (3 GPUs) runs
    # from 0; big (4) waits behind it and small1 (1) fits beside it at 10. old ends at 100,
    # big evicts small1 and waits for its pods until 120. small2 (2 GPUs) arrives at 110 and
    # would fit beside the terminating pods, but it is behind big in C's queue: it waits.
    # Admitting it used to let big evict small2, small1 refill the quota, and so on, forever.
    jobs = [
        Job("old", 0, 100, gpus=3, queue="C"),
        Job("big", 0, 10, gpus=4, queue="C"),
        Job("small1", 10, 100, gpus=1, queue="C"),
        Job("small2", 110, 100, gpus=2, queue="C"),
    ]
    queues = cohort({"within_cluster_queue": "LowerOrNewerEqualPriority"}, a_gpus=0, c_gpus=4)

    result = replay_with_grace(jobs, queues)

    assert (result.livelock, result.preemptions) == (None, 1)
    assert evicted(result, "small1") == [(10, 100)]
    assert {job.job_id: span(result, job.job_id) for job in jobs[1:]} == {
        "big": (120, 130),
        "small1": (130, 230),
        "small2": (130, 230),
    }
    # small1 lost 90 s of work and held its GPU 20 s more while its pods terminated
    assert result.wasted_gpu_s == 90 + 20
    # old 3 x 100, small1 1 x (110 + 100), big 4 x 10, small2 2 x 100
    assert result.allocated_gpu_s == 300 + 210 + 40 + 200


def test_a_horizon_cuts_the_grace_of_pods_still_terminating_from_the_wasted_gpu_seconds() -> None:
    # b1 is evicted at 30 and its pods would hold 8 GPUs until 60; the replay ends at 40
    policy = Policy(
        queues=setup({"reclaim_within_cohort": "Any"}), termination_grace_s=30, horizon_s=40
    )

    result = simulate(BORROWERS, TWO_NODES, policy)

    # 30 s of b1's work lost and 10 of its grace inside the replay
    assert result.wasted_gpu_s == 8 * (30 + 10)
    # b1 and b2 held 8 GPUs each for all 40 s; a1 would start at 60
    assert result.allocated_gpu_s == 2 * 8 * 40
    assert result.preemptions == 1


def test_a_borrowing_preemptor_takes_no_victim_from_a_queue_no_longer_borrowing() -> None:
    # The cohort's quota is 11 (A 5, C 6). c1 and c2 (4 GPUs each) run from 0: C borrows 2.
    # a-big (8 GPUs, priority 3) needs to borrow 3 and may preempt lower priorities while
    # borrowing. Evicting c1 would leave C at 4, within its nominal 6: c2 is then no longer a
    # candidate (Kueue takes victims only from queues that still borrow), and 7 < 8, so
    # nobody is evicted. Evicting both used to let C reclaim from a-big, and so on, forever.
    jobs = [
        Job("c1", 0, 100, gpus=4, queue="C"),
        Job("c2", 0, 100, gpus=4, queue="C"),
        Job("a-big", 10, 10, gpus=8, queue="A", priority=3),
    ]
    reclaim = {"reclaim_within_cohort": "LowerPriority", "borrow_within_cohort": "LowerPriority"}
    queues = cohort({"reclaim_within_cohort": "Any"}, a_gpus=5, c_gpus=6, preemption_a=reclaim)

    result = replay_with_grace(jobs, queues)

    assert (result.livelock, result.preemptions) == (None, 0)
    assert span(result, "a-big") == (100, 110)
    assert result.wasted_gpu_s == 0
