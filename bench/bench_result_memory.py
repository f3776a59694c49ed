"""Where a replay's result holds its bytes, field by field, and what the replay peaks at.

Usage: python bench/bench_result_memory.py [--jobs 100000] [--servers 4,8]

The trace and scenario are bench/bench_sweep.py's (a synthetic philly trace loaded from the
store, the sweep's policy on N V100 servers of 8 GPUs, as a sweep point replays them). For
each server count the replay runs under tracemalloc (started once the jobs are built, so it
counts the replay's own bytes): its traced peak and what the result still holds, per job.
Then each per-job field of the result is walked: the bytes of the objects only that field
holds (each object counted once, objects the jobs hold or an earlier field holds are not
counted again), per job. Compiled code allocates through the same allocator, so tracemalloc
sees it (booked to the line that called `simulate`). Prints; asserts nothing.
"""

import argparse
import sys
import tempfile
import tracemalloc
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bench_sweep import prepared

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import ReplayResult, compiled, simulate
from planner.engine.job_waits import Waits

FIELDS = ("jobs", "status", "start_s", "end_s", "placement", "wait_by_reason")


def _objects(value: object, seen: set[int]) -> Iterable[object]:
    """`value` and what its lists, tuples and arrays hold, each object once (ids in `seen`)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, Waits):  # its typed arrays
            stack.extend(getattr(item, name) for name in Waits.__slots__)


def _job_objects(jobs: list[Job]) -> set[int]:
    seen: set[int] = set()
    for job in jobs:
        for item in _objects(job, seen):
            if isinstance(item, Job):
                for name in Job.__slots__:
                    for inner in _objects(getattr(item, name), seen):
                        del inner
    return seen


def field_bytes(result: ReplayResult, jobs: list[Job]) -> dict[str, int]:
    """Bytes each per-job field alone holds (the jobs themselves not counted)."""
    seen = _job_objects(jobs)
    out: dict[str, int] = {}
    for name in FIELDS:
        value: Any = getattr(result, name)
        out[name] = sum(sys.getsizeof(item) for item in _objects(value, seen))
    return out


def measure(jobs: list[Job], servers: int, policy: Any) -> None:
    nodes = [NodeSpec(f"v100-{k}", "V100", 8, 0, 0) for k in range(servers)]
    n = len(jobs)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    result = simulate(jobs, nodes, policy)
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    waited = sum(w is not None for w in result.wait_by_reason)
    print(
        f"{servers} servers: {n:,} jobs, {waited:,} waited; replay peak "
        f"{(peak - base) / n:,.0f} B/job, result holds {(held - base) / n:,.0f} B/job"
    )
    for name, size in field_bytes(result, jobs).items():
        print(f"  {name:16} {size / n:7,.1f} B/job")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--servers", default="4,8")
    args = parser.parse_args()
    print(f"engine: {compiled.status()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-result-memory-") as folder:
        _, sweep, _ = prepared(Path(folder), args.jobs, 1)
    policy = sweep.scenario.replay_scenario().to_policy()
    for servers in (int(s) for s in args.servers.split(",")):
        measure(sweep.jobs, servers, policy)


if __name__ == "__main__":
    main()
