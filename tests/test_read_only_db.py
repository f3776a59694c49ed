"""A database file this user cannot write: commands that only read open it read-only, those
that save are refused in one line naming the file, and a file whose schema is behind says it
needs migrating. Nothing is written to the file either way.

The CLI runs in a real child process that cannot write the file. Root ignores file modes, so
as root (as in CI) the child first drops the capabilities that let root write past them
(CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) from its bounding set: the `python` it then runs is
root without them, bound by the file's modes like any owner. Not a mock: the kernel refuses
the writes.
"""

import ctypes
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from planner.cli import main

ROOT = Path(__file__).resolve().parents[1]
PR_CAPBSET_DROP = 24  # <linux/prctl.h>
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2  # <linux/capability.h>
JOBS = "job_id,submit_time,duration,num_gpu\n" + "".join(
    f"j{i},{i * 60},{600 + i},{1 + i % 4}\n" for i in range(50)
)
SCENARIO = (
    "name: two nodes\ncluster:\n  pools:\n"
    "    - {name: a100, gpu_type: A100, gpus_per_node: 8, count: 2}\n"
)


def _without_root_file_powers() -> None:
    """In the child before exec: root keeps only the owner's rights to files it owns."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) refused")


def unprivileged(*argv: str) -> subprocess.CompletedProcess[str]:
    """`argv` run by this user, or by root without its power to write read-only files."""
    return subprocess.run(
        argv,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=_without_root_file_powers if os.geteuid() == 0 else None,
    )


def planner(*args: str) -> subprocess.CompletedProcess[str]:
    return unprivileged(sys.executable, "-m", "planner", *args)


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, str]:
    """The bytes of a database holding one 50-job trace, the price book seeded and one saved
    scenario; and the trace's id."""
    folder = tmp_path_factory.mktemp("stored")
    db = str(folder / "p.duckdb")
    (folder / "jobs.csv").write_text(JOBS, encoding="utf-8")
    (folder / "two.yaml").write_text(SCENARIO, encoding="utf-8")
    assert main(["ingest", str(folder / "jobs.csv"), "--db", db]) == 0
    assert main(["prices", "list", "--db", db]) == 0  # seeds the price book
    assert main(["scenarios", "save", str(folder / "two.yaml"), "--db", db]) == 0
    with duckdb.connect(db) as con:
        row = con.execute("SELECT trace_id FROM traces").fetchone()
    assert row is not None
    return (folder / "p.duckdb").read_bytes(), str(row[0])


def _read_only(path: Path, *, file: bool, folder: bool) -> None:
    ro = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
    if file:
        path.chmod(ro)
    if folder:
        path.parent.chmod(ro | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@pytest.fixture
def locked(stored: tuple[bytes, str], tmp_path: Path) -> Iterator[Path]:
    """A copy of the stored database, the file and its folder read-only."""
    path = tmp_path / "ro" / "planner.duckdb"
    path.parent.mkdir()
    path.write_bytes(stored[0])
    _read_only(path, file=True, folder=True)
    yield path
    path.parent.chmod(stat.S_IRWXU)  # so pytest can remove it


def test_the_child_really_cannot_write_the_file(locked: Path) -> None:
    """The premise of every test here: the kernel refuses the child's writes."""
    done = unprivileged(sys.executable, "-c", f"open({str(locked)!r}, 'r+b')")

    assert done.returncode == 1
    assert "PermissionError" in done.stderr


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        (["traces"], "50 jobs"),
        (["inspect", "{trace}"], "50 jobs from jobs.csv"),
        (["prices", "list"], "on_demand"),
        (["scenarios", "list"], "two nodes"),
        (["scenarios", "show", "two nodes"], "gpus_per_node: 8"),
    ],
)
def test_a_command_that_only_reads_opens_a_read_only_file(
    command: list[str], shown: str, locked: Path, stored: tuple[bytes, str]
) -> None:
    args = [part.format(trace=stored[1]) for part in command]

    done = planner(*args, "--db", str(locked))

    assert (done.returncode, done.stderr) == (0, "")
    assert shown in done.stdout
    assert locked.read_bytes() == stored[0]
    assert sorted(p.name for p in locked.parent.iterdir()) == ["planner.duckdb"]


