"""The twin check's speed on a serving export's shape (issue 33): 24,000 1-GPU pods, long-lived,
a few hundred arrivals a day, their starts and ends observed from a replay on a known cluster
(`--real` nodes of 8 GPUs), checked against a node list of `--listed` such nodes (440 x 8 GPUs,
as the export of issue 31 item 2).

Usage: python bench/bench_twin.py [--jobs 24000] [--per-day 300] [--real 420] [--listed 440]
       python bench/bench_twin.py --profile 30     (cProfile: the 30 costliest functions)

Prints the check's wall time and CPU, the replays run of those planned at the start, the mean
replay, the capacities tried and the answer (fitted GPUs, chosen policy, held-back p90 wait),
and, in the same run, the yardstick (`bench/yardstick.py`: the same jobs, strict FIFO on the
node list) with the ratios to it: the mean replay's and the whole check's. The machine's load
average is printed beside, since the wall time says as much about the neighbours as about the
code. Asserts nothing.

Measured (2026-12-07, the shared 2-core machine at load average 6.8-16, compiled engine, runs
one after the other; docs/twin.md has the table): before, 20.3-23.2 s of CPU (48-77 s wall);
after, one process, 13.6-15.9 s of CPU (21-44 s wall; 31 replays of 0.44-0.51 s, 4.8-7.4x
the yardstick); after, two workers, 18.6-19.3 s of CPU in all, an idle-machine estimate of
11-12 s (30 and 53 s wall). Pure Python before: 23.2 s of CPU (38 s wall).
"""

import argparse
import cProfile
import os
import pstats
import random
import resource
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import psutil
from yardstick import yardstick

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import compiled
from planner.engine.latency import SizeClasses, StartLatency
from planner.engine.loop import simulate
from planner.engine.policy import Policy
from planner.twin.calibrate import TwinInput, TwinRun, run_twin
from planner.twin.progress import TwinProgress
from planner.twin.trials import default_workers

DAY_S = 86_400.0
LATENCY_S = 20.0


def nodes(count: int) -> list[NodeSpec]:
    return [NodeSpec(f"n{i:03d}", "A100", 8, 0.0, 0.0) for i in range(count)]


def history(jobs: int, per_day: float, real_nodes: int, seed: int, busy: float) -> list[Job]:
    """`jobs` 1-GPU pods arriving at `per_day` a day, their mean life set so that they ask for
    `busy` of the real cluster's GPUs at steady state, replayed on it with a 20 s start latency; the
    replay's starts and ends become the observed ones."""
    rng = random.Random(seed)
    mean_s = busy * real_nodes * 8 / per_day * DAY_S
    t, made = 0.0, []
    for i in range(jobs):
        t += rng.expovariate(per_day / DAY_S)
        made.append(Job(f"p{i:06d}", t, rng.expovariate(1 / mean_s) + 60))
    latency = StartLatency(SizeClasses(), {}, (LATENCY_S,), fixed_s=LATENCY_S)
    result = simulate(made, nodes(real_nodes), Policy(start_latency=latency))
    return [
        replace(job, start_s=result.start_s[i], end_s=result.end_s[i])
        for i, job in enumerate(result.jobs)
    ]


class Watch:
    """Keeps the first and last progress reports."""

    def __init__(self) -> None:
        self.first: TwinProgress | None = None
        self.last: TwinProgress | None = None

    def __call__(self, now: TwinProgress) -> None:
        self.first = self.first or now
        self.last = now


class WorkerClock:
    """The CPU seconds of this process's descendants (the twin's workers, under the fork
    server), sampled twice a second while the check runs: they exit before it returns."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        me = psutil.Process()
        while not self.stop.wait(0.5):
            for child in me.children(recursive=True):
                try:
                    times = child.cpu_times()
                except psutil.Error:
                    continue
                self.seen[child.pid] = times.user + times.system

    def __enter__(self) -> "WorkerClock":
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()


def check(jobs: list[Job], listed: int, workers: int, watch: Watch) -> tuple[TwinRun, float, float]:
    spec = TwinInput("serving", f"{listed} nodes", jobs, nodes(listed), Policy(), workers=workers)
    cpu, wall = time.process_time(), time.perf_counter()
    run = run_twin(spec, watch)
    return run, time.perf_counter() - wall, time.process_time() - cpu


def yardstick_s(jobs: list[Job], listed: int) -> float:
    ordered = sorted(jobs, key=lambda j: j.submit_s)
    figures = yardstick(
        [j.submit_s for j in ordered],
        [j.duration_s for j in ordered],
        [1] * len(ordered),
        [1] * len(ordered),
        nodes=listed,
        gpus_per_node=8,
    )
    return figures["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=24_000)
    parser.add_argument("--per-day", type=float, default=300.0)
    parser.add_argument("--real", type=int, default=420)
    parser.add_argument("--listed", type=int, default=440)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None, help="default: as the app")
    parser.add_argument("--busy", type=float, default=0.95, help="offered load, of the real GPUs")
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"engine: {compiled.status()}; load average {load:.1f} on {os.cpu_count()} cores")
    made = time.perf_counter()
    jobs = history(args.jobs, args.per_day, args.real, args.seed, args.busy)
    print(f"history: {len(jobs):,} pods, built in {time.perf_counter() - made:.1f} s")
    stick = yardstick_s(jobs, args.listed)
    watch = Watch()
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    workers = args.workers or default_workers(len(jobs))
    with WorkerClock() as clock:
        run, wall, cpu = check(jobs, args.listed, workers, watch)
    busiest = max(clock.seen.values(), default=0.0)
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)
    last, first = watch.last, watch.first
    assert last is not None
    assert first is not None
    mean = wall / last.done
    cal = run.report.calibration
    print(
        f"twin check ({workers} worker{'s' if workers > 1 else ''}): {wall:.1f} s wall, "
        f"{cpu:.1f} s CPU here + {sum(clock.seen.values()):.1f} s in workers (the busiest "
        f"{busiest:.1f} s): on an idle machine about {cpu + busiest:.0f} s; {last.done} "
        f"replays run of {first.total} planned at the start; mean replay {mean:.2f} s\n"
        f"capacities tried (GPUs): {[c.gpus for c in cal.capacity_scores]}; fitted "
        f"{cal.effective_gpus}; policy {cal.policy.admission}/{cal.policy.queueing}; held-back "
        f"p90 wait observed {run.report.after.observed.p90 or 0:,.0f} s, calibrated "
        f"{run.report.after.replayed.p90 or 0:,.0f} s\n"
        f"yardstick (same jobs, strict FIFO on {args.listed} x 8 GPUs): {stick:.3f} s; "
        f"mean replay / yardstick {mean / stick:.1f}x; check / yardstick {wall / stick:.0f}x; "
        f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; "
        f"load average now {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
