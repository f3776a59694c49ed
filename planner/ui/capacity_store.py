"""The Capacity page's stored sweeps: the grid, the sizing search and the Monte Carlo run the
services `planner sweep --vary`, `--target` and `planner montecarlo --sweep` run, on the
app's database.

Their points go through `planner.service.sweep_run`, so each is stored under the key `planner
sweep` uses (the scenario, the trace, the price book and today's date): a repeated grid or
search prices nothing, the Monte Carlo re-prices every point stored for the scenario on the trace
today (the search's, the grid's, the command line's) and replays none of them.
"""

import json
from collections.abc import Sequence
from datetime import date

from planner.cost.scenario import TcoScenario
from planner.service.job_rows import load_jobs
from planner.service.montecarlo import McSettings, SweepMc, sweep_montecarlo
from planner.service.sweep_bound import Sized, sized
from planner.service.sweep_keys import BURST_H, SERVERS, Point, pool_of
from planner.service.sweep_mix import Mix, cheapest_mix
from planner.service.sweep_mix import Tried as MixTried
from planner.service.sweep_point import PointResult
from planner.service.sweep_run import Progress, Sweep, SweepOutcome, run_sweep, sweep_key
from planner.service.sweep_search import Search, Target, Tried, smallest
from planner.store.sweep_inputs import sweep_point_keys
from planner.ui.cache import cursor


def size_key(scenario: TcoScenario, pool: int) -> str:
    """The `planner sweep` key of pool number `pool`'s servers: `servers` for the first,
    `servers.GPU` for another (a second pool of the first one's GPU is sized as the first,
    as `planner sweep --size servers.GPU` sizes it)."""
    if pool == 0:
        return SERVERS
    key = f"{SERVERS}.{scenario.self_hosted[pool].gpu}"
    return key if pool_of(scenario, key) == pool else SERVERS


def grid_points(
    scenario: TcoScenario, pool: int, counts: Sequence[int], thresholds_h: Sequence[float]
) -> list[Point]:
    """The Capacity grid's (server count, burst threshold) pairs as `planner sweep` points,
    whole hours as whole numbers (as `--vary burst_after_h=1` reads them: the same key)."""
    key = size_key(scenario, pool)
    if scenario.hybrid is None or not thresholds_h:
        return [((key, n),) for n in counts]
    hours = [int(h) if h.is_integer() else h for h in thresholds_h]
    return [((key, n), (BURST_H, h)) for n in counts for h in hours]


def search(
    scenario: TcoScenario, trace_id: str, pool: int, target: Target, on_tried: Tried
) -> Sized:
    """`planner sweep --target`: the fewest servers of pool `pool` meeting `target` on the
    trace, from the floor the largest job sets, and what binds that answer (with the search
    without the largest jobs when the floor may); every point tried stored. `on_tried` hears
    of both searches' points, the first's first."""
    with cursor() as con:
        sweep = Sweep(scenario, load_jobs(con, trace_id), trace_id, date.today())
        key = size_key(scenario, pool)

        def search_on(on: Sweep, floor: int) -> Search:
            def evaluate(points: list[Point]) -> list[PointResult]:
                return list(run_sweep(con, on, points).results)

            return smallest(on.scenario, key, target, evaluate, on_tried=on_tried, floor=floor)

        return sized(sweep, key, target.option, search_on)


def mix(scenario: TcoScenario, trace_id: str, pool: int, target: Target, on_tried: MixTried) -> Mix:
    """`planner sweep --target ... --mix`: the cheapest mix of the hybrid's kept servers of
    pool `pool`, a cloud commitment and on-demand (or spot) bursts meeting `target`."""
    with cursor() as con:
        sweep = Sweep(scenario, load_jobs(con, trace_id), trace_id, date.today())
        key = size_key(scenario, pool)
        return cheapest_mix(con, sweep, key, target, on_tried=on_tried)


def store_points(
    scenario: TcoScenario, trace_id: str, points: Sequence[Point], on_point: Progress
) -> SweepOutcome:
    """Every point's result, pricing and storing only those not stored yet (`planner sweep
    --vary`: a re-run, or a point the search or the command stored, is read back)."""
    with cursor() as con:
        sweep = Sweep(scenario, load_jobs(con, trace_id), trace_id, date.today())
        return run_sweep(con, sweep, points, on_point=on_point)


def stored_grid(scenario: TcoScenario, trace_id: str, pool: int) -> tuple[list[int], list[float]]:
    """The server counts and burst thresholds of the grid points stored today for the
    scenario on the trace (by this page, its search or `planner sweep`), ascending; points
    varying other keys are left out."""
    key = size_key(scenario, pool)
    with cursor() as con:
        stored = sweep_point_keys(con, sweep_key(con, Sweep(scenario, [], trace_id, date.today())))
    counts: set[int] = set()
    hours: set[float] = set()
    for _, text in stored:
        values = dict(json.loads(text))
        if key in values and set(values) <= {key, BURST_H}:
            counts.add(int(values[key]))
            if BURST_H in values:
                hours.add(float(values[BURST_H]))
    return sorted(counts), sorted(hours)


def montecarlo(scenario: TcoScenario, trace_id: str, settings: McSettings) -> SweepMc:
    """`planner montecarlo --sweep`: every point stored today for the scenario on the trace,
    re-priced over the same seeded price paths."""
    with cursor() as con:
        return sweep_montecarlo(con, Sweep(scenario, [], trace_id, date.today()), settings)
