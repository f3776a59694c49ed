"""kube-scheduler's NodeResourcesFit scoring: MostAllocated (binpack), LeastAllocated (spread).

Each resource the node limits (GPU, CPU, memory) scores 0-100 as an integer, as
kube-scheduler does, and the node's score is their integer mean.
"""

from planner.engine.cluster_types import MILLI, NodeClass, Score, StateKey
from planner.engine.placement_plugin import ClusterView, PlacementPolicy


def _resource_shares(hw: NodeClass, after: StateKey, gpu_free: int, *, used: bool) -> list[int]:
    """Per-resource scores (0-100, integer) for the resources the node limits."""
    _, _, cpu_free, mem_free = after
    shares: list[int] = []
    for capacity, free in ((hw.gpus * MILLI, gpu_free), (hw.cpu, cpu_free), (hw.mem, mem_free)):
        if capacity:
            shares.append((capacity - free if used else free) * 100 // capacity)
    return shares


def _mean_share(view: ClusterView, after: StateKey, *, used: bool) -> Score:
    cls, free, _, _ = after
    hw = view.hardware.classes[cls]
    shares = _resource_shares(hw, after, view.hardware.free_gpu_milli(cls, free), used=used)
    return -(sum(shares) // len(shares)) if shares else 0


def most_allocated(view: ClusterView, _: StateKey, after: StateKey) -> Score:
    return _mean_share(view, after, used=True)


def least_allocated(view: ClusterView, _: StateKey, after: StateKey) -> Score:
    return _mean_share(view, after, used=False)


def roomiest_gpu(_: ClusterView, __: tuple[int, ...], options: list[int], ___: int) -> int:
    """The GPU with the most free milli that takes the pod (spreads over GPUs)."""
    return options[-1]


BINPACK = PlacementPolicy(most_allocated)
SPREAD = PlacementPolicy(least_allocated, roomiest_gpu, "spread")
