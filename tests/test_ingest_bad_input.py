"""Bad input: every problem gets a message naming file, row, column and what was expected."""

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from planner.cli import main
from planner.core.errors import MissingColumnError, PlannerError, TraceError, UnknownFormatError
from tests.conftest import ingest, write

HEADER = "job_id,submit_s,duration_s,gpus\n"


def examples(report: object, reason: str) -> list[tuple[int, str, str]]:
    shown = report.examples[reason]  # type: ignore[attr-defined]
    return [(e.row, e.column, e.value) for e in shown]


def test_empty_file(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(TraceError, match=r"empty\.csv: the file is empty"):
        ingest(con, write(tmp_path, "empty.csv", ""))


def test_header_only(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(TraceError, match="header but no job rows"):
        ingest(con, write(tmp_path, "h.csv", HEADER))

    assert con.execute("SELECT count(*) FROM traces").fetchone() == (0,)


def test_unknown_format_lists_formats_and_the_map_fix(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    with pytest.raises(UnknownFormatError) as err:
        ingest(con, write(tmp_path, "w.csv", "colour,size\nred,3\n"))

    message = str(err.value)
    assert "openb" in message
    assert "Slurm" in message
    assert "--map" in message


def test_missing_required_column_names_close_matches(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = "job_id,submit_s,duration_s,gpu_cnt_total\nj,0,1,1\n"
    with pytest.raises(MissingColumnError) as err:
        ingest(con, write(tmp_path, "m.csv", text))

    message = str(err.value)
    assert "'gpus'" in message
    assert "gpu_cnt_total" in message
    assert "--map gpus=" in message


def test_map_to_a_column_that_does_not_exist(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    with pytest.raises(MissingColumnError, match="no column 'GPUS'; close matches.*gpus"):
        ingest(con, write(tmp_path, "m.csv", HEADER + "j,0,1,1\n"), mapping={"gpus": "GPUS"})


@pytest.mark.parametrize(
    ("cells", "reason", "column"),
    [
        ("j,0,10,eight", "not_a_number", "gpus"),
        ("j,0,10,-1", "negative_value", "gpus"),
        ("j,0,10,1.5", "fractional_gpus", "gpus"),
        ("j,0,ten,1", "bad_duration", "duration_s"),
        ("j,0,-10,1", "negative_value", "duration_s"),
        ("j,yesterday,10,1", "bad_time", "submit_s"),
        ("j,0,10,", "missing_value", "gpus"),
        (",0,10,1", "missing_value", "job_id"),
    ],
)
def test_bad_cells_are_rejected_with_row_column_and_value(
    tmp_path: Path, con: duckdb.DuckDBPyConnection, cells: str, reason: str, column: str
) -> None:
    report = ingest(con, write(tmp_path, "b.csv", HEADER + "ok,0,10,1\n" + cells + "\n"))

    assert (report.rows, report.accepted, report.rejected) == (2, 1, 1)
    assert report.rejected_by_reason == {reason: 1}
    assert examples(report, reason)[0][:2] == (3, column)


def test_end_before_start(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    text = (
        "job_id,submit_time,start_time,end_time,gpus\n"
        "j,2024-01-01 00:00,2024-01-01 02:00,2024-01-01 01:00,1\n"
        "k,2024-01-01 00:00,2024-01-01 02:00,2024-01-01 03:00,1\n"
    )
    report = ingest(con, write(tmp_path, "e.csv", text))

    assert report.rejected_by_reason == {"end_before_start": 1}
    assert examples(report, "end_before_start") == [(2, "end_time", "2024-01-01 01:00")]


def test_duplicate_job_ids_keep_the_first_and_name_it(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = HEADER + "a,0,10,1\nb,0,10,1\na,5,10,2\na,6,10,2\n"
    report = ingest(con, write(tmp_path, "d.csv", text))

    assert (report.accepted, report.rejected_by_reason) == (2, {"duplicate_job_id": 2})
    assert report.examples["duplicate_job_id"][0].message == "job id already used at row 2"
    assert [e.row for e in report.examples["duplicate_job_id"]] == [4, 5]


def test_duplicates_are_found_across_chunks(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    rows = "".join(f"j{i % 150},{i},10,1\n" for i in range(300))
    report = ingest(con, write(tmp_path, "d.csv", HEADER + rows), chunk_rows=64)

    assert (report.rows, report.accepted, report.rejected) == (300, 150, 150)


def test_unparseable_dates_name_the_expected_forms(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = "job_id,submit_time,duration_s,gpus\nj,31/31/2024 25:99,10,1\nk,2024-01-01,10,1\n"
    report = ingest(con, write(tmp_path, "t.csv", text))

    assert report.rejected_by_reason == {"bad_time": 1}
    assert "ISO 8601" in report.examples["bad_time"][0].message


def test_wrong_encoding_says_how_to_fix_it(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes(HEADER.encode() + b"caf\xe9\xff\xff,0,10,1\n")

    with pytest.raises(TraceError, match="neither UTF-8 nor GBK.*line 2.*UTF-8"):
        ingest(con, path)


def test_binary_file_renamed_csv(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    path = tmp_path / "photo.csv"
    path.write_bytes(bytes(range(256)) * 64)

    with pytest.raises(TraceError, match="binary file"):
        ingest(con, path)


def test_zip_that_is_not_a_workbook(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    import zipfile

    path = tmp_path / "jobs.csv"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")

    with pytest.raises(TraceError, match="not an Excel"):
        ingest(con, path)


def test_lines_with_extra_fields_are_rejected_and_the_rest_kept(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    text = HEADER + "a,0,10,1\nb,0,10,1,surprise\n\nc,0,10,1\n"
    report = ingest(con, write(tmp_path, "x.csv", text))

    assert (report.rows, report.accepted, report.blank_lines) == (3, 2, 1)
    assert examples(report, "bad_field_count")[0][0] == 3
    rows = con.execute("SELECT row_number FROM jobs ORDER BY 1").fetchall()
    assert rows == [(2,), (5,)]


def test_unknown_time_zone(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(TraceError, match="unknown time zone 'Mars/Olympus'"):
        ingest(con, write(tmp_path, "h.csv", HEADER + "a,0,1,1\n"), tz="Mars/Olympus")


def test_cli_prints_the_message_and_exits_non_zero_without_traceback(tmp_path: Path) -> None:
    bad = write(tmp_path, "w.csv", "colour,size\nred,3\n")
    env = {**os.environ, "PLANNER_DB": str(tmp_path / "cli.duckdb")}

    done = subprocess.run(
        [sys.executable, "-m", "planner", "ingest", str(bad)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )

    assert done.returncode == 2
    assert done.stderr.startswith("error: w.csv: the columns (colour, size) match no format")
    assert "Traceback" not in done.stderr


def test_errors_are_planner_errors() -> None:
    assert issubclass(MissingColumnError, PlannerError)
    assert issubclass(UnknownFormatError, TraceError)


def test_cli_writes_every_rejected_row_with_its_reason(tmp_path: Path) -> None:
    source = write(tmp_path, "jobs.csv", HEADER + "a,0,1,1\nb,0,1,x\n")
    out = tmp_path / "rejected.csv"
    db = str(tmp_path / "cli.duckdb")

    # in this process (the test above runs `python -m planner` for the exit code and stderr)
    status = main(["ingest", str(source), "--rejected-out", str(out), "--db", db])

    assert status == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("row_number,reason,column_name,value,message")
    assert lines[1].startswith("3,not_a_number,gpus,x,")
    assert len(lines) == 2


def test_a_huge_prime_gpu_count_is_split_into_pods_at_once(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # fewest pods of at most 8 GPUs dividing 999,999,999,989 (a prime) is that many pods of
    # one GPU; counting up from total / 8 would take ~10^12 tries (the fuzzer found it)
    path = write(
        tmp_path,
        "huge.csv",
        "job_id,submit_time,duration_s,gpus\na,0,10,999999999989\nb,0,10,12\n",
    )
    report = ingest(con, path)

    assert report.accepted + report.rejected == report.rows == 2
    pods = dict(con.execute("SELECT job_id, pods FROM jobs").fetchall())
    assert pods.get("b") == 2  # 12 GPUs: two pods of six
