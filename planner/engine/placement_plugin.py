"""What a placement policy is: a score plugin, in the manner of kube-scheduler's framework.

Every policy shares the filter (`PodFit`: which node states take the pod) and the selection
(`NodePicker`: fewest nodes for a gang, then the best score). A policy supplies only:

* `score(view, key, after)`: how good a node in state `key` is once it holds the pods
  (state `after`); lower is better. None: a uniformly random node that fits (seeded).
* `gpu_choice(view, free, options, milli)`: which GPU of the chosen node a pod asking for a
  share of one GPU goes on, among the free values `options` that take it (ascending).
* `shared_choice`: the same choice for MIG and time-sliced GPUs (see `SharedGpus`).

A new policy is a module with these and one line in `planner.engine.placement`'s table.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass

from planner.engine.cluster_types import Score, StateKey
from planner.engine.fragmentation import Fragmentation
from planner.engine.node_classes import NodeClasses
from planner.engine.node_states import NodeStates
from planner.engine.shared_gpus import Choice


@dataclass(frozen=True, slots=True)
class ClusterView:
    """What a score plugin may read of the cluster (and the run's seeded random source)."""

    hardware: NodeClasses
    states: NodeStates
    fragmentation: Fragmentation
    rng: random.Random


ScoreFn = Callable[[ClusterView, StateKey, StateKey], Score]
GpuChoice = Callable[[ClusterView, tuple[int, ...], list[int], int], int]


def tightest_gpu(_: ClusterView, __: tuple[int, ...], options: list[int], ___: int) -> int:
    """The GPU with the least free milli that takes the pod (packs GPUs)."""
    return options[0]


@dataclass(frozen=True, slots=True)
class PlacementPolicy:
    """One placement policy's plugins; see the module docstring."""

    score: ScoreFn | None
    gpu_choice: GpuChoice = tightest_gpu
    shared_choice: Choice = "pack"
    gpu_choice_drawn: bool = False
    """True when `gpu_choice` draws from the run's random source: its pick is then not
    decided by the node's state, so the engine cannot remember the state it leads to."""


def free_share(view: ClusterView, after: StateKey) -> float:
    """Free GPU share plus free CPU share (0 if CPU is not limited) of a node in `after`."""
    cls, free, cpu_free, _ = after
    hw = view.hardware.classes[cls]
    gpu = view.hardware.free_gpu_share(cls, free)
    cpu = cpu_free / hw.cpu if hw.cpu else 0.0
    return gpu + cpu
