"""The FGD measure counts CPU-only pods in the typical mix (an idle GPU is fragmented for
them), as the study's simulator does by default (`pkg/utils/frag.go`), weighted by popularity."""

import pytest

from planner.core.config import NodeSpec
from planner.engine.cluster import ClusterState, PodShape, TypicalPod, typical_pods

CPU_POD = PodShape(0, 0, 4000, 0)
ONE_GPU = PodShape(1000, 1, 4000, 0)
HALF_GPU = PodShape(500, 1, 4000, 0)
NODE = NodeSpec("n", "A100", 2, 16.0, 0.0)
"""2 GPUs, 16 cores, memory not limited."""


def cluster_with(typical: list[TypicalPod], nodes: list[NodeSpec] | None = None) -> ClusterState:
    return ClusterState(nodes or [NODE], "fgd", typical=typical)


def test_cpu_only_pods_make_every_idle_gpu_fragmented_for_their_share() -> None:
    # 2 idle GPUs; mix 50% CPU-only, 50% 1-GPU: 0.5 x 2 GPUs (no CPU-only pod can use a GPU)
    # + 0.5 x 0 (a 1-GPU pod fits and uses whole GPUs) = 1 GPU
    cluster = cluster_with([TypicalPod(CPU_POD, None, 0.5), TypicalPod(ONE_GPU, None, 0.5)])

    assert cluster.fgd_fragmentation() == 1000


def test_a_half_used_gpu_adds_the_gpu_pods_own_fragment() -> None:
    # GPUs free (1000, 500): CPU-only 0.5 x 1500; 1-GPU pod fits, 500 too small: 0.5 x 500
    cluster = cluster_with([TypicalPod(CPU_POD, None, 0.5), TypicalPod(ONE_GPU, None, 0.5)])
    cluster.allocate(0, HALF_GPU, 1)

    assert cluster.fgd_fragmentation() == 750 + 250


def test_a_node_whose_cpu_is_full_has_every_idle_gpu_fragmented_for_every_pod() -> None:
    cluster = cluster_with(
        [
            TypicalPod(CPU_POD, None, 0.25),
            TypicalPod(ONE_GPU, None, 0.5),
            TypicalPod(HALF_GPU, None, 0.25),
        ]
    )
    cluster.allocate(0, PodShape(0, 0, 16000, 0), 1)  # a CPU-only pod takes all 16 cores

    assert cluster.gpu_free[0] == [1000, 1000]
    assert cluster.fgd_fragmentation() == 2000


def test_the_gpu_only_mix_leaves_cpu_pods_out() -> None:
    pods = [(CPU_POD, None)] * 2 + [(ONE_GPU, None)] * 2

    gpu_only = typical_pods(pods, cpu_pods=False)

    assert [(t.pod, t.weight) for t in gpu_only] == [(ONE_GPU, 1.0)]
    assert cluster_with(gpu_only).fgd_fragmentation() == 0


def test_typical_pods_include_cpu_only_pods_by_popularity() -> None:
    pods = [(CPU_POD, None)] * 3 + [(ONE_GPU, None)] * 6 + [(HALF_GPU, None)] * 1

    mix = {t.pod: t.weight for t in typical_pods(pods)}

    assert mix == pytest.approx({ONE_GPU: 0.6, CPU_POD: 0.3, HALF_GPU: 0.1})
    # 2 idle GPUs: CPU-only 0.3 x 2000; 1-GPU fits (0); half-GPU fits, nothing too small (0)
    assert cluster_with(typical_pods(pods)).fgd_fragmentation() == 600


def test_a_mix_without_gpu_pods_is_empty() -> None:
    assert typical_pods([(CPU_POD, None)] * 3) == []


def test_fgd_placement_still_keeps_whole_gpus_free_with_cpu_pods_in_the_mix() -> None:
    # Two nodes: one with a half-used GPU. A half-GPU pod should fill that GPU, not break a
    # whole one: the CPU-only share of the measure is the same on both nodes.
    nodes = [NodeSpec("a", "A100", 1, 16.0, 0.0), NodeSpec("b", "A100", 1, 16.0, 0.0)]
    mix = [
        TypicalPod(CPU_POD, None, 0.4),
        TypicalPod(ONE_GPU, None, 0.3),
        TypicalPod(HALF_GPU, None, 0.3),
    ]
    cluster = cluster_with(mix, nodes)
    cluster.allocate(1, HALF_GPU, 1)

    plan = cluster.plan(HALF_GPU, 1, None)

    assert plan == [(1, 1)]


def test_a_cpu_only_pod_goes_where_it_spoils_fewest_gpus() -> None:
    # Node a has 4 cores left, node b 16: a CPU-only pod of 4 cores on a would leave its GPU
    # unusable to the GPU pods (all need 4 cores); on b they still fit.
    nodes = [NodeSpec("a", "A100", 1, 16.0, 0.0), NodeSpec("b", "A100", 1, 16.0, 0.0)]
    mix = [TypicalPod(CPU_POD, None, 0.5), TypicalPod(ONE_GPU, None, 0.5)]
    cluster = cluster_with(mix, nodes)
    cluster.allocate(0, PodShape(0, 0, 12000, 0), 1)

    plan = cluster.plan(CPU_POD, 1, None)

    assert plan == [(1, 1)]
