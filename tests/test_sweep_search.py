"""Sizing by search with several counts per round (`planner.service.sweep_search`): the pure
planner of which counts to price next finds a grid's answer at any width in no more rounds
than bisection, and a wide search priced on two workers finds the serial search's answer with
every point equal to one priced in this process.

The planner is fed synthetic verdicts (no replay); the priced search uses the bundled sample
without its hybrid at 7 A100 servers, as tests/test_sweep.py does, on the sample trace's first
1,000 jobs (a point costs a quarter of the whole trace's; the search still has to bracket and
cut, and jobs too large for a few servers still never run).
"""

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.core.file_access import LOCAL_FILES
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_keys import Point, apply
from planner.service.sweep_point import PointResult
from planner.service.sweep_run import Sweep, pack, pricing, run_sweep, unpack
from planner.service.sweep_search import (
    GROWTH,
    Search,
    Seen,
    Target,
    ladder,
    meets,
    next_step,
    sections,
    smallest,
)
from planner.service.tco_files import load_tco_scenario
from planner.store import Connection, connect

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "scenarios" / "sample-tco.yaml"
JOBS = 1_000


def searched(
    start: int, curve: dict[int, Seen], width: int
) -> tuple[int | None, list[tuple[int, ...]]]:
    """The planner driven to its answer over `curve`; the counts asked, round by round."""
    ceiling = start * GROWTH
    seen: dict[int, Seen] = {}
    rounds: list[tuple[int, ...]] = []
    step = next_step(seen, start, ceiling, width)
    while step.counts:
        rounds.append(step.counts)
        seen.update((n, curve[n]) for n in step.counts)
        step = next_step(seen, start, ceiling, width)
    return step.answer, rounds


def grid_answer(start: int, curve: dict[int, Seen]) -> int | None:
    """Brute force: the bracket's top is the first doubling whose wait meets the target; the
    answer the fewest servers up to it meeting the target and leaving out no more jobs."""
    top = next((n for n in ladder(start, start * GROWTH) if curve[n].wait_met), None)
    if top is None:
        return None
    return min(n for n in range(1, top + 1) if meets(curve[n], curve[top].never_ran))


@given(
    start=st.integers(1, 24),
    met_from=st.integers(1, 24 * GROWTH + 1),
    drops=st.lists(st.integers(0, 3), max_size=24 * GROWTH),
    width=st.integers(2, 6),
)
def test_a_wide_search_finds_the_grids_answer_in_no_more_rounds_than_bisection(
    start: int, met_from: int, drops: list[int], width: int
) -> None:
    """Waits meet the target from some count on and jobs left out fall with servers (both as
    they do when servers are added): every width answers as the grid and as bisection, never
    asks for a count twice, and needs no more rounds than bisection."""
    ceiling = start * GROWTH
    left = [sum(drops[n:]) for n in range(ceiling + 1)]  # never-started jobs, non-increasing
    curve = {n: Seen(n >= met_from, left[n]) for n in range(ceiling + 1)}

    wide, wide_rounds = searched(start, curve, width)
    serial, serial_rounds = searched(start, curve, 1)

    assert wide == serial == grid_answer(start, curve)
    asked = [n for counts in wide_rounds for n in counts]
    assert len(asked) == len(set(asked))
    assert all(1 <= n <= ceiling and len(c) <= width for c in wide_rounds for n in c)
    assert len(wide_rounds) <= len(serial_rounds)
    assert all(len(c) == 1 for c in serial_rounds)


def test_width_one_is_bisection_and_sections_cover_small_brackets() -> None:
    assert ladder(3, 48) == [3, 6, 12, 24, 48]
    assert ladder(5, 5) == [5]
    assert sections(0, 16, 1) == (8,)
    assert sections(12, 24, 2) == (16, 20)
    assert sections(12, 24, 3) == (15, 18, 21)
    assert sections(4, 7, 5) == (5, 6)  # no more counts inside than the width: all of them
    curve = {n: Seen(n >= 10, 0) for n in range(49)}
    # doubling to 12 (the first to meet), then halving (6, 12]: 9 misses, 10 meets
    assert searched(3, curve, 1) == (10, [(3,), (6,), (12,), (9,), (10,)])
    # three doublings at once, then (6, 12] cut in four: 7 and 9 miss, 10 meets
    assert searched(3, curve, 3) == (10, [(3, 6, 12), (7, 9, 10)])


# --- priced on workers -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Connection, Sweep]]:
    lines = (ROOT / "data" / "traces" / "sample.csv").read_text().splitlines(keepends=True)
    folder = tmp_path_factory.mktemp("search")
    trace = folder / "sample-head.csv"
    trace.write_text("".join(lines[: JOBS + 1]))
    scenario = apply(load_tco_scenario(SAMPLE), (("servers", 7),))
    scenario = scenario.model_copy(update={"hybrid": None, "trace": str(trace)})
    with connect(folder / "planner.duckdb") as con:
        trace_id = resolve_trace(con, str(trace), files=LOCAL_FILES)
        yield con, Sweep(scenario, load_jobs(con, trace_id), trace_id, date(2026, 12, 1))


def test_a_sweep_packs_and_unpacks_to_itself(store: tuple[Connection, Sweep]) -> None:
    _, sweep = store
    assert unpack(pack(sweep)) == sweep


def test_a_wide_search_on_two_workers_equals_the_serial_search(
    tmp_path: Path, store: tuple[Connection, Sweep]
) -> None:
    con, sweep = store
    target = Target("p95_wait", 0.5 * 3600)
    rounds: list[list[Point]] = []

    def serial(points: list[Point]) -> list[PointResult]:
        return list(run_sweep(con, sweep, points).results)

    one = smallest(sweep.scenario, "servers", target, serial)
    with connect(tmp_path / "wide.duckdb") as fresh, pricing(fresh, sweep, workers=2) as price:
        resolve_trace(fresh, str(sweep.scenario.trace), files=LOCAL_FILES)

        def wide(points: list[Point]) -> list[PointResult]:
            rounds.append(points)
            return list(run_sweep(fresh, sweep, points, price=price).results)

        two = smallest(sweep.scenario, "servers", target, wide, width=3)

    assert one.answer is not None
    assert two.answer == one.answer
    assert len(rounds) < len(one.tried)  # fewer rounds than bisection's one point a round
    assert max(len(r) for r in rounds) > 1
    by_count = {r.point: r for r in serial([r.point for r in two.tried])}
    assert all(r == by_count[r.point] for r in two.tried)  # each equals this process's
    assert _grid_answer(con, sweep, target, one) == one.answer.point


def _grid_answer(con: Connection, sweep: Sweep, target: Target, found: Search) -> Point:
    """The fewest servers up to the search's ceiling meeting the target and starting as many
    jobs as the bracket's top (the largest count bisection priced)."""
    top = found.ceiling
    grid = run_sweep(con, sweep, [(("servers", n),) for n in range(1, top + 1)]).results
    left = _never_ran(grid[-1])
    return next(r.point for r in grid if target.met_by(r) and _never_ran(r) <= left)


def _never_ran(result: PointResult) -> int:
    found = result.option("self-hosted")
    assert found is not None
    assert found.never_ran is not None
    return found.never_ran
