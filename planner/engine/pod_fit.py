"""How many pods of a shape a node state takes: the filter every placement policy shares.

Pod shapes are interned to small ids and the count is memoised per (state, shape), so a
state is judged once per shape however many nodes are in it and however often it is asked.
"""

from collections.abc import Iterator, Mapping
from typing import Final

from planner.engine.cluster_types import MILLI, Allowed, PodShape
from planner.engine.node_states import NodeStates
from planner.engine.shared_gpus import SharedGpus

_INFINITE_PODS: Final = 1 << 30


class PodFit:
    """Memoised fit of interned pod shapes into interned node states."""

    def __init__(self, states: NodeStates, shared: Mapping[int, SharedGpus]) -> None:
        self._states = states.states
        self._index = states
        self._shared = shared
        self._pod_id: dict[PodShape, int] = {}
        self.cap: list[dict[int, int]] = []
        """Per pod id: state id -> pods that fit (GPUs, CPU and memory)."""
        self._cap_gpu: list[dict[int, int]] = []

    def pid(self, pod: PodShape) -> int:
        """The pod shape's id (a new one the first time a shape is seen)."""
        pid = self._pod_id.get(pod)
        if pid is None:
            pid = self._pod_id[pod] = len(self._pod_id)
            self.cap.append({})
            self._cap_gpu.append({})
        return pid

    def taking(
        self, pod: PodShape, pid: int, allowed: Allowed
    ) -> Iterator[tuple[int, list[int], int]]:
        """(state id, its nodes, pods one node takes) of the states with nodes, of an
        allowed class, that take at least one `pod`, in the index's order."""
        cap, classes = self.cap[pid], self._index.state_class
        for group in self._index.groups_for(pod, pid):
            for sid, nodes in group.items():
                if allowed is not None and classes[sid] not in allowed:
                    continue
                fit = cap.get(sid)
                if fit is None:
                    fit = self.fitting(sid, pod, pid, False)
                if fit:
                    yield sid, nodes, fit

    def fitting(self, sid: int, pod: PodShape, pid: int, gpu_only: bool) -> int:
        """How many `pod`s a node in state `sid` takes (memoised per state and pod)."""
        memo = (self._cap_gpu if gpu_only else self.cap)[pid]
        cached = memo.get(sid)
        if cached is not None:
            return cached
        milli, gpus, cpu, mem = pod
        cls, free, cpu_free, mem_free = self._states[sid]
        fit = _INFINITE_PODS
        shared = self._shared.get(cls)
        if shared is not None and gpus:
            fit = shared.fit(free, milli, gpus)
        elif gpus:
            per_gpu = sum(f // milli for f in free) if milli < MILLI else free.count(MILLI)
            fit = per_gpu // gpus if milli == MILLI else per_gpu
        if not gpu_only:
            if cpu:
                fit = min(fit, cpu_free // cpu)
            if mem:
                fit = min(fit, mem_free // mem)
        memo[sid] = fit
        return fit
