"""Online services beside batch jobs (colocation): the hourly reservation and its evictions.

Present only with `Policy.colocation`. Every hour the online reservation is re-applied on
the nodes that host online services (`planner.engine.colocation` has the model): when it
grows and no GPU is free, the running batch job with the lowest priority, most recently
started, is evicted; when it shrinks, GPUs return to batch.
"""

from typing import TYPE_CHECKING, Any

from planner.engine.cluster import MILLI, NodeAlloc, PodShape
from planner.engine.colocation import HOUR_S, Colocation
from planner.engine.events import ONLINE
from planner.engine.hooks import Plugin
from planner.engine.waits import EVICTED_ONLINE

if TYPE_CHECKING:
    from planner.engine.loop import Replay

ONLINE_POD = PodShape(1000, 1, 0, 0)


class OnlineServices(Plugin):
    def __init__(self, replay: "Replay", colocation: Colocation) -> None:
        super().__init__()
        self.replay = replay
        self.colocation = colocation
        self.classes = replay.cluster.classes_for(colocation.gpu_types)
        self.online: list[NodeAlloc] = []
        self.online_milli_s = 0.0
        self.evicted_jobs = 0
        self.events = {ONLINE: self.apply}

    def begin(self) -> None:
        self.replay.push(0.0, ONLINE, -1)

    def apply(self, _: int) -> None:
        """Re-apply the online reservation for this hour; evict batch jobs to make room."""
        replay = self.replay
        cluster = replay.cluster
        target = self.colocation.online_at(replay.now)
        while len(self.online) > target:
            cluster.release(self.online.pop(), ONLINE_POD)
            replay.freed = replay.dirty = True
        while len(self.online) < target:
            plan = cluster.plan(ONLINE_POD, 1, self.classes)
            if plan is None:
                victim = self._victim()
                if victim < 0:
                    break  # nothing left to evict on those nodes: online runs short
                replay.evictions.evict(victim, EVICTED_ONLINE)
                self.evicted_jobs += 1
                continue
            self.online.append(cluster.allocate(plan[0][0], ONLINE_POD, 1))
            replay.dirty = True
        # evictions may undo all work forever (a livelock): stop when nothing has completed
        # for a week, or for twice the longest run if that is longer
        busy = replay.running or replay.queued_jobs or replay.next_arrival < len(replay.jobs)
        if busy and not replay.evictions.livelocked():
            replay.push((replay.now // HOUR_S + 1) * HOUR_S, ONLINE, -1)

    def _victim(self) -> int:
        """The running batch job to evict: lowest priority, then the most recently started,
        among jobs holding GPUs on nodes that host online services."""
        replay = self.replay
        allowed, node_class = self.classes, replay.cluster.node_class
        best, best_key = -1, (0, 0.0)
        for j in replay.running:
            if not any(
                slices and (allowed is None or node_class[node] in allowed)
                for node, _, slices in replay.allocs[j]
            ):
                continue
            key = (replay.priority[j], -(replay.start[j] or 0.0))
            if best < 0 or key < best_key:
                best, best_key = j, key
        return best

    def advance(self, t0: float, t1: float) -> None:
        self.online_milli_s += len(self.online) * MILLI * (t1 - t0)

    def report(self, end: float) -> dict[str, Any]:
        return {"evicted_by_online": self.evicted_jobs, "online_gpu_s": self.online_milli_s / MILLI}
