"""Best fit: the node left with the least free capacity (GPU and CPU shares, equal weights)."""

from planner.engine.cluster_types import Score, StateKey
from planner.engine.placement_plugin import ClusterView, PlacementPolicy, free_share


def score(view: ClusterView, _: StateKey, after: StateKey) -> Score:
    return free_share(view, after)


BEST_FIT = PlacementPolicy(score)
