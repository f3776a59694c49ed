"""A damaged database file (cut short, a damaged header, a damaged block) is one line naming
the file and the way out, `planner db reset`, which moves it aside (nothing is deleted) and
starts an empty database in its place."""

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from planner.cli import main
from planner.store import connect, fetch_all
from tests.test_store_errors import HEADER_BYTES, JOBS


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a database holding one 60,000-job trace (a few MB)."""
    folder = tmp_path_factory.mktemp("good")
    (folder / "jobs.csv").write_text(JOBS, encoding="utf-8")
    assert main(["ingest", str(folder / "jobs.csv"), "--db", str(folder / "good.duckdb")]) == 0
    return (folder / "good.duckdb").read_bytes()


def cut_in_half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def headers_only(data: bytes) -> bytes:
    return data[:HEADER_BYTES]


def zeroed_file_header(data: bytes) -> bytes:
    return b"\0" * 4096 + data[4096:]


def zeroed_database_headers(data: bytes) -> bytes:
    return data[:4096] + b"\0" * 8192 + data[HEADER_BYTES:]


DAMAGE: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "cut in half": (cut_in_half, "is cut short (truncated"),
    "headers only": (headers_only, "is cut short (truncated"),
    "file header zeroed": (zeroed_file_header, "is not a DuckDB database file"),
    "database headers zeroed": (zeroed_database_headers, "is corrupt (Corrupt database file"),
}


@pytest.fixture(params=list(DAMAGE))
def damaged(request: pytest.FixtureRequest, good: bytes, tmp_path: Path) -> tuple[Path, str]:
    """A damaged copy of the good database, and what the message must say of it."""
    damage, said = DAMAGE[request.param]
    path = tmp_path / "planner.duckdb"
    path.write_bytes(damage(good))
    return path, said


def test_a_damaged_database_is_one_line_naming_it_and_the_way_out(
    damaged: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, said = damaged
    before = path.read_bytes()

    code = main(["traces", "--db", str(path)])

    err = capsys.readouterr().err
    assert code == 2
    assert str(path) in err
    assert said in err
    assert f"`planner db reset --db {path}`" in err
    assert f"kept as {path}.broken-<time>" in err
    assert err.count("\n") == 1
    assert path.read_bytes() == before  # the planner never writes to a damaged file


def test_planner_db_reset_moves_the_damaged_file_aside_and_starts_an_empty_one(
    damaged: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = damaged
    before = path.read_bytes()

    code = main(["db", "reset", "--db", str(path)])

    assert code == 0
    (aside,) = tmp_path.glob("planner.duckdb.broken-*")
    assert aside.read_bytes() == before
    out = capsys.readouterr().out
    assert out == f"moved {path} aside to {aside}; {path} is a new, empty planner database\n"
    with connect(path) as con:
        assert fetch_all(con, "SELECT count(*) FROM traces") == [(0,)]


def test_a_reset_of_a_file_another_process_has_open_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "planner.duckdb"
    with connect(path):
        pass
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1]); "
         "print('held', flush=True); sys.stdin.readline()", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        code = main(["db", "reset", "--db", str(path)])
    finally:
        holder.kill()
        holder.wait()
        for pipe in (holder.stdin, holder.stdout):
            if pipe is not None:
                pipe.close()

    assert code == 2
    assert list(tmp_path.glob("*.broken-*")) == []
    assert path.is_file()


def test_a_reset_with_no_database_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["db", "reset", "--db", str(tmp_path / "none.duckdb")])

    assert code == 2
    err = capsys.readouterr().err
    assert (
        err == f"error: There is no planner database at {tmp_path / 'none.duckdb'} to move aside\n"
    )
