"""EASY backfill: later jobs may start if they do not delay the head's reservation.

Present with `Policy.queueing == "backfill"` (gang admission, no queues); then it is the
replay's queueing and a plugin that keeps running jobs ordered by estimated end (the run
time as placed x `estimate_factor`). The first waiting job that does not fit is the pivot:
it gets a reservation at the shadow time, the earliest its GPUs free up; a later job starts
if it ends by then or stays off the reserved nodes. At most `backfill_depth` jobs are tested
behind the pivot per pass.
"""

from bisect import bisect_left, insort
from typing import TYPE_CHECKING

from planner.engine.hooks import Plugin
from planner.engine.queueing import GangQueueing, HeadMerge
from planner.engine.states import WAITING

if TYPE_CHECKING:
    from planner.engine.loop import Replay


class Backfill(GangQueueing, Plugin):
    def __init__(self, replay: "Replay", stretch_bound: tuple[float, float]) -> None:
        GangQueueing.__init__(self, replay)
        Plugin.__init__(self)
        self.stretch_bound = stretch_bound
        """(slowest time-slicing factor, longest MIG re-layout) a job could meet."""
        self.running_by_end: list[tuple[float, int]] = []
        self.est_end: dict[int, float] = {}
        self.pivot = -1
        self.shadow = 0.0
        self.early_finish = False  # a job ended before its estimate: re-plan the shadow
        self.estimate_factor = replay.policy.estimate_factor

    def allocate(self, arrivals: list[int], full: bool) -> None:
        replay = self.replay
        pivot = self.pivot
        if full or pivot < 0 or replay.state[pivot] != WAITING or self.early_finish:
            self._full()
            return
        for i in arrivals:
            if replay.state[i] == WAITING:
                self._backfill_one(i)

    def _full(self) -> None:
        replay = self.replay
        merge = HeadMerge(replay)
        pivot = -1
        tested = 0
        # Shapes that found no room off the reservation: the pass only allocates whole or
        # fractional GPUs, so they will not find any later in it (a burst of a million alike
        # jobs plans each shape once). MIG and time-slicing keep planning every job.
        blocked: set[int] = set()
        remember = not replay.cluster.shared
        depth = replay.policy.backfill_depth
        for i in merge:
            if pivot < 0:
                if not self.try_start(i):
                    pivot = i
                    merge.drop()
                continue
            if tested >= depth:
                break
            tested += 1
            shape = replay.shape_of[i]
            if shape in blocked and not self._short(i, pivot):
                merge.skip()
            elif self._backfill_one(i, pivot):
                continue
            elif self._short(i, pivot):
                merge.drop()  # it does not fit anywhere now; nor do its shape-mates
            else:
                if remember:
                    blocked.add(shape)
                merge.skip()
        if pivot < 0:
            self.pivot = -1
            replay.cluster.release_reservation()

    def _short(self, i: int, pivot: int) -> bool:
        # where it lands is not known yet: assume the slowest sharing it could meet
        factor, delay = self.stretch_bound
        replay = self.replay
        run = replay.run_s[i] * replay.policy.estimate_factor * factor + delay
        return replay.now + run <= self.shadow

    def _backfill_one(self, i: int, pivot: int | None = None) -> bool:
        """Start `i` if it ends before the pivot's shadow time or stays off its nodes."""
        if pivot is None:
            pivot = self.pivot
        if pivot != self.pivot or self.early_finish:
            self._reserve_for(pivot)
        replay = self.replay
        pod, count, allowed = replay.shapes[replay.shape_of[i]]
        plan = replay.cluster.plan(pod, count, allowed, avoid_reserved=not self._short(i, pivot))
        if plan is None:
            return False
        replay.start_on(i, plan)
        return True

    def _reserve_for(self, pivot: int) -> None:
        """EASY: the earliest time the pivot fits as running jobs end, and the nodes it needs."""
        self.pivot = pivot
        self.early_finish = False
        replay = self.replay
        cluster = replay.cluster
        pod, count, allowed = replay.shapes[replay.shape_of[pivot]]
        need = pod.milli * pod.gpus * count
        released: list[int] = []
        plan = None
        shadow = replay.now
        for est_end, j in self.running_by_end:
            replay.release_job(j)
            released.append(j)
            if cluster.free_milli(allowed) < need:
                continue
            plan = cluster.plan(pod, count, allowed)
            if plan is not None:
                shadow = est_end
                break
        for j in released:
            replay.reapply_job(j)
        self.shadow = shadow
        cluster.reserve(node for node, _ in plan or ())

    def started(self, i: int) -> None:
        # the estimate covers the run as placed (time-sliced slowdown, MIG re-layout)
        replay = self.replay
        factor = self.estimate_factor
        finish_at = replay.finish_at[i]
        self.est_end[i] = (
            finish_at if factor == 1.0 else replay.now + (finish_at - replay.now) * factor
        )
        insort(self.running_by_end, (self.est_end[i], i))

    def finished(self, i: int) -> None:
        est_end = self.est_end.pop(i)
        del self.running_by_end[bisect_left(self.running_by_end, (est_end, i))]
        if est_end > self.replay.now:
            self.early_finish = True

    def evicted(self, i: int) -> None:
        est_end = self.est_end.pop(i)
        del self.running_by_end[bisect_left(self.running_by_end, (est_end, i))]
