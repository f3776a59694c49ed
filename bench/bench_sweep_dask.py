"""Sweep throughput through the Dask engine next to the local pool: points per second.

Usage: python bench/bench_sweep_dask.py [--jobs N] [--points P] [--dask-workers 2]
The same synthetic philly trace and scenario as bench/bench_sweep.py, swept over P server
counts with 1 and 2 local workers and on a Dask LocalCluster of `--dask-workers` processes
(one thread each, loopback), each on its own copy of the database so nothing is read back.
Timed: the sweep call only. For the cluster, its start is timed apart (a real cluster is
started once and reused), while shipping the sweep and the price book to the workers is in
the sweep's time, as it is for the pool. Says whether every run gave the first one's results
exactly. Prints figures; asserts nothing.
"""

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from bench_sweep import prepared

from planner.service.sweep_dask import local_cluster
from planner.service.sweep_run import Sweep, SweepOutcome, run_sweep
from planner.store import connect


def _timed(base: Path, copy: Path, sweep: Sweep, points: list, **how: object) -> tuple:
    shutil.copyfile(base, copy)
    with connect(copy) as con:
        started = time.perf_counter()
        outcome: SweepOutcome = run_sweep(con, sweep, points, **how)  # type: ignore[arg-type]
        return time.perf_counter() - started, outcome.results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=20_000)
    parser.add_argument("--points", type=int, default=32)
    parser.add_argument("--dask-workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-sweep-dask-") as folder:
        root = Path(folder)
        base, sweep, points = prepared(root, args.jobs, args.points)
        runs: list[tuple[str, float, object]] = []
        for workers in (1, 2):
            spent, results = _timed(
                base, root / f"w{workers}.duckdb", sweep, points, workers=workers
            )
            runs.append((f"{workers} local worker(s)", spent, results))
        started = time.perf_counter()
        with local_cluster(args.dask_workers) as cluster:
            print(f"Dask LocalCluster started in {time.perf_counter() - started:,.1f} s")
            address = cluster.scheduler_address
            spent, results = _timed(base, root / "dask.duckdb", sweep, points, cluster=address)
            runs.append((f"Dask, {args.dask_workers} workers", spent, results))
        one = runs[0][1]
        for name, spent, results in runs:
            print(
                f"{name}: {len(points)} points in {spent:,.1f} s = {len(points) / spent:.3f} "
                f"points/s, x{one / spent:.2f} of 1 worker; results equal: {results == runs[0][2]}"
            )
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
