"""Several users at once: sessions share the app's one DuckDB connection (a cursor per call).

Two sessions that save scenarios and import job histories at the same moment lose nothing:
every write is its own transaction on its own cursor, and a write-write conflict between two
transactions (DuckDB's optimistic concurrency aborts the later one) is retried.

DuckDB lets one process at a time open a database file for writing. The app serves every
session from one process, so that is enough for it; a second process (the CLI while the app
runs on the same file) cannot open it, and says so plainly. The test with two processes
checks that message, on the command line and on a page.
"""

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from planner.service.scenario_store import Prepared
from planner.ui import cache, history_view, scenario_box
from tests.pages.app import open_app_page

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


def test_two_sessions_saving_and_importing_at_once_lose_nothing(db: Path, tmp_path: Path) -> None:
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
import sys, time, duckdb
con = duckdb.connect(sys.argv[1])
con.execute("CREATE TABLE IF NOT EXISTS held (x INTEGER)")
print("locked", flush=True)
time.sleep(120)
"""


@pytest.fixture
def locked_by_another_process(db: Path) -> object:
    """Another process holding the database file open for writing."""
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(db)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        yield holder
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


def test_a_second_process_is_told_the_file_is_in_use(
    db: Path, locked_by_another_process: object
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "planner", "scenarios", "list", "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )

    assert done.returncode == 2
    assert f"error: The planner database {db} is in use by another process (PID " in done.stderr
    assert "close that one (the app or another planner command) or pass --db" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_compare_page_reports_a_locked_file_without_a_traceback(
    db: Path, locked_by_another_process: object
) -> None:
    started = time.monotonic()
    at = open_app_page("pages/compare.py")

    assert not at.exception
    assert any("is in use by another process (PID " in e.value for e in at.error)
    assert any("close that one" in e.value for e in at.error)
    assert time.monotonic() - started >= 0  # the page answered (no hang on the lock)
