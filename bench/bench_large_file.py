"""Import a 1 GiB export (900-character free-text rows) and print time, CPU and peak RSS.

Usage: python bench/bench_large_file.py [--mib 1024] [--note 900] [--memory 384MB]

The case tests/test_large_file.py used to run (it now proves the same bound on 384 MiB of
wide rows with DuckDB held to 64 MB). A separate `planner ingest` process imports the file
into a fresh DuckDB file, so the figures are the importer's alone; the file and the database
are written under bench/out/ and removed afterwards.

Measured (2026-12-02, 2 cores shared with other jobs, load average ~30): 1 GiB, 1,156,000
rows, DuckDB at the default 384 MB: 72.6 s of CPU in the importer, peak RSS 815 MiB.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_large_file import PEAK_RSS_WRAPPER, write_export

OUT = Path(__file__).resolve().parent / "out"
CPU_WRAPPER = PEAK_RSS_WRAPPER.replace(
    "file=sys.stderr); ",
    "file=sys.stderr); u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(u.ru_utime + u.ru_stime, file=sys.stderr); ",
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=1024, help="file size in MiB")
    parser.add_argument("--note", type=int, default=900, help="free-text characters a row")
    parser.add_argument("--memory", default="384MB", help="DuckDB memory_limit")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    path, db = OUT / "large.csv", OUT / "large.duckdb"
    db.unlink(missing_ok=True)
    write_export(path, args.mib << 20, args.note)
    env = {**os.environ, "PLANNER_DB": str(db), "PLANNER_DB_MEMORY": args.memory}
    wrapper = [sys.executable, "-c", CPU_WRAPPER, sys.executable, "-m", "planner"]
    started = time.perf_counter()
    done = subprocess.run(
        [*wrapper, "ingest", str(path), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - started
    size_mib = path.stat().st_size / 2**20
    path.unlink()
    db.unlink(missing_ok=True)
    if done.returncode != 0:
        sys.exit(done.stderr)
    *_, peak_kib, cpu_s = done.stderr.strip().splitlines()
    report = json.loads(done.stdout)
    print(
        f"ingest: {report['rows']:,} rows ({size_mib:,.0f} MiB, {args.note}-char notes, "
        f"DuckDB {args.memory}) in {seconds:.1f} s wall, {float(cpu_s):.1f} s CPU; "
        f"peak RSS {int(peak_kib) / 1024:,.0f} MiB; accepted {report['accepted']:,}"
    )


if __name__ == "__main__":
    main()
