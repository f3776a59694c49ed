"""Where a replay's bytes go: peak RSS and bytes per job of a philly replay, beside the yardstick.

Usage: python bench/bench_memory.py [--jobs 200000,1000000] [--top 15] [--no-trace]
For each size, a fresh child process (this script with `--child`) builds the synthetic philly
trace (planner.synth) as engine jobs and replays it with gang + best-fit + backfill on
1,000 x 8 GPUs; another child runs the yardstick (bench/yardstick.py) on the same rows, so the
time ratio is taken in the same run. A child reports its RSS after imports, after building the
jobs and at its peak (`resource.getrusage`, the high-water mark of this process alone), and
bytes per job = (peak - RSS after imports) / jobs: the jobs, the replay's state and the result.
With tracing (the default, smallest size only) a third child repeats that replay under
tracemalloc and prints the allocation sites that held the most at two moments: the last
progress call (the loop's state at its fullest) and just after the replay returned (its
result). Tracing starts once the jobs are built, so it counts the replay's own bytes (its
state and result), and slows the replay, so its time is not reported. Compiled code has no
Python frames: its allocations are booked to the line that called `simulate`; run with
PLANNER_PURE_PYTHON=1 to see the engine's own lines.
This prints figures; it asserts nothing (tests never assert wall-clock time).
"""

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from typing import Any

from bench_replay import GPUS_PER_NODE, NODES, philly_jobs, philly_rows
from yardstick import yardstick

from planner.engine import compiled


def _rss_mib() -> float:
    """Current resident set size of this process (Linux /proc), MiB."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_engine(jobs: int) -> dict[str, Any]:
    from planner.engine import simulate  # noqa: PLC0415 - imported before the baseline RSS
    from planner.engine.policy import Policy  # noqa: PLC0415

    base = _rss_mib()
    started = time.perf_counter()
    trace = philly_jobs(jobs)
    setup = time.perf_counter() - started
    after_jobs = _rss_mib()
    nodes = [(f"n{i:04d}", "A100", GPUS_PER_NODE, 0.0, 0.0) for i in range(NODES)]
    policy = Policy(admission="gang", placement="best-fit", queueing="backfill")
    started, cpu = time.perf_counter(), time.process_time()
    result = simulate(trace, nodes, policy)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    completed = sum(1 for status in result.status if status == "completed")
    return {
        "engine": compiled.status(),
        "jobs": jobs,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "setup_seconds": setup,
        "base_mib": base,
        "after_jobs_mib": after_jobs,
        "after_result_mib": _rss_mib(),
        "peak_mib": _peak_mib(),
        "completed": completed,
    }


def child_yardstick(jobs: int) -> dict[str, Any]:
    submit: list[float] = []
    duration: list[float] = []
    pods: list[int] = []
    per_pod: list[int] = []
    for submit_s, row in philly_rows(jobs):
        submit.append(submit_s)
        duration.append(float(row.duration_s))
        pods.append(row.pods)
        per_pod.append(row.gpus // row.pods)
    cpu = time.process_time()
    figures = yardstick(submit, duration, pods, per_pod, nodes=NODES, gpus_per_node=GPUS_PER_NODE)
    return {
        "jobs": jobs,
        "seconds": figures["seconds"],
        "cpu_seconds": time.process_time() - cpu,
        "peak_mib": _peak_mib(),
    }


def child_trace(jobs: int, top: int) -> dict[str, Any]:
    """The replay under tracemalloc: the top sites at the loop's last progress call and after."""
    from planner.engine import simulate  # noqa: PLC0415
    from planner.engine.policy import Policy  # noqa: PLC0415

    trace = philly_jobs(jobs)
    tracemalloc.start(1)  # after the jobs: what is traced is the replay's own
    nodes = [(f"n{i:04d}", "A100", GPUS_PER_NODE, 0.0, 0.0) for i in range(NODES)]
    policy = Policy(admission="gang", placement="best-fit", queueing="backfill")
    last: list[tracemalloc.Snapshot] = []
    best = [0.0]

    def progress(done: float) -> None:
        # keep the snapshot of the fullest moment seen (snapshots are costly: only past 0.9)
        current = tracemalloc.get_traced_memory()[0]
        if done > 0.9 and current > best[0]:
            best[0] = current
            last[:] = [tracemalloc.take_snapshot()]

    result = simulate(trace, nodes, policy, progress)
    after = tracemalloc.take_snapshot()
    peak = tracemalloc.get_traced_memory()[1]
    del result
    return {
        "jobs": jobs,
        "engine": compiled.status(),
        "traced_peak_mib": peak / 2**20,
        "in_loop": _top(last[0], top) if last else [],
        "after": _top(after, top),
    }


