"""The FGD fragmentation measure (Weng et al., ATC'23) and the workload mix it is taken against.

A node's free GPU capacity is fragmented for a typical pod if that pod cannot use it: all of
it when the pod does not fit the node (GPUs, CPU, memory or GPU type), else the GPUs too small
for the pod. A CPU-only pod can never use a GPU, so for it all of a node's free GPU capacity
is fragmented, whether or not its CPU fits. The measure is the expectation over the workload
mix (weights summing to 1):

    F(node) = sum over typical pods p of  weight(p) * fragmented_milli(node, p)

CPU-only pods are part of that mix by default, weighted by their popularity as GPU pods are:
this is what the authors' simulator does in the paper's experiments. Source:
hkust-adsl/kubernetes-scheduler-simulator, `pkg/utils/frag.go` (`GetNodePodFrag` classes a
CPU-only pod as `xl_satisfied` or `xr_lack_cpu`; `NodeGpuShareFragAmount` counts every class
but `q3_satisfied` as all idle GPU milli, and `q3_satisfied` as the GPUs too small for the
pod; `GetTypicalPods` keeps CPU-only pods unless `isInvolvedCpuPods` is false), and
`scripts/generate_config_and_run.py`, whose `--is-involved-cpu-pods` defaults to true.
`typical_pods(..., cpu_pods=False)` gives the GPU-only mix instead. The measure is memoised
per node state, never per node.
"""

from bisect import bisect_right
from collections.abc import Iterable, Sequence

from planner.engine.cluster_types import Allowed, PodShape, TypicalPod
from planner.engine.node_classes import NodeClasses
from planner.engine.node_states import NodeStates
from planner.engine.pod_fit import PodFit

_Row = tuple[int, int, float, Allowed, bool, int]
"""(CPU, memory, weight, allowed classes, whether the GPUs fit, milli lost) of a typical pod."""


