"""Ingest a 1,000,000-job synthetic CSV and print rows/s and peak memory.

Usage: python bench/bench_ingest.py [--jobs N] [--profile philly] [--keep]
The CSV is generated with `planner synth` (cached under bench/out/), then imported by a
separate `planner ingest` process into a fresh DuckDB file, so the peak RSS printed is the
importer's alone.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
# Runs a command and reports the peak RSS (KiB) of that command alone on its last stderr line.
PEAK_RSS_WRAPPER = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
    "sys.exit(done.returncode)"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=1_000_000)
    parser.add_argument("--profile", default="philly")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    csv_path = OUT / f"{args.profile}_{args.jobs}_{args.seed}.csv"
    if not csv_path.exists():
        started = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "planner",
                "synth",
                "--profile",
                args.profile,
                "--jobs",
                str(args.jobs),
                "--seed",
                str(args.seed),
                "--out",
                str(csv_path),
            ],
            check=True,
            capture_output=True,
        )
        print(f"synth: {args.jobs:,} jobs in {time.perf_counter() - started:.1f} s")
    db = OUT / "bench.duckdb"
    db.unlink(missing_ok=True)
    env = {**os.environ, "PLANNER_DB": str(db)}
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PEAK_RSS_WRAPPER,
            sys.executable,
            "-m",
            "planner",
            "ingest",
            str(csv_path),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    seconds = time.perf_counter() - started
    peak_mib = int(done.stderr.strip().splitlines()[-1]) / 1024
    report = json.loads(done.stdout)
    size_mib = csv_path.stat().st_size / 2**20
    print(
        f"ingest: {report['rows']:,} rows ({size_mib:,.0f} MiB) in {seconds:.1f} s = "
        f"{report['rows'] / seconds:,.0f} rows/s; peak RSS {peak_mib:,.0f} MiB; "
        f"accepted {report['accepted']:,}, rejected {report['rejected']:,}"
    )
    db.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
