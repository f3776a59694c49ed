"""Placement policies are score plugins registered by name; the core types read by field."""

from typing import get_args

import pytest

from planner.core.config import ClusterConfig, NodeSpec
from planner.engine.cluster import PLACEMENTS, ClusterState, NodeAlloc, Placement, PodShape
from planner.engine.cluster_types import pod_shape
from planner.engine.placement import placement_policy
from planner.engine.policy import PLACEMENT_HELP

NODES = [NodeSpec("a", "A100", 4, 0.0, 0.0), NodeSpec("b", "A100", 8, 0.0, 0.0)]


def test_every_placement_name_is_registered_and_explained() -> None:
    assert set(PLACEMENTS) == set(get_args(Placement)) == set(PLACEMENT_HELP)
    for name in PLACEMENTS:
        assert placement_policy(name) is not None


def test_pod_shapes_and_allocations_read_by_field() -> None:
    pod = pod_shape(0.5, 2.0, 1.0, cpu_on=True, mem_on=True)
    cluster = ClusterState(NODES)

    alloc = cluster.allocate(0, pod, 2)

    assert pod == PodShape(milli=500, gpus=1, cpu=2000, mem=1024)
    assert pod.gpu_milli == 500
    assert isinstance(alloc, NodeAlloc)
    assert (alloc.node, alloc.pods, alloc.slices) == (0, 2, ((0, 500), (0, 500)))


def test_node_specs_from_pools_are_named() -> None:
    config = ClusterConfig.model_validate(
        {"pools": [{"gpu_type": "H100", "gpus_per_node": 8, "count": 2}]}
    )

    spec = config.node_specs()[1]

    assert (spec.node_id, spec.gpu_type, spec.gpus) == ("H100-0001", "H100", 8)


@pytest.mark.parametrize(
    ("placement", "node"), [("best-fit", 0), ("binpack", 0), ("spread", 1), ("fgd", 0)]
)
def test_each_scored_policy_picks_its_node_for_one_whole_gpu(
    placement: Placement, node: int
) -> None:
    cluster = ClusterState(NODES, placement)

    plan = cluster.plan(PodShape(1000, 1, 0, 0), 1, None)

    assert plan == [(node, 1)]


def test_release_after_allocate_restores_the_free_capacity() -> None:
    cluster = ClusterState(NODES, "fgd")
    before = (list(map(list, cluster.gpu_free)), list(cluster.free_milli_by_class))
    pod = PodShape(250, 1, 0, 0)

    alloc = cluster.allocate(1, pod, 3)
    cluster.release(alloc, pod)

    assert (cluster.gpu_free, cluster.free_milli_by_class) == before
    assert cluster.distinct_states() == 2
