"""The app and the CLI share one database file: neither is refused, nothing is lost.

The "app" here is this test process running the functions the pages call (each session in
its own thread, as Streamlit runs them, through `planner.ui.cache`); the CLI is real
`python -m planner` processes. DuckDB lets one process at a time have the file, so each side
waits its turn (see `planner.store.db`); afterwards every import and every save is there
exactly once.
"""

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from planner.cli import main
from planner.core.errors import StoreError
from planner.service.scenario_store import Prepared
from planner.store import connect, fetch_all
from planner.store.shared import shared_store
from planner.store.waiting import NO_WAIT, marker, other_waiter
from planner.ui import cache, scenario_box
from tests.pages.test_concurrency import run_together, scenario_text, trace_file

ROOT = Path(__file__).resolve().parents[1]
SAVES = 25
IMPORTS = 2
JOBS = 20_000  # an import of a second or two: long enough for the sessions to wait on it


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "planner.duckdb"
    monkeypatch.setenv("PLANNER_DB", str(path))
    monkeypatch.delenv("PLANNER_DB_WAIT", raising=False)
    return path


def cli(*args: str, wait_s: str | None = None) -> subprocess.Popen[str]:
    env = {**os.environ}
    if wait_s is not None:
        env["PLANNER_DB_WAIT"] = wait_s
    return subprocess.Popen(
        [sys.executable, "-m", "planner", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def imports(files: list[Path], db: Path, done: list[tuple[int, str]]) -> None:
    """The nightly script: one `planner ingest` after another."""
    for path in files:
        proc = cli("ingest", str(path), "--db", str(db))
        _, err = proc.communicate()
        done.append((proc.returncode, err))


def saving(user: str, problems: list[str]) -> None:
    """A session saving scenarios and listing what is saved and stored, as the pages do."""
    for i in range(SAVES):
        prepared = Prepared("replay", scenario_text(user, i), None)
        problem = scenario_box.save_scenario(f"{user} {i}", prepared, {"user": user, "i": i})
        if problem:
            problems.append(problem)
        assert f"{user} {i}" in {s.name for s in scenario_box.saved_scenarios()}
        cache.stored_traces()


def test_cli_imports_and_app_saves_at_once_keep_every_one_exactly_once(
    db: Path, tmp_path: Path
) -> None:
    files = [trace_file(tmp_path, f"night{n}", JOBS + n) for n in range(IMPORTS)]
    problems: list[str] = []
    done: list[tuple[int, str]] = []

    run_together(
        lambda: imports(files, db, done),
        lambda: saving("alice", problems),
        lambda: saving("bob", problems),
    )

    assert [code for code, _ in done] == [0] * IMPORTS, [err for _, err in done]
    assert problems == []
    with connect(db) as con:
        traces = fetch_all(con, "SELECT name, jobs FROM traces ORDER BY name")
        jobs = fetch_all(con, "SELECT trace_id, count(*) FROM jobs GROUP BY trace_id")
        names = fetch_all(con, "SELECT name, count(*) FROM scenarios GROUP BY name")
    assert traces == [(f"night{n}", JOBS + n) for n in range(IMPORTS)]
    assert sorted(n for _, n in jobs) == [JOBS + n for n in range(IMPORTS)]
    assert sorted(names) == sorted((f"{u} {i}", 1) for u in ("alice", "bob") for i in range(SAVES))
    saved = {s.name: s for s in scenario_box.saved_scenarios()}
    for user in ("alice", "bob"):
        for i in range(SAVES):
            assert saved[f"{user} {i}"].yaml_text == scenario_text(user, i)
            assert saved[f"{user} {i}"].results == {"user": user, "i": i}


@pytest.fixture
def page_holding_the_file(db: Path) -> Iterator[threading.Event]:
    """A page of the app in the middle of its reads (a cursor taken, not returned) until
    the event is set."""
    cache.stored_traces()  # the file exists, migrated
    taken, release = threading.Event(), threading.Event()

    def page() -> None:
        with cache.cursor() as cur:
            cur.execute("SELECT count(*) FROM traces").fetchall()
            taken.set()
            release.wait(timeout=300)

    thread = threading.Thread(target=page)
    thread.start()
    assert taken.wait(timeout=120)
    yield release
    release.set()
    thread.join(timeout=120)


def test_the_cli_waits_while_the_app_reads_then_runs(
    db: Path, page_holding_the_file: threading.Event
) -> None:
    proc = cli("traces", "--db", str(db))
    assert proc.stderr is not None
    notice = proc.stderr.readline()  # blocks until the CLI says it waits: it is waiting now
    page_holding_the_file.set()
    _, err = proc.communicate()

    assert notice.startswith("waiting: the planner database is in use by another process ")
    assert f"(PID {os.getpid()}) running `" in notice
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_the_cli_gives_up_after_its_bound_and_names_the_holder(
    db: Path, page_holding_the_file: threading.Event
) -> None:
    proc = cli("ingest", str(ROOT / "data" / "traces" / "sample.csv"), "--db", str(db), wait_s="1")
    _, err = proc.communicate()

    assert proc.returncode == 2
    lines = err.splitlines()
    assert lines[0].startswith("waiting: ")
    assert lines[1].startswith(f"error: The planner database {db} is in use by another process ")
    assert f"(PID {os.getpid()}) running `" in lines[1]
    assert "; waited 1 s for it." in lines[1]
    assert "set $PLANNER_DB_WAIT to wait longer" in lines[1]
    assert len(lines) == 2  # no traceback
    page_holding_the_file.set()
    assert cache.stored_traces() == []  # the refused import wrote nothing


def test_a_bad_wait_setting_is_named(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PLANNER_DB_WAIT", "soon")

    code = main(["traces", "--db", str(db)])

    assert code == 2
    assert capsys.readouterr().err == (
        "error: $PLANNER_DB_WAIT is 'soon'; set it to the seconds to wait for the planner "
        "database (e.g. 120) or unset it\n"
    )


def test_sessions_that_never_pause_do_not_starve_a_cli_command(db: Path) -> None:
    """Two sessions saving without a pause keep the app's connection open; the waiting
    command's marker makes the app let go of the file between two saves."""
    stop = threading.Event()
    saves: list[int] = []

    def busy(user: str) -> None:
        n = 0
        while not stop.is_set():
            prepared = Prepared("replay", scenario_text(user, n), None)
            assert scenario_box.save_scenario(f"{user} {n}", prepared) is None
            n += 1
        saves.append(n)

    sessions = [threading.Thread(target=busy, args=(user,)) for user in ("alice", "bob")]
    for session in sessions:
        session.start()
    try:
        proc = cli("traces", "--db", str(db), "--json", wait_s="600")
        out, err = proc.communicate()
    finally:
        stop.set()
        for session in sessions:
            session.join(timeout=300)

    assert proc.returncode == 0, err
    assert out.strip() == "[]"
    assert "waiting: the planner database is in use by another process" in err
    with connect(db) as con:
        counts = fetch_all(con, "SELECT count(*), count(DISTINCT name) FROM scenarios")
    assert counts == [(sum(saves), sum(saves))]  # every save once, none lost meanwhile
    assert list(db.parent.glob("*.wait-*")) == []  # the marker went with the wait


def test_the_app_gives_way_to_a_live_waiter_and_ignores_a_dead_ones_marker(
    db: Path,
) -> None:
    cache.stored_traces()  # the file exists
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    marker(db, dead.pid).touch()
    alive = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.readline()"], stdin=subprocess.PIPE
    )
    try:
        assert other_waiter(db) is None
        assert not marker(db, dead.pid).exists()  # a dead waiter's marker is cleared
        marker(db, alive.pid).touch()
        with pytest.raises(StoreError) as caught, shared_store(db).cursor(NO_WAIT):
            pass
        marker(db, alive.pid).unlink()
        with shared_store(db).cursor(NO_WAIT) as cur:  # the waiter gone, the app goes on
            assert cur.execute("SELECT count(*) FROM traces").fetchall() == [(0,)]
    finally:
        alive.kill()
        alive.wait()
        if alive.stdin is not None:
            alive.stdin.close()
    assert f"is in use by another process (PID {alive.pid}) running `" in str(caught.value)
