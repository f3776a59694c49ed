"""How far a twin check has got: replays done of the replays planned, the time spent, and
the time left at the mean replay time so far.

A check is a few dozen whole replays of the history (`planner.twin.calibrate`), each about
as long as the others on one history, so the mean replay so far is a fair clock for the
rest. The plan is an upper bound: a capacity the search never tries (the same GPU count as
one tried, a flat stretch of scores) is dropped from it as it is skipped, so the total can
only fall, the count only rise, and the last report has the count equal to the total.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TwinProgress:
    done: int
    """Replays finished."""
    total: int
    """Replays planned (falls as the search skips candidates; never below `done`)."""
    elapsed_s: float

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0

    @property
    def left_s(self) -> float | None:
        return time_left_s(self.done, self.total, self.elapsed_s)

    @property
    def mean_replay_s(self) -> float | None:
        return self.elapsed_s / self.done if self.done else None


def time_left_s(done: int, total: int, elapsed_s: float) -> float | None:
    """`elapsed_s / done` (the mean replay so far) times the replays left; None before the
    first replay has finished, when there is no mean to go by."""
    if done <= 0:
        return None
    return elapsed_s / done * max(total - done, 0)


Listener = Callable[[TwinProgress], None]


class Tally:
    """Counts a check's replays against its plan and tells `listener` after each change."""

    def __init__(
        self,
        planned: int,
        listener: Listener | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.done, self.total = 0, planned
        self.listener, self.clock = listener, clock
        self.started = clock()

    def replayed(self) -> None:
        self.done += 1
        self.total = max(self.total, self.done)
        self._tell()

    def skipped(self, replays: int) -> None:
        """Planned replays that will not run."""
        if replays > 0:
            self.total = max(self.total - replays, self.done)
            self._tell()

    def finish(self) -> TwinProgress:
        self.total = self.done
        return self._tell()

    def _tell(self) -> TwinProgress:
        now = TwinProgress(self.done, self.total, self.clock() - self.started)
        if self.listener is not None:
            self.listener(now)
        return now
