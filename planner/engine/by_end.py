"""Running jobs ordered by estimated end, ties by job number: what EASY backfill's reservation
walks (`planner.engine.backfill`).

Every job that starts or ends moves one entry, so the order is kept in two parallel lists
searched by hand: compiled, the search compares unboxed floats and ints, where `bisect` on
`(end, job)` tuples compared Python objects (a sixth of a 1M-job replay's time, issue 33).

Most replays walk the order seldom, or never (nobody waits long enough to need a
reservation), yet kept it for every start and end (a tenth of a 1M-job replay, issue 33). So
the lists are dropped once more changes went unread than twice the jobs running, and sorted
again from `end_of` when next read: a sort of R jobs after at least 2R changes not kept.
"""

from typing import Final

_SLACK: Final = 64
"""Changes kept unread beyond twice the jobs running before the order is dropped."""


class ByEnd:
    """Each running job's estimated end (`end_of`), and the jobs in (end, job) order (`order`)."""

    def __init__(self) -> None:
        self.end_of: dict[int, float] = {}
        self._ends: list[float] = []
        self._jobs: list[int] = []
        self._kept = True
        """Whether the two lists hold every running job, in order."""
        self._unread = 0
        """Changes kept in the lists since the order was last read."""

    def add(self, i: int, end: float) -> None:
        self.end_of[i] = end
        if self._kept and self._keep():
            k = self._position(end, i)
            self._ends.insert(k, end)
            self._jobs.insert(k, i)

    def remove(self, i: int) -> float:
        """Take `i` out; its estimated end."""
        end = self.end_of.pop(i)
        if self._kept and self._keep():
            k = self._position(end, i)
            self._ends.pop(k)
            self._jobs.pop(k)
        return end

    def order(self) -> tuple[list[float], list[int]]:
        """The running jobs' estimated ends and numbers, in (end, job) order (do not change)."""
        self._unread = 0
        if not self._kept:
            end_of = self.end_of
            jobs = sorted(end_of)
            jobs.sort(key=end_of.__getitem__)  # stable: ties on the end stay by job number
            self._jobs = jobs
            self._ends = [end_of[j] for j in jobs]
            self._kept = True
        return self._ends, self._jobs

    def _keep(self) -> bool:
        """Count a change; False (the lists dropped) once too many went unread."""
        self._unread += 1
        if self._unread <= 2 * len(self.end_of) + _SLACK:
            return True
        self._kept = False
        self._ends, self._jobs = [], []
        return False

    def _position(self, end: float, i: int) -> int:
        """The first position whose (end, job) is not below (`end`, `i`)."""
        ends, jobs = self._ends, self._jobs
        lo, hi = 0, len(ends)
        while lo < hi:
            mid = (lo + hi) // 2
            at = ends[mid]
            if at < end or (at == end and jobs[mid] < i):
                lo = mid + 1
            else:
                hi = mid
        return lo
