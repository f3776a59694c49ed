"""Where a replay's bytes go: peak RSS and bytes per job of a philly replay, beside the yardstick.

Usage: python bench/bench_memory.py [--jobs 200000,1000000] [--source store|builder] [--top 15]
    [--no-trace]
With `--source store` (the default: the product's path) each size's synthetic philly trace
(planner.synth) is written as CSV and imported into a fresh DuckDB file once, by the importer;
a fresh child process (this script with `--child`) then loads it with
`planner.service.job_rows.load_jobs` and replays it with gang + best-fit + backfill on
1,000 x 8 V100s (the profile's cards; 5% of its jobs take any GPU). With `--source builder` the
child builds the same rows as jobs in memory (bench_replay.philly_jobs: no GPU type, no
observed start or end; built by the loader's `jobs_from_columns`) and replays them on A100s.
Another child runs the yardstick (bench/yardstick.py) on the same rows, so the time ratio is
taken in the same run. A child reports its RSS after imports, after the jobs are built (and,
loading, the peak of the load alone) and at its peak (`resource.getrusage`, the high-water mark
of this process alone), and bytes per job = (peak - RSS after imports) / jobs: the jobs, the
replay's state and the result.
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
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yardstick import GPUS_PER_NODE, NODES, yardstick

from planner.engine import compiled


def _rss_mib() -> float:
    """Current resident set size of this process (Linux /proc), MiB."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@dataclass(frozen=True, slots=True)
class Source:
    """Where a child's jobs come from: the bench's builder, or a trace stored in `database`."""

    jobs: int
    database: str = ""
    trace_id: str = ""

    def args(self) -> list[str]:
        stored = ["--database", self.database, "--trace-id", self.trace_id]
        return ["--jobs", str(self.jobs), *(stored if self.database else [])]


def child_ingest(jobs: int, folder: Path) -> dict[str, Any]:
    """The synthetic philly trace written as CSV and imported into a fresh DuckDB file in
    `folder`, and the import's seconds. A child of its own: a child's peak RSS starts at its
    parent's RSS when it was forked, so the parent must stay small."""
    from planner.ingest import IngestOptions  # noqa: PLC0415 - the children import their own
    from planner.service.importer import import_file  # noqa: PLC0415
    from planner.store import open_store  # noqa: PLC0415
    from planner.synth import write_trace  # noqa: PLC0415

    csv_path, database = folder / f"philly-{jobs}.csv", folder / f"philly-{jobs}.duckdb"
    write_trace(csv_path, profile="philly", jobs=jobs, seed=1)
    started = time.perf_counter()
    con = open_store(database)
    try:
        report = import_file(con, csv_path, IngestOptions())
    finally:
        con.close()
    csv_path.unlink()
    seconds = time.perf_counter() - started
    return {"database": str(database), "trace_id": report.trace_id, "seconds": seconds}


def load(source: Source) -> tuple[list[Any], list[Any]]:
    """The source's jobs, and the nodes to replay them on."""
    if not source.database:
        from bench_replay import philly_jobs  # noqa: PLC0415 - NumPy: the builder's alone

        nodes = [(f"n{i:04d}", "A100", GPUS_PER_NODE, 0.0, 0.0) for i in range(NODES)]
        return philly_jobs(source.jobs), nodes
    from planner.service.job_rows import load_jobs  # noqa: PLC0415 - imported before the baseline
    from planner.store import open_store  # noqa: PLC0415

    con = open_store(Path(source.database))
    try:
        jobs = load_jobs(con, source.trace_id)
    finally:
        con.close()
    return jobs, [(f"n{i:04d}", "V100", GPUS_PER_NODE, 0.0, 0.0) for i in range(NODES)]


def _imports(source: Source) -> None:
    """What the child imports before its baseline RSS: the replay, and the loader's edge."""
    import planner.engine  # noqa: PLC0415
    import planner.engine.policy  # noqa: PLC0415

    if source.database:
        # the loader alone: DuckDB, no NumPy, pandas or pyarrow (the CLI's `planner replay`
        # still imports pandas with its file options, and NumPy to sum the result up)
        import planner.service.job_rows  # noqa: PLC0415
        import planner.store  # noqa: PLC0415, F401
    else:
        import bench_replay  # noqa: PLC0415, F401 - the builder (NumPy)


