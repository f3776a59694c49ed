"""Hand-computed replays: each admission, placement and queueing option on a tiny cluster.

Every expected number below was worked out on paper from the semantics in planner/engine/waits.py,
planner/engine/cluster.py and planner/engine/loop.py before the engine was run; the comment above each
scenario is that working.
"""

import pytest

from planner.core.config import NodeSpec
from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.policy import Policy
from planner.engine.waits import REASON_CODES

ONE_8 = [("n1", "A100", 8, 0.0, 0.0)]
TWO_8 = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 8, 0.0, 0.0)]


def run(jobs: list[Job], nodes: list[NodeSpec], **policy: object) -> ReplayResult:
    return simulate(jobs, nodes, Policy(**policy))  # type: ignore[arg-type]


def index(result: ReplayResult, job_id: str) -> int:
    return next(i for i, job in enumerate(result.jobs) if job.job_id == job_id)


def start(result: ReplayResult, job_id: str) -> float | None:
    return result.start_s[index(result, job_id)]


def end(result: ReplayResult, job_id: str) -> float | None:
    return result.end_s[index(result, job_id)]


def status(result: ReplayResult, job_id: str) -> str:
    return result.status[index(result, job_id)]


def placement(result: ReplayResult, job_id: str) -> dict[str, float]:
    """Node id -> GPUs the job ran on (or holds)."""
    return {result.node_ids[n]: gpus for n, gpus in result.placement[index(result, job_id)]}


def waits(result: ReplayResult, job_id: str) -> dict[str, float]:
    """The job's non-zero waiting seconds by reason code ({} if it never waited)."""
    waited = result.wait_by_reason[index(result, job_id)]
    if waited is None:
        return {}
    return {code: s for code, s in zip(REASON_CODES, waited, strict=True) if s}


# --- queueing ---------------------------------------------------------------------------------

# One 8-GPU node. A (6 GPUs, 0-100) runs; B (4 GPUs) arrives at 10 and does not fit (2 free);
# C (2 GPUs, 10 s) arrives at 20 and would fit in the 2 free GPUs.
HEAD_BLOCKS = [
    Job("A", 0.0, 100.0, gpus=6),
    Job("B", 10.0, 50.0, gpus=4),
    Job("C", 20.0, 10.0, gpus=2),
]


def test_strict_fifo_head_blocks_a_job_that_fits_and_it_waits_behind_head() -> None:
    result = run(HEAD_BLOCKS, ONE_8, queueing="strict-fifo")

    # A ends at 100: B (head) takes 4 of 8, then C takes 2; both start at 100.
    assert (start(result, "B"), end(result, "B")) == (100.0, 150.0)
    assert (start(result, "C"), end(result, "C")) == (100.0, 110.0)
    assert waits(result, "B") == {"cluster_full": 90.0}
    assert waits(result, "C") == {"behind_head": 80.0}
    assert waits(result, "A") == {}


def test_fifo_skips_a_blocked_head_and_starts_the_job_that_fits() -> None:
    result = run(HEAD_BLOCKS, ONE_8, queueing="fifo")

    assert (start(result, "C"), end(result, "C")) == (20.0, 30.0)
    assert waits(result, "C") == {}
    assert start(result, "B") == 100.0
    assert waits(result, "B") == {"cluster_full": 90.0}


# One 8-GPU node. A (6 GPUs, 0-100) runs; the head B (8 GPUs) arrives at 10: its shadow time is
# 100 and it reserves the node. At 20 C (1 GPU, 50 s) would end at 70 <= 100: backfilled.
# D (1 GPU, 200 s) would end at 220 > 100 and hold a GPU B needs: it waits behind the head
# until B starts at 100 (80 s), then for the full node until B ends at 150 (50 s).
BACKFILL = [
    Job("A", 0.0, 100.0, gpus=6),
    Job("B", 10.0, 50.0, gpus=8),
    Job("C", 20.0, 50.0, gpus=1),
    Job("D", 20.0, 200.0, gpus=1),
]


def test_backfill_starts_a_short_job_that_ends_before_the_heads_shadow_time() -> None:
    result = run(BACKFILL, ONE_8, queueing="backfill")

    assert (start(result, "C"), end(result, "C")) == (20.0, 70.0)
    assert waits(result, "C") == {}


