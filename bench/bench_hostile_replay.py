"""Pathological replays of issue 18: time and peak memory must follow jobs and events.

Usage: python bench/bench_hostile_replay.py [--jobs N] [--cases long-job,burst-fifo,...]
Each case runs in a fresh child process (this script with `--child CASE`), so the peak RSS
printed is that case's alone. Cases:
- long-job: ten 60 s jobs and one of 1e8 s on one 8-GPU node (was 14.8 GB and > 300 s);
- century-horizon: the same trace with horizon_s at the 100-year limit;
- absurd-horizon: horizon_s = inf and 1e300 (refused before any work, with the field named);
- burst-fifo / burst-backfill: N jobs (default 1,000,000) submitted at one instant on
  16 x 8 GPUs, 1-4 GPUs each, 60-240 s.
This prints figures; it asserts nothing (tests never assert wall-clock time).
"""

import argparse
import json
import math
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.policy import MAX_SIMULATED_S, Policy, Queueing

ONE_NODE = [("n1", "A100", 8, 0.0, 0.0)]
SIXTEEN_NODES = [(f"n{k}", "A100", 8, 0.0, 0.0) for k in range(16)]


def _long_job() -> list[Job]:
    return [Job(f"j{k}", k * 60.0, 60.0) for k in range(10)] + [Job("long", 0.0, 1e8)]


def _burst(n: int) -> list[Job]:
    return [Job(f"j{k}", 0.0, 60.0 + (k % 7) * 30, gpus=float(1 + k % 4)) for k in range(n)]


def _figures(result: ReplayResult) -> dict[str, object]:
    done = sum(status == "completed" for status in result.status)
    return {
        "completed": done,
        "timeline_bins": len(result.timeline.allocated_gpus),
        "simulated_days": round(result.horizon_s / 86_400, 1),
    }


def _replay(jobs: list[Job], nodes: list, policy: Policy) -> dict[str, object]:  # type: ignore[type-arg]
    return _figures(simulate(jobs, nodes, policy))


def _refused(horizons: tuple[float, ...]) -> dict[str, object]:
    messages = {}
    for horizon in horizons:
        try:
            simulate(_long_job(), ONE_NODE, Policy(horizon_s=horizon))
        except ScenarioError as err:
            messages[str(horizon)] = str(err)
        else:
            messages[str(horizon)] = "NOT REFUSED"
    return messages


def _cases(jobs: int) -> dict[str, Callable[[], dict[str, object]]]:
    def burst(queueing: Queueing) -> Callable[[], dict[str, object]]:
        return lambda: {
            "jobs": jobs,
            **_replay(_burst(jobs), SIXTEEN_NODES, Policy(queueing=queueing)),
        }

    return {
        "long-job": lambda: _replay(_long_job(), ONE_NODE, Policy()),
        "century-horizon": lambda: _replay(
            _long_job(), ONE_NODE, Policy(horizon_s=MAX_SIMULATED_S)
        ),
        "absurd-horizon": lambda: _refused((math.inf, 1e300)),
        "burst-fifo": burst("fifo"),
        "burst-backfill": burst("backfill"),
    }


def _child(case: str, jobs: int) -> None:
    started = time.perf_counter()
    figures = _cases(jobs)[case]()
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps({"case": case, "seconds": round(seconds, 2), "peak_mib": round(peak), **figures})
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1_000_000)
    parser.add_argument("--cases", default=",".join(_cases(0)))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.jobs)
        return
    for case in args.cases.split(","):
        command = [sys.executable, str(Path(__file__)), "--child", case, "--jobs", str(args.jobs)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        print(done.stdout.strip() or f"{case}: failed: {done.stderr.strip()[-500:]}", flush=True)


if __name__ == "__main__":
    main()
