"""Run a sweep's points, each once: points stored by an earlier run are read back, the others
priced (in this process, or on a pool of worker processes) and stored as each one finishes.

A point's key hashes the scenario, the trace id, the price book, the date and the point's
values, so a re-run of the same sweep computes nothing, a changed price or scenario computes
everything again, and an interrupted run (Ctrl-C) keeps every point it finished. Workers are
processes forked from a fork server (never from this process, where DuckDB runs threads); each
receives the scenario once and maps the jobs from files written once (`sweep_ship`: not a
pickle per worker, nor once per point or per call: `pricing` keeps the workers for a search's
rounds) and opens its own copy of the price book, since DuckDB lets one process at a time use
the database file. They run the same `price_point`, so their results equal one worker's
exactly.
"""

import hashlib
import json
import multiprocessing
import multiprocessing.pool
import operator
import pickle
import shutil
import signal
import tempfile
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass, fields
from datetime import date
from pathlib import Path

from planner.core.model import Job
from planner.core.pools import end_pool
from planner.cost.scenario import TcoScenario
from planner.service.sweep_bills import read_bills, write_bills
from planner.service.sweep_keys import Point
from planner.service.sweep_point import PointResult, from_rows, price_point
from planner.service.sweep_ship import read_jobs, write_jobs
from planner.service.tco_rent import bills_kept
from planner.store import Connection, open_store
from planner.store.scenarios import price_book_key
from planner.store.sweep_inputs import save_inputs
from planner.store.sweeps import copy_price_book, done_keys, load_points, save_point
from pricing import ensure_seeded

POINT_FORMAT = 4
"""Bumped when a stored point gains a figure or a figure's meaning changes (3: an owned
cluster's useful GPU-hours are those done within the trace's window; 4: utilization within
the window, the ledger's lines and the twin error bar): points stored before are priced
again."""

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
    price: "Price | None" = None,
) -> SweepOutcome:
    """Every point's result, computing (on `workers` processes, on the Dask cluster at
    `cluster`: `planner.service.sweep_dask`, or with `price` from `pricing`, whose workers
    outlive this call) only those not stored."""
    ensure_seeded(con)  # before the key: a first run's seeding would change the price book
    base = sweep_key(con, sweep)
    keys = {p: point_key(base, p) for p in points}
    done = done_keys(con, keys.values())
    todo = [p for p in dict.fromkeys(points) if keys[p] not in done]
    computed = 0
    with ExitStack() as stack:
        if price is None:
            how = pricing(con, sweep, workers=min(workers, len(todo)), cluster=cluster)
            price = stack.enter_context(how)
        # closing: on Ctrl-C (or an error) here, the workers stop now, not when the generator
        # is collected
        for result in stack.enter_context(closing(price(todo))):
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


@contextmanager
def pricing(
    con: Connection, sweep: Sweep, *, workers: int = 1, cluster: str | None = None
) -> Iterator["Price"]:
    """A function pricing points (in the order they finish) on `workers` processes or on the
    Dask cluster at `cluster`, for as many calls as the block makes: the workers start at
    the first call that has points for them and receive the sweep once, not once per call
    (a search prices a few points per round). Stopped when the block ends."""
    if cluster is not None:
        from planner.service.sweep_dask import dask_pricing  # noqa: PLC0415 -- Dask only if asked

        with dask_pricing(con, sweep, cluster) as price:
            yield price
        return
    pool = _Pool(con, sweep, workers)
    try:
        with bills_kept():  # for points priced in this process
            yield pool.priced
    finally:
        pool.stop()


Price = Callable[[Sequence[Point]], Generator[PointResult]]
"""Prices points, giving each result as it is ready (not necessarily in the order asked)."""


