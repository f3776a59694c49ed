"""What one sweep point holds, step by step: the resident memory (VmRSS) before and after each
step of `price_point` and the peak (VmHWM) during it, in a worker-like process.

Usage: python bench/bench_point_memory.py [--jobs 100000] [--points 1] [--fresh-bills]

The trace, scenario and points are bench/bench_sweep.py's. A fresh process, started from a
fork server as the pool's workers are, maps the jobs from the column files (`sweep_ship`)
and prices the points inside `bills_kept()`, keeping the cloud bills this process made once
as the pool's parent does (`sweep_bills`; `--fresh-bills`: the worker bills them itself at
its first point, as workers did before). Each step is timed by wrapping the function
where its caller looks it up (this bench only: it measures, it changes no figure), and the
kernel's peak is reset around each step (`/proc/self/clear_refs`), so a step's peak is its
own, its callers' the largest of theirs. Prints one line per step, nested as the calls are;
asserts nothing.
"""

import argparse
import functools
import importlib
import multiprocessing
import os
import resource
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_sweep import prepared

from planner.engine import compiled
from planner.service.sweep_bills import read_bills, write_bills
from planner.service.sweep_keys import Point
from planner.service.sweep_point import price_point
from planner.service.sweep_run import Sweep
from planner.service.sweep_ship import read_jobs, write_jobs
from planner.service.tco_rent import bills_kept
from planner.store import connect, open_store

STEPS = (
    ("planner.service.sweep_point", "tco_of_jobs"),
    ("planner.service.sweep_point", "point_options"),
    ("planner.service.sweep_point", "inputs_text"),
    ("planner.service.tco_run", "load_inputs"),
    ("planner.service.tco_run", "scoped_jobs"),
    ("planner.service.tco_run", "bare_metal"),
    ("planner.service.tco_run", "replayed"),
    ("planner.service.tco_run", "served_elsewhere"),
    ("planner.service.tco_run", "report"),
    ("planner.service.tco_run", "record"),
    ("planner.service.tco_replayed", "window"),
    ("planner.service.tco_replayed", "simulate"),
    ("planner.service.tco_replayed", "credit"),
    ("planner.service.tco_replayed", "rent_all"),
    ("planner.service.tco_replayed", "demanded"),
    ("planner.service.tco_replayed", "job_table"),
    ("planner.service.tco_replayed", "chargeback_data"),
    ("planner.service.tco_window", "counted_shares"),
    ("planner.service.tco_window", "replay_demand"),
    ("planner.service.tco_window", "carried_gpu_hours"),
    ("planner.service.tco_window", "replay_outcome"),
    ("planner.service.tco_window", "team_hours_within"),
)
"""(module, name) of each step: the name is replaced in the module that calls it."""


def _status_mb(field: str) -> float:
    status = Path("/proc/self/status").read_text()
    line = next(x for x in status.splitlines() if x.startswith(field))
    return int(line.split()[1]) / 1024


def _reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS


class Steps:
    """Wraps each step; prints RSS before/after and its own peak, nested as called."""

    def __init__(self) -> None:
        self.peaks: list[float] = [0.0]

    def wrap(self, module: str, name: str) -> None:
        owner = importlib.import_module(module)
        if hasattr(owner, name):
            setattr(owner, name, self._timed(name, getattr(owner, name)))

    def _timed(self, name: str, step: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(step)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.peaks[-1] = max(self.peaks[-1], _status_mb("VmHWM:"))
            before, depth = _status_mb("VmRSS:"), len(self.peaks)
            _reset_peak()
            self.peaks.append(0.0)
            cpu = time_cpu()
            result = step(*args, **kwargs)
            cpu = time_cpu() - cpu
            peak = max(self.peaks.pop(), _status_mb("VmHWM:"))
            after = _status_mb("VmRSS:")
            label = "  " * (depth - 1) + name
            print(
                f"{label:28} RSS {before:6,.0f} -> {after:6,.0f} MB ({after - before:+6,.0f})"
                f"  peak {peak:6,.0f} MB (+{peak - before:,.0f})  CPU {cpu:5,.1f} s",
                flush=True,
            )
            self.peaks[-1] = max(self.peaks[-1], peak)
            _reset_peak()
            return result

        return timed


def time_cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def worker(folder: Path, shared: tuple[Any, ...], db: Path, points: list[Point]) -> None:
    steps = Steps()
    for module, name in STEPS:
        steps.wrap(module, name)
    scenario, trace_id, today = shared
    sweep = Sweep(scenario, read_jobs(folder, observed=False), trace_id, today)
    print(f"{len(sweep.jobs):,} jobs held: RSS {_status_mb('VmRSS:'):,.0f} MB", flush=True)
    con = open_store(db)
    with bills_kept():
        if (folder.parent / "bills.pickle").exists():
            kept = read_bills(folder.parent / "bills.pickle", scenario, sweep.jobs)
            print(f"the parent's bills kept: {kept}; RSS {_status_mb('VmRSS:'):,.0f} MB")
        for k, point in enumerate(points, 1):
            _reset_peak()
            before = _status_mb("VmRSS:")
            price_point(con, sweep.scenario, sweep.jobs, point, sweep.today)
            after, peak = _status_mb("VmRSS:"), max(steps.peaks[0], _status_mb("VmHWM:"))
            print(f"point {k}: RSS {before:,.0f} -> {after:,.0f} MB, peak {peak:,.0f} MB")
            steps.peaks = [0.0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--points", type=int, default=1)
    parser.add_argument(
        "--fresh-bills", action="store_true", help="the worker bills the cloud itself"
    )
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    print(f"engine: {compiled.status()} (PLANNER_PURE_PYTHON=1 for the plain one)", flush=True)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["planner.service.sweep_run"])
    with tempfile.TemporaryDirectory(prefix="bench-point-memory-") as folder:
        root = Path(folder)
        base, sweep, points = prepared(root, args.jobs, args.points)
        shared = (sweep.scenario, sweep.trace_id, sweep.today)
        (root / "jobs").mkdir()
        write_jobs(sweep.jobs, root / "jobs")
        if not args.fresh_bills:  # as the pool's parent does (`sweep_bills`)
            with connect(base) as con, bills_kept():
                write_bills(con, sweep.scenario, sweep.jobs, sweep.today, root / "bills.pickle")
        del sweep
        process = context.Process(target=worker, args=(root / "jobs", shared, base, points))
        process.start()
        process.join()
    print(f"load average after: {os.getloadavg()[0]:.1f} (1 min), {os.getloadavg()[1]:.1f} (5 min)")


if __name__ == "__main__":
    main()
