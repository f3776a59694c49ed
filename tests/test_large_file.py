"""A large export streams through in bounded memory (no time limit is asserted).

The file is imported twice by a separate `planner ingest` process, a small one and one 48
times larger, with DuckDB held to 64 MB ($PLANNER_DB_MEMORY; beyond it DuckDB spills to
disk, which is DuckDB's bound, not ours). What the importer itself holds shows as the growth
of its peak RSS between the two: reading the large file whole would add at least its 384 MiB;
streaming adds about 45 MiB (measured: 218 MiB for 8 MiB, 258 and 270 MiB for 256 and
512 MiB). The 1 GiB case at the default memory limit is `bench/bench_large_file.py`.
"""

from pathlib import Path

import pytest

from tests.peak_rss import ingest_with_peak

pytestmark = pytest.mark.slow

SMALL_BYTES = 8 << 20
LARGE_BYTES = 384 << 20
# Wide rows (an 8 KB free-text column, as some exports carry logs or command lines) put the
# bytes in the text rather than in the row count, so the file is large at a modest CPU cost.
NOTE_CHARS = 8_000
ROWS_PER_BLOCK = 1_000
DUCKDB_MEMORY = "64MB"


def write_export(path: Path, size: int, note_chars: int = NOTE_CHARS) -> int:
    """At least `size` bytes of valid job rows made wide by a free-text column."""
    note = "x" * note_chars
    rows = 0
    with path.open("w", encoding="utf-8") as handle:
        handle.write("job_id,submit_s,duration_s,gpus,queue,comment\n")
        while handle.tell() < size:
            handle.write(
                "".join(
                    f"j{rows + i},{rows + i},3600,{1 + (rows + i) % 8},team{i % 7},{note}\n"
                    for i in range(ROWS_PER_BLOCK)
                )
            )
            rows += ROWS_PER_BLOCK
    return rows


def ingest_peak_mib(path: Path, rows: int) -> float:
    """Import `path` into a fresh database in a separate process with DuckDB held to
    DUCKDB_MEMORY; check its report; return that process's peak RSS in MiB."""
    report, peak_mib = ingest_with_peak(path, PLANNER_DB_MEMORY=DUCKDB_MEMORY)
    path.unlink()

    assert (report["rows"], report["accepted"], report["rejected"]) == (rows, rows, 0)
    assert report["gpu_hours"] == pytest.approx(sum(1 + i % 8 for i in range(rows)))
    return peak_mib


def test_a_large_file_streams_in_bounded_memory(tmp_path: Path) -> None:
    small, large = tmp_path / "small.csv", tmp_path / "large.csv"
    small_rows = write_export(small, SMALL_BYTES)
    small_peak = ingest_peak_mib(small, small_rows)
    large_rows = write_export(large, LARGE_BYTES)

    large_peak = ingest_peak_mib(large, large_rows)

    # The large file is four times the growth allowed: holding it whole could not pass.
    growth = large_peak - small_peak
    assert growth < LARGE_BYTES / 4 / (1 << 20), (
        f"peak RSS {small_peak:.0f} MiB for {SMALL_BYTES >> 20} MiB, {large_peak:.0f} MiB "
        f"for {LARGE_BYTES >> 20} MiB"
    )
