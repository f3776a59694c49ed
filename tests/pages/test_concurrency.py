"""Several users at once, and another process on the same file.

Sessions share the app process's connection (a cursor per call, `planner.store.shared`). Two
sessions that save scenarios and import job histories at the same moment lose nothing: every
write is its own transaction on its own cursor, and a write-write conflict between two
transactions (DuckDB's optimistic concurrency aborts the later one) is retried.

DuckDB lets one process at a time open a database file for writing, so the app keeps the
file open only while pages use it, and while another process (the CLI importing) holds it a
page shows "busy, retrying" and waits; past its bound ($PLANNER_DB_WAIT) it shows which
process holds the file, without a traceback. tests/test_db_sharing.py runs the app's
functions and the CLI at once.
"""

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from planner.service.scenario_store import Prepared
from planner.ui import cache, history_view, scenario_box
from tests.pages.app import open_app_page

if TYPE_CHECKING:
    from streamlit.testing.v1 import AppTest

SAVES = 50
ROOT = Path(__file__).resolve().parents[2]


def trace_file(folder: Path, name: str, jobs: int) -> Path:
    path = folder / f"{name}.csv"
    rows = "".join(f"{name}-{i},{i * 60},{600 + i},{1 + i % 4}\n" for i in range(jobs))
    path.write_text("job_id,submit_time,duration,num_gpu\n" + rows, encoding="utf-8")
    return path


def scenario_text(session: str, i: int) -> str:
    return (
        f"name: {session} {i}\n"
        f"cluster: {{pools: [{{gpu_type: A100, gpus_per_node: 8, count: {i + 1}}}]}}\n"
    )


def run_together(*bodies: Callable[[], None]) -> None:
    """Start every body at the same moment in its own thread; re-raise the first failure."""
    start = threading.Barrier(len(bodies))
    failures: list[BaseException] = []

    def run(body: Callable[[], None]) -> None:
        start.wait()
        try:
            body()
        except BaseException as err:  # handed to the test thread
            failures.append(err)

    threads = [threading.Thread(target=run, args=(body,)) for body in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a session never finished"
    if failures:
        raise failures[0]


def session(name: str, trace: Path, problems: list[str], import_after: int) -> Callable[[], None]:
    """One user's session: save 50 scenarios, importing a job history part-way through, all
    through the functions the pages call."""

    def body() -> None:
        for i in range(SAVES):
            if i == import_after:
                history_view.import_upload(trace, {}, "UTC")
            prepared = Prepared("replay", scenario_text(name, i), None)
            problem = scenario_box.save_scenario(f"{name} {i}", prepared, {"session": name, "i": i})
            if problem:
                problems.append(problem)

    return body


def test_two_sessions_saving_and_importing_at_once_lose_nothing(
    empty_db: Path, tmp_path: Path
) -> None:
    traces = {"alice": trace_file(tmp_path, "alice", 300), "bob": trace_file(tmp_path, "bob", 200)}
    problems: list[str] = []

    run_together(
        session("alice", traces["alice"], problems, import_after=0),
        session("bob", traces["bob"], problems, import_after=SAVES // 2),
    )

    assert problems == []
    saved = {s.name: s for s in scenario_box.saved_scenarios()}
    assert len(saved) == 2 * SAVES
    for user in ("alice", "bob"):
        for i in range(SAVES):
            s = saved[f"{user} {i}"]
            assert s.yaml_text == scenario_text(user, i)  # nothing mixed up between sessions
            assert s.results == {"session": user, "i": i}
            assert not s.is_stale
    stored = {t["name"]: t["jobs"] for t in cache.stored_traces()}
    assert stored == {"alice": 300, "bob": 200}


def test_two_sessions_replacing_the_same_scenario_keep_one_whole_version(db: Path) -> None:
    """Updates of one row conflict in DuckDB; the loser retries, and the row ends whole."""
    first = Prepared("replay", scenario_text("shared", 0), None)
    assert scenario_box.save_scenario("shared", first) is None
    problems: list[str] = []

    def writer(user: str) -> Callable[[], None]:
        def body() -> None:
            for i in range(20):
                prepared = Prepared("replay", scenario_text(user, i), None)
                problem = scenario_box.save_scenario(
                    "shared", prepared, {"session": user, "i": i}, replace=True
                )
                if problem:
                    problems.append(problem)

        return body

    run_together(writer("alice"), writer("bob"))

    assert problems == []
    (last,) = scenario_box.saved_scenarios()
    user, i = last.results["session"], last.results["i"]  # type: ignore[index]
    assert last.yaml_text == scenario_text(user, i)  # YAML and results of the same save
    assert not last.is_stale


LOCKER = """
import sys, duckdb
con = duckdb.connect(sys.argv[1])
con.execute("CREATE TABLE IF NOT EXISTS held (x INTEGER)")
print("locked", flush=True)
sys.stdin.readline()
con.close()
"""


@pytest.fixture
def locker(db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the database file open for writing until a line is written
    to its stdin."""
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        yield holder
    finally:
        holder.kill()
        holder.wait()
        for pipe in (holder.stdin, holder.stdout):
            if pipe is not None:
                pipe.close()


def test_a_page_waits_while_another_process_holds_the_file_then_shows_its_data(
    db: Path, locker: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    waiting = threading.Event()
    notices: list[str] = []
    spinner = cache._busy

    def busy(holder: str) -> AbstractContextManager[None]:
        notices.append(holder)
        waiting.set()
        return spinner(holder)

    monkeypatch.setattr(cache, "_busy", busy)
    opened: list[AppTest] = []
    page = threading.Thread(target=lambda: opened.append(open_app_page("pages/history.py")))
    page.start()
    assert waiting.wait(timeout=120)  # the page is waiting for the file: let it go
    assert locker.stdin is not None
    locker.stdin.write("done\n")
    locker.stdin.flush()
    page.join(timeout=300)

    (at,) = opened
    assert not at.exception
    assert not at.error
    assert notices[0].startswith(f"another process (PID {locker.pid}) running `")
    assert notices[0].endswith("`")


def test_a_page_that_waited_its_bound_names_the_holder_without_a_traceback(
    db: Path, locker: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANNER_DB_WAIT", "1")

    at = open_app_page("pages/compare.py")

    assert not at.exception
    problems = [e.value for e in at.error]
    assert any(f"is in use by another process (PID {locker.pid}) running" in p for p in problems)
    assert any("waited 1 s for it" in p for p in problems)
