"""The app and the CLI on one database file, and kill -9 in the middle of big imports.

Usage: python bench/bench_db_sharing.py [--rows 1000000] [--prices 5000] [--skip-kill]

Prints three tables (figures, no assertions), on fresh files under bench/out/:

1. Opening costs: the file opened for one command (`open_store`), and a page's cursor on
   the app's shared connection, cold (the file closed) and warm (opened by a read just
   before, within the 0.3 s linger).
2. Waits: a `planner traces` command alone, then while the app's sessions (this process,
   two threads saving and listing scenarios without pause) use the file: the CLI's wall
   time. Then a page read started while `planner ingest` of --rows/5 jobs runs: how long
   the page waited (about the rest of the import).
3. kill -9: `planner ingest` of --rows jobs killed while staging (half the chunks read) and
   while writing the jobs, and a price import of --prices rows killed while writing: whether
   the file opens, the traces and jobs then stored, and the time of the same import again.
"""

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# The pages' functions run here without `streamlit run`: keep Streamlit's notes about that
# out of the figures.
os.environ.setdefault("STREAMLIT_LOGGER_LEVEL", "error")

from planner.ingest import IngestOptions  # noqa: E402
from planner.service.importer import import_file  # noqa: E402
from planner.service.scenario_store import Prepared  # noqa: E402
from planner.store import connect, fetch_all, open_store  # noqa: E402
from planner.store.shared import LINGER_S, shared_store  # noqa: E402
from planner.store.waiting import NO_WAIT  # noqa: E402
from planner.ui import cache, scenario_box  # noqa: E402 - the pages' own functions
from pricing import list_prices  # noqa: E402
from pricing.prices_csv import import_prices  # noqa: E402
from tests.test_kill_import import (  # noqa: E402
    PRICE_CHILD,
    TRACE_CHILD,
    jobs_csv,
    killed_at,
    price_rows,
)

OUT = ROOT / "bench" / "out" / "db_sharing"
CHUNK_ROWS = 100_000  # the importer's default


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def opening_costs(db: Path) -> None:
    open_store(db).close()
    cold = []
    for _ in range(20):
        started = time.perf_counter()
        open_store(db).close()
        cold.append(time.perf_counter() - started)
    store = shared_store(db)
    warm, first = [], []
    for _ in range(20):
        time.sleep(LINGER_S * 2)  # the shared connection closed: the next cursor opens it
        started = time.perf_counter()
        with store.cursor(NO_WAIT):
            first.append(time.perf_counter() - started)
        started = time.perf_counter()
        with store.cursor(NO_WAIT):
            warm.append(time.perf_counter() - started)
    store.close()
    print("\n| opening the file | median |\n|---|---:|")
    print(f"| open_store (one CLI command) | {ms(statistics.median(cold))} |")
    print(f"| app cursor, file closed | {ms(statistics.median(first))} |")
    print(f"| app cursor, within the linger | {ms(statistics.median(warm))} |")


