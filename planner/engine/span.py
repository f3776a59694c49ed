"""Which job's times a replay refuses first: the per-job half of `policy.check_span`.

Compiled (`compiled.MODULES`): interpreted, this look at every job's three times took a
fortieth of a 1,000,000-job replay (issue 33). The message is `check_span`'s.
"""

from collections.abc import Sequence

from planner.core.model import Job


def first_out_of_span(jobs: Sequence[Job], limit_s: float) -> int:
    """The index of the first job whose withdrawal is not within [0, `limit_s`], or whose
    duration is negative, submit before `-limit_s` or end past `limit_s` (NaN fails every
    test); -1 if none."""
    for k, job in enumerate(jobs):
        withdraw = job.withdraw_after_s
        if withdraw is not None and not 0 <= withdraw <= limit_s:
            return k
        submit, duration = job.submit_s, job.duration_s
        if not (duration >= 0 and submit >= -limit_s and submit + duration <= limit_s):
            return k
    return -1
