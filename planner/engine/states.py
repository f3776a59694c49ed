"""Job states inside a replay, and the statuses a replay reports for them.

`State` is what the loop tracks (ints: they are compared millions of times); `JobStatus` is
what `ReplayResult.status` says, one value per state, never kept in step by hand.
"""

from enum import IntEnum, StrEnum
from typing import Final


class State(IntEnum):
    PENDING = 0
    """Not submitted yet."""
    WAITING = 1
    RUNNING = 2
    DONE = 3
    UNSCHEDULABLE = 4
    BACKING_OFF = 5
    """Pod admission: released after a timeout, waiting out its requeue backoff."""
    TERMINATING = 6
    """Evicted; its pods hold their GPUs for the termination grace."""
    BURST = 7
    """Hybrid: runs in the cloud."""
    WITHDRAWN = 8
    """Left the queue at its deadline without starting."""
    DELETED = 9
    """An observed withdrawal that started here and was deleted at its deadline."""


class JobStatus(StrEnum):
    """A job's outcome in a replay; the values are what results and JSON carry."""

    UNFINISHED = "unfinished"
    COMPLETED = "completed"
    UNSCHEDULABLE = "unschedulable"
    BURST = "burst"
    WITHDRAWN = "withdrawn"
    WITHDRAWN_AFTER_START = "withdrawn-after-start"


# Members as plain module names: states are compared millions of times, and looking a member
# up on its Enum class (`State.WAITING`) costs about 0.2 us on Python 3.11; Final, compiled
# code reads them from a C static, not from the module's dict.
PENDING: Final = State.PENDING
WAITING: Final = State.WAITING
RUNNING: Final = State.RUNNING
DONE: Final = State.DONE
UNSCHEDULABLE: Final = State.UNSCHEDULABLE
BACKING_OFF: Final = State.BACKING_OFF
TERMINATING: Final = State.TERMINATING
WITHDRAWN: Final = State.WITHDRAWN
DELETED: Final = State.DELETED

STATUS_OF: dict[State, JobStatus] = {
    State.PENDING: JobStatus.UNFINISHED,
    State.WAITING: JobStatus.UNFINISHED,
    State.RUNNING: JobStatus.UNFINISHED,
    State.DONE: JobStatus.COMPLETED,
    State.UNSCHEDULABLE: JobStatus.UNSCHEDULABLE,
    State.BACKING_OFF: JobStatus.UNFINISHED,
    State.TERMINATING: JobStatus.UNFINISHED,
    State.BURST: JobStatus.BURST,
    State.WITHDRAWN: JobStatus.WITHDRAWN,
    State.DELETED: JobStatus.WITHDRAWN_AFTER_START,
}
STATUS_TEXT: tuple[str, ...] = tuple(STATUS_OF[state].value for state in State)
"""Indexed by state: the status string a result reports (plain `str`, as before the enum)."""
SETTLED = frozenset((State.DONE, State.UNSCHEDULABLE, State.BURST, State.WITHDRAWN, State.DELETED))
"""States a job never leaves."""
