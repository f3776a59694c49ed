"""The DuckDB file: migrations, re-imports, all-or-nothing writes, the database path."""

from pathlib import Path

import duckdb
import pytest

from planner.core.errors import StoreError, TraceError
from planner.store import SCHEMA_PACKAGES, database_path, migrations, open_store, schema_version
from tests.conftest import ingest, write

TEXT = "job_id,submit_s,duration_s,gpus\na,0,3600,2\nb,10,1800,4\n"


def test_migrations_are_applied_once_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "db.duckdb"
    with open_store(path) as first:
        version = schema_version(first)
    with open_store(path) as second:
        rows = second.execute(
            "SELECT package, version, name FROM schema_migrations ORDER BY package, version"
        ).fetchall()

    assert version == migrations()[-1][0] >= 1
    assert rows == [(p, v, name) for p in sorted(SCHEMA_PACKAGES) for v, name, _ in migrations(p)]


def test_reimporting_the_same_file_is_recognised(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    path = write(tmp_path, "h.csv", TEXT)
    first = ingest(con, path)
    again = ingest(con, path)

    assert not first.already_imported
    assert again.already_imported
    assert again.trace_id == first.trace_id
    assert con.execute("SELECT count(*) FROM jobs").fetchone() == (2,)


def test_same_bytes_read_differently_are_a_different_trace(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    path = write(tmp_path, "h.csv", TEXT)

    assert ingest(con, path).trace_id != ingest(con, path, max_gpus_per_pod=4).trace_id


def test_failed_import_leaves_nothing_half_written(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # The first chunk is fine; the mix of dates and relative seconds is only seen at the end.
    text = (
        "job_id,submit_time,duration_s,gpus\n"
        + "".join(f"j{i},{i},10,1\n" for i in range(50))
        + "late,2024-01-01 00:00,10,1\n"
    )
    with pytest.raises(TraceError, match="use one kind of time"):
        ingest(con, write(tmp_path, "mixed.csv", text), chunk_rows=10)

    for table in ("traces", "jobs", "rejected_rows"):
        assert con.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)


def test_gpu_hours_are_conserved_between_report_and_jobs(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, write(tmp_path, "h.csv", TEXT))
    stored = con.execute(
        "SELECT sum(pods * gpus * duration_s) / 3600, count(*) FROM jobs"
    ).fetchone()

    assert stored == (pytest.approx(report.gpu_hours), report.accepted)
    assert report.gpu_hours == pytest.approx(2 + 2)


def test_database_path_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PLANNER_DB", raising=False)
    assert database_path().name == "planner.duckdb"
    monkeypatch.setenv("PLANNER_DB", str(tmp_path / "env.duckdb"))
    assert database_path() == tmp_path / "env.duckdb"
    assert database_path(tmp_path / "flag.duckdb") == tmp_path / "flag.duckdb"


def test_unopenable_database_is_a_store_error(tmp_path: Path) -> None:
    not_a_db = tmp_path / "notes.duckdb"
    not_a_db.write_text("this is not a database")

    with pytest.raises(StoreError, match="is not a DuckDB database file"):
        open_store(not_a_db)