def test_backfill_holds_a_long_job_that_would_delay_the_head() -> None:
    result = run(BACKFILL, ONE_8, queueing="backfill")

    assert (start(result, "B"), end(result, "B")) == (100.0, 150.0)
    assert waits(result, "B") == {"cluster_full": 90.0}
    assert (start(result, "D"), end(result, "D")) == (150.0, 350.0)
    assert waits(result, "D") == {"behind_head": 80.0, "cluster_full": 50.0}


def test_backfill_starts_a_long_job_on_a_node_the_heads_reservation_does_not_need() -> None:
    # n1 (8) and n2 (4). A (6 GPUs) can only go on n1; the head B (8 GPUs) can only go on n1 and
    # reserves it. D (4 GPUs, 1000 s) is long but fits n2, off the reservation: starts at 20.
    # E (1 GPU, long) fits only n1 (n2 is full after D): it waits until B has run.
    nodes = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 4, 0.0, 0.0)]
    jobs = [
        Job("A", 0.0, 100.0, gpus=6),
        Job("B", 10.0, 50.0, gpus=8),
        Job("D", 20.0, 1000.0, gpus=4),
        Job("E", 20.0, 1000.0, gpus=1),
    ]

    result = run(jobs, nodes, queueing="backfill")

    assert start(result, "D") == 20.0
    assert placement(result, "D") == {"n2": 4.0}
    assert start(result, "B") == 100.0
    assert start(result, "E") == 150.0
    assert waits(result, "E") == {"behind_head": 80.0, "cluster_full": 50.0}


def test_backfill_judges_short_jobs_by_estimates_so_overestimates_can_delay_the_head() -> None:
    # C (1 GPU, 85 s) at 20. Exact estimates: shadow 100, 20 + 85 = 105 > 100, C waits; B
    # starts at 100. Estimates x2: A is expected to end at 200, C at 20 + 170 = 190 <= 200,
    # so C is backfilled, really ends at 105 and B (needing all 8 GPUs) starts at 105.
    jobs = [
        Job("A", 0.0, 100.0, gpus=6),
        Job("B", 10.0, 50.0, gpus=8),
        Job("C", 20.0, 85.0, gpus=1),
    ]

    exact = run(jobs, ONE_8, queueing="backfill", estimate_factor=1.0)
    doubled = run(jobs, ONE_8, queueing="backfill", estimate_factor=2.0)

    assert (start(exact, "B"), start(exact, "C")) == (100.0, 150.0)
    assert (start(doubled, "B"), start(doubled, "C")) == (105.0, 20.0)
    assert waits(doubled, "B") == {"cluster_full": 95.0}


def test_pod_admission_with_backfill_is_rejected() -> None:
    with pytest.raises(ScenarioError, match="backfill needs gang admission"):
        Policy(admission="pod", queueing="backfill")


def test_gpus_freed_at_an_instant_serve_a_job_arriving_at_that_instant() -> None:
    jobs = [Job("A", 0.0, 100.0, gpus=8), Job("B", 100.0, 10.0, gpus=8)]

    result = run(jobs, ONE_8)

    assert (start(result, "B"), end(result, "B")) == (100.0, 110.0)
    assert waits(result, "B") == {}


# --- placement --------------------------------------------------------------------------------

# Empty nodes of 8, 4 and 6 GPUs; one 2-GPU pod. Free GPU share left: 6/8, 2/4, 4/6.
UNEVEN = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 4, 0.0, 0.0), ("n3", "A100", 6, 0.0, 0.0)]


def test_best_fit_picks_the_node_left_with_the_least_free_share() -> None:
    result = run([Job("A", 0.0, 10.0, gpus=2)], UNEVEN, placement="best-fit")

    assert placement(result, "A") == {"n2": 2.0}


def test_spread_picks_the_emptiest_node() -> None:
    result = run([Job("A", 0.0, 10.0, gpus=2)], UNEVEN, placement="spread")

    assert placement(result, "A") == {"n1": 2.0}


def test_binpack_picks_the_most_allocated_node() -> None:
    result = run([Job("A", 0.0, 10.0, gpus=2)], UNEVEN, placement="binpack")

    assert placement(result, "A") == {"n2": 2.0}


def test_best_fit_weighs_the_cpu_share_equally_with_the_gpu_share() -> None:
    # Both nodes keep 3/4 of their GPUs; CPU left is 60/64 on n1 and 4/8 on n2: n2 is tighter.
    nodes = [("n1", "A100", 4, 64.0, 0.0), ("n2", "A100", 4, 8.0, 0.0)]

    result = run([Job("A", 0.0, 10.0, gpus=1, cpu=4)], nodes, placement="best-fit")

    assert placement(result, "A") == {"n2": 1.0}


