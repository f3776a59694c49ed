"""The replay's event heap pops exactly what `heapq` on `(time, kind, seq, job)` tuples pops."""

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from planner.engine.event_heap import EventHeap
from planner.engine.events import BURST, FINISH, WITHDRAW

# few distinct times and kinds, so ties on time and on (time, kind) are common
_TIMES = st.sampled_from([0.0, -0.0, 1.0, 1.5, 2.0, 1e9, 3.25])
_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("push"), _TIMES, st.integers(0, 7), st.integers(-1, 50)),
        st.just(("pop",)),
    ),
    max_size=200,
)


@settings(max_examples=300, deadline=None)
@given(_OPS)
def test_pops_in_heapq_order(ops: list[tuple[object, ...]]) -> None:
    heap, reference = EventHeap(), []
    seq = 0
    for op in ops:
        if op[0] == "push":
            _, t, kind, job = op
            seq += 1
            heap.push(t, kind, seq, job)  # type: ignore[arg-type]
            heapq.heappush(reference, (t, kind, seq, job))
        elif reference:
            t, kind, _, job = reference[0]
            assert (heap.next_time(), heap.next_kind(), heap.next_job()) == (t, kind, job)
            assert heap.pop() == (kind, job)
            heapq.heappop(reference)
        assert heap.pending() == bool(reference)
        assert len(heap) == len(reference)
    assert sorted(heap.entries()) == sorted(reference)
    drained = [heap.pop() for _ in range(len(heap))]
    assert drained == [(k, j) for _, k, _, j in sorted(reference)]


def test_ties_break_by_kind_then_sequence() -> None:
    heap = EventHeap()
    heap.push(5.0, 3, 1, 10)
    heap.push(5.0, 0, 2, 11)  # same time, lower kind: first
    heap.push(5.0, 0, 3, 12)  # same time and kind, later sequence: after 11
    heap.push(4.0, 7, 4, 13)  # earlier time beats any kind
    assert [heap.pop() for _ in range(4)] == [(7, 13), (0, 11), (0, 12), (3, 10)]
    assert not heap.pending()


def test_replace_keeps_only_the_given_events() -> None:
    heap = EventHeap()
    for seq, t in enumerate([3.0, 1.0, 2.0], start=1):
        heap.push(t, 1, seq, seq * 10)
    kept = [e for e in heap.entries() if e[0] != 1.0]
    heap.replace(kept)
    assert sorted(heap.entries()) == [(2.0, 1, 3, 30), (3.0, 1, 1, 10)]
    assert [heap.pop() for _ in range(2)] == [(1, 30), (1, 10)]


def test_stale_deadlines_at_the_head_are_dropped_until_a_live_one() -> None:
    heap = EventHeap()
    heap.push(1.0, BURST, 1, 7)  # stale (job 7 started meanwhile)
    heap.push(2.0, WITHDRAW, 2, 8)  # live: stops the drop
    heap.push(3.0, WITHDRAW, 3, 7)  # stale, but behind a live one: kept
    heap.push(0.5, FINISH, 4, 9)  # not a deadline: the drop does not start
    started = {7}
    stale = {BURST: started.__contains__, WITHDRAW: started.__contains__}
    heap.drop_stale(stale)
    assert len(heap) == 4
    assert heap.pop() == (FINISH, 9)
    heap.drop_stale(stale)
    assert [heap.pop() for _ in range(len(heap))] == [(WITHDRAW, 8), (WITHDRAW, 7)]
