"""When each job enters the queue: at its submission, plus its start latency when the policy
has one (`Policy.start_latency`, fitted by `planner twin`).

The replay numbers jobs in the order they enter (ties by submission, then as given), offers
them to the scheduler then, and keeps FIFO order by it. Waits are still measured from the
submission; the time before entering is booked to the `start_latency` wait reason, so the
reasons still add up to each job's wait. Deadlines (withdrawal, burst) count from the
submission too: a job whose deadline comes before it enters is withdrawn without entering.
"""

import math
from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from planner.core.model import Job
from planner.engine.policy import MAX_SIMULATED_S, Policy, span_error
from planner.engine.states import PENDING, WITHDRAWN
from planner.engine.waits import START_LATENCY

if TYPE_CHECKING:
    from planner.engine.loop import Replay

_SUBMIT = attrgetter("submit_s")


def arrival_order(jobs: Sequence[Job], policy: Policy) -> tuple[list[Job], list[float]]:
    """The jobs in the order they enter the queue, and when each does (ascending)."""
    latency = policy.start_latency
    if latency is None:
        submit = list(map(_SUBMIT, jobs))
        if _ascending(submit):  # stored traces load in submit order: the sort is the identity
            # an exact-size copy (the grown list freed): returning `submit` itself left a
            # 1,000,000-job replay's peak RSS 5 MiB higher (allocator behaviour, measured)
            return list(jobs), list(submit)
        # a key read by a C method, not a lambda called per job; the jobs' own floats kept
        # (compiled, a comprehension would box a new float for each job)
        order = sorted(range(len(jobs)), key=submit.__getitem__)
        return [jobs[i] for i in order], list(map(submit.__getitem__, order))
    arrive = [job.submit_s + latency.latency_s(job) for job in jobs]
    order = sorted(range(len(jobs)), key=lambda i: (arrive[i], jobs[i].submit_s))
    return [jobs[i] for i in order], [arrive[i] for i in order]


def _ascending(times: list[float]) -> bool:
    """Whether `times` never decrease (then a stable sort by them keeps every job in place)."""
    last = -math.inf
    for t in times:  # compiled: unboxed compares, where all(map(le, ...)) is a C call per pair
        if t < last:
            return False
        last = t
    return True


def book_start_latency(replay: "Replay", end: float) -> None:
    """Book each job's time between its submission and entering the queue to
    `start_latency`: all of its latency once it entered; up to its deadline if it was
    withdrawn before; up to the end if the replay stopped first. Jobs set aside before the
    loop (unschedulable, never fitting, sent to the cloud) entered nothing and book nothing."""
    jobs, arrive, state, stopped = replay.jobs, replay.arrive, replay.state, replay.end
    reasons = replay.reasons
    for i, playing in enumerate(replay.in_play):
        if not playing:
            continue
        entered = arrive[i]
        if state[i] == PENDING:
            entered = min(entered, end)
        elif state[i] == WITHDRAWN and replay.start[i] is None:
            left = stopped[i]
            entered = entered if left is None else min(entered, left)
        seconds = entered - jobs[i].submit_s
        if seconds > 0:
            reasons.add(i, START_LATENCY, seconds)


def read_jobs(jobs: Sequence[Job]) -> tuple[list[float | None], set[int], list[float]]:
    """Each job's deadline, the jobs observed withdrawn (if started, deleted at their
    deadline, `finish`) and each job's own run time (an observed withdrawal has none: once
    started, it runs until its deadline); a job whose times no replay simulates is
    refused (`span_error`).

    One look at each job for all of them: each pass over a million jobs' objects costs a
    cache miss a job (issue 33). A run time is the job's own float, read as `Any`:
    compiled, a float read as `float` is unboxed, and stored again it is a new object."""
    n = len(jobs)
    deadline: list[float | None] = [None] * n
    withdrawn: set[int] = set()
    run_s: list[Any] = [None] * n
    limit = MAX_SIMULATED_S
    for i, job in enumerate(jobs):
        row: Any = job
        held = row.duration_s
        duration: float = held
        withdraw, submit = job.withdraw_after_s, job.submit_s
        if not (duration >= 0 and submit >= -limit and submit + duration <= limit):
            raise span_error(job)
        if withdraw is not None:
            if not 0 <= withdraw <= limit:
                raise span_error(job)
            deadline[i] = submit + withdraw
        if job.status == "withdrawn":
            withdrawn.add(i)
            run_s[i] = withdraw or 0.0
        else:
            run_s[i] = held
    return deadline, withdrawn, run_s