class Fragmentation:
    """FGD fragmentation of node states against one workload mix."""

    def __init__(
        self, hardware: NodeClasses, states: NodeStates, fit: PodFit, typical: Sequence[TypicalPod]
    ) -> None:
        self._hardware = hardware
        self._states = states
        self._fit = fit
        self._frag: dict[int, float] = {}
        self._gpu_frag: dict[tuple[int, ...], float] = {}
        self._gpu_rows: dict[tuple[int, ...], tuple[tuple[bool, int], ...]] = {}
        """Per GPUs' free values (many states differ only in CPU and memory), per typical pod:
        (whether its GPUs fit, free milli on GPUs too small for it)."""
        self._by_level: dict[tuple[int, tuple[int, ...], int, int], float] = {}
        """The measure of exclusive-GPU states by class, GPUs' free values and how many of
        the typical pods' distinct CPU and memory requests they cover (see `of_state`)."""
        self._state_rows: dict[tuple[int, ...], tuple[_Row, ...]] = {}
        """The same per GPUs' free values, joined with each typical pod's CPU, memory,
        weight and node classes: what `of_state` reads for every new state."""
        self.typical = tuple(typical)

    @property
    def typical(self) -> tuple[TypicalPod, ...]:
        return self._typical

    @typical.setter
    def typical(self, typical: tuple[TypicalPod, ...]) -> None:
        self._typical = typical
        # flattened once: the measure reads every typical pod for every new node state
        # a CPU-only pod's term is weight x all free GPU milli on every node: summed once
        self._idle_weight = sum(t.weight for t in typical if not t.pod.gpus)
        self._gpu_typical = tuple(t for t in typical if t.pod.gpus)
        self._rows = tuple((*t.pod, t.weight, t.allowed) for t in self._gpu_typical)
        self._frag.clear()
        self._pod_gpus = tuple((t.pod.milli, t.pod.gpus) for t in self._gpu_typical)
        self._millis = tuple(dict.fromkeys(milli for milli, _ in self._pod_gpus))
        self._cpu_steps = sorted({t.pod.cpu for t in self._gpu_typical})
        self._mem_steps = sorted({t.pod.mem for t in self._gpu_typical})
        self._gpu_frag.clear()
        self._gpu_rows.clear()
        self._state_rows.clear()
        self._by_level.clear()

    def of_state(self, sid: int) -> float:
        """Milli-GPUs of a node in state `sid` fragmented against the mix (memoised)."""
        cached = self._frag.get(sid)
        if cached is not None:
            return cached
        cls, free, cpu_free, mem_free = self._states.states[sid]
        total = self._hardware.free_gpu_milli(cls, free)
        frag = self._idle_weight * total
        if total and cls in self._hardware.shared:
            fit = self._fit
            for typical in self._gpu_typical:
                pod = typical.pod
                usable = typical.allowed is None or cls in typical.allowed
                if not (usable and fit.fitting(sid, pod, fit.pid(pod), False)):
                    frag += typical.weight * total
        elif total:
            # The sum below reads CPU and memory only through `>=` against the typical
            # pods' requests: states alike in GPUs and in which requests their CPU and
            # memory cover get the same terms in the same order, so the same bits.
            level = (
                cls,
                free,
                bisect_right(self._cpu_steps, cpu_free),
                bisect_right(self._mem_steps, mem_free),
            )
            known = self._by_level.get(level)
            if known is not None:
                self._frag[sid] = known
                return known
            rows = self._state_rows.get(free)
            if rows is None:
                rows = self._state_rows[free] = tuple(
                    (cpu, mem, weight, allowed, gpus_fit, lost)
                    for (_, _, cpu, mem, weight, allowed), (gpus_fit, lost) in zip(
                        self._rows, self._gpu_rows.get(free) or self._split(free), strict=True
                    )
                )
            for cpu, mem, weight, allowed, gpus_fit, lost in rows:
                if allowed is not None and cls not in allowed:
                    frag += weight * total
                elif gpus_fit and cpu_free >= cpu and mem_free >= mem:
                    frag += weight * lost
                else:
                    frag += weight * total
            self._by_level[level] = frag
        self._frag[sid] = frag
        return frag

    def of_gpus(self, free: tuple[int, ...]) -> float:
        """GPU-only measure (CPU taken as sufficient): picks the GPU inside a node (memoised
        by the GPUs' free values, sorted high to low)."""
        cached = self._gpu_frag.get(free)
        if cached is not None:
            return cached
        total = sum(free)
        frag = self._idle_weight * total
        gpu_rows = self._gpu_rows.get(free) or self._split(free)
        for (_, _, _, _, weight, _), (gpus_fit, lost) in zip(self._rows, gpu_rows, strict=True):
            frag += weight * (lost if gpus_fit else total)
        self._gpu_frag[free] = frag
        return frag

    def _split(self, free: tuple[int, ...]) -> tuple[tuple[bool, int], ...]:
        """Per typical pod: whether its GPUs fit these free GPUs, and the free milli on GPUs
        too small for it (computed once per distinct milli)."""
        by_milli: dict[int, tuple[int, int]] = {}
        for milli in self._millis:
            fitting = lost = 0  # integers: the order of the sum does not matter
            for f in free:
                if f >= milli:
                    fitting += 1
                else:
                    lost += f
            by_milli[milli] = (fitting, lost)
        rows = tuple(
            (by_milli[milli][0] >= gpus, by_milli[milli][1]) for milli, gpus in self._pod_gpus
        )
        self._gpu_rows[free] = rows
        return rows

    def cluster(self) -> int:
        """Milli-GPUs fragmented in the whole cluster."""
        members, memo = self._states.members, self._frag
        return round(
            sum(
                (memo[sid] if sid in memo else self.of_state(sid)) * len(nodes)
                for sid, nodes in members.items()
            )
        )

    def unusable_free_milli(self, waiting: Iterable[tuple[PodShape, Allowed]]) -> int:
        """Free milli-GPUs on nodes where none of the waiting pod shapes fits."""
        shapes = [(pod, allowed) for pod, allowed in waiting if pod.gpus]
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
    pods: Iterable[tuple[PodShape, Allowed]],
    *,
    coverage: float = 0.95,
    cpu_pods: bool = True,
) -> list[TypicalPod]:
    """The most frequent pod shapes covering `coverage` of the pods, weights summing to 1.

    Shapes are taken by popularity until they cover `coverage` of the pods, however many that
    takes: the FGD simulator's `GetTypicalPods` with its experiments' `podPopularityThreshold:
    95` and `podIncreaseStep: 1`. A cap on the count would leave out a mix with many rare
    shapes (GPU-type constraints multiply them): 64 shapes cover 96.7 % of openb default's
    pods but 80.8 % of a type-constrained variant's.

    This is the workload mix FGD measures fragmentation against. CPU-only pods are in it by
    default, each shape weighted by its popularity like the GPU shapes, as in the FGD
    simulator's `GetTypicalPods` with `isInvolvedCpuPods: true` (its experiment generator's
    default); `cpu_pods=False` leaves them out and weighs the GPU pods alone. Empty when
    there is no GPU pod: then nothing is fragmented for anyone.
    """
    counted = ((pod, allowed, 1) for pod, allowed in pods)
    return typical_of_counts(counted, coverage=coverage, cpu_pods=cpu_pods)


def typical_of_counts(
    counted: Iterable[tuple[PodShape, Allowed, int]],
    *,
    coverage: float = 0.95,
    cpu_pods: bool = True,
) -> list[TypicalPod]:
    """`typical_pods` of pods given with how many there are of each (in the order the first
    of each was seen; a pod may come more than once): a replay counts its jobs by shape."""
    counts: dict[tuple[PodShape, Allowed], int] = {}
    for pod, allowed, n in counted:
        if n and (pod.gpus or cpu_pods):
            counts[(pod, allowed)] = counts.get((pod, allowed), 0) + n
    total = sum(counts.values())
    if not total or not any(pod.gpus for pod, _ in counts):
        return []
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    chosen: list[tuple[tuple[PodShape, Allowed], int]] = []
    covered = 0
    for item in ranked:
        if covered >= coverage * total:
            break
        chosen.append(item)
        covered += item[1]
    return [TypicalPod(pod, allowed, n / covered) for (pod, allowed), n in chosen]