def test_binpack_and_spread_score_memory_as_kube_scheduler_does_but_best_fit_ignores_it() -> None:
    # n1: 4 GPUs, 512 GiB; n2: 8 GPUs, 64 GiB; pod: 2 GPUs, 32 GiB.
    # best-fit (GPU and CPU only): free GPU share 2/4 on n1 < 6/8 on n2 -> n1.
    # MostAllocated: n1 (50 + 6) // 2 = 28, n2 (25 + 50) // 2 = 37 -> n2.
    # LeastAllocated: n1 (50 + 93) // 2 = 71, n2 (75 + 50) // 2 = 62 -> n1.
    nodes = [("n1", "A100", 4, 0.0, 512.0), ("n2", "A100", 8, 0.0, 64.0)]
    jobs = [Job("A", 0.0, 10.0, gpus=2, mem_gib=32)]

    chosen = {
        p: placement(run(jobs, nodes, placement=p), "A") for p in ("best-fit", "binpack", "spread")
    }

    assert chosen == {"best-fit": {"n1": 2.0}, "binpack": {"n2": 2.0}, "spread": {"n1": 2.0}}


@pytest.mark.parametrize("policy", ["best-fit", "binpack", "spread", "random", "fgd"])
def test_a_multi_pod_gang_goes_on_one_node_when_one_node_takes_every_pod(policy: str) -> None:
    nodes = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 4, 0.0, 0.0), ("n3", "A100", 4, 0.0, 0.0)]

    result = run([Job("G", 0.0, 10.0, pods=2, gpus=4)], nodes, placement=policy)

    assert placement(result, "G") == {"n1": 8.0}


def test_random_placement_is_fixed_by_the_seed_and_varies_across_seeds() -> None:
    # Six 1-GPU jobs on four empty 8-GPU nodes: every node fits every job, so only the seed
    # decides where each one goes.
    nodes = [(f"n{k}", "A100", 8, 0.0, 0.0) for k in range(4)]
    jobs = [Job(f"j{k}", 0.0, 10.0, gpus=1) for k in range(6)]

    def nodes_chosen(seed: int) -> tuple[tuple[tuple[int, float], ...], ...]:
        return tuple(run(jobs, nodes, placement="random", seed=seed).placement)

    assert nodes_chosen(3) == nodes_chosen(3)
    assert len({nodes_chosen(seed) for seed in range(10)}) > 1


# n1 has 1 GPU, n2 has 4. J1 (1 GPU, 0-10) takes n1 under both policies (it fills n1; FGD's
# growth is 0 everywhere and the tightest node breaks the tie). J2 (0.5 GPU, long) then goes
# to n2, leaving n2 as [1, 1, 1, 0.5] free. At 20 J3 (0.5 GPU) arrives with n1 whole again.
# best-fit: free share after is 0.5/1 on n1 < 3.5/4 on n2 -> n1, splitting n1's only GPU.
# FGD (mix: 1-GPU and 0.5-GPU pods): on n1 the 1-GPU pods no longer fit -> fragmentation
# grows by 0.5 GPU; on n2 filling the half-used GPU removes 0.5 GPU of fragmentation -> n2.
FGD_NODES = [("n1", "A100", 1, 0.0, 0.0), ("n2", "A100", 4, 0.0, 0.0)]
FGD_JOBS = [
    Job("J1", 0.0, 10.0, gpus=1),
    Job("J2", 0.0, 1000.0, gpus=0.5),
    Job("J3", 20.0, 100.0, gpus=0.5),
]


def test_best_fit_splits_the_only_whole_gpu_of_the_tightest_node() -> None:
    result = run(FGD_JOBS, FGD_NODES, placement="best-fit")

    assert placement(result, "J1") == {"n1": 1.0}
    assert placement(result, "J2") == {"n2": 0.5}
    assert placement(result, "J3") == {"n1": 0.5}


def test_fgd_fills_a_half_used_gpu_and_keeps_a_whole_gpu_free() -> None:
    result = run(FGD_JOBS, FGD_NODES, placement="fgd")

    assert placement(result, "J1") == {"n1": 1.0}
    assert placement(result, "J2") == {"n2": 0.5}
    assert placement(result, "J3") == {"n2": 0.5}


