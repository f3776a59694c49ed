"""Random: a uniformly random node that fits, and a random GPU in it (seeded)."""

from planner.engine.placement_plugin import ClusterView, PlacementPolicy


def random_gpu(view: ClusterView, _: tuple[int, ...], options: list[int], __: int) -> int:
    return options[view.rng.randrange(len(options))]


RANDOM = PlacementPolicy(None, random_gpu, "random", gpu_choice_drawn=True)
