"""Event kinds of the replay's heap, in the order they apply at one instant.

The heap holds `(time, kind, seq, job)`; at equal times lower kinds come first, so freed
GPUs are visible to arrivals and requeues. Kinds from `BURST` on are deadlines that may have
gone stale (the job started or ended meanwhile): the loop drops those before they move the
clock. A new kind is appended here and handled by the plugin that pushes it. `held_time`
stores a start or end time as the float object the replay already holds for it.
"""

import math
from typing import Any, Final

# Final: compiled code uses the numbers themselves, not a lookup of the name per event
FINISH: Final = 0
TERMINATED: Final = 1
TIMEOUT: Final = 2
REQUEUE: Final = 3
RETRY: Final = 4
ONLINE: Final = 5
BURST: Final = 6
WITHDRAW: Final = 7
KINDS: Final = 8


def held_time(now: float, times: list[Any], i: int) -> float | None:
    """`now`, as the float object `times[i]` already holds when that is the same value: a
    start at the job's arrival, an end at its planned finish. Compiled, each `now` stored in
    a list is a new float object (32 bytes a job, twice); read as `Any` the list's own object
    is kept as it is (plain Python kept it anyway: `now` was that object)."""
    held = times[i]
    value: float = held  # compared unboxed: `held != now` would box `now` to compare
    if value != now or (now == 0.0 and math.copysign(1.0, value) != math.copysign(1.0, now)):
        return now  # a later start or end, or -0.0 for 0.0 (equal, not the same value)
    return held  # type: ignore[no-any-return]


def held_float(times: list[Any], i: int) -> Any:
    """The object `times[i]` holds: compiled, reading it as a float unboxes it, and storing
    that value anywhere else boxes a new float object."""
    return times[i]
