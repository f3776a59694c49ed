"""A gzip bomb of one repeated row streams through in the memory of its distinct rows.

A 2.5 MB `.csv.gz` of one short row repeated to 1 GiB held 4.7 GB before running out of
memory: every duplicate job id came back from the database as a pandas frame to be stored
as a rejected row. Two files of the same row count are imported by a separate `planner
ingest` process each, one with unique job ids and one with a single id repeated; the
duplicates must cost no more than a little beyond the unique file (before the fix: 1.85 GB
against 0.96 GB at 2.3 million rows; at this test's 600,000 rows 731 MiB against 586).
Figures at larger sizes: bench/bench_ingest_bombs.py.
"""

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROWS = 600_000
ROW = b"%s,2024-01-05 10:00:00,60,1,q\n"
HEADER = b"job_id,submit_time,duration_s,gpus,queue\n"
# Runs a command and reports the peak RSS (KiB) of that command alone on its last stderr line.
PEAK_RSS_WRAPPER = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
    "sys.exit(done.returncode)"
)


def write_gzip(path: Path, *, repeated: bool) -> Path:
    """ROWS job rows, every id `r` when `repeated`, else j0, j1, ..., streamed through zlib."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip wrapping
    with path.open("wb") as handle:
        handle.write(packer.compress(HEADER))
        for start in range(0, ROWS, 50_000):
            ids = [b"r" if repeated else b"j%d" % i for i in range(start, start + 50_000)]
            handle.write(packer.compress(b"".join(ROW % job for job in ids)))
        handle.write(packer.flush())
    return path


def ingest(path: Path) -> tuple[dict[str, object], float]:
    """The report and the peak RSS (MiB) of `planner ingest` on `path` in its own process."""
    env = {**os.environ, "PLANNER_DB": str(path.with_suffix(".duckdb"))}
    command = [sys.executable, "-c", PEAK_RSS_WRAPPER, sys.executable, "-m", "planner"]
    done = subprocess.run(
        [*command, "ingest", str(path), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), int(done.stderr.strip().splitlines()[-1]) / 1024


def test_duplicate_ids_cost_no_more_than_unique_ones(tmp_path: Path) -> None:
    unique, unique_peak = ingest(write_gzip(tmp_path / "unique.csv.gz", repeated=False))

    repeated, repeated_peak = ingest(write_gzip(tmp_path / "repeated.csv.gz", repeated=True))

    assert (unique["accepted"], unique["rejected"]) == (ROWS, 0)
    # The first row keeps the id; the other ROWS - 1 are duplicates, five shown as examples.
    assert (repeated["accepted"], repeated["rejected"]) == (1, ROWS - 1)
    assert repeated["rejected_by_reason"] == {"duplicate_job_id": ROWS - 1}
    examples = repeated["examples"]["duplicate_job_id"]  # type: ignore[index]
    assert [e["row"] for e in examples] == [3, 4, 5, 6, 7]
    assert repeated_peak - unique_peak < 64, (unique_peak, repeated_peak)
