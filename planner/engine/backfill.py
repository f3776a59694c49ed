"""EASY backfill: later jobs may start if they do not delay the head's reservation.

Present with `Policy.queueing == "backfill"` (gang admission, no queues); then it is the
replay's queueing and a plugin that keeps running jobs ordered by estimated end (the run
time as placed x `estimate_factor`). The first waiting job that does not fit is the pivot:
it gets a reservation at the shadow time, the earliest its GPUs free up; a later job starts
if it ends by then or stays off the reserved nodes. At most `backfill_depth` jobs are tested
behind the pivot per pass. The pass walks the per-shape queues, not job by job (`_behind`):
however deep the queue, it costs its plans and a look at the jobs of its window (issue 17).
"""

import heapq
from bisect import bisect_left
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from planner.engine.by_end import ByEnd
from planner.engine.gang import HeadMerge, start_gang
from planner.engine.hooks import Plugin
from planner.engine.shapes import never_fits
from planner.engine.states import WAITING

if TYPE_CHECKING:
    from planner.engine.loop import Replay

_STRETCH: Final = 64
"""Queue positions a blocked shape looks ahead for a short job before the walk goes on."""
_NO_JOB: Final = 1 << 62
"""Past every queue position and job number."""


# NOTE: a gang queueing like `queueing.GangQueueing`, but not its subclass: this class is
# compiled (`compiled.MODULES`) and a compiled class may only derive from compiled ones
class Backfill(Plugin):
    def __init__(self, replay: "Replay", stretch_bound: tuple[float, float]) -> None:
        super().__init__()
        self.replay = replay
        self.stretch_bound = stretch_bound
        """(slowest time-slicing factor, longest MIG re-layout) a job could meet."""
        self.by_end = ByEnd()
        self.pivot = -1
        self.shadow = 0.0
        self.early_finish = False  # a job ended before its estimate: re-plan the shadow
        self.estimate_factor = replay.policy.estimate_factor
        cluster = replay.cluster
        self.remember = not cluster.shared  # see `_test`
        self.precheck = not cluster.shared and not cluster.picker.at_random  # `_fits_nowhere`
        self.not_short: dict[int, tuple[float, int]] = {}
        """Per shape, (shadow, job): no waiting job before that one is short (`_next_short`)."""

    def starts_arrivals(self, count: int) -> bool:
        return True

    def never_runs(self, sid: int) -> str:
        return never_fits(self.replay.cluster, self.replay.shapes[sid])

    def try_start(self, i: int, *, queued: bool = True) -> bool:
        return start_gang(self.replay, i, queued)

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
        """Start the queue's head while it fits; then backfill behind the pivot it leaves."""
        replay = self.replay
        merge = HeadMerge(replay)
        i = merge.next_job()
        while i >= 0:
            if self._fits_nowhere(replay.shape_of[i]) or not self.try_start(i):
                merge.drop()  # the pivot's shape-mates wait behind it
                self._behind(i, merge.heap)
                return
            i = merge.next_job()
        self.pivot = -1
        replay.cluster.release_reservation()

    def _behind(self, pivot: int, heads: list[tuple[int, int]]) -> None:
        """Test the first `backfill_depth` jobs behind the pivot, in queue order.

        The decisions are the plain job-by-job scan's; only the walk is indexed. A shape
        whose job found no room off the reservation is blocked for the pass (the pass only
        allocates, so its mates will not find any either): its later jobs that are not short
        are counted as tested without planning, and the walk jumps to its next short job. A
        short job that does not fit anywhere drops its shape for the pass, and a shape asking
        more GPUs than are free is dropped at its first short job without planning. So a pass
        costs its plans and a scan of each blocked shape's queue, not a heap step per job.
        """
        if not heads:
            return
        if pivot != self.pivot or self.early_finish:
            self._reserve_for(pivot)
        depth = self.replay.policy.backfill_depth
        shapes = [shape for _, shape in heads]
        scan = _Scan(pivot, depth, shapes, self.replay.queues, self._next_short)
        live = []
        for slot, (i, shape) in enumerate(heads):
            if self._fits_nowhere(shape):
                scan.checked[slot] = 0  # it stops at its first short job, found if needed
            else:
                live.append((i, slot))
        heapq.heapify(live)
        queues, at, paused = scan.queues, scan.at, scan.paused
        while live:
            i, slot = heapq.heappop(live)
            if i > scan.horizon and scan.beyond(i):
                return
            if paused[slot]:  # a blocked shape's look for a short job resumes
                paused[slot] = False
                k = at[slot]
            else:
                k = self._test(i, shapes[slot], slot, scan)
            if scan.blocked[slot]:
                k = self._look_ahead(scan, slot, k)
            queue = queues[slot]
            if k < len(queue):
                at[slot] = k
                heapq.heappush(live, (queue[k], slot))

    def _look_ahead(self, scan: "_Scan", slot: int, k: int) -> int:
        """Where a blocked shape's next short job is, from position `k`; a stretch at a time
        (the walk may end before it): past a stretch, pause there and resume when the walk
        gets so far. Past the end of the queue if it has none the pass may still test."""
        queue = scan.queues[slot]
        end = min(len(queue), scan.depth - scan.started[slot])
        stretch = min(end, k + _STRETCH)
        k = self._next_short(scan.shapes[slot], queue, k, stretch)
        if k == stretch < end:
            scan.paused[slot] = True
        elif k >= stretch:
            return _NO_JOB
        return k

    def _test(self, i: int, shape: int, slot: int, scan: "_Scan") -> int:
        """Backfill `i` if it may start; the queue position of its shape's next candidate
        (past the end: none, the shape is done for the pass)."""
        at = scan.at[slot]
        if self._backfill_one(i, self.pivot):
            scan.started[slot] += 1
            scan.seen[slot] = at  # the job left the queue: its successor takes its place
            return at
        if self._short(i, self.pivot):
            scan.stop[slot] = at + 1  # it does not fit anywhere now; nor do its mates
            return _NO_JOB
        if self.remember:
            scan.blocked[slot] = True
        scan.seen[slot] = at + 1
        return at + 1

    def _fits_nowhere(self, shape: int) -> bool:
        """Whether a job of this shape asks more GPUs than are free now, so no plan could
        place it (whole or fractional GPUs only; a random placement draws even when
        nothing fits, so it plans every time)."""
        if not self.precheck:
            return False
        replay = self.replay
        return replay.shape_milli[shape] > replay.cluster.free_milli(replay.shapes[shape][2])

    def _next_short(self, shape: int, queue: deque[int], k: int, end: int) -> int:
        """The first queue position from `k` before `end` holding a short job, else `end`.

        Jobs found not short stay so until the shadow time moves (time only goes on), so
        a later look starts where this one stopped: each job is read about once per
        reservation, however many passes look."""
        shadow = self.shadow
        known = self.not_short.get(shape)
        if known is not None and known[0] == shadow and k < end:
            k = bisect_left(queue, known[1], k, end)
        factor, delay = self.stretch_bound
        replay = self.replay
        run_s, estimate, now = replay.run_s, self.estimate_factor, replay.now
        for p in range(k, end):  # indexing, not islice: that would step over the first k
            # the same sum as `_short`, so the same verdict to the last bit
            if now + (run_s[queue[p]] * estimate * factor + delay) <= shadow:
                self.not_short[shape] = (shadow, queue[p])
                return p
        if k < end:
            self.not_short[shape] = (shadow, queue[end - 1] + 1)
        return max(k, end)

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
        shape = replay.shape_of[i]
        if self._fits_nowhere(shape):
            return False
        pod, count, allowed = replay.shapes[shape]
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
        ends, jobs = self.by_end.order()
        for k in range(len(jobs)):
            j = jobs[k]
            replay.release_job(j)
            released.append(j)
            if cluster.free_milli(allowed) < need:
                continue
            plan = cluster.plan(pod, count, allowed)
            if plan is not None:
                shadow = ends[k]
                break
        for j in released:
            replay.reapply_job(j)
        self.shadow = shadow
        cluster.reserve(node for node, _ in plan or ())

    def enqueued(self, i: int, requeue: bool) -> None:
        if requeue:  # back into the middle of its queue, possibly short
            self.not_short.pop(self.replay.shape_of[i], None)

    def started(self, i: int) -> None:
        # the estimate covers the run as placed (time-sliced slowdown, MIG re-layout)
        replay = self.replay
        factor = self.estimate_factor
        finish_at = replay.finish_at[i]
        self.by_end.add(
            i, finish_at if factor == 1.0 else replay.now + (finish_at - replay.now) * factor
        )

    def finished(self, i: int) -> None:
        if self.by_end.remove(i) > self.replay.now:
            self.early_finish = True

    def evicted(self, i: int) -> None:
        self.by_end.remove(i)