def timed_cli(*args: str) -> tuple[float, float | None]:
    """The command's wall time, and the time from its "waiting" notice (if it waited) to
    its end: how long the app kept it waiting, plus the command's own query and exit."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "planner", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    notice = proc.stderr.readline()
    noticed = time.perf_counter() if notice.startswith("waiting:") else None
    rest = proc.stderr.read()
    assert proc.wait() == 0, notice + rest
    ended = time.perf_counter()
    return ended - started, None if noticed is None else ended - noticed


def busy_app(db: Path, stop: threading.Event, saves: list[int]) -> None:
    """A session of the app saving and listing scenarios as fast as it can."""
    n = 0
    while not stop.is_set():
        text = f"name: s{n}\ncluster: {{pools: [{{gpu_type: A100, gpus_per_node: 8, count: 1}}]}}\n"
        problem = scenario_box.save_scenario(
            f"{threading.get_ident()} {n}", Prepared("replay", text, None)
        )
        assert problem is None, problem
        scenario_box.saved_scenarios()
        n += 1
    saves.append(n)


def waits(db: Path, rows: int) -> None:
    os.environ["PLANNER_DB"] = str(db)
    alone = [timed_cli("traces", "--db", str(db)) for _ in range(3)]
    stop, saves = threading.Event(), []
    sessions = [threading.Thread(target=busy_app, args=(db, stop, saves)) for _ in range(2)]
    for session in sessions:
        session.start()
    started = time.perf_counter()
    shared = [timed_cli("traces", "--db", str(db)) for _ in range(3)]
    busy_s = time.perf_counter() - started
    stop.set()
    for session in sessions:
        session.join()
    waited = [w for _, w in shared if w is not None]
    print("\n| `planner traces` (3 runs) | median wall time | notice to end |\n|---|---:|---:|")
    print(f"| alone | {statistics.median(t for t, _ in alone):.2f} s | (no wait) |")
    print(
        f"| while 2 app sessions save without pause ({sum(saves)} saves meanwhile, "
        f"{sum(saves) / busy_s:.1f}/s) | {statistics.median(t for t, _ in shared):.2f} s | "
        f"{len(waited)} waited, longest {max(waited, default=0):.2f} s |"
    )
    big = jobs_csv(OUT / "wait.csv", rows)
    importing = subprocess.Popen(
        [sys.executable, "-m", "planner", "ingest", str(big), "--db", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    page_waits = []
    while importing.poll() is None:
        started = time.perf_counter()
        cache.stored_traces()
        page_waits.append(time.perf_counter() - started)
    importing.communicate()
    print(f"\n| a page read during `planner ingest` of {rows:,} jobs | s |\n|---|---:|")
    print(f"| longest wait (the import holding the file) | {max(page_waits):.2f} |")
    print(f"| reads answered during the import | {len(page_waits)} |")


def kill_table(rows: int, prices: int) -> None:
    big = jobs_csv(OUT / "big.csv", rows)
    book = OUT / "prices.csv"
    book.write_text(price_rows(prices), encoding="utf-8")
    print("\n| kill -9 during | opens | traces / jobs after | re-import |\n|---|---|---|---:|")
    for step in ("staging", "writing"):
        db = OUT / f"kill-{step}.duckdb"
        open_store(db).close()
        killed_at(TRACE_CHILD, step, str(db), str(big), str(CHUNK_ROWS))
        with connect(db) as con:
            after = fetch_all(con, "SELECT (SELECT count(*) FROM traces), count(*) FROM jobs")
            started = time.perf_counter()
            import_file(con, big, IngestOptions())
            again = time.perf_counter() - started
            stored = fetch_all(con, "SELECT (SELECT count(*) FROM traces), count(*) FROM jobs")
        print(
            f"| ingest of {rows:,} jobs, {step} | yes | {after[0][0]} / {after[0][1]:,} | "
            f"{again:.1f} s -> {stored[0][0]} / {stored[0][1]:,} |"
        )
    db = OUT / "kill-prices.duckdb"
    with connect(db) as con:
        seeded = len(list_prices(con))
    killed_at(PRICE_CHILD, "writing", str(db), str(book))
    with connect(db) as con:
        after_n = len(list_prices(con)) - seeded
        started = time.perf_counter()
        report = import_prices(con, book)
        again = time.perf_counter() - started
    print(
        f"| price import of {prices:,} rows, writing | yes | {after_n} new prices | "
        f"{again:.1f} s -> {report.added:,} added |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--prices", type=int, default=5000)
    parser.add_argument("--skip-kill", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.duckdb*"):
        old.unlink()
    opening_costs(OUT / "open.duckdb")
    waits(OUT / "shared.duckdb", args.rows // 5)
    if not args.skip_kill:
        kill_table(args.rows, args.prices)


if __name__ == "__main__":
    main()
