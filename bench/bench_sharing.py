"""The capacity each GPU-sharing mode really delivers on the replayed openb sharing workload.

Usage: python bench/bench_sharing.py [--nodes 1,2] [--skip-large]
The Alibaba openb trace with every GPU pod a GPU-sharing pod (`gpushare100`: one GPU, 5-81 %
of it) is replayed through `planner.service.replay.run_scenario` on small A100 clusters of 8-GPU
nodes with CPU and memory unlimited, once per sharing mode: as traced (fractions of one GPU
packed by milli-GPU, no sharing config), time-slicing x4, MIG dynamic, MIG all-balanced and
MIG all-1g.10gb with re-layout. Per mode it prints what the pool's GPU-hours went to:
requested (the pods' own fractions), granted (MIG instances' g/7, replicas' 1/4) and
occupied (GPUs with any tenant), as shares of installed GPU-hours. A last table times the
engine alone on the openb pods and full node list (and on the sharing pods tiled 10 times
over, 10 x the load), with and without sharing, for its speed cost. It prints figures and
asserts nothing.
"""

import argparse
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from planner.core.file_access import LOCAL_FILES
from planner.core.model import Job
from planner.engine.metrics import summarize
from planner.engine.scenario import Scenario
from planner.engine.summary import ReplaySummary
from planner.service.replay import load_jobs, load_nodes, resolve_trace, run_scenario
from planner.store import open_store