# --- fractional GPUs ----------------------------------------------------------------------------

ONE_GPU = [("n1", "A100", 1, 0.0, 0.0)]


def test_two_half_gpu_jobs_share_one_gpu() -> None:
    jobs = [Job("A", 0.0, 100.0, gpus=0.5), Job("B", 0.0, 100.0, gpus=0.5)]

    result = run(jobs, ONE_GPU)

    assert (start(result, "A"), start(result, "B")) == (0.0, 0.0)
    assert placement(result, "A") == placement(result, "B") == {"n1": 0.5}
    assert result.allocated_gpu_s == 100.0


def test_a_job_of_two_half_gpu_pods_fits_on_one_gpu() -> None:
    result = run([Job("A", 0.0, 100.0, pods=2, gpus=0.5)], ONE_GPU)

    assert status(result, "A") == "completed"
    assert placement(result, "A") == {"n1": 1.0}


def test_a_0_6_and_a_0_5_gpu_job_cannot_share_one_gpu() -> None:
    jobs = [Job("A", 0.0, 100.0, gpus=0.6), Job("B", 0.0, 100.0, gpus=0.5)]

    result = run(jobs, ONE_GPU)

    assert start(result, "B") == 100.0
    assert waits(result, "B") == {"cluster_full": 100.0}
    assert result.allocated_gpu_s == pytest.approx(0.6 * 100 + 0.5 * 100)


# --- GPU types and why jobs wait --------------------------------------------------------------


def test_gpu_type_constraint_places_on_that_type_and_waits_gpu_type_busy() -> None:
    # A holds all 8 V100s until 100. At 10 B wants 4 V100s; C takes all 8 A100s until 60.
    # B: 10-60 nothing free anywhere (cluster_full), 60-100 8 A100s free but no V100
    # (gpu_type_busy); it starts on the V100 node at 100.
    nodes = [("a1", "A100", 8, 0.0, 0.0), ("v1", "V100", 8, 0.0, 0.0)]
    jobs = [
        Job("A", 0.0, 100.0, gpus=8, gpu_types=("V100",)),
        Job("B", 10.0, 50.0, gpus=4, gpu_types=("V100",)),
        Job("C", 10.0, 50.0, gpus=8, gpu_types=("A100", "H100")),
    ]

    result = run(jobs, nodes)

    assert placement(result, "A") == {"v1": 8.0}
    assert placement(result, "C") == {"a1": 8.0}
    assert (start(result, "B"), placement(result, "B")) == (100.0, {"v1": 4.0})
    assert waits(result, "B") == {"cluster_full": 50.0, "gpu_type_busy": 40.0}
    assert result.capacity_gpus == {"A100": 8, "V100": 8}


def test_fragmented_when_enough_gpus_are_free_in_total_but_no_node_fits() -> None:
    # Two 6-GPU nodes; A and B (4 GPUs each) can only go one per node, leaving 2 + 2 free.
    # C (4 GPUs) at 10 waits fragmented until A ends at 100.
    nodes = [("n1", "A100", 6, 0.0, 0.0), ("n2", "A100", 6, 0.0, 0.0)]
    jobs = [
        Job("A", 0.0, 100.0, gpus=4),
        Job("B", 0.0, 200.0, gpus=4),
        Job("C", 10.0, 50.0, gpus=4),
    ]

    result = run(jobs, nodes)

    assert start(result, "C") == 100.0
    assert placement(result, "C") == placement(result, "A")
    assert waits(result, "C") == {"fragmented": 90.0}


def test_cpu_short_on_the_node_is_cpu_mem_short() -> None:
    # 16 cores; A takes 12, B (8 cores) at 10 has 7 GPUs but only 4 cores: waits until 100.
    nodes = [("n1", "A100", 8, 16.0, 64.0)]
    jobs = [Job("A", 0.0, 100.0, gpus=1, cpu=12), Job("B", 10.0, 50.0, gpus=1, cpu=8)]

    result = run(jobs, nodes)

    assert start(result, "B") == 100.0
    assert waits(result, "B") == {"cpu_mem_short": 90.0}


def test_memory_short_on_the_node_is_cpu_mem_short() -> None:
    nodes = [("n1", "A100", 8, 16.0, 64.0)]
    jobs = [Job("A", 0.0, 100.0, gpus=1, mem_gib=48), Job("B", 10.0, 50.0, gpus=1, mem_gib=32)]

    result = run(jobs, nodes)

    assert start(result, "B") == 100.0
    assert waits(result, "B") == {"cpu_mem_short": 90.0}


