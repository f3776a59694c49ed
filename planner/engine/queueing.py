"""Gang admission without queues: strict FIFO and best-effort FIFO passes, and `HeadMerge`.

Each is a `Queueing` (the allocate action). Strict FIFO starts jobs in submit order and the
head blocks everyone behind it; best-effort FIFO goes in submit order and skips jobs that do
not fit (Kueue's default). EASY backfill is `planner.engine.backfill`, pod-by-pod admission
`planner.engine.pods`, ClusterQueues `planner.engine.kueue`.
"""

import heapq
from typing import TYPE_CHECKING

from planner.engine.shapes import never_fits
from planner.engine.states import WAITING

if TYPE_CHECKING:
    from planner.engine.loop import Replay


class GangQueueing:
    """Whole jobs on the nodes, no quotas: the parts every gang queueing shares."""

    def __init__(self, replay: "Replay") -> None:
        self.replay = replay

    def starts_arrivals(self, count: int) -> bool:
        return True

    def never_runs(self, sid: int) -> str:
        return never_fits(self.replay.cluster, self.replay.shapes[sid])

    def try_start(self, i: int, *, queued: bool = True) -> bool:
        """Start `i` wherever the placement policy puts its pods, if they fit now."""
        replay = self.replay
        pod, count, allowed = replay.shapes[replay.shape_of[i]]
        plan = replay.cluster.plan(pod, count, allowed)
        if plan is None:
            return False
        replay.start_on(i, plan, queued=queued)
        return True


class StrictFifo(GangQueueing):
    def allocate(self, arrivals: list[int], full: bool) -> None:
        order, try_start = self.replay.order, self.try_start
        while order:
            if not try_start(order[0]):
                return


class Fifo(GangQueueing):
    def allocate(self, arrivals: list[int], full: bool) -> None:
        replay = self.replay
        if not full:
            for i in arrivals:
                if replay.state[i] == WAITING:
                    self.try_start(i)
            return
        merge = HeadMerge(replay)
        for i in merge:
            if not self.try_start(i):
                merge.drop()


class HeadMerge:
    """Waiting jobs in queue order across the per-shape queues, one candidate per shape.

    After a yielded job: `drop()` ends its shape for this pass (free capacity only shrinks
    during a pass, so shape-mates cannot fit either); `skip()` moves on to the next job of
    the same shape (backfill: this one was too long); otherwise the shape's new head (the
    job started and left its queue) is offered next.
    """

    def __init__(self, replay: "Replay") -> None:
        self.queues = replay.queues
        self.skipped: dict[int, int] = {}
        self.heap = [(self.queues[s][0], s) for s in replay.queued_shapes]
        heapq.heapify(self.heap)
        self.pending = -1

    def __iter__(self) -> "HeadMerge":
        return self

    def __next__(self) -> int:
        if self.pending >= 0:
            queue = self.queues[self.pending]
            k = self.skipped.get(self.pending, 0)
            if k < len(queue):
                heapq.heappush(self.heap, (queue[k], self.pending))
        if not self.heap:
            raise StopIteration
        i, self.pending = heapq.heappop(self.heap)
        return i

    def drop(self) -> None:
        self.pending = -1

    def skip(self) -> None:
        self.skipped[self.pending] = self.skipped.get(self.pending, 0) + 1