def _top(snapshot: tracemalloc.Snapshot, top: int) -> list[tuple[str, float, int]]:
    stats = snapshot.statistics("lineno")[:top]
    return [
        (
            f"{stat.traceback[0].filename.split('/planner/')[-1]}:{stat.traceback[0].lineno}",
            stat.size / 2**20,
            stat.count,
        )
        for stat in stats
    ]


def run_child(kind: str, jobs: int, top: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--jobs", str(jobs), "--top", str(top)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"{kind} child failed ({done.returncode}): {tail}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def report(engine: dict[str, Any], ruler: dict[str, Any]) -> str:
    jobs = engine["jobs"]
    held = engine["peak_mib"] - engine["base_mib"]
    jobs_mib = engine["after_jobs_mib"] - engine["base_mib"]
    return (
        f"{jobs:>9,} jobs  peak {engine['peak_mib']:>7,.0f} MiB"
        f"  ({held * 2**20 / jobs:,.0f} B/job over the {engine['base_mib']:.0f} MiB"
        f" after imports; the jobs alone {jobs_mib * 2**20 / jobs:,.0f} B/job)\n"
        f"{'':11}replay {engine['seconds']:.2f} s (cpu {engine['cpu_seconds']:.2f} s)"
        f"  yardstick {ruler['seconds']:.2f} s (cpu {ruler['cpu_seconds']:.2f} s)"
        f"  ratio {engine['seconds'] / ruler['seconds']:.2f}x"
        f" (cpu {engine['cpu_seconds'] / ruler['cpu_seconds']:.2f}x)"
        f"  completed {engine['completed']:,}  yardstick peak {ruler['peak_mib']:,.0f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", default="200000,1000000", help="comma-separated trace sizes")
    parser.add_argument("--top", type=int, default=15, help="allocation sites to print")
    parser.add_argument("--no-trace", action="store_true", help="skip the tracemalloc child")
    parser.add_argument("--child", choices=("engine", "yardstick", "trace"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        jobs = int(args.jobs)
        kinds = {
            "engine": lambda: child_engine(jobs),
            "yardstick": lambda: child_yardstick(jobs),
            "trace": lambda: child_trace(jobs, args.top),
        }
        print(json.dumps(kinds[args.child]()))
        return
    sizes = [int(size) for size in args.jobs.split(",") if size.strip()]
    print(f"engine: {compiled.status()} (PLANNER_PURE_PYTHON=1 for the plain one)", flush=True)
    for jobs in sizes:
        ruler = run_child("yardstick", jobs, args.top)
        engine = run_child("engine", jobs, args.top)
        print(report(engine, ruler), flush=True)
    if not args.no_trace:
        traced = run_child("trace", min(sizes), args.top)
        peak = traced["traced_peak_mib"]
        per_job = peak * 2**20 / traced["jobs"]
        print(
            f"tracemalloc, {traced['jobs']:,} jobs, {traced['engine']}: the replay's traced peak"
            f" {peak:.0f} MiB, {per_job:,.0f} B/job beyond the jobs"
        )
        for moment, when in (("in_loop", "at the last progress call"), ("after", "after")):
            print(f"  top sites {when}:")
            for site, mib, count in traced[moment]:
                print(f"    {mib:8.1f} MiB {count:>9,} blocks  {site}")


if __name__ == "__main__":
    main()