# --- unschedulable jobs ---------------------------------------------------------------------------

# 4 x 8 A100 (32 A100 GPUs) and 8 x 8 V100 (64), 64 cores per node.
MIXED = [(f"a{k}", "A100", 8, 64.0, 0.0) for k in range(4)] + [
    (f"v{k}", "V100", 8, 64.0, 0.0) for k in range(8)
]


@pytest.mark.parametrize(
    ("job", "nodes", "reason"),
    [
        (
            Job("X", 0.0, 10.0, pods=8, gpus=8, gpu_types=("A100",)),
            MIXED,
            "more_gpus_than_installed",
        ),
        (Job("X", 0.0, 10.0, gpus=1, gpu_types=("H100",)), MIXED, "gpu_type_not_installed"),
        (Job("X", 0.0, 10.0, gpus=16), MIXED, "pod_larger_than_any_node"),
        (Job("X", 0.0, 10.0, gpus=1, cpu=128), MIXED, "pod_larger_than_any_node"),
        (
            Job("X", 0.0, 10.0, pods=3, gpus=4),
            [("n1", "A100", 6, 0.0, 0.0), ("n2", "A100", 6, 0.0, 0.0)],
            "gang_does_not_fit_nodes",
        ),
    ],
    ids=["64-of-32-a100", "unknown-type", "16-gpu-pod", "128-core-pod", "3x4-on-2x6"],
)
def test_a_job_that_cannot_fit_the_empty_cluster_is_unschedulable_with_the_reason(
    job: Job, nodes: list[NodeSpec], reason: str
) -> None:
    result = run([job], nodes)

    assert result.status == ["unschedulable"]
    assert result.unschedulable_reason == {0: reason}
    assert (result.start_s, result.end_s, result.placement) == ([None], [None], [()])
    assert result.wait_by_reason == [None]


def test_an_unschedulable_job_does_not_block_strict_fifo() -> None:
    jobs = [
        Job("huge", 0.0, 10.0, pods=8, gpus=8, gpu_types=("A100",)),
        Job("ok", 5.0, 10.0, gpus=8, gpu_types=("A100",)),
    ]

    result = run(jobs, MIXED, queueing="strict-fifo")

    assert status(result, "huge") == "unschedulable"
    assert (status(result, "ok"), start(result, "ok")) == ("completed", 5.0)


# --- pod-by-pod admission ------------------------------------------------------------------------

# Two 8-GPU nodes; two jobs of 2 pods x 8 GPUs submitted together. Pod admission interleaves
# their pods: each job gets one node and waits forever for the other.
TWIN_GANGS = [Job("J1", 0.0, 100.0, pods=2, gpus=8), Job("J2", 0.0, 100.0, pods=2, gpus=8)]


def test_pod_admission_deadlocks_two_gangs_submitted_together() -> None:
    result = run(TWIN_GANGS, TWO_8, admission="pod")

    assert result.deadlock == {"at_s": 0.0, "jobs_waiting": 2.0, "gpus_held_idle": 16.0}
    assert result.status == ["unfinished", "unfinished"]
    assert result.start_s == [None, None]
    assert sorted(placement(result, "J1").values()) == [8.0]
    assert sorted(placement(result, "J2").values()) == [8.0]
    assert set(placement(result, "J1")) | set(placement(result, "J2")) == {"n1", "n2"}


def test_gang_admission_runs_the_same_two_gangs_one_after_the_other() -> None:
    result = run(TWIN_GANGS, TWO_8, admission="gang")

    assert result.deadlock is None
    assert result.status == ["completed", "completed"]
    assert (start(result, "J1"), start(result, "J2")) == (0.0, 100.0)
    assert waits(result, "J2") == {"cluster_full": 100.0}
    assert result.allocated_gpu_s == 16 * 200.0
    assert result.held_idle_gpu_s == 0.0


def test_deadlocked_partial_gangs_hold_their_gpus_idle_until_the_horizon() -> None:
    result = run(TWIN_GANGS, TWO_8, admission="pod", horizon_s=3600.0)

    assert result.horizon_s == 3600.0
    assert result.held_idle_gpu_s == 16 * 3600.0
    assert result.allocated_gpu_s == 0.0
    assert waits(result, "J1") == waits(result, "J2") == {"partial_gang": 3600.0}