def test_a_file_in_a_read_only_folder_is_read_too(
    stored: tuple[bytes, str], tmp_path: Path
) -> None:
    """The file itself is writable, its folder is not (DuckDB writes its .wal there)."""
    path = tmp_path / "ro" / "planner.duckdb"
    path.parent.mkdir()
    path.write_bytes(stored[0])
    _read_only(path, file=False, folder=True)
    try:
        done = planner("traces", "--db", str(path))
        refused = planner("scenarios", "delete", "two nodes", "--db", str(path))
    finally:
        path.parent.chmod(stat.S_IRWXU)

    assert done.returncode == 0
    assert stored[1] in done.stdout
    assert refused.returncode == 2
    assert refused.stderr == (
        f"error: The planner database {path} is read-only: this user cannot write its folder "
        f"{path.parent}, and this command saves to it; make the file and its folder writable, "
        "or pass --db with a file in a writable folder\n"
    )


@pytest.mark.parametrize(
    "command",
    [
        ["ingest", str(ROOT / "data" / "traces" / "teams.csv")],
        ["scenarios", "delete", "two nodes"],
        ["prices", "assumptions", "--edit", "pue=1.4"],
    ],
)
def test_a_command_that_saves_is_refused_in_one_line_naming_the_file(
    command: list[str], locked: Path, stored: tuple[bytes, str]
) -> None:
    done = planner(*command, "--db", str(locked))

    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"error: The planner database {locked} is read-only: this user cannot write the file, "
        "and this command saves to it; make the file and its folder writable, or pass --db "
        "with a file in a writable folder\n"
    )
    assert locked.read_bytes() == stored[0]


def test_a_reader_that_would_import_a_file_names_the_read_only_database(
    locked: Path, stored: tuple[bytes, str]
) -> None:
    """`inspect FILE` imports the file first: it may write, so it is not refused up front,
    and the write it tries is one line."""
    done = planner("inspect", str(ROOT / "data" / "traces" / "teams.csv"), "--db", str(locked))

    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: Cannot import teams.csv into the planner database: ")
    assert f"the planner database {locked} was opened read-only" in done.stderr
    assert locked.read_bytes() == stored[0]


def test_a_read_only_file_whose_schema_is_behind_says_it_needs_migrating(
    stored: tuple[bytes, str], tmp_path: Path
) -> None:
    """A file made by an older planner: its last planner migration is not recorded."""
    path = tmp_path / "ro" / "planner.duckdb"
    path.parent.mkdir()
    path.write_bytes(stored[0])
    with duckdb.connect(str(path)) as con:
        con.execute(
            "DELETE FROM schema_migrations WHERE package = 'planner' AND version = "
            "(SELECT max(version) FROM schema_migrations WHERE package = 'planner')"
        )
    older = path.read_bytes()
    _read_only(path, file=True, folder=True)
    try:
        done = planner("traces", "--db", str(path))
    finally:
        path.parent.chmod(stat.S_IRWXU)

    assert done.returncode == 2
    assert done.stderr == (
        f"error: The planner database {path} needs migrating to this version of the planner "
        "but is read-only for this user; make the file and its folder writable and run any "
        "planner command once (it migrates the file), or pass --db with a writable copy\n"
    )
    assert path.read_bytes() == older


def test_a_writable_file_is_still_opened_for_writing(
    stored: tuple[bytes, str], tmp_path: Path
) -> None:
    """The same save, allowed: the read-only path is taken only when writing is refused."""
    path = tmp_path / "planner.duckdb"
    path.write_bytes(stored[0])

    done = planner("scenarios", "delete", "two nodes", "--db", str(path))

    assert (done.returncode, done.stdout) == (0, "deleted 'two nodes'\n")
