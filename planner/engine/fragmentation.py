"""The FGD fragmentation measure (Weng et al., ATC'23) and the workload mix it is taken against.

A node's free GPU capacity is fragmented for a typical pod if that pod cannot use it: all of
it when the pod does not fit the node, else the GPUs too small for the pod. The measure is the
expectation over the workload mix. It is memoised per node state, never per node.
"""

from collections.abc import Iterable, Sequence

from planner.engine.cluster_types import Allowed, PodShape, TypicalPod
from planner.engine.node_classes import NodeClasses
from planner.engine.node_states import NodeStates
from planner.engine.pod_fit import PodFit


class Fragmentation:
    """FGD fragmentation of node states against one workload mix."""

    def __init__(
        self, hardware: NodeClasses, states: NodeStates, fit: PodFit, typical: Sequence[TypicalPod]
    ) -> None:
        self.typical = tuple(typical)
        self._hardware = hardware
        self._states = states
        self._fit = fit
        self._frag: dict[int, float] = {}

    def of_state(self, sid: int) -> float:
        """Milli-GPUs of a node in state `sid` fragmented against the mix (memoised)."""
        cached = self._frag.get(sid)
        if cached is not None:
            return cached
        cls, free, cpu_free, mem_free = self._states.states[sid]
        total = self._hardware.free_gpu_milli(cls, free)
        frag = 0.0
        if total and cls in self._hardware.shared:
            fit = self._fit
            for typical in self.typical:
                pod = typical.pod
                usable = typical.allowed is None or cls in typical.allowed
                if not (usable and fit.fitting(sid, pod, fit.pid(pod), False)):
                    frag += typical.weight * total
        elif total:
            for typical in self.typical:
                milli, gpus, cpu, mem = typical.pod
                if typical.allowed is not None and cls not in typical.allowed:
                    frag += typical.weight * total
                    continue
                fitting = sum(1 for f in free if f >= milli)
                if fitting >= gpus and cpu_free >= cpu and mem_free >= mem:
                    frag += typical.weight * sum(f for f in free if f < milli)
                else:
                    frag += typical.weight * total
        self._frag[sid] = frag
        return frag

    def of_gpus(self, free: tuple[int, ...]) -> float:
        """GPU-only measure (CPU taken as sufficient): picks the GPU inside a node."""
        total = sum(free)
        frag = 0.0
        for typical in self.typical:
            milli, gpus, _, _ = typical.pod
            fitting = sum(1 for f in free if f >= milli)
            lost = sum(f for f in free if f < milli) if fitting >= gpus else total
            frag += typical.weight * lost
        return frag

    def cluster(self) -> int:
        """Milli-GPUs fragmented in the whole cluster."""
        members = self._states.members
        return round(sum(self.of_state(sid) * len(nodes) for sid, nodes in members.items()))

    def unusable_free_milli(self, waiting: Iterable[tuple[PodShape, Allowed]]) -> int:
        """Free milli-GPUs on nodes where none of the waiting pod shapes fits."""
        # unpacked, not read by field: a caller's shape may still be a plain tuple
        shapes = [(pod, allowed) for pod, allowed in waiting if _gpus(pod)]
        if not shapes:
            return 0
        total = 0
        fit, states = self._fit, self._states.states
        for sid, nodes in self._states.members.items():
            cls, free_gpus, _, _ = states[sid]
            free = self._hardware.free_gpu_milli(cls, free_gpus)
            if free and not any(
                (allowed is None or cls in allowed) and fit.fitting(sid, pod, fit.pid(pod), False)
                for pod, allowed in shapes
            ):
                total += free * len(nodes)
        return total


def typical_pods(
    pods: Iterable[tuple[PodShape, Allowed]], *, coverage: float = 0.99, limit: int = 64
) -> list[TypicalPod]:
    """The most frequent GPU pod shapes covering `coverage` of GPU pods, weights summing to 1.

    This is the workload mix FGD measures fragmentation against; CPU-only pods are left out,
    as in the FGD paper's default.
    """
    counts: dict[tuple[PodShape, Allowed], int] = {}
    for pod, allowed in pods:
        if _gpus(pod):
            counts[(pod, allowed)] = counts.get((pod, allowed), 0) + 1
    total = sum(counts.values())
    if not total:
        return []
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    chosen: list[tuple[tuple[PodShape, Allowed], int]] = []
    covered = 0
    for item in ranked:
        if covered >= coverage * total or len(chosen) >= limit:
            break
        chosen.append(item)
        covered += item[1]
    return [TypicalPod(pod, allowed, n / covered) for (pod, allowed), n in chosen]


def _gpus(pod: PodShape) -> int:
    _, gpus, _, _ = pod
    return gpus
