"""What every gang queueing shares (`queueing.GangQueueing` and `backfill.Backfill`, both
compiled, neither a subclass of the other): starting a whole job now, and `HeadMerge`, the
walk over the per-shape queues in queue order."""

import heapq
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from planner.engine.loop import Replay


def start_gang(replay: "Replay", i: int, queued: bool) -> bool:
    """Start `i` wherever the placement policy puts its pods, if they fit now."""
    pod, count, allowed = replay.shapes[replay.shape_of[i]]
    plan = replay.cluster.plan(pod, count, allowed)
    if plan is None:
        return False
    replay.start_on(i, plan, queued=queued)
    return True


class HeadMerge:
    """Waiting jobs in queue order across the per-shape queues, one candidate per shape.

    `next_job()` gives them one by one (-1 when none is left: compiled, an iterator of ints
    would not build). After a job: `drop()` ends its shape for this pass (free capacity only shrinks
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

    def next_job(self) -> int:
        if self.pending >= 0:
            queue = self.queues[self.pending]
            k = self.skipped.get(self.pending, 0)
            if k < len(queue):
                heapq.heappush(self.heap, (queue[k], self.pending))
        if not self.heap:
            self.pending = -1
            return -1
        i, self.pending = heapq.heappop(self.heap)
        return i

    def drop(self) -> None:
        self.pending = -1

    def skip(self) -> None:
        self.skipped[self.pending] = self.skipped.get(self.pending, 0) + 1
