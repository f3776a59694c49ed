"""Each job's seconds waited per reason, packed: what `ReplayResult.wait_by_reason` holds.

A replay books waits to few reasons per job (most jobs wait once, for one or two), so a
tuple of every reason's seconds per job, and the list the replay summed them in, held about
200 bytes a job each (issue 33: a sweep worker's peak). Here a job's waits are a block of
(reason, seconds) entries in two typed arrays, only the reasons it waited for, read back as
the tuple they stand for: `waits[i]` is a tuple of seconds in `REASON_CODES` order, or None
if the job never waited, equal to the bit to what the replay summed. The blocks are written
by `planner.engine.reasons.WaitReasons`; this is the read side, a plain (uncompiled) class,
so results pickle and compare as any value does.
"""

from array import array
from collections.abc import Iterator, Sequence
from typing import overload

from planner.engine.waits import REASON_CODES

JobWaits = tuple[float, ...] | None
_ZEROS = (0.0,) * len(REASON_CODES)


class Waits(Sequence[JobWaits]):
    """A read-only sequence of each job's waits, one block of entries per job.

    `start[i]` is where job i's block begins in `reason`/`seconds` (-1: no entries) and
    `size[i]` its number of entries; entries of a block are distinct reasons. Blocks need not
    follow job order, and entries no block points to are never read.
    """

    __slots__ = ("_reason", "_seconds", "_size", "_start")

    def __init__(
        self, start: "array[int]", size: bytearray, reason: bytearray, seconds: "array[float]"
    ):
        self._start = start
        self._size = size
        self._reason = reason
        self._seconds = seconds

    def __len__(self) -> int:
        return len(self._start)

    @overload
    def __getitem__(self, i: int) -> JobWaits: ...
    @overload
    def __getitem__(self, i: slice) -> list[JobWaits]: ...
    def __getitem__(self, i: int | slice) -> JobWaits | list[JobWaits]:
        if isinstance(i, slice):
            return [self._job(k) for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"job {i} is not in this replay's {len(self)} jobs")
        return self._job(i)

    def __iter__(self) -> Iterator[JobWaits]:
        return (self._job(i) for i in range(len(self._start)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # equal to lists, so unhashable as they are

    def __repr__(self) -> str:
        return f"Waits({list(self)!r})"

    def entries(self, i: int) -> Iterator[tuple[int, float]]:
        """Job i's (reason index, seconds) of every reason it waited for (seconds may be 0.0),
        without building its tuple."""
        first = self._start[i]
        for k in range(first, first + self._size[i]):
            yield self._reason[k], self._seconds[k]

    def _job(self, i: int) -> JobWaits:
        first = self._start[i]
        if first < 0:
            return None
        seconds = self._seconds
        last = first + self._size[i]
        if not any(seconds[k] for k in range(first, last)):
            return None  # it waited 0 s (an override opened and closed at one instant)
        out = list(_ZEROS)
        for k in range(first, last):
            out[self._reason[k]] = seconds[k]
        return tuple(out)


def no_waits(jobs: int) -> Waits:
    """`jobs` jobs that never waited."""
    return Waits(array("q", [-1]) * jobs, bytearray(jobs), bytearray(), array("d"))
