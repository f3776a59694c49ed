"""Replay speed and peak memory of the engine and the fill sweeps, beside the yardstick.

Usage: python bench/bench_replay.py [--jobs N] [--cases yardstick,engine-1m,...]
Each case runs in a fresh child process (this script with `--child CASE`), so the peak RSS
printed is that case's alone. Only the replay call is timed (wall and CPU); generating or
loading the jobs is timed apart. `deep-backlog` submits N philly jobs at one instant on
64 x 8 GPUs under backfill (issue 17: a deep queue must not make each pass slow).
Cases whose planner modules are not there yet print why and are skipped.
This prints figures; it asserts nothing (tests never assert wall-clock time).
"""

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
from yardstick import GPUS_PER_NODE, NODES, yardstick

from planner.core.model import Job
from planner.engine.metrics import summarize
from planner.service.job_chunks import Sharing, jobs_from_columns
from planner.synth import SynthRow, generate

OPENB = Path("/work/shared/traces/alibaba-openb-2023")
OPENB_PODS = OPENB / "openb_pod_list_default.csv.gz"
OPENB_ALL_NODES = OPENB / "openb_node_list_all_node.csv"
OPENB_GPU_NODES = OPENB / "openb_node_list_gpu_node.csv"
LOAD_CHUNK_ROWS = 65_536  # jobs built at a time from NumPy columns, as a sweep worker does


@dataclass(slots=True)
class CaseResult:
    """One printed line; `skipped` set means the case could not run and says why."""

    name: str
    jobs: int = 0
    seconds: float = 0.0
    setup_seconds: float = 0.0
    notes: dict[str, str] = field(default_factory=dict)
    skipped: str = ""
    peak_rss_mib: float = 0.0
    cpu_seconds: float = 0.0


def philly_rows(n: int, seed: int = 1) -> Iterator[tuple[float, SynthRow]]:
    """The synthetic philly trace with submit times in seconds since its first job."""
    first: datetime | None = None
    for row in generate("philly", n, seed):
        submit = datetime.fromisoformat(row.submit_time)
        first = first or submit
        yield (submit - first).total_seconds(), row


def philly_jobs(n: int, seed: int = 1) -> list[Job]:
    """The synthetic philly trace as engine jobs (GPUs, CPU and memory per pod), built the way
    the store's loader builds them (`jobs_from_columns`: equal values are one object), so a
    bench on them measures what a loaded trace holds."""
    sharing = Sharing()
    jobs: list[Job] = []
    rows = philly_rows(n, seed)
    while chunk := list(islice(rows, LOAD_CHUNK_ROWS)):
        jobs += jobs_from_columns(_philly_columns(chunk), sharing)
    return jobs


def _philly_columns(chunk: list[tuple[float, SynthRow]]) -> dict[str, np.ndarray]:
    """A chunk of philly rows as the store's job columns (no GPU type: any GPU will do)."""
    size = len(chunk)
    pods = np.array([row.pods for _, row in chunk], dtype=np.int64)

    def per_pod(total: list[int]) -> np.ndarray:
        return np.array(total, dtype=np.float64) / pods

    def text(values: list[str]) -> np.ndarray:
        return np.array(values, dtype=object)

    missing = np.full(size, np.nan)
    return {
        "job_id": text([row.job_id for _, row in chunk]),
        "submit_s": np.array([submit_s for submit_s, _ in chunk], dtype=np.float64),
        "duration_s": np.array([row.duration_s for _, row in chunk], dtype=np.float64),
        "pods": pods,
        "gpus": per_pod([row.gpus for _, row in chunk]),
        "cpu": per_pod([row.cpu for _, row in chunk]),
        "mem_gib": per_pod([row.mem_gib for _, row in chunk]),
        "gpu_types": text([""] * size),
        "queue": text([row.queue for _, row in chunk]),
        "user_name": text([row.user for _, row in chunk]),
        "priority": np.array([row.priority for _, row in chunk], dtype=np.int64),
        "status": text(["completed"] * size),
        "start_s": missing,
        "end_s": missing,
        "withdraw_after_s": missing,
        "running_at_start": np.zeros(size, dtype=bool),
    }


