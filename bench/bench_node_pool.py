"""The cloud as a node pool against today's per-job rule: time and figures on real and
generated traces.

Usage: python bench/bench_node_pool.py [--synthetic N] [--provisioning-s 300] [--scale-down-s 600]

openb (the Alibaba default pod list, if `../shared/traces` has it) is imported into a
temporary store and its GPU jobs billed as a TCO bills them (withdrawn pods left out), on the
price book's AWS A100 on-demand SKUs (p4d.24xlarge and p4de.24xlarge: the book has no smaller
AWS A100 size) and, for the smaller sizes, GCP's A100 SKUs (a2-highgpu-1g, -2g, -4g, -8g). Each is
billed per job (`cloud.price_jobs`, checked equal), on the pool with the default delays, and
with Karpenter's empty-node consolidation (scale-down 0). `--synthetic N` times N generated
philly jobs on the AWS SKUs (0 skips it). Prints figures; asserts nothing.
"""

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from planner.core.model import Job
from planner.cost.cloud import CloudJob, Sku, price_jobs
from planner.cost.node_pool import PoolBill, PoolSettings, price_pool
from planner.cost.scenario import TcoScenario
from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.service.replay import load_jobs
from planner.service.tco_inputs import load_inputs, skus
from planner.service.tco_rent_inputs import cloud_jobs
from planner.store import Connection, open_store
from planner.synth import generate

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PLANNER_SHARED", ROOT.parent / "shared"))
OPENB = SHARED / "traces" / "alibaba-openb-2023" / "openb_pod_list_default.csv.gz"
TODAY = date(2026, 12, 1)
HOURS_PER_MONTH = 730.0
OPTIONS = {
    "AWS A100 on-demand": {"gpu": "A100", "provider": "AWS", "region": "us-east-1"},
    "GCP A100 on-demand": {"gpu": "A100", "provider": "GCP"},
}


def gpu_jobs(jobs: list[Job]) -> list[CloudJob]:
    """GPU jobs as `planner.service.tco_rent` bills them (scope gpu-jobs, failed useful)."""
    billed = [j for j in jobs if j.status != "withdrawn" and j.pods * j.gpus > 0]
    return cloud_jobs(billed, exclude_failed=False)


def price_book_skus(con: Connection, option: dict[str, str]) -> list[Sku]:
    scenario = TcoScenario.model_validate({"cloud": [option]})
    inputs, _ = load_inputs(con, scenario, today=TODAY)
    found, _ = skus(con, scenario.cloud[0], inputs)
    return found


def openb() -> tuple[list[CloudJob], dict[str, list[Sku]]] | None:
    if not OPENB.is_file():
        print(f"openb: skipped, {OPENB} is not there")
        return None
    with tempfile.TemporaryDirectory() as folder:
        con = open_store(Path(folder) / "bench.duckdb")
        try:
            trace = import_file(con, OPENB, IngestOptions()).trace_id
            jobs = gpu_jobs(list(load_jobs(con, trace)))
            found = {name: price_book_skus(con, option) for name, option in OPTIONS.items()}
        finally:
            con.close()
    return jobs, found


def philly(n: int) -> list[CloudJob]:
    """N generated philly jobs, submit times in seconds since the first."""
    jobs, first = [], None
    for row in generate("philly", n, 1):
        submit = datetime.fromisoformat(row.submit_time)
        first = first or submit
        pods = max(row.pods, 1)
        run_s = float(row.duration_s)
        offset = (submit - first).total_seconds()
        jobs.append(CloudJob(row.job_id, offset, run_s, pods, row.gpus / pods))
    return [j for j in jobs if j.gpus > 0]


def timed(label: str, work: Callable[[], PoolBill]) -> PoolBill:
    started = time.perf_counter()
    bill = work()
    print(f"  {label}: {time.perf_counter() - started:.2f} s")
    return bill


def figures(label: str, bill: PoolBill) -> None:
    """The bill per trace and per 730-hour month of the same demand, and what it buys."""
    month = HOURS_PER_MONTH / bill.span_hours if bill.span_hours else 0.0
    hours = ", ".join(f"{name} {h * month:,.0f}" for name, h in bill.instance_hours.items() if h)
    waits = bill.waits
    print(
        f"  {label}: {bill.cost:,.0f} USD over the trace, {bill.cost * month:,.0f} a month; "
        f"instance-hours a month: {hours}; billed {bill.billed_gpu_hours * month:,.0f} "
        f"GPU-hours a month for {bill.held_gpu_hours * month:,.0f} held and "
        f"{bill.useful_gpu_hours * month:,.0f} useful; packing overhead "
        f"{bill.packing_overhead:.2f}; {bill.per_useful_gpu_hour:.2f} USD per useful "
        f"GPU-hour (floor {bill.price_floor / bill.useful_gpu_hours:.2f}); peak "
        f"{bill.peak_instances} instances; waits mean / p95: provisioning "
        f"{_seconds(waits.provisioning.mean)} / {_seconds(waits.provisioning.p95)}, cap "
        f"{_seconds(waits.cap.mean)} / {_seconds(waits.cap.p95)}; "
        f"unrunnable {len(bill.unrunnable)}"
    )


def _seconds(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:,.0f} s"


def compare(jobs: list[CloudJob], found: list[Sku], pool: PoolSettings) -> None:
    offered = (f"{s.name} ({s.gpus_per_instance:g} GPUs, {s.price_per_hour:g}/h)" for s in found)
    print(f"  SKUs: {', '.join(offered)}")
    per_job = timed("per job", lambda: price_pool(jobs, found, PoolSettings(packing="per-job")))
    today = price_jobs(jobs, found)
    print(f"  per job equals cloud.price_jobs: {per_job.cost == today.compute}")
    pooled = timed("pool", lambda: price_pool(jobs, found, pool))
    karpenter = PoolSettings(provisioning_s=pool.provisioning_s, scale_down_s=0.0)
    consolidated = timed("pool, scale-down 0", lambda: price_pool(jobs, found, karpenter))
    figures("per job", per_job)
    figures(f"pool ({pool.provisioning_s:g} s up, {pool.scale_down_s:g} s down)", pooled)
    figures("pool, scale-down 0", consolidated)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--synthetic", type=int, default=100_000)
    parser.add_argument("--provisioning-s", type=float, default=PoolSettings().provisioning_s)
    parser.add_argument("--scale-down-s", type=float, default=PoolSettings().scale_down_s)
    args = parser.parse_args()
    pool = PoolSettings(provisioning_s=args.provisioning_s, scale_down_s=args.scale_down_s)
    loaded = openb()
    if loaded is not None:
        jobs, by_option = loaded
        pods = sum(j.pods for j in jobs)
        print(f"openb default: {len(jobs):,} GPU jobs ({pods:,} pods)")
        for name, found in by_option.items():
            print(name)
            compare(jobs, found, pool)
    if args.synthetic:
        started = time.perf_counter()
        jobs = philly(args.synthetic)
        print(
            f"philly x {len(jobs):,} GPU jobs (generated in {time.perf_counter() - started:.1f} s)"
        )
        aws = [Sku("p4d.24xlarge", "A100", 8, 21.957642), Sku("p4de.24xlarge", "A100", 8, 27.44705)]
        compare(jobs, aws, pool)


if __name__ == "__main__":
    main()
