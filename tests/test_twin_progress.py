"""A twin check's progress: the time left by hand, the tally against its plan, and what a
real check tells its listener (counts that rise, a total that only falls to the count)."""

import itertools

from planner.core.config import NodeSpec
from planner.engine.policy import Policy
from planner.twin.calibrate import FEWEST_REPLAYS, MOST_REPLAYS, TwinInput, run_twin
from planner.twin.progress import Tally, TwinProgress, time_left_s
from tests.test_twin import NODES, _history, _nodes


def test_the_time_left_is_the_mean_replay_so_far_times_the_replays_left() -> None:
    # 3 replays in 30 s: 10 s each; 12 - 3 = 9 left: 90 s
    assert time_left_s(3, 12, 30.0) == 90.0
    # 7 in 84 s: 12 s each; 20 - 7 = 13 left: 156 s
    assert time_left_s(7, 20, 84.0) == 156.0
    assert time_left_s(5, 5, 40.0) == 0.0
    assert time_left_s(0, 12, 3.0) is None  # no replay finished: no mean to go by


def test_a_progress_reads_its_fraction_mean_and_time_left() -> None:
    now = TwinProgress(done=4, total=16, elapsed_s=50.0)

    assert now.fraction == 0.25  # 4 / 16
    assert now.mean_replay_s == 12.5  # 50 / 4
    assert now.left_s == 150.0  # 12.5 x (16 - 4)


class _Clock:
    """A clock that moves 2 s each time it is read."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 2.0
        return self.now


def test_the_tally_counts_replays_and_drops_skipped_ones_from_the_plan() -> None:
    heard: list[TwinProgress] = []
    tally = Tally(10, heard.append, _Clock())  # started at 102 s

    tally.replayed()  # read at 104 s
    tally.skipped(2)  # 106 s
    tally.replayed()  # 108 s
    last = tally.finish()  # 110 s

    assert [(p.done, p.total) for p in heard] == [(1, 10), (1, 8), (2, 8), (2, 2)]
    assert [p.elapsed_s for p in heard] == [2.0, 4.0, 6.0, 8.0]
    assert heard[2].left_s == 18.0  # 6 s / 2 replays x (8 - 2)
    assert last == heard[-1]


def test_the_plan_never_falls_below_what_was_done() -> None:
    tally = Tally(3, None, _Clock())
    tally.replayed()
    tally.replayed()

    tally.skipped(5)

    assert (tally.done, tally.total) == (2, 2)


def test_a_check_tells_rising_counts_and_ends_with_the_count_at_the_total() -> None:
    heard: list[TwinProgress] = []
    history = _history(jobs=300)  # uses 6 of the 10 nodes: the capacity search runs

    run_twin(TwinInput("synthetic", "10 nodes", history, _nodes(NODES), Policy()), heard.append)

    dones = [p.done for p in heard]
    totals = [p.total for p in heard]
    assert all(b - a in (0, 1) for a, b in itertools.pairwise(dones))
    assert all(b <= a for a, b in itertools.pairwise(totals))  # the plan only falls
    assert all(p.done <= p.total for p in heard)
    assert heard[0].total == MOST_REPLAYS  # a grid of capacities: the whole plan at first
    assert heard[-1].done == heard[-1].total
    assert FEWEST_REPLAYS < heard[-1].total <= MOST_REPLAYS
    assert dones.count(heard[-1].done) <= 2  # the last replay, then the finish
    elapsed = [p.elapsed_s for p in heard]
    assert elapsed == sorted(elapsed)


def test_a_check_on_the_whole_node_list_only_plans_the_fewest_replays() -> None:
    heard: list[TwinProgress] = []
    history = _history(jobs=200)
    one_node = [NodeSpec("n00", "A100", 8, 0.0, 0.0)]  # less than the history held

    run_twin(TwinInput("synthetic", "1 node", history, one_node, Policy()), heard.append)

    assert {p.total for p in heard} == {FEWEST_REPLAYS}
    assert heard[-1].done == FEWEST_REPLAYS
