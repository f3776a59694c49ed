"""Sweep throughput at scale: 32 points of a 1,000,000-job synthetic trace with 1 and 2 local
workers and on the Dask engine (`--cluster local:2`), as a table; peak memory per worker.

Usage: python bench/bench_sweep_1m.py [--jobs 1000000] [--points 32] [--dask-workers 2]
       python bench/bench_sweep_1m.py --jobs 100000 --points 8      (a smaller, quicker run)

The trace, scenario and points are bench/bench_sweep.py's (synthetic philly, a V100 pool at 4,
8, 12, ... servers against a cloud V100). Each run prices every point on its own copy of the
database, so nothing is read back. Timed: the sweep call, workers' start and the trace's
shipping included; the Dask cluster's own start is timed apart (a real cluster is started once
and reused). Peak RSS: the peak (VmHWM) of each process this one started, sampled while the
sweep runs (once a second; the sampler's own CPU is not counted as this process's); the largest
`workers` of them are the workers (each holds the trace and a replay). Also printed: what each
worker pays once (the jobs' columns written, mapped and built into jobs; the Dask engine's
pickle packed and unpacked) and per point (its result pickled, stored), against a point's
replay; bench/bench_sweep_worker.py follows one worker's memory step by step. Prints; asserts
nothing.

On a shared machine the wall-clock ratios say mostly how busy the neighbours were, so each run
also shows its CPU: each worker's, this process's (its serial part: writing the jobs'
columns, storing each point), CPU per point, and the wall time that CPU would take on an idle
machine ("quiet s": the busiest worker plus this process, at least all CPU over the cores),
with its ratio to 1 worker: the speed-up the load does not move.
"""

import argparse
import os
import pickle
import resource
import shutil
import tempfile
import threading
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import psutil
from bench_sweep import prepared

from planner.service.sweep_dask import local_cluster
from planner.service.sweep_keys import Point
from planner.service.sweep_run import Sweep, pack, run_sweep, unpack
from planner.service.sweep_ship import read_jobs, write_jobs
from planner.store import connect


@dataclass
class Run:
    name: str
    workers: int
    seconds: float
    results: tuple[object, ...]
    peaks_mb: list[float]
    """Peak RSS of the workers, largest first (1 worker: this process)."""
    cpu_s: float
    """CPU seconds of the workers (1 worker: this process)."""
    finished: list[float]
    """Seconds from the start at which each point was stored."""
    parent_cpu_s: float = 0.0
    """CPU seconds of this process during the sweep (with workers: its serial part, packing
    and shipping the sweep, and storing each point)."""
    worker_cpu_s: tuple[float, ...] = ()
    """CPU seconds of each worker (1 worker: this process)."""

    def quiet_seconds(self, cores: int) -> float:
        """The wall time on an otherwise idle machine of `cores` cores, from CPU alone: the
        busiest worker plus everything this process did (counted as if it were serial), and
        never less than all the CPU spread over the cores."""
        if not self.worker_cpu_s:
            return self.cpu_s
        busiest = max(self.worker_cpu_s) + self.parent_cpu_s
        return max(busiest, (sum(self.worker_cpu_s) + self.parent_cpu_s) / cores)


class Peaks:
    """Samples the peak RSS (VmHWM) of every process descended from this one until stopped.
    VmHWM is the kernel's high-water mark, so a sample a second misses no peak, only what a
    process does in its last second; sampling oftener would only take CPU from the run."""

    def __init__(self, every_s: float = 1.0) -> None:
        self.every_s = every_s
        self.peaks: dict[int, float] = {}
        self.cpu: dict[int, float] = {}
        """CPU seconds of each process, as last sampled."""
        self.own_cpu_s = 0.0
        """CPU seconds of the sampling itself (this process's, not the run's)."""
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> "Peaks":
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.done.set()
        self.thread.join()

    def _sample(self) -> None:
        while not self.done.wait(self.every_s):
            self._sample_once()
        self.own_cpu_s = time.thread_time()

    def _sample_once(self) -> None:
        for child in psutil.Process().children(recursive=True):
            peak = _vm_hwm_mb(child.pid)
            if peak is not None:
                self.peaks[child.pid] = max(peak, self.peaks.get(child.pid, 0.0))
            with suppress(psutil.Error):
                times = child.cpu_times()
                self.cpu[child.pid] = times.user + times.system

    def largest(self, count: int) -> list[float]:
        return sorted(self.peaks.values(), reverse=True)[:count]

    def cpu_of_largest(self, count: int) -> list[float]:
        """CPU seconds of the `count` processes of largest peak RSS (the workers)."""
        pids = sorted(self.peaks, key=self.peaks.__getitem__, reverse=True)[:count]
        return [self.cpu.get(pid, 0.0) for pid in pids]


def _vm_hwm_mb(pid: int) -> float | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    line = next((x for x in status.splitlines() if x.startswith("VmHWM:")), None)
    return None if line is None else int(line.split()[1]) / 1024


def _own_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _own_cpu_s() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def timed_run(
    name: str, count: int, base: Path, sweep: Sweep, points: list[Point], **how: object
) -> Run:
    """A sweep of every point on a fresh copy of the database, on `count` workers."""
    copy = base.with_name(f"{name.replace(' ', '-').replace(':', '')}.duckdb")
    shutil.copyfile(base, copy)
    finished: list[float] = []
    with connect(copy) as con, Peaks() as peaks:
        started, cpu = time.perf_counter(), _own_cpu_s()
        outcome = run_sweep(
            con,
            sweep,
            points,
            on_point=lambda done, total: finished.append(time.perf_counter() - started),
            **how,  # type: ignore[arg-type]
        )
        spent, cpu = time.perf_counter() - started, _own_cpu_s() - cpu
    cpu -= peaks.own_cpu_s  # the bench's sampling is not the sweep's
    if count == 1 and "cluster" not in how:
        return Run(name, 1, spent, outcome.results, [_own_peak_mb()], cpu, finished, cpu, ())
    found, cpus = peaks.largest(count), tuple(peaks.cpu_of_largest(count))
    return Run(name, count, spent, outcome.results, found, sum(cpus), finished, cpu, cpus)


