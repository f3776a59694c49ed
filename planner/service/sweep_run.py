"""Run a sweep's points, each once: points stored by an earlier run are read back, the others
priced (in this process, or on a pool of worker processes) and stored as each one finishes.

A point's key hashes the scenario, the trace id, the price book, the date and the point's
values, so a re-run of the same sweep computes nothing, a changed price or scenario computes
everything again, and an interrupted run (Ctrl-C) keeps every point it finished. Workers are
processes forked from a fork server (never from this process, where DuckDB runs threads); each
receives the scenario and the jobs once (not once per point) and opens its own copy of the
price book, since DuckDB lets one process at a time use the database file. They run the same
`price_point`, so their results equal one worker's exactly.
"""

import hashlib
import json
import multiprocessing
import shutil
import signal
import tempfile
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from planner.core.model import Job
from planner.cost.scenario import TcoScenario
from planner.service.sweep_keys import Point
from planner.service.sweep_point import PointResult, from_rows, price_point
from planner.store import Connection, open_store
from planner.store.scenarios import price_book_key
from planner.store.sweep_inputs import save_inputs
from planner.store.sweeps import copy_price_book, done_keys, load_points, save_point
from pricing import ensure_seeded

POINT_FORMAT = 2
"""Bumped when a stored point gains a figure: points stored before are priced again."""

Progress = Callable[[int, int], None]
"""Called after each computed point with (points computed, points to compute)."""


@dataclass(frozen=True, slots=True)
class Sweep:
    """What every point of a sweep shares: the base scenario, its jobs and their trace id,
    and the date prices are taken at."""

    scenario: TcoScenario
    jobs: list[Job]
    trace_id: str
    today: date


@dataclass(frozen=True, slots=True)
class SweepOutcome:
    results: tuple[PointResult, ...]
    """One per point, in the order asked."""
    computed: int
    """Points priced by this run (the others were stored already)."""


def sweep_key(con: Connection, sweep: Sweep) -> str:
    """A hash of what every point's result depends on besides its own values."""
    scenario = sweep.scenario.model_dump(mode="json", exclude={"trace"})
    # today: prices are converted at today's FX rate unless the scenario names a date
    parts = [scenario, sweep.trace_id, price_book_key(con), str(sweep.today), POINT_FORMAT]
    text = json.dumps(parts, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def point_key(sweep_hash: str, point: Point) -> str:
    text = json.dumps([sweep_hash, [list(kv) for kv in point]])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def run_sweep(
    con: Connection,
    sweep: Sweep,
    points: Sequence[Point],
    *,
    workers: int = 1,
    on_point: Progress | None = None,
    cluster: str | None = None,
) -> SweepOutcome:
    """Every point's result, computing (on `workers` processes, or on the Dask cluster at
    `cluster`: `planner.service.sweep_dask`) only those not stored."""
    ensure_seeded(con)  # before the key: a first run's seeding would change the price book
    base = sweep_key(con, sweep)
    keys = {p: point_key(base, p) for p in points}
    done = done_keys(con, keys.values())
    todo = [p for p in dict.fromkeys(points) if keys[p] not in done]
    computed = 0
    # closing: on Ctrl-C (or an error) here, the workers stop now, not when the generator
    # is collected
    with closing(_computed(con, sweep, todo, workers, cluster)) as computing:
        for result in computing:
            options = [o.values() for o in result.options]
            save_point(con, (keys[result.point], base), result.point, result.currency, options)
            if result.inputs:  # for `planner montecarlo --sweep`
                save_inputs(con, keys[result.point], result.inputs)
            computed += 1
            if on_point is not None:
                on_point(computed, len(todo))
    stored = load_points(con, list(keys.values()))
    results = tuple(from_rows(p, *stored[keys[p]]) for p in points)
    return SweepOutcome(results, computed)


def _computed(
    con: Connection, sweep: Sweep, todo: Sequence[Point], workers: int, cluster: str | None
) -> Generator[PointResult]:
    if cluster is not None and todo:
        from planner.service.sweep_dask import dask_computed  # noqa: PLC0415 -- Dask only if asked

        yield from dask_computed(con, sweep, todo, cluster)
        return
    if workers <= 1 or len(todo) <= 1:
        for point in todo:
            yield price_point(con, sweep.scenario, sweep.jobs, point, sweep.today)
        return
    with tempfile.TemporaryDirectory(prefix="planner-sweep-") as folder:
        prices = Path(folder) / "prices.duckdb"
        copy_price_book(con, prices)
        # a fork server, not a fork: DuckDB's threads run in this process. It imports the
        # planner once, and each worker forks from it ready to price.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        pool = context.Pool(min(workers, len(todo)), _start_worker, (prices, sweep))
        try:
            yield from pool.imap_unordered(_price, todo)
            pool.close()
        except BaseException:
            pool.terminate()  # Ctrl-C or an error: the points stored so far stay
            raise
        finally:
            pool.join()


# --- inside a worker process -----------------------------------------------------------------

_WORKER: dict[str, object] = {}


def _start_worker(prices: Path, sweep: Sweep) -> None:
    """Open a private copy of the price book and keep the sweep for every point to come."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    own = prices.with_name(f"worker-{multiprocessing.current_process().pid}.duckdb")
    shutil.copyfile(prices, own)
    _WORKER["con"] = open_store(own)
    _WORKER["sweep"] = sweep


def _price(point: Point) -> PointResult:
    con = _WORKER["con"]
    sweep = _WORKER["sweep"]
    assert isinstance(sweep, Sweep)
    return price_point(con, sweep.scenario, sweep.jobs, point, sweep.today)  # type: ignore[arg-type]