def test_pod_admission_holds_a_placed_pod_idle_while_the_rest_of_its_gang_waits() -> None:
    # A (8 GPUs) takes one node until 100; B (2 x 8) at 10 places one pod on the other node and
    # holds it idle (partial_gang) until A ends; gang admission makes B wait with nothing held.
    jobs = [Job("A", 0.0, 100.0, gpus=8), Job("B", 10.0, 50.0, pods=2, gpus=8)]

    by_pod = run(jobs, TWO_8, admission="pod")
    by_gang = run(jobs, TWO_8, admission="gang")

    assert start(by_pod, "B") == start(by_gang, "B") == 100.0
    assert waits(by_pod, "B") == {"partial_gang": 90.0}
    assert by_pod.held_idle_gpu_s == 8 * 90.0
    assert waits(by_gang, "B") == {"cluster_full": 90.0}
    assert by_gang.held_idle_gpu_s == 0.0
    assert by_pod.allocated_gpu_s == by_gang.allocated_gpu_s == 8 * 100.0 + 16 * 50.0


def test_strict_fifo_pod_admission_blocks_behind_a_partly_placed_head() -> None:
    # n1, n2 (8) and n3 (4). A (8) fills an 8-GPU node until 100; B (2 x 8) at 10 places one
    # pod on the other 8-GPU node; C (2 GPUs) at 20 fits n3 but strict FIFO holds it behind B.
    nodes = [*TWO_8, ("n3", "A100", 4, 0.0, 0.0)]
    jobs = [
        Job("A", 0.0, 100.0, gpus=8),
        Job("B", 10.0, 50.0, pods=2, gpus=8),
        Job("C", 20.0, 10.0, gpus=2),
    ]

    strict = run(jobs, nodes, admission="pod", queueing="strict-fifo")
    best_effort = run(jobs, nodes, admission="pod", queueing="fifo")

    assert (start(strict, "B"), start(strict, "C")) == (100.0, 100.0)
    assert waits(strict, "C") == {"behind_head": 80.0}
    assert (start(best_effort, "B"), start(best_effort, "C")) == (100.0, 20.0)
    assert placement(best_effort, "C") == {"n3": 2.0}


def test_pod_timeout_releases_both_deadlocked_gangs_and_requeues_them_with_backoff() -> None:
    # At 50 both partial gangs time out and release their nodes; each waits a backoff of
    # 60 s x (1 + up to 10 % jitter). The first back finds the cluster empty and starts; the
    # other starts when it ends 100 s later.
    result = run(TWIN_GANGS, TWO_8, admission="pod", pod_timeout_s=50.0)

    assert result.deadlock is None
    assert result.status == ["completed", "completed"]
    first, second = sorted(TWIN_GANGS, key=lambda job: start(result, job.job_id) or 0.0)
    first_wait, second_wait = waits(result, first.job_id), waits(result, second.job_id)
    assert first_wait["partial_gang"] == second_wait["partial_gang"] == 50.0
    assert 60.0 <= first_wait["backoff"] <= second_wait["backoff"] <= 66.0
    assert set(first_wait) == {"partial_gang", "backoff"}
    assert start(result, first.job_id) == pytest.approx(50.0 + first_wait["backoff"])
    assert start(result, second.job_id) == end(result, first.job_id)
    assert second_wait["cluster_full"] == pytest.approx(
        start(result, second.job_id) - 50.0 - second_wait["backoff"]  # type: ignore[operator]
    )
    assert result.held_idle_gpu_s == 16 * 50.0


def test_a_job_past_its_backoff_limit_stays_unfinished_and_frees_its_gpus_under_strict_fifo() -> (
    None
):
    # backoff_limit 0: the first timeout deactivates each twin; W (8 GPUs, at 1) gets a node at 5.
    jobs = [*TWIN_GANGS, Job("W", 1.0, 100.0, gpus=8)]

    result = run(
        jobs, TWO_8, admission="pod", queueing="strict-fifo", pod_timeout_s=5.0, backoff_limit=0
    )

    assert (status(result, "J1"), status(result, "J2")) == ("unfinished", "unfinished")
    assert placement(result, "J1") == placement(result, "J2") == {}
    assert waits(result, "J1") == {"partial_gang": 5.0, "backoff": 100.0}
    assert (start(result, "W"), end(result, "W")) == (5.0, 105.0)
    assert waits(result, "W") == {"cluster_full": 4.0}


