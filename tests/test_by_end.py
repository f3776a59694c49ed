"""Backfill's running jobs by estimated end (`planner.engine.by_end`) keep the order the
`(end, job)` tuples had under `bisect` before (issue 33), ties on the end included."""

from bisect import bisect_left, insort

from hypothesis import given
from hypothesis import strategies as st

from planner.engine.by_end import ByEnd

# few distinct ends, so ties are common; a job may end at any of them
_ENDS = st.sampled_from([0.0, 1.5, 1.5000000000000002, 7.0, 1e9])
_OPS = st.lists(st.tuples(st.booleans(), st.integers(0, 30), _ENDS), max_size=120)


@given(_OPS)
def test_the_order_is_the_sorted_end_job_tuples(ops: list[tuple[bool, int, float]]) -> None:
    by_end = ByEnd()
    oracle: list[tuple[float, int]] = []
    ends: dict[int, float] = {}
    for add, job, end in ops:
        if add and job not in ends:
            by_end.add(job, end)
            insort(oracle, (end, job))
            ends[job] = end
        elif not add and job in ends:
            assert by_end.remove(job) == ends[job]
            del oracle[bisect_left(oracle, (ends.pop(job), job))]
        assert list(zip(by_end.ends, by_end.jobs, strict=True)) == oracle


def test_ties_on_the_end_go_by_job_number() -> None:
    by_end = ByEnd()
    for job in (5, 2, 9, 3):
        by_end.add(job, 10.0)
    by_end.add(7, 4.0)

    assert by_end.jobs == [7, 2, 3, 5, 9]
    assert by_end.remove(3) == 10.0
    assert by_end.jobs == [7, 2, 5, 9]
