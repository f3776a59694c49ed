"""What pressing Run on the Replay page costs on a 100,000-job trace, step by step.

Usage: python bench/bench_app_replay.py [--jobs N] [--profile teams] [--scenario FILE]
A synthetic trace (`planner.synth`, cached under bench/out/) is imported into a fresh
DuckDB file in a temporary folder; then the page's path is timed outside Streamlit:
`replay_view.replay` (read the trace, replay it reporting progress, summarise, build the
per-job table and its CSV), every plot-ready table and figure the page draws, and the
filtered CSV download. The default scenario is the teams demo (64 x 8 A100, one Kueue
ClusterQueue per team in one cohort) without its four-week horizon, so the whole trace
runs and the per-queue charts have something to show. Prints wall-clock and CPU seconds
per step (CPU time is the steadier figure on a shared machine); asserts nothing.
"""

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from streamlit.logger import set_log_level

from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.service.replay import load_scenario
from planner.store import open_store
from planner.synth import write_trace

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
TEAMS_SCENARIO = ROOT / "data" / "scenarios" / "teams-borrowing.yaml"


class Clock:
    """Seconds per named step, printed as they finish."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, float]] = []

    def time(self, name: str, step: Callable[[], Any]) -> Any:
        started, cpu = time.perf_counter(), time.process_time()
        value = step()
        seconds = time.perf_counter() - started
        self.steps.append((name, seconds))
        print(
            f"  {name:<40} {seconds:>7.2f} s  (cpu {time.process_time() - cpu:.2f} s)",
            flush=True,
        )
        return value

    def total(self, names: set[str] | None = None) -> float:
        return sum(s for name, s in self.steps if names is None or name in names)


def make_trace(profile: str, jobs: int, seed: int) -> Path:
    OUT.mkdir(exist_ok=True)
    path = OUT / f"{profile}_{jobs}_{seed}.csv"
    if not path.exists():
        started = time.perf_counter()
        write_trace(path, profile=profile, jobs=jobs, seed=seed)
        print(f"synth: {jobs:,} {profile} jobs in {time.perf_counter() - started:.1f} s")
    return path


def ingest(csv_path: Path, db: Path) -> str:
    started = time.perf_counter()
    con = open_store(db)
    try:
        report = import_file(con, csv_path, IngestOptions())
    finally:
        con.close()
    assert report.trace_id is not None
    print(f"ingest: {report.accepted:,} jobs in {time.perf_counter() - started:.1f} s")
    return report.trace_id


def press_run(trace_id: str, scenario_path: Path) -> None:
    """The page's Run, outside Streamlit: the replay with progress, then every figure."""
    # imported here: the app's modules read $PLANNER_DB, set by main() before this call
    from planner.ui import charts, replay_view  # noqa: PLC0415
    from planner.ui import replay_frames as frames  # noqa: PLC0415

    # Streamlit's caches and session state warn outside a running app; nothing is wrong
    set_log_level("error")

    base = load_scenario(scenario_path)
    policy = base.policy.model_copy(update={"horizon_s": None})
    scenario = replay_view.scenario_on(trace_id, base.model_copy(update={"policy": policy}))
    started = time.perf_counter()
    marks: dict[str, float] = {}

    def progress(fraction: float) -> None:
        marks.setdefault("first", time.perf_counter() - started)
        if fraction >= 0.9:
            marks.setdefault("engine", time.perf_counter() - started)

    clock = Clock()
    print("press Run:")
    run = clock.time(
        "replay (load, simulate, tables, CSV)", lambda: replay_view.replay(scenario, progress)
    )
    print(
        f"    first progress update after {marks.get('first', 0):.2f} s; engine done at "
        f"{marks.get('engine', 0):.2f} s; {len(run.schedule):,} schedule rows"
    )
    s, tl = run.summary, run.timeline
    figures = {
        "allocated GPUs by pool": lambda: charts.allocated_gpus(
            frames.allocation_frame(tl), s["gpu_capacity_by_pool"]
        ),
        "queue length": lambda: charts.queue_length(frames.queue_frame(tl)),
        "fragmentation": lambda: charts.fragmentation(frames.fragmentation_frame(tl)),
        "wait by size": lambda: charts.wait_by_size(frames.wait_by_size_frame(s)),
        "wait by team": lambda: charts.wait_by_team(frames.wait_by_team_frame(s)),
        "why jobs waited": lambda: charts.waiting_by_reason(frames.waiting_by_reason_frame(s)),
        "why, per team": lambda: charts.waiting_by_reason_per_team(
            frames.waiting_by_reason_team_frame(s)
        ),
        "preemptions per queue": lambda: charts.preemptions_by_queue(frames.preemptions_frame(s)),
        "borrowing per queue": lambda: charts.borrowing_by_queue(frames.borrowing_frame(s)),
    }
    for name, build in figures.items():
        clock.time(f"frame + figure: {name}", build)
    queues = tuple(sorted(run.schedule["queue"].unique())[:2])
    keep = replay_view.JobFilter(queues=queues, min_wait_s=600)
    mask = clock.time("table filter", lambda: replay_view.job_mask(run.schedule, keep))
    clock.time("filtered CSV", lambda: replay_view.filtered_csv(run.schedule_csv, mask))
    print(f"  {'total (what Run costs)':<40} {clock.total():>7.2f} s")
    again = Clock()
    again.time("Run again (cached)", lambda: replay_view.replay(scenario, progress))
    print(
        f"utilization {s['utilization']:.3f}, completed {s['completed']:,} of {s['jobs']:,}, "
        f"p95 wait {s['wait_s']['p95'] or 0:,.0f} s, preemptions {s['preemptions']:,}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--profile", default="teams")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenario", type=Path, default=TEAMS_SCENARIO)
    args = parser.parse_args()
    csv_path = make_trace(args.profile, args.jobs, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "planner.duckdb"
        trace_id = ingest(csv_path, db)
        os.environ["PLANNER_DB"] = str(db)
        press_run(trace_id, args.scenario)


if __name__ == "__main__":
    main()
