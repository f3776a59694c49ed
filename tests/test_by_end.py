"""Backfill's running jobs by estimated end (`planner.engine.by_end`) keep the order the
`(end, job)` tuples had under `bisect` before (issue 33), ties on the end included, whether
the order was kept all along or dropped after changes nobody read and sorted again."""

from bisect import bisect_left, insort

from hypothesis import given
from hypothesis import strategies as st

from planner.engine.by_end import ByEnd

# few distinct ends, so ties are common; a job may end at any of them
_ENDS = st.sampled_from([0.0, 1.5, 1.5000000000000002, 7.0, 1e9])
# (add or remove, job, its end, read the order after this change); reads are rare, so long
# runs of unread changes drop the order (past 2 x running + 64 changes) and it is rebuilt
_OPS = st.lists(
    st.tuples(st.booleans(), st.integers(0, 30), _ENDS, st.sampled_from([False] * 100 + [True])),
    max_size=400,
)


def _in_order(by_end: ByEnd) -> list[tuple[float, int]]:
    ends, jobs = by_end.order()
    return list(zip(ends, jobs, strict=True))


@given(_OPS)
def test_the_order_is_the_sorted_end_job_tuples(
    ops: list[tuple[bool, int, float, bool]],
) -> None:
    by_end = ByEnd()
    oracle: list[tuple[float, int]] = []
    ends: dict[int, float] = {}
    for add, job, end, read in ops:
        if add and job not in ends:
            by_end.add(job, end)
            insort(oracle, (end, job))
            ends[job] = end
        elif not add and job in ends:
            assert by_end.remove(job) == ends[job]
            del oracle[bisect_left(oracle, (ends.pop(job), job))]
        if read:
            assert _in_order(by_end) == oracle
    assert _in_order(by_end) == oracle


def test_an_order_dropped_unread_is_sorted_again() -> None:
    # 200 starts and 150 ends with 50 running at most: past 2 x 50 + 64 unread changes the
    # lists are dropped; the order read then is rebuilt from the ends alone
    by_end = ByEnd()
    for job in range(200):
        by_end.add(job, float(job % 7))
        if job >= 50:
            assert by_end.remove(job - 50) == float((job - 50) % 7)
    expected = sorted((float(job % 7), job) for job in range(150, 200))
    assert _in_order(by_end) == expected
    by_end.add(3, 0.0)  # kept again once read: a start lands in place
    assert _in_order(by_end) == sorted([*expected, (0.0, 3)])


def test_ties_on_the_end_go_by_job_number() -> None:
    by_end = ByEnd()
    for job in (5, 2, 9, 3):
        by_end.add(job, 10.0)
    by_end.add(7, 4.0)

    assert by_end.order()[1] == [7, 2, 3, 5, 9]
    assert by_end.remove(3) == 10.0
    assert by_end.order()[1] == [7, 2, 5, 9]
