"""Property-based: whatever bytes arrive, the ingester answers with jobs or a PlannerError."""

import tempfile
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.core.errors import PlannerError
from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import open_store

COLUMNS = [
    "job_id",
    "submit_time",
    "start_time",
    "end_time",
    "duration_s",
    "gpus",
    "nodes",
    "cpu",
    "mem_gib",
    "queue",
    "status",
    "priority",
    "gpu_type",
]
CELLS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "",
            "0",
            "-1",
            "8",
            "0.46",
            "1e309",
            "nan",
            "2024-01-05 10:00:00",
            "2024-13-45",
            "01:00:00",
            "1-00:00:00",
            "Unknown",
            "RUNNING",
            "completed",
            "high",
            '"',
            "a,b",
            "9" * 30,
            "１２",
            "名字",
        ]
    ),
    st.integers(-10, 10_000_000_000).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
)


@pytest.fixture(scope="module")
def workdir() -> Iterator[tuple[Path, duckdb.DuckDBPyConnection]]:
    with tempfile.TemporaryDirectory() as folder:
        con = open_store(Path(folder) / "fuzz.duckdb")
        yield Path(folder), con
        con.close()


def check(workdir: tuple[Path, duckdb.DuckDBPyConnection], data: bytes, name: str) -> None:
    folder, con = workdir
    path = folder / name
    path.write_bytes(data)
    try:
        report = import_file(con, path, IngestOptions(chunk_rows=7))
    except PlannerError:
        return
    assert report.accepted + report.rejected == report.rows
    if report.nodes is None:
        stored = con.execute(
            "SELECT count(*) FROM jobs WHERE trace_id = ?", [report.trace_id]
        ).fetchone()
        assert stored == (report.accepted,)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=400))
def test_random_bytes_never_crash(
    workdir: tuple[Path, duckdb.DuckDBPyConnection], data: bytes
) -> None:
    check(workdir, data, "random.csv")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    header=st.lists(st.sampled_from(COLUMNS), min_size=1, max_size=8, unique=True),
    rows=st.lists(st.lists(CELLS, min_size=0, max_size=10), max_size=25),
    delimiter=st.sampled_from([",", ";", "\t", "|"]),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "gb18030", "utf-16"]),
)
def test_mangled_csvs_never_crash(
    workdir: tuple[Path, duckdb.DuckDBPyConnection],
    header: list[str],
    rows: list[list[str]],
    delimiter: str,
    encoding: str,
) -> None:
    lines = [delimiter.join(header)] + [delimiter.join(cells) for cells in rows]
    text = "\n".join(lines) + "\n"
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
    check(workdir, data, "mangled.csv")
