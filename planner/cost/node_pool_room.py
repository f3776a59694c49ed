"""Where a pod goes in the cloud node pool: the instances with room, indexed by free GPUs.

Best fit: the instance left with the fewest free GPUs once the pod is on it; ready instances
before booting ones (a pod on a ready instance runs now, on a booting one only when it is
ready, as kube-scheduler binds pods to ready nodes only and the autoscaler counts the nodes
it is bringing up as room for the pods it launched them for); among equals the oldest
instance (lowest number), so that placement is deterministic and the young instances are
the ones that empty and are released.

This module owns each instance's free GPUs and state and nothing else: pods, times and
money are `planner.cost.node_pool_sim`'s.

One heap of instance numbers per free-GPU count and state, cleaned lazily: an entry is
valid while its instance still has that many free GPUs in that state, and a change pushes a
new entry instead of looking for the old one. A look-up costs O(largest instance size) plus
the stale entries it pops, each popped once; every change pushes at most one entry.
"""

from heapq import heappop, heappush

GONE, BOOTING, READY = 0, 1, 2
"""An instance's state: released (or never launched), launched and not yet ready, ready."""


class RoomIndex:
    """Free GPUs of every instance, by instance number (0, 1, 2, ... in launch order)."""

    __slots__ = ("_free", "_heaps", "_state")

    def __init__(self, largest: int) -> None:
        self._free: list[int] = []
        self._state: list[int] = []
        # _heaps[state][free]: instance numbers that had `free` GPUs free in `state`
        self._heaps: tuple[list[list[int]], ...] = tuple(
            [[] for _ in range(largest + 1)] for _ in (GONE, BOOTING, READY)
        )

    def add(self, gpus: int, *, ready: bool) -> int:
        """A new empty instance of `gpus` GPUs; its number."""
        i = len(self._free)
        self._free.append(gpus)
        self._state.append(READY if ready else BOOTING)
        self._index(i)
        return i

    def free(self, i: int) -> int:
        return self._free[i]

    def is_ready(self, i: int) -> bool:
        return self._state[i] == READY

    def take(self, i: int, gpus: int) -> None:
        assert self._state[i] != GONE, "a pod placed on a released instance"
        assert self._free[i] >= gpus, "a pod placed without room"
        self._free[i] -= gpus
        self._index(i)

    def give(self, i: int, gpus: int) -> None:
        self._free[i] += gpus
        self._index(i)

    def set_ready(self, i: int) -> None:
        self._state[i] = READY
        self._index(i)

    def remove(self, i: int) -> None:
        self._state[i] = GONE

    def best_fit(self, need: int) -> int | None:
        """The instance a pod of `need` GPUs goes to, or None if none has room."""
        for state in (READY, BOOTING):
            heaps = self._heaps[state]
            for free in range(need, len(heaps)):
                found = self._valid_top(heaps[free], free, state)
                if found is not None:
                    return found
        return None

    def _valid_top(self, heap: list[int], free: int, state: int) -> int | None:
        while heap:
            i = heap[0]
            if self._free[i] == free and self._state[i] == state:
                return i
            heappop(heap)
        return None

    def _index(self, i: int) -> None:
        free = self._free[i]
        if free > 0:
            heappush(self._heaps[self._state[i]][free], i)
