"""Two sessions of the app importing the same file at once (the bundled sample, on a fresh
server: the first page of two viewers, or a page left mid-import for another) store it once
and both get its trace; the second used to fail on the trace's key."""

import threading
from pathlib import Path

from planner.ingest import IngestOptions, IngestReport
from planner.service.importer import import_file
from planner.store import fetch_all, open_store
from planner.synth.trace import write_trace

THREADS = 4


def test_concurrent_imports_of_one_file_store_it_once(tmp_path: Path) -> None:
    trace = tmp_path / "sample.csv"
    write_trace(trace, profile="teams", jobs=3_000, seed=5)
    con = open_store(tmp_path / "planner.duckdb")
    start = threading.Barrier(THREADS)
    reports: list[IngestReport] = []
    errors: list[BaseException] = []

    def session() -> None:
        cur = con.cursor()  # as the app does: a cursor of the process's one connection
        try:
            start.wait()
            reports.append(import_file(cur, trace, IngestOptions()))
        except BaseException as err:
            errors.append(err)
        finally:
            cur.close()

    threads = [threading.Thread(target=session) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len({r.trace_id for r in reports}) == 1
    assert sorted(r.already_imported for r in reports) == [False] + [True] * (THREADS - 1)
    stored = fetch_all(con, "SELECT count(*) FROM traces")[0][0]
    jobs = fetch_all(con, "SELECT count(*) FROM jobs")[0][0]
    con.close()
    assert stored == 1
    assert jobs == reports[0].accepted
