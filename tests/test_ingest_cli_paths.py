"""`planner ingest` and `planner synth` output paths and limits: one line, status 2, and
nothing imported when the output cannot be written."""

import gzip
from pathlib import Path

import pytest

from planner.cli import main
from planner.store import open_store
from tests.conftest import write

HEADER = "job_id,submit_time,duration_s,gpus,queue\n"
ROWS = "".join(f"j{i},2024-01-05 10:00:{i:02d},60,1,q\n" for i in range(3))


def test_rejected_out_into_a_missing_folder_fails_before_importing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "j.csv", HEADER + ROWS + "bad,x,60,1,q\n")
    db = tmp_path / "p.duckdb"
    out = tmp_path / "missing" / "rejected.csv"

    code = main(["ingest", str(path), "--db", str(db), "--rejected-out", str(out)])

    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith("error: --rejected-out")
    assert "does not exist" in err
    with open_store(db) as con:
        assert con.execute("SELECT count(*) FROM traces").fetchone() == (0,)


def test_synth_into_a_missing_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "missing" / "trace.csv"

    code = main(["synth", "--profile", "llm", "--jobs", "10", "--out", str(out)])

    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith("error: --out")


def test_max_unpacked_gib_is_an_ingest_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = "".join(f"j{i},{i},60,1,q\n" for i in range(100_000))
    path = tmp_path / "big.csv.gz"
    path.write_bytes(gzip.compress((HEADER + rows).encode(), compresslevel=1))
    db = tmp_path / "p.duckdb"

    code = main(["ingest", str(path), "--db", str(db), "--max-unpacked-gib", "0.001"])

    assert code == 2
    assert "unpacks to more than 1.0 MiB" in capsys.readouterr().err