class _Pool:
    """Worker processes forked from a fork server, started when first given more than one
    point (one point is priced in this process: starting workers would cost more)."""

    def __init__(self, con: Connection, sweep: Sweep, workers: int) -> None:
        self.con, self.sweep, self.workers = con, sweep, workers
        self.pool: multiprocessing.pool.Pool | None = None
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def priced(self, todo: Sequence[Point]) -> Generator[PointResult]:
        if self.workers <= 1 or (self.pool is None and len(todo) <= 1):
            for point in todo:
                yield price_point(
                    self.con, self.sweep.scenario, self.sweep.jobs, point, self.sweep.today
                )
            return
        pool = self._started()
        try:
            yield from pool.imap_unordered(_price, todo)
        except BaseException:
            self.stop(now=True)  # Ctrl-C or an error: the points stored so far stay
            raise

    def _started(self) -> multiprocessing.pool.Pool:
        if self.pool is None:
            self.folder = tempfile.TemporaryDirectory(prefix="planner-sweep-")
            prices = Path(self.folder.name) / "prices.duckdb"
            copy_price_book(self.con, prices)
            # a fork server, not a fork: DuckDB's threads run in this process. It imports the
            # planner once, and each worker forks from it ready to price.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            jobs = Path(self.folder.name) / "jobs"
            jobs.mkdir()
            write_jobs(self.sweep.jobs, jobs)  # once: the pool would pickle them per worker
            bills = Path(self.folder.name) / "bills.pickle"
            shared = (self.sweep.scenario, self.sweep.trace_id, self.sweep.today)
            self.pool = context.Pool(self.workers, _start_worker, (prices, jobs, bills, shared))
            # billed once, not per worker, while the workers build their jobs: they read the
            # bills at their first point, which is given them once this returns
            write_bills(self.con, self.sweep.scenario, self.sweep.jobs, self.sweep.today, bills)
        return self.pool

    def stop(self, *, now: bool = False) -> None:
        try:
            end_pool(self.pool, now=now)
        finally:  # a second Ctrl-C while the workers stop: their files go all the same
            self.pool = None
            if self.folder is not None:
                self.folder.cleanup()
                self.folder = None


def pack(sweep: Sweep) -> bytes:
    """The sweep pickled with its jobs as plain tuples, for the Dask workers (which may run on
    other machines, out of reach of `sweep_ship`'s files): a list of slotted frozen dataclasses
    pickles and loads about twice as slowly as their fields (2 s against 1 s per 100,000 jobs
    each way)."""
    rows = [_FIELDS(job) for job in sweep.jobs]
    return pickle.dumps((sweep.scenario, rows, sweep.trace_id, sweep.today), protocol=5)


def unpack(packed: bytes) -> Sweep:
    scenario, rows, trace_id, today = pickle.loads(packed)
    return Sweep(scenario, [Job(*row) for row in rows], trace_id, today)


_FIELDS = operator.attrgetter(*(f.name for f in fields(Job)))


# --- inside a worker process -----------------------------------------------------------------

_WORKER: dict[str, object] = {}


def _start_worker(
    prices: Path, jobs: Path, bills: Path, shared: tuple[TcoScenario, str, date]
) -> None:
    """Open a private copy of the price book and keep the sweep (its `shared` scenario, trace
    id and date, the jobs read from the files in `jobs`) for every point to come, and the
    parent's cloud `bills` from the first point on (the parent writes them meanwhile)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    own = prices.with_name(f"worker-{multiprocessing.current_process().pid}.duckdb")
    shutil.copyfile(prices, own)
    _WORKER["con"] = open_store(own)
    scenario, trace_id, today = shared
    _WORKER["sweep"] = Sweep(scenario, read_jobs(jobs, observed=False), trace_id, today)
    kept = ExitStack()  # kept until the worker exits
    kept.enter_context(bills_kept())
    _WORKER["bills"] = kept
    _WORKER["bills_file"] = bills


def _price(point: Point) -> PointResult:
    con = _WORKER["con"]
    sweep = _WORKER["sweep"]
    assert isinstance(sweep, Sweep)
    bills = _WORKER.pop("bills_file", None)
    if isinstance(bills, Path):  # the first point: the parent has written them
        read_bills(bills, sweep.scenario, sweep.jobs)
    return price_point(con, sweep.scenario, sweep.jobs, point, sweep.today)  # type: ignore[arg-type]
