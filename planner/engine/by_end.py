"""Running jobs ordered by estimated end, ties by job number: what EASY backfill's reservation
walks (`planner.engine.backfill`).

Every job that starts or ends moves one entry, so the order is kept in two parallel lists
searched by hand: compiled, the search compares unboxed floats and ints, where `bisect` on
`(end, job)` tuples compared Python objects (a sixth of a 1M-job replay's time, issue 33).
"""


class ByEnd:
    """Each running job's estimated end (`end_of`), and the jobs in (end, job) order."""

    def __init__(self) -> None:
        self.ends: list[float] = []
        self.jobs: list[int] = []
        self.end_of: dict[int, float] = {}

    def add(self, i: int, end: float) -> None:
        k = self._position(end, i)
        self.ends.insert(k, end)
        self.jobs.insert(k, i)
        self.end_of[i] = end

    def remove(self, i: int) -> float:
        """Take `i` out; its estimated end."""
        end = self.end_of.pop(i)
        k = self._position(end, i)
        del self.ends[k]
        del self.jobs[k]
        return end

    def _position(self, end: float, i: int) -> int:
        """The first position whose (end, job) is not below (`end`, `i`)."""
        ends, jobs = self.ends, self.jobs
        lo, hi = 0, len(ends)
        while lo < hi:
            mid = (lo + hi) // 2
            at = ends[mid]
            if at < end or (at == end and jobs[mid] < i):
                lo = mid + 1
            else:
                hi = mid
        return lo