def case_yardstick(jobs: int) -> CaseResult:
    started = time.perf_counter()
    submit: list[float] = []
    duration: list[float] = []
    pods: list[int] = []
    per_pod: list[int] = []
    for submit_s, row in philly_rows(jobs):
        submit.append(submit_s)
        duration.append(float(row.duration_s))
        pods.append(row.pods)
        per_pod.append(row.gpus // row.pods)
    setup = time.perf_counter() - started
    cpu = time.process_time()
    figures = yardstick(submit, duration, pods, per_pod, nodes=NODES, gpus_per_node=GPUS_PER_NODE)
    cpu = time.process_time() - cpu
    span_s = submit[-1] - submit[0]
    gpu_s = sum(p * g * d for p, g, d in zip(pods, per_pod, duration, strict=True))
    notes = {
        "completed": f"{figures['completed']:,.0f}",
        "dropped": f"{figures['dropped']:,.0f}",
        "span_days": f"{span_s / 86_400:,.1f}",
        "offered_load": f"{gpu_s / (NODES * GPUS_PER_NODE * span_s):.3f}",
        "makespan_days": f"{figures['makespan_s'] / 86_400:,.1f}",
    }
    return CaseResult("yardstick", jobs, figures["seconds"], setup, notes, cpu_seconds=cpu)


def case_engine_1m(jobs: int) -> CaseResult:
    try:
        from planner.engine import simulate  # noqa: PLC0415 - a missing engine skips the case
        from planner.engine.policy import Policy  # noqa: PLC0415
    except ImportError as err:
        return CaseResult("engine-1m", skipped=f"planner.engine/policy not importable: {err}")
    started = time.perf_counter()
    trace = philly_jobs(jobs)
    nodes = [(f"n{i:04d}", "A100", GPUS_PER_NODE, 0.0, 0.0) for i in range(NODES)]
    setup = time.perf_counter() - started
    policy = Policy(admission="gang", placement="best-fit", queueing="backfill")
    started, cpu = time.perf_counter(), time.process_time()
    result = simulate(trace, nodes, policy)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    summary = summarize(result)
    notes = {
        "utilization": f"{summary.utilization:.4f}",
        "completed": f"{summary.completed}",
        "wait_p95_s": f"{summary.wait_s.p95:.0f}",
    }
    return CaseResult("engine-1m", jobs, seconds, setup, notes, cpu_seconds=cpu)


def _twenty_queues() -> Any:
    """20 ClusterQueues of 400 GPUs in 2 cohorts with preemption on (reclaim any, within the
    queue by priority); the 11 philly teams map onto the first 11."""
    from planner.engine.scenario import QueuesSpec  # noqa: PLC0415

    reclaim = {"within_cluster_queue": "LowerPriority", "reclaim_within_cohort": "Any"}
    queues = [
        {
            "name": f"cq-{n:02d}",
            "cohort": f"org-{n // 10}",
            "quotas": [{"flavor": "a100", "gpus": 400}],
            "preemption": reclaim,
        }
        for n in range(20)
    ]
    teams = {f"team-{chr(ord('a') + n)}": f"cq-{n:02d}" for n in range(11)}
    spec = {
        "flavors": [{"name": "a100", "gpu_type": "A100"}],
        "cluster_queues": queues,
        "local_queues": teams,
    }
    return QueuesSpec.model_validate(spec).to_setup(strict_default=False)


def case_engine_1m_queues(jobs: int) -> CaseResult:
    from planner.engine import simulate  # noqa: PLC0415
    from planner.engine.policy import Policy  # noqa: PLC0415

    started = time.perf_counter()
    trace = philly_jobs(jobs)
    nodes = [(f"n{i:04d}", "A100", GPUS_PER_NODE, 0.0, 0.0) for i in range(NODES)]
    policy = Policy(
        admission="gang", placement="best-fit", queueing="fifo", queues=_twenty_queues()
    )
    setup = time.perf_counter() - started
    started = time.perf_counter()
    result = simulate(trace, nodes, policy)
    seconds = time.perf_counter() - started
    summary = summarize(result)
    borrowed = summary.queues.borrowed_gpu_hours.values() if summary.queues else ()
    notes = {
        "utilization": f"{summary.utilization:.4f}",
        "completed": f"{summary.completed}",
        "borrowed_gpu_hours": f"{sum(borrowed):,.0f}",
        "preemptions": f"{summary.preemptions:,}",
    }
    return CaseResult("engine-1m-queues", jobs, seconds, setup, notes)


def _openb(node_list: Path) -> tuple[list[Any], list[Any], float]:
    """openb default pods and a node list via the importer, store and replay loaders."""
    from planner.ingest import IngestOptions  # noqa: PLC0415
    from planner.service.importer import import_file  # noqa: PLC0415 - keeps pandas out of the others
    from planner.store import open_store  # noqa: PLC0415

    started = time.perf_counter()
    from planner.service.replay import load_jobs, load_nodes  # noqa: PLC0415 - may not exist yet

    with tempfile.TemporaryDirectory() as tmp:
        con = open_store(Path(tmp) / "bench.duckdb")
        try:
            report = import_file(con, OPENB_PODS, IngestOptions())
            jobs = list(load_jobs(con, report.trace_id))
        finally:
            con.close()
    nodes = list(load_nodes(node_list))
    return jobs, nodes, time.perf_counter() - started


def case_openb_replay(_: int) -> CaseResult:
    try:
        from planner.engine import simulate  # noqa: PLC0415 - a missing engine skips the case
        from planner.engine.policy import Policy  # noqa: PLC0415

        jobs, nodes, setup = _openb(OPENB_ALL_NODES)
    except ImportError as err:
        return CaseResult("openb-replay", skipped=f"not importable yet: {err}")
    started = time.perf_counter()
    result = simulate(jobs, nodes, Policy())
    seconds = time.perf_counter() - started
    summary = summarize(result)
    notes = {
        "nodes": f"{len(nodes):,}",
        "utilization": f"{summary.utilization}",
        "completed": f"{summary.completed}",
    }
    return CaseResult("openb-replay", len(jobs), seconds, setup, notes)


def _case_fill(placement: str) -> Callable[[int], CaseResult]:
    name = f"fill-{placement}"

    def case(_: int) -> CaseResult:
        from planner.engine.fill import fill  # noqa: PLC0415
        from planner.ingest import IngestOptions  # noqa: PLC0415
        from planner.ingest.requests import read_pod_requests  # noqa: PLC0415
        from planner.service.replay import load_nodes  # noqa: PLC0415

        started = time.perf_counter()
        pods, _ = read_pod_requests(OPENB_PODS, IngestOptions())
        nodes = load_nodes(OPENB_GPU_NODES)
        setup = time.perf_counter() - started
        started, cpu = time.perf_counter(), time.process_time()
        result = fill(pods, nodes, placement=placement, seeds=range(42, 52), until=1.3)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        at_100 = result.points[100]
        notes = {
            "nodes": f"{len(nodes):,}",
            "seeds": "10",
            "alloc_pct_at_100": f"{at_100.gpu_allocation_pct:.1f}",
            "alloc_pct_at_130": f"{result.points[-1].gpu_allocation_pct:.1f}",
            "frag_pct_at_100": f"{at_100.frag_gpu_pct:.1f}",
        }
        return CaseResult(name, len(pods), seconds, setup, notes, cpu_seconds=cpu)

    return case


def _case_nodes(nodes: int) -> Callable[[int], CaseResult]:
    """100,000 philly jobs on `nodes` x 8 GPUs, offered load held at ~0.8: cost vs nodes."""
    name = f"engine-{nodes}-nodes"

    def case(_: int) -> CaseResult:
        from planner.engine import simulate  # noqa: PLC0415
        from planner.engine.policy import Policy  # noqa: PLC0415

        started = time.perf_counter()
        trace = philly_jobs(100_000)
        # the philly trace offers ~0.078 of 8,000 GPUs; compress time to load `nodes` at 0.8
        squeeze = 0.078 * 1000 / (0.8 * nodes)
        trace = [replace(job, submit_s=job.submit_s * squeeze) for job in trace]
        cluster = [(f"n{i:05d}", "A100", GPUS_PER_NODE, 0.0, 0.0) for i in range(nodes)]
        setup = time.perf_counter() - started
        started = time.perf_counter()
        result = simulate(trace, cluster, Policy(queueing="backfill"))
        seconds = time.perf_counter() - started
        summary = summarize(result)
        notes = {
            "utilization": f"{summary.utilization:.3f}",
            "distinct_states_max": f"{result.distinct_states_max}",
        }
        return CaseResult(name, len(trace), seconds, setup, notes)

    return case


def case_deep_backlog(jobs: int) -> CaseResult:
    """N philly jobs submitted at one instant on 64 x 8 GPUs, gang + best-fit + backfill:
    every pass walks a queue as deep as what is left of the trace."""
    from planner.engine import simulate  # noqa: PLC0415
    from planner.engine.policy import Policy  # noqa: PLC0415

    started = time.perf_counter()
    trace = philly_jobs(jobs)
    for k, job in enumerate(trace):
        trace[k] = replace(job, submit_s=0.0)  # in place: two million jobs would skew the peak
    nodes = [(f"n{i:02d}", "A100", GPUS_PER_NODE, 0.0, 0.0) for i in range(64)]
    setup = time.perf_counter() - started
    policy = Policy(admission="gang", placement="best-fit", queueing="backfill")
    started, cpu = time.perf_counter(), time.process_time()
    result = simulate(trace, nodes, policy)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    summary = summarize(result)
    notes = {
        "utilization": f"{summary.utilization:.4f}",
        "completed": f"{summary.completed}",
        "makespan_days": f"{(summary.makespan_s or 0.0) / 86_400:,.1f}",
    }
    return CaseResult("deep-backlog", jobs, seconds, setup, notes, cpu_seconds=cpu)


CASES: dict[str, Callable[[int], CaseResult]] = {
    "yardstick": case_yardstick,
    "engine-1m": case_engine_1m,
    "engine-1m-queues": case_engine_1m_queues,
    "openb-replay": case_openb_replay,
    "fill-best-fit": _case_fill("best-fit"),
    "fill-random": _case_fill("random"),
    "fill-fgd": _case_fill("fgd"),
    "engine-100-nodes": _case_nodes(100),
    "engine-10000-nodes": _case_nodes(10_000),
    "deep-backlog": case_deep_backlog,
}


def run_child(case: str, jobs: int) -> None:
    """Run one case in this process and print its result as JSON on the last line."""
    result = CASES[case](jobs)
    result.peak_rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(asdict(result)))


