"""Fragmentation gradient descent (Weng et al., ATC'23): the node whose fragmentation,
measured against the workload's pod mix, grows least.

The mix includes CPU-only pods by default (see `planner.engine.fragmentation`). Their term,
weight x the node's idle GPUs, falls by the same amount on every exclusive-GPU node a GPU pod
could take, so it does not change where a GPU pod goes; a CPU-only pod is steered away from
nodes where its CPU would leave GPUs no GPU pod can use.
"""

from planner.engine.cluster_types import Score, StateKey
from planner.engine.placement_plugin import ClusterView, PlacementPolicy, free_share


def score(view: ClusterView, key: StateKey, after: StateKey) -> Score:
    states, frag = view.states, view.fragmentation
    grown = frag.of_state(states.intern(after)) - frag.of_state(states.intern(key))
    # tightest node breaks ties, so an empty cluster still packs
    return grown + 1e-9 * free_share(view, after)


def least_fragmenting_gpu(
    view: ClusterView, free: tuple[int, ...], options: list[int], milli: int
) -> int:
    """The GPU whose use leaves the node's GPUs least fragmented (CPU taken as sufficient)."""
    if len(options) == 1:
        return options[0]
    return min(options, key=lambda value: _gpu_frag_after(view, free, value, milli))


def _gpu_frag_after(view: ClusterView, free: tuple[int, ...], value: int, milli: int) -> float:
    values = list(free)
    values[values.index(value)] -= milli
    return view.fragmentation.of_gpus(tuple(sorted(values, reverse=True)))


FGD = PlacementPolicy(score, least_fragmenting_gpu)