def balanced_bound(one: Run, workers: int) -> float:
    """The wall time `workers` workers would take with no overhead at all: the 1-worker run's
    point times dealt in order to whichever worker is free first (as the pool does)."""
    times = [b - a for a, b in zip([0.0, *one.finished], one.finished, strict=False)]
    free = [0.0] * workers
    for t in times:
        k = free.index(min(free))
        free[k] += t
    return max(free)


def fixed_costs(sweep: Sweep, one: Run, points: int) -> list[str]:
    """What a worker pays once and per point, against a point's replay (from the 1-worker run):
    the local pool's way (columns written once, mapped by each worker) and the Dask workers'
    (the sweep pickled once, unpickled by each)."""
    with tempfile.TemporaryDirectory(prefix="bench-sweep-ship-") as folder:
        started = time.process_time()
        write_jobs(sweep.jobs, Path(folder))
        writing = time.process_time() - started
        size = sum(p.stat().st_size for p in Path(folder).iterdir())
        started = time.process_time()
        read_jobs(Path(folder), observed=False)  # as a worker reads them
        reading = time.process_time() - started
    started = time.process_time()
    packed = pack(sweep)
    packing = time.process_time() - started
    started = time.process_time()
    unpack(packed)
    unpacking = time.process_time() - started
    result = pickle.dumps(one.results[0])
    per_point = one.cpu_s / points
    return [
        f"a point (1 worker, stored included): {per_point:,.1f} CPU s",
        f"once per sweep: write the job columns {writing:,.2f} CPU s ({size / 1e6:,.1f} MB); "
        f"once per worker: map them and build the jobs {reading:,.2f} CPU s "
        f"= {reading / per_point:.1%} of a point",
        f"(Dask) once per sweep: pack the sweep {packing:,.2f} CPU s ({len(packed) / 1e6:,.1f} "
        f"MB); once per worker: unpack it {unpacking:,.2f} CPU s = {unpacking / per_point:.1%} "
        "of a point",
        f"per point: a result pickles to {len(result):,} bytes (a point read back; a computed "
        "one also carries its inputs, about 2 KB)",
    ]


def table(runs: list[Run], points: int) -> list[str]:
    head = (
        "engine",
        "workers",
        "seconds",
        "points/s",
        "x of 1",
        "CPU s (per worker)",
        "parent CPU s",
        "CPU s/point",
        "quiet s",
        "quiet x of 1",
        "peak RSS/worker MB",
    )
    cores = os.cpu_count() or 1
    one_quiet = runs[0].quiet_seconds(cores)
    rows = [head] + [
        (
            run.name,
            str(run.workers),
            f"{run.seconds:,.1f}",
            f"{points / run.seconds:.4f}",
            f"{runs[0].seconds / run.seconds:.2f}",
            f"{run.cpu_s:,.1f}" + "".join(f" {c:,.1f}" for c in run.worker_cpu_s),
            f"{run.parent_cpu_s:,.1f}",
            f"{run.cpu_s / points:,.2f}",
            f"{run.quiet_seconds(cores):,.1f}",
            f"{one_quiet / run.quiet_seconds(cores):.2f}",
            " ".join(f"{p:,.0f}" for p in run.peaks_mb),
        )
        for run in runs
    ]
    widths = [max(len(r[k]) for r in rows) for k in range(len(head))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    same = all(run.results == runs[0].results for run in runs)
    bound = balanced_bound(runs[0], 2)
    return [
        *lines,
        f"every run's results equal the 1-worker run's: {same}",
        f"2 workers with no overhead, the points dealt as the pool deals them: {bound:,.1f} s "
        f"= x{runs[0].seconds / bound:.2f} of 1 (the rest of the gap is overhead or load)",
        "quiet s: the run's wall time on an idle machine of this many cores, from CPU alone "
        "(busiest worker + this process's CPU, at least all CPU / cores): the figure that "
        "does not depend on the neighbours' load",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1_000_000)
    parser.add_argument("--points", type=int, default=32)
    parser.add_argument("--dask-workers", type=int, default=2)
    parser.add_argument("--no-dask", action="store_true", help="local workers only")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-sweep-1m-") as folder:
        base, sweep, points = prepared(Path(folder), args.jobs, args.points)
        runs = [timed_run(f"local {w}", w, base, sweep, points, workers=w) for w in (1, 2)]
        if not args.no_dask:
            started = time.perf_counter()
            with local_cluster(args.dask_workers) as cluster:
                print(f"Dask LocalCluster started in {time.perf_counter() - started:,.1f} s")
                address = cluster.scheduler_address
                name = f"dask local:{args.dask_workers}"
                runs.append(
                    timed_run(name, args.dask_workers, base, sweep, points, cluster=address)
                )
        print(f"\n{args.jobs:,} jobs x {args.points} points")
        print("\n".join(table(runs, args.points)))
        print("\n".join(fixed_costs(sweep, runs[0], args.points)))
    print(f"load average after: {os.getloadavg()[0]:.1f} (1 min), {os.getloadavg()[1]:.1f} (5 min)")


if __name__ == "__main__":
    main()
