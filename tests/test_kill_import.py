"""kill -9 in the middle of an import leaves the database whole: it opens, no half-imported
trace (or price) is listed, and the same import run again stores everything once.

The importing process is the real importer in a child process; it says on stdout when it
has reached a step (the wrapped function still runs: nothing is replaced), and the test
kills it as soon as it reads that line, so the kill lands inside the import's transaction
whatever the machine's speed. bench/bench_db_sharing.py does the same with 1M rows.
"""

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import connect, fetch_all
from pricing import list_prices
from pricing.prices_csv import CSV_COLUMNS, import_prices

ROOT = Path(__file__).resolve().parents[1]
ROWS = 40_000
# Read in 4 chunks of 10,000 rows (the chunk size is not part of a trace's identity), so a
# kill after the second lands with half the file staged, at a tenth of the default's cost.
CHUNK_ROWS = 10_000

# The importer of a job history, saying "staging" when two chunks (of four) are staged and
# "writing" when the trace's jobs are about to be written (both inside its transaction).
TRACE_CHILD = """
import sys
from pathlib import Path
from planner.ingest import IngestOptions, JobStream
from planner.service import importer
from planner.store import connect, traces

step = sys.argv[3]  # argv[4]: rows per chunk
chunks = JobStream.chunks

def staged(self):
    for n, chunk in enumerate(chunks(self)):
        if n == 2 and step == "staging":
            print("staging", flush=True)
        yield chunk

write_jobs = traces.write_jobs

def writing(*args, **kwargs):
    if step == "writing":
        print("writing", flush=True)
    return write_jobs(*args, **kwargs)

JobStream.chunks = staged
traces.write_jobs = writing
with connect(Path(sys.argv[1])) as con:
    importer.import_file(con, Path(sys.argv[2]), IngestOptions(chunk_rows=int(sys.argv[4])))
print("done", flush=True)
"""

# The importer of a price file, saying "writing" when its rows are about to be written.
PRICE_CHILD = """
import sys
from pathlib import Path
from planner.store import connect
from pricing import prices_csv

write = prices_csv.write_user_rows

def writing(*args, **kwargs):
    print("writing", flush=True)
    return write(*args, **kwargs)

prices_csv.write_user_rows = writing
with connect(Path(sys.argv[1])) as con:
    prices_csv.import_prices(con, Path(sys.argv[2]))
print("done", flush=True)
"""


def jobs_csv(path: Path, rows: int) -> Path:
    with path.open("w", encoding="utf-8") as out:
        out.write("job_id,submit_time,duration,num_gpu\n")
        for i in range(rows):
            out.write(f"j{i},{i * 30},{600 + i % 977},{1 + i % 8}\n")
    return path


def price_rows(rows: int) -> str:
    """A prices CSV of `rows` distinct on-demand offers (one instance type each)."""
    columns = [c for c in CSV_COLUMNS if c != "origin"]
    lines = [",".join(columns)]
    for i in range(rows):
        cells = {
            "provider": "KillCloud",
            "region": f"r{i % 7}",
            "instance_type": f"gpu-{i}",
            "gpu_model": "H100",
            "gpus_per_instance": "8",
            "price_per_instance_hour": f"{20 + i / 1000:.3f}",
            "currency": "USD",
            "pricing_model": "on_demand",
            "as_of": "2026-11-01",
            "source_kind": "estimate",
        }
        lines.append(",".join(cells.get(c, "") for c in columns))
    return "\n".join(lines) + "\n"


def killed_at(child: str, step: str, *args: str) -> str:
    """Run `child` with `args[:2]`, `step`, `args[2:]`; SIGKILL it when it prints `step`;
    the line it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-c", child, *args[:2], step, *args[2:]],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()  # blocks until the child reaches the step
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate()
    assert proc.returncode == -signal.SIGKILL, err
    return line


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return jobs_csv(tmp_path_factory.mktemp("kill") / "big.csv", ROWS)


@pytest.mark.parametrize("step", ["staging", "writing"])
def test_a_trace_import_killed_midway_leaves_no_trace_and_imports_again(
    big: Path, tmp_path: Path, step: str
) -> None:
    db = tmp_path / "planner.duckdb"
    with connect(db):
        pass  # an existing, migrated database, as a nightly import finds it

    assert killed_at(TRACE_CHILD, step, str(db), str(big), str(CHUNK_ROWS)) == step

    with connect(db) as con:
        assert fetch_all(con, "SELECT * FROM traces") == []
        assert fetch_all(con, "SELECT count(*) FROM jobs") == [(0,)]
        assert fetch_all(con, "SELECT count(*) FROM rejected_rows") == [(0,)]
        report = import_file(con, big, IngestOptions(chunk_rows=CHUNK_ROWS))
        assert not report.already_imported
        assert fetch_all(con, "SELECT name, jobs FROM traces") == [("big", ROWS)]
        assert fetch_all(con, "SELECT count(*) FROM jobs") == [(ROWS,)]


def test_a_price_import_killed_midway_leaves_the_book_as_it_was_and_imports_again(
    tmp_path: Path,
) -> None:
    db = tmp_path / "planner.duckdb"
    prices = tmp_path / "prices.csv"
    prices.write_text(price_rows(2000), encoding="utf-8")
    with connect(db) as con:
        before = len(list_prices(con))

    assert killed_at(PRICE_CHILD, "writing", str(db), str(prices)) == "writing"

    with connect(db) as con:
        assert len(list_prices(con)) == before
        report = import_prices(con, prices)
        assert report.added == 2000
        assert len(list_prices(con)) == before + 2000