def run_case(case: str, jobs: int) -> CaseResult:
    done = subprocess.run(
        [sys.executable, __file__, "--child", case, "--jobs", str(jobs)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return CaseResult(case, skipped=f"child failed ({done.returncode}): {tail}")
    return CaseResult(**json.loads(done.stdout.strip().splitlines()[-1]))


def report(result: CaseResult, earlier: dict[str, CaseResult]) -> str:
    """One case's lines; the ratios the issue sets goals on are taken against cases run
    earlier in the same invocation (wall and CPU: other processes may load the machine)."""
    if result.skipped:
        return f"{result.name:<14} skipped: {result.skipped}"
    line = (
        f"{result.name:<14} {result.jobs:>9,} jobs {result.seconds:>8.2f} s "
        f"{result.jobs / result.seconds:>10,.0f} jobs/s  peak {result.peak_rss_mib:>6,.0f} MiB"
        f"  (setup {result.setup_seconds:.1f} s)"
    )
    if result.cpu_seconds:
        line += f"  cpu {result.cpu_seconds:.2f} s"
    base = {"engine-1m": "yardstick", "fill-fgd": "fill-best-fit"}.get(result.name)
    if base in earlier and not earlier[base].skipped:
        ref = earlier[base]
        line += f"  {result.seconds / ref.seconds:.2f}x {base}"
        if ref.cpu_seconds and result.cpu_seconds:
            line += f" (cpu {result.cpu_seconds / ref.cpu_seconds:.2f}x)"
    extras = "  ".join(f"{key}={value}" for key, value in result.notes.items())
    return f"{line}\n{'':<15}{extras}" if extras else line


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=1_000_000, help="synthetic philly jobs")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    parser.add_argument("--child", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(args.child, args.jobs)
        return
    names = [name.strip() for name in args.cases.split(",") if name.strip()]
    unknown = sorted(set(names) - set(CASES))
    if unknown:
        parser.error(f"unknown cases {unknown}; choose from {', '.join(CASES)}")
    import planner.engine  # noqa: F401, PLC0415 - the finder decides which engine the cases run
    from planner.engine import compiled  # noqa: PLC0415

    # each case runs in a child process of the same interpreter, which decides alike
    print(f"engine: {compiled.status()} (PLANNER_PURE_PYTHON=1 for the plain one)", flush=True)
    earlier: dict[str, CaseResult] = {}
    for name in names:
        result = run_case(name, args.jobs)
        earlier[name] = result
        print(report(result, earlier), flush=True)


if __name__ == "__main__":
    main()
