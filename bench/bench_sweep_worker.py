"""What one sweep worker holds, step by step: the jobs shipped as a pickle (as the workers
received them before issue 33, and the Dask workers still do) against the jobs memory-mapped
from column files (`planner.service.sweep_ship`, the local pool's way), then each point.

Usage: python bench/bench_sweep_worker.py [--jobs 1000000] [--points 2]

The trace, scenario and points are bench/bench_sweep.py's. Each way runs in a fresh process
started from a fork server, as the pool's workers are, which receives what a pool worker
receives (the pickle as its argument, kept for its life as the pool keeps an initializer's
arguments; or the folder's path), builds the sweep, and prices the points one after the
other inside `bills_kept()` as a worker does. After each step it prints its resident memory
(VmRSS), its peak so far (VmHWM) and its CPU seconds. Prints; asserts nothing.
"""

import argparse
import multiprocessing
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from bench_sweep import prepared

from planner.service.sweep_keys import Point
from planner.service.sweep_point import price_point
from planner.service.sweep_run import Sweep, pack, unpack
from planner.service.sweep_ship import read_jobs, write_jobs
from planner.service.tco_rent import bills_kept
from planner.store import open_store


def _status_mb(field: str) -> float:
    line = next(
        x for x in Path("/proc/self/status").read_text().splitlines() if x.startswith(field)
    )
    return int(line.split()[1]) / 1024


def _cpu_s() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def _say(way: str, step: str, started: float) -> None:
    rss, peak = _status_mb("VmRSS:"), _status_mb("VmHWM:")
    cpu = _cpu_s() - started
    print(
        f"{way:8} {step:24} RSS {rss:6,.0f} MB  peak {peak:6,.0f} MB  CPU {cpu:6,.1f} s", flush=True
    )


def worker(
    way: str, shipped: object, shared: tuple[object, ...], db: Path, points: list[Point]
) -> None:
    """One worker's life: the sweep built from what it was shipped, then every point."""
    started = _cpu_s()
    _say(way, "started", started)
    if way == "pickle":
        assert isinstance(shipped, bytes)
        sweep = unpack(shipped)  # `shipped` stays referenced, as a pool's initargs do
    else:
        assert isinstance(shipped, Path)
        scenario, trace_id, today = shared
        sweep = Sweep(scenario, read_jobs(shipped, observed=False), trace_id, today)  # type: ignore[arg-type]
    _say(way, f"{len(sweep.jobs):,} jobs held", started)
    con = open_store(db)
    with bills_kept():
        for k, point in enumerate(points, 1):
            price_point(con, sweep.scenario, sweep.jobs, point, sweep.today)
            _say(way, f"point {k} priced", started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1_000_000)
    parser.add_argument("--points", type=int, default=2)
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["planner.service.sweep_run"])
    with tempfile.TemporaryDirectory(prefix="bench-sweep-worker-") as folder:
        root = Path(folder)
        base, sweep, points = prepared(root, args.jobs, args.points)
        shared = (sweep.scenario, sweep.trace_id, sweep.today)
        started, cpu = time.perf_counter(), _cpu_s()
        packed = pack(sweep)
        print(f"parent: pickled in {_cpu_s() - cpu:,.1f} CPU s, {len(packed) / 1e6:,.1f} MB")
        (root / "jobs").mkdir()
        cpu = _cpu_s()
        write_jobs(sweep.jobs, root / "jobs")
        size = sum(p.stat().st_size for p in (root / "jobs").iterdir())
        print(f"parent: columns written in {_cpu_s() - cpu:,.1f} CPU s, {size / 1e6:,.1f} MB")
        for way, shipped in (("pickle", packed), ("columns", root / "jobs")):
            db = root / f"{way}.duckdb"
            shutil.copyfile(base, db)
            process = context.Process(target=worker, args=(way, shipped, shared, db, points))
            process.start()
            process.join()
        del packed
        print(f"both ways in {time.perf_counter() - started:,.0f} s")
    print(f"load average after: {os.getloadavg()[0]:.1f} (1 min), {os.getloadavg()[1]:.1f} (5 min)")


if __name__ == "__main__":
    main()
