"""A replay's packed waits (`planner.engine.job_waits`) against the per-job lists they replaced.

The replay books waits into blocks of (reason, seconds) entries (`WaitReasons.add`); a result
reads them back as one tuple per job. Checked here: any order of bookings gives the tuples a
list of every reason's seconds per job gave, to the bit; the packed form behaves as that list
(indexing, slicing, equality, pickling); and what it holds per job stays small.
"""

import gc
import pickle
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import simulate
from planner.engine.job_waits import Waits, no_waits
from planner.engine.loop import Replay
from planner.engine.policy import Policy
from planner.engine.waits import REASON_CODES

JOBS = 6
NODES = [NodeSpec("n0", "A100", 8, 0, 0)]
bookings = st.lists(
    st.tuples(
        st.integers(0, JOBS - 1),
        st.integers(0, len(REASON_CODES) - 1),
        st.sampled_from([0.0, -0.0, 0.1, 0.2, 0.3, 1e-300, 3600.0, 1 / 3, 7.25e6]),
    ),
    max_size=60,
)


def _replay() -> Replay:
    return Replay([Job(f"j{i}", float(i), 10.0) for i in range(JOBS)], NODES, Policy())


def _as_lists(booked: list[tuple[int, int, float]]) -> list[tuple[float, ...] | None]:
    """What the replay reported before: a list per job, summed in booking order."""
    wait: list[list[float] | None] = [None] * JOBS
    for i, reason, seconds in booked:
        waited = wait[i]
        if waited is None:
            waited = wait[i] = [0.0] * len(REASON_CODES)
        waited[reason] += seconds
    return [tuple(w) if w is not None and any(w) else None for w in wait]


@settings(max_examples=300, deadline=None)
@given(booked=bookings)
def test_packed_waits_are_the_per_job_sums_to_the_bit(booked: list[tuple[int, int, float]]) -> None:
    reasons = _replay().reasons
    for i, reason, seconds in booked:
        reasons.add(i, reason, seconds)

    waits = reasons.waits()

    expected = _as_lists(booked)
    assert list(waits) == expected
    assert [repr(w) for w in waits] == [repr(w) for w in expected]  # -0.0 and 0.0 apart
    assert waits == expected
    assert waits[1:4] == expected[1:4]
    assert waits[-1] == expected[-1]


def test_interleaved_bookings_sum_in_booking_order() -> None:
    """0.1 + 0.2 + 0.3 is not 0.1 + (0.2 + 0.3) in floats: a job's block moved to the end of
    the log when another job booked in between keeps summing its running total."""
    reasons = _replay().reasons

    reasons.add(0, 2, 0.1)
    reasons.add(1, 2, 5.0)
    reasons.add(0, 2, 0.2)
    reasons.add(1, 0, 1.0)
    reasons.add(0, 2, 0.3)
    waits = reasons.waits()

    assert waits[0] == (0.0, 0.0, (0.1 + 0.2) + 0.3, *(0.0,) * (len(REASON_CODES) - 3))
    assert waits[0] != (0.0, 0.0, 0.1 + (0.2 + 0.3), *(0.0,) * (len(REASON_CODES) - 3))
    assert waits[1] == (1.0, 0.0, 5.0, *(0.0,) * (len(REASON_CODES) - 3))
    assert list(waits.entries(0)) == [(2, 0.6000000000000001)]
    assert waits[2:] == [None] * (JOBS - 2)


def test_a_wait_of_zero_seconds_is_no_wait() -> None:
    reasons = _replay().reasons

    reasons.add(3, 5, 0.0)

    assert reasons.waits()[3] is None


def test_waits_pickle_and_compare_as_the_list_they_stand_for() -> None:
    reasons = _replay().reasons
    reasons.add(2, 1, 30.0)
    waits = reasons.waits()

    again = pickle.loads(pickle.dumps(waits))

    assert again == waits == list(waits)
    assert len(again) == JOBS
    assert no_waits(3) == [None, None, None]
    assert [None] * 3 == no_waits(3)  # noqa: SIM300  (a list on the left asks Waits too)


def test_a_job_out_of_range_is_an_index_error() -> None:
    waits = no_waits(2)

    with pytest.raises(IndexError, match="job 2 is not in"):
        waits[2]


def test_a_replay_of_queued_jobs_holds_few_bytes_a_job_for_its_waits() -> None:
    """20,000 jobs on 8 GPUs: nearly every job waits behind the ones before it. The packed
    waits hold 8 + 1 bytes a job and 9 bytes an entry (a reason and its seconds), about one
    entry a job here: bound at 24 bytes a job (a tuple and a list per job held about 370)."""
    jobs = [Job(f"j{i}", float(i), 50.0, gpus=float(1 + i % 8)) for i in range(20_000)]
    waits = simulate(jobs, NODES, Policy()).wait_by_reason
    tracemalloc.start()
    try:
        copy = pickle.loads(pickle.dumps(waits))
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()

    assert isinstance(waits, Waits)
    assert copy == waits
    assert sum(w is not None for w in waits) > 19_000
    assert held / len(jobs) < 24


def test_a_finished_replay_holds_its_result_only() -> None:
    """What a replay leaves behind once it returned (its garbage collected) is its result: per
    job its status, start, end, placement and waits, about 80 bytes plus the start and end
    floats (24 bytes each); bound at 160 bytes a job. The engine's per-job state held about
    300 more."""
    jobs = [Job(f"j{i}", float(i), 50.0, gpus=float(1 + i % 8)) for i in range(20_000)]
    gc.collect()
    tracemalloc.start()
    try:
        result = simulate(jobs, NODES, Policy())
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()

    assert len(result.status) == len(jobs)
    assert held / len(jobs) < 160
