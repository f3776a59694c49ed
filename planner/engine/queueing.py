"""Gang admission without queues: strict FIFO and best-effort FIFO passes.

Each is a `Queueing` (the allocate action). Strict FIFO starts jobs in submit order and the
head blocks everyone behind it; best-effort FIFO goes in submit order and skips jobs that do
not fit (Kueue's default). EASY backfill is `planner.engine.backfill`, pod-by-pod admission
`planner.engine.pods`, ClusterQueues `planner.engine.kueue`.
"""

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from planner.engine.gang import HeadMerge, start_gang
from planner.engine.shapes import never_fits
from planner.engine.states import WAITING

if TYPE_CHECKING:
    from planner.engine.loop import Replay


# compiled (`compiled.MODULES`); tests subclass it for fault injection and as an oracle
@mypyc_attr(allow_interpreted_subclasses=True)
class GangQueueing:
    """Whole jobs on the nodes, no quotas: the parts every gang queueing shares."""

    def __init__(self, replay: "Replay") -> None:
        self.replay = replay
        cluster = replay.cluster
        # as `backfill.Backfill._fits_nowhere`: a random placement draws even when nothing
        # fits, and shared GPUs count their capacity otherwise, so those always plan
        self.precheck = not cluster.shared and not cluster.picker.at_random

    def starts_arrivals(self, count: int) -> bool:
        return True

    def never_runs(self, sid: int) -> str:
        return never_fits(self.replay.cluster, self.replay.shapes[sid])

    def try_start(self, i: int, *, queued: bool = True) -> bool:
        """Start `i` wherever the placement policy puts its pods, if they fit now."""
        replay = self.replay
        if self.precheck:  # on a busy cluster most tries ask more GPUs than are free
            shape = replay.shape_of[i]
            if replay.shape_milli[shape] > replay.cluster.free_milli(replay.shapes[shape][2]):
                return False
        return start_gang(replay, i, queued)


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
        i = merge.next_job()
        while i >= 0:
            if not self.try_start(i):
                merge.drop()
            i = merge.next_job()


# The registry builds queueings through these, compiled: built by the interpreted registry,
# a Fifo (its __init__ inherited from a class open to interpreted subclasses) kept a
# reference to its replay, so every replay stayed in memory (a mypyc leak).
def fifo(replay: "Replay") -> "Fifo":
    return Fifo(replay)


def strict_fifo(replay: "Replay") -> "StrictFifo":
    return StrictFifo(replay)
