"""Sweep throughput: points per second of `planner sweep` with 1 and 2 local workers.

Usage: python bench/bench_sweep.py [--jobs N] [--points P] [--workers 1,2]
A synthetic philly trace of N jobs (planner.synth) is written, ingested once into a fresh
database, and swept over P server counts of a V100 pool (against a cloud V100 at $3.06 an
hour), once per worker count, each on its own copy of the database so no point is read back
from an earlier run. Timed: the sweep call only, workers' start included (loading the jobs is
timed apart). Also says whether every worker count gave the first one's results exactly.
This prints figures; it asserts nothing (tests never assert wall-clock time).
"""

import argparse
import os
import resource
import shutil
import tempfile
import time
from datetime import date
from pathlib import Path

from planner.core.file_access import LOCAL_FILES
from planner.cost.scenario import TcoScenario
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_keys import Point
from planner.service.sweep_run import Sweep, run_sweep
from planner.store import connect
from planner.synth import write_trace

SERVERS_PER_POINT = 4  # points are 4, 8, 12, ... servers of 8 GPUs


def scenario(trace: Path) -> TcoScenario:
    return TcoScenario.model_validate(
        {
            "name": "bench sweep",
            "trace": str(trace),
            "horizons_years": [3],
            "self_hosted": [
                {
                    "gpu": "V100",
                    "servers": 8,
                    "gpus_per_server": 8,
                    "price": 120_000,
                    "idle_kw": 1.0,
                    "load_kw": 3.0,
                    "max_kw": 3.5,
                }
            ],
            "cloud": [{"name": "cloud V100", "gpu": "V100", "price_per_gpu_hour": 3.06}],
        }
    )


def _cpu_s() -> float:
    """CPU seconds of this process (the pool's workers are the fork server's children, so
    their CPU is not counted here: with 1 worker every point is priced in this process)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def prepared(root: Path, jobs: int, points: int) -> tuple[Path, Sweep, list[Point]]:
    """A database `root/base.duckdb` holding a synthetic philly trace of `jobs` jobs, the sweep
    over it and `points` server counts (also used by bench/bench_sweep_dask.py)."""
    trace = root / "philly.csv"
    started = time.perf_counter()
    write_trace(trace, profile="philly", jobs=jobs, seed=1)
    base = root / "base.duckdb"
    with connect(base) as con:
        trace_id = resolve_trace(con, str(trace), files=LOCAL_FILES)
        loaded = load_jobs(con, trace_id)
    setup = time.perf_counter() - started
    print(f"{jobs:,} jobs written, ingested, loaded in {setup:,.1f} s")
    sweep = Sweep(scenario(trace), loaded, trace_id, date.today())
    return base, sweep, [(("servers", SERVERS_PER_POINT * (k + 1)),) for k in range(points)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=20_000)
    parser.add_argument("--points", type=int, default=32)
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    counts = [1, *[int(w) for w in args.workers.split(",")]][1:]
    with tempfile.TemporaryDirectory(prefix="bench-sweep-") as folder:
        root = Path(folder)
        base, sweep, points = prepared(root, args.jobs, args.points)
        first = None
        for workers in counts:
            db = root / f"w{workers}.duckdb"
            shutil.copyfile(base, db)
            with connect(db) as con:
                started, cpu = time.perf_counter(), _cpu_s()
                outcome = run_sweep(con, sweep, points, workers=workers)
                spent, cpu = time.perf_counter() - started, _cpu_s() - cpu
            first = first or (workers, spent, outcome.results)
            same = outcome.results == first[2]
            print(
                f"workers {workers}: {len(points)} points in {spent:,.1f} s = "
                f"{len(points) / spent:.3f} points/s, x{first[1] / spent:.2f} of {first[0]} "
                f"worker(s), CPU in this process {cpu:,.1f} s; results equal: {same}"
            )
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
