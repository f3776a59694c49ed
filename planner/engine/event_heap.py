"""The replay's events, `(time, kind, seq, job)`, popped in (time, kind, seq) order.

A binary heap over three parallel lists (times, ranks = kind and seq in one int, jobs), sifted
by hand. Compiled, its comparisons are native float and int ones, where `heapq` on event tuples
called the objects' rich comparison two or three times per tuple, a dozen tuples per pop, and
built a tuple per event (about a tenth of a 1M-job replay, issue 33). The lists hold the objects as
they were pushed (`list[Any]`), so a sift moves pointers and boxes nothing; a value is unboxed
only to be compared. `seq` is unique, so the order is total: the pops are exactly those of any
correct heap, `heapq`'s included (`tests/test_event_heap.py`).
"""

from collections.abc import Callable
from typing import Any, Final

from planner.engine.events import BURST

SEQ_BITS: Final = 40
"""A rank is `kind << SEQ_BITS | seq`: ordered by kind, then seq (seq below 2**40)."""


class EventHeap:
    """The pending events: `pending()` says if any is left, `next_time()`, `next_kind()` and
    `next_job()` read the first, `pop()` takes it."""

    def __init__(self) -> None:
        self._time: list[Any] = []  # float objects: moved as they are, never re-boxed
        self._rank: list[Any] = []
        self._job: list[Any] = []

    def __len__(self) -> int:
        return len(self._time)

    def pending(self) -> bool:
        """Whether any event is left (a native call, where `len()` of an object is not)."""
        return len(self._time) > 0

    def next_time(self) -> float:
        t: float = self._time[0]
        return t

    def next_kind(self) -> int:
        rank: int = self._rank[0]
        return rank >> SEQ_BITS

    def next_job(self) -> int:
        job: int = self._job[0]
        return job

    def push(self, t: Any, kind: int, seq: int, job: int) -> None:
        """Add an event at time `t` (a float; the object itself is kept: `events.held_float`)."""
        if not 0 <= seq < 1 << SEQ_BITS:
            raise AssertionError(f"event sequence number {seq} out of range")
        rank: Any = kind << SEQ_BITS | seq
        boxed_job: Any = job
        self._time.append(t)
        self._rank.append(rank)
        self._job.append(boxed_job)
        self._sift_up(len(self._time) - 1)

    def pop(self) -> tuple[int, int]:
        """Take the first event; its (kind, job)."""
        times, ranks, jobs = self._time, self._rank, self._job
        rank: int = ranks[0]
        job: int = jobs[0]
        last_t, last_r, last_j = times.pop(), ranks.pop(), jobs.pop()
        if times:
            times[0], ranks[0], jobs[0] = last_t, last_r, last_j
            self._sift_down(0)
        return rank >> SEQ_BITS, job

    def drop_stale(self, stale: dict[int, Callable[[int], bool]]) -> None:
        """Drop the first events while they are deadlines (kinds from `BURST` on) that
        `stale[kind](job)` says went stale (the job started or ended meanwhile): they must
        not move the clock."""
        while self._time and self.next_kind() >= BURST:
            if not stale[self.next_kind()](self.next_job()):
                return
            self.pop()

    def entries(self) -> list[tuple[float, int, int, int]]:
        """Every pending event as `(time, kind, seq, job)`, in no particular order."""
        mask = (1 << SEQ_BITS) - 1
        found: list[tuple[float, int, int, int]] = []
        for k in range(len(self._time)):
            t: float = self._time[k]
            rank: int = self._rank[k]
            job: int = self._job[k]
            found.append((t, rank >> SEQ_BITS, rank & mask, job))
        return found

    def replace(self, entries: list[tuple[float, int, int, int]]) -> None:
        """Hold exactly these events (`entries()`' form) from now on."""
        self._time, self._rank, self._job = [], [], []
        for t, kind, seq, job in entries:
            self.push(t, kind, seq, job)

    def _sift_up(self, k: int) -> None:
        """Move the event at `k` up to its place (the hole technique: one move a level)."""
        times, ranks, jobs = self._time, self._rank, self._job
        item_t, item_r, item_j = times[k], ranks[k], jobs[k]
        t: float = item_t
        r: int = item_r
        while k > 0:
            parent = (k - 1) >> 1
            pt: float = times[parent]
            if pt < t:
                break
            if pt == t:
                pr: int = ranks[parent]
                if pr < r:
                    break
            times[k], ranks[k], jobs[k] = times[parent], ranks[parent], jobs[parent]
            k = parent
        times[k], ranks[k], jobs[k] = item_t, item_r, item_j

    def _sift_down(self, k: int) -> None:
        """Move the event at `k` down to its place."""
        times, ranks, jobs = self._time, self._rank, self._job
        n = len(times)
        item_t, item_r, item_j = times[k], ranks[k], jobs[k]
        t: float = item_t
        r: int = item_r
        while True:
            child = 2 * k + 1
            if child >= n:
                break
            ct: float = times[child]
            cr: int = ranks[child]
            if child + 1 < n:
                ot: float = times[child + 1]
                if ot < ct:
                    child, ct, cr = child + 1, ot, ranks[child + 1]
                elif ot == ct:
                    orank: int = ranks[child + 1]
                    if orank < cr:
                        child, cr = child + 1, orank
            if t < ct or (t == ct and r < cr):
                break
            times[k], ranks[k], jobs[k] = times[child], ranks[child], jobs[child]
            k = child
        times[k], ranks[k], jobs[k] = item_t, item_r, item_j