def child_engine(source: Source) -> dict[str, Any]:
    from planner.engine import simulate  # noqa: PLC0415 - imported before the baseline RSS
    from planner.engine.policy import Policy  # noqa: PLC0415

    _imports(source)
    base = _rss_mib()
    started = time.perf_counter()
    trace, nodes = load(source)
    setup = time.perf_counter() - started
    after_jobs, load_peak = _rss_mib(), _peak_mib()
    policy = Policy(admission="gang", placement="best-fit", queueing="backfill")
    started, cpu = time.perf_counter(), time.process_time()
    result = simulate(trace, nodes, policy)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    completed = sum(1 for status in result.status if status == "completed")
    return {
        "engine": compiled.status(),
        "jobs": len(trace),
        "source": "store" if source.database else "builder",
        "seconds": seconds,
        "cpu_seconds": cpu,
        "setup_seconds": setup,
        "base_mib": base,
        "after_jobs_mib": after_jobs,
        "load_peak_mib": load_peak,
        "after_result_mib": _rss_mib(),
        "peak_mib": _peak_mib(),
        "completed": completed,
    }


def child_yardstick(jobs: int) -> dict[str, Any]:
    from bench_replay import philly_rows  # noqa: PLC0415 - NumPy: kept out of the engine's child

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


def child_trace(source: Source, top: int) -> dict[str, Any]:
    """The replay under tracemalloc: the top sites at the loop's last progress call and after."""
    from planner.engine import simulate  # noqa: PLC0415
    from planner.engine.policy import Policy  # noqa: PLC0415

    trace, nodes = load(source)
    tracemalloc.start(1)  # after the jobs: what is traced is the replay's own
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
        "jobs": len(trace),
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


def run_child(kind: str, source: Source, top: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, *source.args(), "--top", str(top)],
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
    load_mib = engine["load_peak_mib"] - engine["base_mib"]
    return (
        f"{jobs:>9,} jobs ({engine['source']})  peak {engine['peak_mib']:>7,.0f} MiB"
        f"  ({held * 2**20 / jobs:,.0f} B/job over the {engine['base_mib']:.0f} MiB"
        f" after imports; the jobs alone {jobs_mib * 2**20 / jobs:,.0f} B/job, the load's"
        f" peak {load_mib * 2**20 / jobs:,.0f} B/job, {engine['setup_seconds']:.1f} s)\n"
        f"{'':11}replay {engine['seconds']:.2f} s (cpu {engine['cpu_seconds']:.2f} s)"
        f"  yardstick {ruler['seconds']:.2f} s (cpu {ruler['cpu_seconds']:.2f} s)"
        f"  ratio {engine['seconds'] / ruler['seconds']:.2f}x"
        f" (cpu {engine['cpu_seconds'] / ruler['cpu_seconds']:.2f}x)"
        f"  completed {engine['completed']:,}  yardstick peak {ruler['peak_mib']:,.0f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", default="200000,1000000", help="comma-separated trace sizes")
    parser.add_argument(
        "--source",
        choices=("store", "builder"),
        default="store",
        help="store: import into DuckDB, load with load_jobs (default); builder: in memory",
    )
    parser.add_argument("--top", type=int, default=15, help="allocation sites to print")
    parser.add_argument("--no-trace", action="store_true", help="skip the tracemalloc child")
    parser.add_argument(
        "--child", choices=("ingest", "engine", "yardstick", "trace"), help=argparse.SUPPRESS
    )
    parser.add_argument("--database", default="", help=argparse.SUPPRESS)
    parser.add_argument("--trace-id", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        source = Source(int(args.jobs), args.database, args.trace_id)
        kinds = {
            "ingest": lambda: child_ingest(source.jobs, Path(source.database)),
            "engine": lambda: child_engine(source),
            "yardstick": lambda: child_yardstick(source.jobs),
            "trace": lambda: child_trace(source, args.top),
        }
        print(json.dumps(kinds[args.child]()))
        return
    sizes = [int(size) for size in args.jobs.split(",") if size.strip()]
    print(f"engine: {compiled.status()} (PLANNER_PURE_PYTHON=1 for the plain one)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        sources = {}
        for jobs in sizes:
            sources[jobs] = Source(jobs)
            if args.source == "store":
                stored = run_child("ingest", Source(jobs, folder, "-"), args.top)
                sources[jobs] = Source(jobs, stored["database"], stored["trace_id"])
                seconds = stored["seconds"]
                print(f"{jobs:>9,} jobs imported into DuckDB in {seconds:.1f} s", flush=True)
            ruler = run_child("yardstick", sources[jobs], args.top)
            engine = run_child("engine", sources[jobs], args.top)
            print(report(engine, ruler), flush=True)
        if not args.no_trace:
            _print_trace(run_child("trace", sources[min(sizes)], args.top))


def _print_trace(traced: dict[str, Any]) -> None:
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