def test_a_job_requeued_after_its_pod_timeout_starts_at_once_when_the_cluster_has_room() -> None:
    # Regression: J1 waited for the next finish (1070) with the wait booked behind_head.
    # J1 (2 x 8) gets one node at 0; B (8 GPUs, 0-60) the other. J1 times out at 50 and backs
    # off ~60-66 s. B ends at 60. C (CPU only, 70-1070) uses no GPU. J1 is back at ~110-116
    # with all 16 GPUs free and should start right then, not when C ends at 1070.
    jobs = [
        Job("J1", 0.0, 100.0, pods=2, gpus=8),
        Job("B", 0.0, 60.0, gpus=8),
        Job("C", 70.0, 1000.0, gpus=0),
    ]

    result = run(jobs, TWO_8, admission="pod", queueing="fifo", pod_timeout_s=50.0)

    waited = waits(result, "J1")
    assert set(waited) == {"partial_gang", "backoff"}
    assert start(result, "J1") == pytest.approx(50.0 + waited["backoff"])


def test_a_job_past_its_backoff_limit_frees_its_gpus_for_a_waiting_job_under_fifo() -> None:
    # Regression: W waited until 1000, booked cluster_full with a node free.
    # J1 (2 x 8) holds one node from 0; B holds the other until 1000; W (8 GPUs) waits from 10.
    # At 50 J1 times out and is deactivated (backoff_limit 0): its node is free, W starts at 50.
    jobs = [
        Job("J1", 0.0, 100.0, pods=2, gpus=8),
        Job("B", 0.0, 1000.0, gpus=8),
        Job("W", 10.0, 100.0, gpus=8),
    ]

    result = run(jobs, TWO_8, admission="pod", queueing="fifo", pod_timeout_s=50.0, backoff_limit=0)

    assert status(result, "J1") == "unfinished"
    assert (start(result, "W"), end(result, "W")) == (50.0, 150.0)
    assert waits(result, "W") == {"cluster_full": 40.0}


def test_deactivated_partial_gangs_leave_a_waiting_job_to_run_under_fifo() -> None:
    # Regression: this raised AssertionError('jobs wait on an idle cluster').
    jobs = [*TWIN_GANGS, Job("W", 1.0, 100.0, gpus=8)]

    result = run(jobs, TWO_8, admission="pod", queueing="fifo", pod_timeout_s=5.0, backoff_limit=0)

    assert (start(result, "W"), end(result, "W")) == (5.0, 105.0)


# --- horizon and utilization ----------------------------------------------------------------------


def test_horizon_cuts_the_run_and_a_running_job_is_unfinished_at_the_horizon() -> None:
    jobs = [
        Job("A", 0.0, 1000.0, gpus=2),
        Job("B", 100.0, 100.0, gpus=1),
        Job("C", 600.0, 10.0, gpus=1),
    ]

    result = run(jobs, TWO_8, horizon_s=500.0)

    assert result.horizon_s == 500.0
    assert (status(result, "A"), start(result, "A"), end(result, "A")) == ("unfinished", 0.0, 500.0)
    assert (status(result, "B"), end(result, "B")) == ("completed", 200.0)
    assert (status(result, "C"), start(result, "C"), end(result, "C")) == ("unfinished", None, None)
    assert result.allocated_gpu_s == 2 * 500.0 + 1 * 100.0


def test_allocated_gpu_seconds_add_up_whole_and_shared_gpus_over_the_run() -> None:
    # A 2 GPUs x 100 s + B 4 GPUs x 50 s + C 0.5 GPU x 40 s = 200 + 200 + 20 = 420 GPU-s,
    # on 8 installed GPUs over a 100 s run.
    nodes = [("n1", "A100", 4, 0.0, 0.0), ("n2", "A100", 4, 0.0, 0.0)]
    jobs = [
        Job("A", 0.0, 100.0, gpus=2),
        Job("B", 10.0, 50.0, gpus=4),
        Job("C", 20.0, 40.0, gpus=0.5),
    ]

    result = run(jobs, nodes)

    assert result.allocated_gpu_s == 420.0
    assert result.horizon_s == 100.0
    assert result.capacity_gpus == {"A100": 8}
    assert result.held_idle_gpu_s == 0.0
    assert result.status == ["completed"] * 3
