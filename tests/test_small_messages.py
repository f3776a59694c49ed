"""Messages that name what is wrong without flooding or misleading: a long cell is shown cut
with its true length (however often it is shown), a far-off submit date is called that (not a
milliseconds mistake), a price cell of 400 digits is cut, and a full disk under DuckDB's
temporary files is not called a memory limit."""

import csv
from pathlib import Path

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.cli.main import main
from planner.core.shown import SHOWN_CHARS, shorten
from planner.store.errors import database_error


@given(st.text(min_size=0, max_size=2000))
def test_shortening_twice_is_shortening_once(text: str) -> None:
    once = shorten(text)
    assert shorten(once) == once
    if len(text) > SHOWN_CHARS:
        assert once.endswith(f"({len(text):,} characters)")


def test_a_megabyte_time_cell_is_shown_with_its_own_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cell = "2024-01-01 " + "9" * 900_000
    path = tmp_path / "big.csv"
    path.write_text(
        "job_id,submit_time,start_time,end_time,gpus\n"
        f"a,{cell},2024-01-01 10:00,2024-01-01 11:00,1\n"
        "b,2024-01-01 09:00,2024-01-01 10:00,2024-01-01 11:00,1\n"
    )

    assert main(["ingest", str(path), "--db", str(tmp_path / "db.duckdb")]) == 0
    shown = capsys.readouterr().out
    assert f"…({len(cell):,} characters)" in shown
    assert "(101 characters)" not in shown


def test_a_submit_in_year_9999_is_called_a_mistyped_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "far.csv"
    path.write_text(
        "job_id,submit_time,duration_s,gpus\na,2024-01-01 09:00,3600,1\nb,9999-01-01 09:00,3600,1\n"
    )
    argv = ["replay", str(path), "--nodes", "1", "--gpus-per-node", "8", "--gpu-type", "A100"]

    assert main([*argv, "--db", str(tmp_path / "db.duckdb")]) == 2
    said = capsys.readouterr().err
    assert "it is submitted 7,980 years from the trace's first job" in said
    assert "milliseconds" not in said


def test_a_400_digit_price_is_cut_in_the_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--db", str(tmp_path / "db.duckdb")]
    exported = tmp_path / "book.csv"
    assert main(["prices", "export", str(exported), *db]) == 0
    with exported.open(encoding="utf-8-sig", newline="") as handle:
        row = next(csv.DictReader(handle))
    row |= {"key": "probe", "price_per_instance_hour": "9" * 400, "price_per_gpu_hour": ""}
    bad = tmp_path / "bad.csv"
    with bad.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(row))
        writer.writeheader()
        writer.writerow(row)
    capsys.readouterr()

    main(["prices", "import", str(bad), *db])
    said = capsys.readouterr()
    text = said.out + said.err
    assert "…(400 characters)" in text
    assert "9" * (SHOWN_CHARS + 1) not in text


def test_a_full_temporary_folder_is_not_called_a_memory_limit(tmp_path: Path) -> None:
    path = tmp_path / "db.duckdb"
    con = duckdb.connect(str(path))
    con.execute("SET memory_limit='20MB'; SET max_temp_directory_size='1MB'; SET threads=1")
    with pytest.raises(duckdb.OutOfMemoryException) as raised:
        con.execute(
            "CREATE TABLE x AS SELECT range AS a, md5(range::varchar) AS b "
            "FROM range(3000000) ORDER BY b"
        )
    con.close()

    said = str(database_error(raised.value, path, "import the file"))

    assert said.startswith("Cannot import the file: the disk holding the temporary files of")
    assert "free space on that disk" in said
    assert "ran out of the memory" not in said