class _Scan:
    """One backfill pass's walk: per shape (by its slot in the pass), what it yielded."""

    __slots__ = (
        "at",
        "blocked",
        "checked",
        "depth",
        "horizon",
        "next_short",
        "paused",
        "queues",
        "seen",
        "shapes",
        "started",
        "stop",
    )

    def __init__(
        self,
        pivot: int,
        depth: int,
        shapes: list[int],
        queues: list[deque[int]],
        next_short: Callable[[int, deque[int], int, int], int],
    ) -> None:
        n = len(shapes)
        self.depth = depth
        self.shapes = shapes
        self.queues = [queues[shape] for shape in shapes]
        self.at = [0] * n  # queue position of the shape's next job to test
        self.seen = [0] * n  # queue positions before this were yielded
        self.started = [0] * n  # jobs started (they left the queue)
        self.blocked = [False] * n
        self.paused = [False] * n  # blocked shapes whose look for a short job paused
        self.stop = [_NO_JOB] * n  # the shape yields no queue position from this on
        self.checked = [-1] * n  # shapes too big for the free GPUs: positions checked for
        # a short job so far (each stops at its first short job); -1 for the others
        self.horizon = pivot + depth  # jobs up to this one are among the pass's tests
        self.next_short = next_short  # `Backfill._next_short`: where a too-big shape stops

    def beyond(self, i: int) -> bool:
        """Whether `i` comes after the pass's `depth` tests: every shape yields its queue
        in order, up to where it stops; count them (capped near `depth`).

        Below `depth`, the count moves the horizon: jobs are numbered apart, so at most
        `x - i` jobs are tested from `i` to `x`."""
        tested, depth = 0, self.depth
        stop, checked = self.stop, self.checked
        for slot, queue in enumerate(self.queues):
            seen = self.seen[slot]
            before = bisect_left(queue, i, seen, max(seen, min(len(queue), depth)))
            until = stop[slot]
            if until == _NO_JOB and 0 <= checked[slot] < before:
                found = self.next_short(self.shapes[slot], queue, checked[slot], before)
                if found < before:
                    until = stop[slot] = found + 1
                checked[slot] = before
            tested += self.started[slot] + min(before, until)
        if tested < depth:
            self.horizon = max(self.horizon, i + depth - tested - 1)
        return tested >= depth
