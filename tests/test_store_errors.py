"""What the database file or the disk does wrong is said in one line, and says which: a
missing folder (a typo in --db), a file that is not a DuckDB database, a file locked by
another process, a corrupt file met in the middle of a replay, a full disk."""

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from planner.cli import main
from planner.core.errors import StoreError
from planner.service.replay import load_jobs
from planner.store import connect, open_store

# DuckDB's file layout: three 4 KiB headers, then 256 KiB blocks, each with its checksum
HEADER_BYTES = 3 * 4096
BLOCK_BYTES = 256 * 1024

JOBS = "job_id,submit_time,duration,num_gpu\n" + "".join(
    f"j{i},{i * 30},{600 + i % 977},{1 + i % 8}\n" for i in range(60_000)
)


def traces(db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["traces", "--db", str(db)])
    return code, capsys.readouterr().err


def test_a_db_in_a_missing_folder_is_refused_and_no_folder_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "dta" / "sub" / "planner.duckdb"

    code, err = traces(typo, capsys)

    assert code == 2
    assert f"the folder {typo.parent} does not exist" in err
    assert not (tmp_path / "dta").exists()


@pytest.mark.parametrize("content", [b"hello\n" * 100, b"", b"\0" * 8192])
def test_a_file_that_is_not_a_database_is_named_as_such_not_as_in_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = tmp_path / "notes.duckdb"
    path.write_bytes(content)

    code, err = traces(path, capsys)

    assert code == 2
    assert "is not a DuckDB database file" in err
    assert "in use" not in err
    assert err.count("\n") == 1
    assert path.read_bytes() == content  # never overwritten


def test_a_folder_given_as_the_database_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = traces(tmp_path, capsys)

    assert code == 2
    assert "is a folder, not a database file" in err


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, int]]:
    """A database held open by another process, and that process's id (commands do not
    wait for it: tests/test_db_sharing.py covers the wait)."""
    monkeypatch.setenv("PLANNER_DB_WAIT", "0")
    path = tmp_path / "held.duckdb"
    open_store(path).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('ready', flush=True);"
            " time.sleep(120)",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "ready"
    try:
        yield path, holder.pid
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()


def test_a_database_locked_by_another_process_says_so_with_its_pid(
    held: tuple[Path, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, pid = held

    code, err = traces(path, capsys)

    assert code == 2
    assert f"is in use by another process (PID {pid})" in err
    assert "not a DuckDB database" not in err


def corrupted_jobs(tmp_path: Path) -> tuple[Path, str]:
    """A database that opens, but one block of the stored trace's jobs is damaged."""
    good = tmp_path / "good.duckdb"
    (tmp_path / "jobs.csv").write_text(JOBS)
    assert main(["ingest", str(tmp_path / "jobs.csv"), "--db", str(good)]) == 0
    with connect(good) as con:
        row = con.execute("SELECT trace_id FROM traces").fetchone()
    assert row is not None
    data = good.read_bytes()
    bad = tmp_path / "bad.duckdb"
    for block in range((len(data) - HEADER_BYTES) // BLOCK_BYTES):
        damaged = bytearray(data)
        damaged[HEADER_BYTES + block * BLOCK_BYTES + BLOCK_BYTES // 2] ^= 0xFF
        bad.write_bytes(damaged)
        try:
            con = open_store(bad)
        except StoreError:
            continue  # the catalog's block: found at open, not during a replay
        try:
            load_jobs(con, row[0])
        except StoreError:  # the store turns DuckDB's error into one
            return bad, row[0]
        finally:
            con.close()
    pytest.fail("no block of the jobs could be damaged alone")


def test_a_corrupt_database_met_during_a_replay_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad, trace_id = corrupted_jobs(tmp_path)
    capsys.readouterr()

    code = main(["replay", trace_id, "--nodes", "4", "--db", str(bad)])

    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"error: The planner database {bad} is corrupt")
    assert "restore it from a backup" in err
    assert err.count("\n") == 1


def test_a_full_disk_while_writing_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "planner.duckdb"

    with pytest.raises(StoreError, match=r"The disk holding .* is full") as caught, connect(path):
        raise duckdb.IOException(f'Could not write file "{path}.wal": No space left on device')

    assert "\n" not in str(caught.value)


def test_a_programming_error_is_not_disguised_as_a_storage_problem(tmp_path: Path) -> None:
    with pytest.raises(duckdb.BinderException), connect(tmp_path / "p.duckdb") as con:
        con.execute("SELECT no_such_column FROM traces")


def test_the_default_database_folder_is_still_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout without data/ (a fresh clone) still starts: only --db and $PLANNER_DB
    must name an existing folder."""
    default = tmp_path / "data" / "planner.duckdb"
    monkeypatch.setattr("planner.store.db.DEFAULT_DB", default)

    open_store(default).close()

    assert default.is_file()
    shutil.rmtree(default.parent)


H800 = [
    "--provider", "Example Broker", "--instance", "8x H800", "--gpu", "H800 80GB", "--gpus", "8",
    "--price-per-hour", "168", "--currency", "CNY", "--model", "quote", "--as-of", "2026-11-20",
]  # fmt: skip


@pytest.mark.parametrize(
    "command",
    [["ingest", "{dir}/jobs.csv"], ["prices", "add", *H800], ["scenarios", "save", "{dir}/s.yaml"]],
    ids=["import", "price write", "scenario save"],
)
def test_a_write_to_a_database_locked_by_another_process_names_that_process(
    held: tuple[Path, int], capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path, pid = held
    (path.parent / "jobs.csv").write_text(JOBS[:2000])
    (path.parent / "s.yaml").write_text("trace: jobs.csv\ncluster: {nodes: 2, gpus_per_node: 8}\n")
    argv = [part.format(dir=path.parent) for part in command]

    code = main([*argv, "--db", str(path)])

    err = capsys.readouterr().err
    assert code == 2
    assert f"The planner database {path} is in use by another process (PID {pid})" in err
    assert err.count("\n") == 1
