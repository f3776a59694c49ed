"""Gzip bombs under the limits stream through in bounded memory.

A 2.5 MB `.csv.gz` of one short row repeated to 1 GiB held 4.7 GB before running out of
memory: every duplicate job id came back from the database as a pandas frame to be stored
as a rejected row. Two files of the same row count are imported by a separate `planner
ingest` process each, one with unique job ids and one with a single id repeated; the
duplicates must cost no more than a little beyond the unique file (before the fix: 1.85 GB
against 0.96 GB at 2.3 million rows; at this test's 600,000 rows 731 MiB against 586).
A file of unique rows must cost the same memory whatever its length: every chunk used to stay
alive until the import's commit (0.1 KiB of frames per row, 966 MiB at 1.9 million rows).
Figures at larger sizes: bench/bench_ingest_bombs.py.
"""

import zlib
from pathlib import Path

import pytest

from tests.peak_rss import ingest_with_peak

pytestmark = pytest.mark.slow

ROWS = 600_000
# Rows of the shorter unique-row file in the flat-memory test; the longer one has 4x as many.
FLAT_ROWS = 200_000
# DuckDB's memory limit in the flat-memory test: what its buffers may hold before spilling
# to disk, so the most the longer file may cost beyond the shorter one.
FLAT_DB_MEMORY_MIB = 64
ROW = b"%s,2024-01-05 10:00:00,60,1,q\n"
HEADER = b"job_id,submit_time,duration_s,gpus,queue\n"


def write_gzip(path: Path, *, repeated: bool, rows: int = ROWS) -> Path:
    """`rows` job rows, every id `r` when `repeated`, else j0, j1, ..., streamed through zlib."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip wrapping
    with path.open("wb") as handle:
        handle.write(packer.compress(HEADER))
        for start in range(0, rows, 50_000):
            ids = [b"r" if repeated else b"j%d" % i for i in range(start, start + 50_000)]
            handle.write(packer.compress(b"".join(ROW % job for job in ids)))
        handle.write(packer.flush())
    return path


def ingest(path: Path, **more_env: str) -> tuple[dict[str, object], float]:
    """The report and the peak RSS (MiB) of `planner ingest` on `path` in its own process."""
    return ingest_with_peak(path, **more_env)


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


def test_unique_rows_cost_the_same_memory_at_four_times_the_length(tmp_path: Path) -> None:
    """Peak RSS is flat in the row count: only DuckDB's buffers may grow, up to its limit.

    Both imports run with DuckDB limited to FLAT_DB_MEMORY_MIB (64 MiB): its staging table
    and the final sort spill to disk beyond that, so 4 x 200,000 rows may cost at most those
    64 MiB more than 200,000 rows; everything else must stay flat. Before the fix the longer
    file cost 123 MiB more (322 -> 445 MiB; after: 305 -> 330): 600,000 more rows of frames
    kept alive at about 0.2 KiB of RSS each.
    """
    limit = {"PLANNER_DB_MEMORY": f"{FLAT_DB_MEMORY_MIB}MB"}
    short_file = write_gzip(tmp_path / "short.csv.gz", repeated=False, rows=FLAT_ROWS)
    long_file = write_gzip(tmp_path / "long.csv.gz", repeated=False, rows=4 * FLAT_ROWS)

    short, short_peak = ingest(short_file, **limit)
    long, long_peak = ingest(long_file, **limit)

    assert (short["accepted"], short["rejected"]) == (FLAT_ROWS, 0)
    assert (long["accepted"], long["rejected"]) == (4 * FLAT_ROWS, 0)
    assert long_peak - short_peak < FLAT_DB_MEMORY_MIB, (short_peak, long_peak)