SHARED = Path(os.environ.get("PLANNER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
OPENB = SHARED / "traces" / "alibaba-openb-2023"
SHARING_PODS = OPENB / "openb_pod_list_gpushare100.csv.gz"
DEFAULT_PODS = OPENB / "openb_pod_list_default.csv.gz"
ALL_NODES = OPENB / "openb_node_list_all_node.csv"
GPU_TYPE = "A100"
GPUS_PER_NODE = 8

MODES: dict[str, list[dict[str, Any]]] = {
    "as traced (milli-GPU)": [],
    "time-slicing x4": [{"gpu_type": "*", "time_slicing": {"replicas": 4}}],
    "time-slicing x4 sl1.5": [{"gpu_type": "*", "time_slicing": {"replicas": 4, "slowdown": 1.5}}],
    "MIG dynamic": [{"gpu_type": "*", "mig": {}}],
    "MIG all-balanced": [{"gpu_type": "*", "mig": {"layout": "all-balanced"}}],
    "MIG all-1g +relayout": [
        {"gpu_type": "*", "mig": {"layout": "all-1g.10gb", "relayout_delay_s": 120}}
    ],
}
LARGE_MODES = ("as traced (milli-GPU)", "time-slicing x4", "MIG dynamic")
HEADER = (
    f"{'mode':<22} {'done':>5} {'unsch':>5} {'util':>6} {'wait mean':>10} {'wait p95':>10}"
    f" {'req':>6} {'grant':>6} {'occup':>6} {'relay':>6} {'slow GPU-h':>10} {'wall s':>7}"
)


def _hours(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds / 3600:,.1f}h"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def row(mode: str, summary: ReplaySummary, seconds: float) -> str:
    """One line of the capacity table; sharing figures are '-' where nothing is shared."""
    pool = (summary.sharing or {}).get(GPU_TYPE)
    waits = summary.wait_s
    if pool:
        shares = (
            pool.requested_share,
            pool.granted_gpu_hours / pool.capacity_gpu_hours,
            pool.occupied_share,
        )
        relayouts, slowdown = str(pool.relayouts), f"{pool.slowdown_gpu_hours:,.0f}"
    else:
        shares, relayouts, slowdown = (summary.utilization, None, None), "-", "-"
    requested, granted, occupied = (_share(value) for value in shares)
    return (
        f"{mode:<22} {summary.completed:>5} {summary.unschedulable:>5}"
        f" {summary.utilization:>6.3f} {_hours(waits.mean):>10} {_hours(waits.p95):>10}"
        f" {requested:>6} {granted:>6} {occupied:>6} {relayouts:>6} {slowdown:>10}"
        f" {seconds:>7.2f}"
    )


def capacity_table(con: Any, trace_id: str, nodes: int) -> None:
    cluster = {"pools": [{"gpu_type": GPU_TYPE, "gpus_per_node": GPUS_PER_NODE, "count": nodes}]}
    print(f"\n{nodes} node(s) x {GPUS_PER_NODE} {GPU_TYPE}, CPU and memory unlimited")
    print(HEADER)
    for mode, sharing in MODES.items():
        scenario = Scenario.model_validate(
            {"trace": trace_id, "cluster": cluster, "sharing": sharing}
        )
        started = time.perf_counter()
        run = run_scenario(con, scenario, files=LOCAL_FILES)
        seconds = time.perf_counter() - started
        summary = summarize(run.result)
        print(row(mode, summary, seconds), flush=True)
        reasons = summary.unschedulable_by_reason
        if reasons:
            print(f"{'':<22} unschedulable: {reasons}")


def tiled(jobs: list[Job], copies: int) -> list[Job]:
    """`copies` copies of every job at its own submit time: the same trace, `copies` x load."""
    return [replace(job, job_id=f"{job.job_id}~{copy}") for job in jobs for copy in range(copies)]


def speed_table(con: Any, repeats: int, copies: int) -> None:
    """The engine alone (jobs and nodes loaded beforehand), best of `repeats` runs."""
    from planner.engine import simulate  # noqa: PLC0415 - only this table needs it

    nodes = load_nodes(ALL_NODES)
    print(f"\nspeed: openb pods on {ALL_NODES.name} ({len(nodes):,} nodes), sharing on '*'")
    print(
        f"{'pods':<16} {'mode':<22} {'jobs':>7} {'done':>7} {'unsch':>6} {'util':>6}"
        f" {'best s':>7} {'x':>5}"
    )
    cases = [(p, 1) for p in (DEFAULT_PODS, SHARING_PODS)] + [(SHARING_PODS, copies)]
    for pods, times in cases:
        jobs = tiled(load_jobs(con, resolve_trace(con, str(pods), files=LOCAL_FILES)), times)
        label = pods.name.removeprefix("openb_pod_list_").removesuffix(".csv.gz")
        label += f" x{times}" if times > 1 else ""
        baseline = 0.0
        for mode in LARGE_MODES:
            policy = Scenario.model_validate({"sharing": MODES[mode]}).to_policy()
            best = float("inf")
            for _ in range(repeats):
                started = time.perf_counter()
                result = simulate(jobs, nodes, policy)
                best = min(best, time.perf_counter() - started)
            baseline = baseline or best
            summary = summarize(result)
            print(
                f"{label:<16} {mode:<22} {len(jobs):>7,} {summary.completed:>7,}"
                f" {summary.unschedulable:>6,} {summary.utilization:>6.3f}"
                f" {best:>7.2f} {best / baseline:>5.2f}",
                flush=True,
            )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", default="1,2", help="comma-separated cluster sizes (nodes)")
    parser.add_argument("--repeats", type=int, default=3, help="timing runs per speed case")
    parser.add_argument("--copies", type=int, default=10, help="tiled trace in the speed table")
    parser.add_argument("--skip-large", action="store_true", help="no speed table")
    args = parser.parse_args(argv)
    if not SHARING_PODS.is_file():
        print(f"skipped: {SHARING_PODS} is not there (../shared/traces is absent)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        con = open_store(Path(tmp) / "bench.duckdb")
        try:
            started = time.perf_counter()
            trace_id = resolve_trace(con, str(SHARING_PODS), files=LOCAL_FILES)
            jobs = load_jobs(con, trace_id)
            gpu_hours = sum(job.gpu_hours for job in jobs)
            print(
                f"{SHARING_PODS.name}: {len(jobs):,} jobs, {gpu_hours:,.0f} requested GPU-hours,"
                f" imported in {time.perf_counter() - started:.1f} s"
            )
            print(
                "req/grant/occup: requested, granted and occupied GPU-hours as shares of the "
                "installed GPU-hours over the replay; wall s: run_scenario (load + replay)"
            )
            for nodes in (int(n) for n in args.nodes.split(",") if n.strip()):
                capacity_table(con, trace_id, nodes)
            if not args.skip_large:
                speed_table(con, args.repeats, args.copies)
        finally:
            con.close()


if __name__ == "__main__":
    main()
