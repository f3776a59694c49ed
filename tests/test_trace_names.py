"""A trace name finds one trace: the same file imported again with another time zone (or
mapping) is named by what differs, and the report says so."""

from pathlib import Path

import duckdb

from planner.store.trace_stats import find_trace
from tests.conftest import ingest, write

TEXT = "job_id,submit_time,duration_s,gpus\na,2024-01-05 10:00:00,3600,1\n"


def test_the_same_file_read_in_another_time_zone_gets_its_own_name(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    path = write(tmp_path, "jobs.csv", TEXT)
    utc = ingest(con, path, tz="UTC")
    shanghai = ingest(con, path, tz="Asia/Shanghai")
    again = ingest(con, path, tz="Asia/Shanghai")

    assert utc.trace_id != shanghai.trace_id
    assert again.already_imported
    assert find_trace(con, "jobs") == utc.trace_id
    assert find_trace(con, "jobs (tz=Asia/Shanghai)") == shanghai.trace_id
    assert shanghai.warnings == [
        "a trace named 'jobs' is already stored (this one differs in: tz=Asia/Shanghai); "
        "this one is named 'jobs (tz=Asia/Shanghai)' so that each name finds one trace"
    ]
    assert utc.warnings == []


def test_a_third_reading_gets_a_number(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    path = write(tmp_path, "jobs.csv", TEXT)
    ingest(con, path, tz="UTC")
    ingest(con, path, tz="Asia/Tokyo")
    (tmp_path / "copy").mkdir()
    first = write(tmp_path / "copy", "jobs.csv", TEXT.replace("3600", "7200"))
    # other bytes, same name and options as the Tokyo one: numbered
    tokyo_again = ingest(con, first, tz="Asia/Tokyo")

    assert find_trace(con, "jobs (tz=Asia/Tokyo, 2)") == tokyo_again.trace_id


def test_another_file_of_the_same_name_gets_a_number(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    ingest(con, write(tmp_path, "jobs.csv", TEXT))
    (tmp_path / "next-week").mkdir()
    newer = ingest(con, write(tmp_path / "next-week", "jobs.csv", TEXT.replace("a,", "b,")))

    assert find_trace(con, "jobs (2)") == newer.trace_id
    assert "(this one differs in: contents)" in newer.warnings[0]
