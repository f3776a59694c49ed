"""A DuckDB failure met by an import, a price write or a scenario save leaves as a one-line
PlannerError that names the step and says what to do: a database opened read-only, another
session holding the same row, memory or disk running out, a closed connection, a broken
query. Real DuckDB files throughout."""

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from planner.core.errors import PlannerError, StoreError
from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import Connection, connect, doing, fetch_all, open_store
from planner.store.scenarios import Prepared, load, save
from planner.store.trace_stats import list_traces
from pricing import PriceQuote, add_price, import_prices, list_prices
from pricing.prices_csv import prices_to_csv
from tests.test_prices import QUOTE

ROOT = Path(__file__).resolve().parents[1]
JOBS = "job_id,submit_time,duration,num_gpu\n" + "".join(
    f"j{i},{i * 60},{600 + i % 97},{1 + i % 8}\n" for i in range(200)
)
REPLAY = Prepared("replay", "name: two nodes\n", None)


def one_line(err: pytest.ExceptionInfo[PlannerError]) -> str:
    text = str(err.value)
    assert "\n" not in text
    return text


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database with the price book seeded and one trace stored."""
    path = tmp_path / "planner.duckdb"
    (tmp_path / "jobs.csv").write_text(JOBS)
    with connect(path) as con:
        list_prices(con)
        import_file(con, tmp_path / "jobs.csv", IngestOptions())
    return path


@pytest.fixture
def read_only(db: Path) -> Iterator[Connection]:
    """That database opened read-only, as another tool (or a second reader) may open it."""
    con = duckdb.connect(str(db), read_only=True)
    yield con
    con.close()


def test_importing_into_a_read_only_database_names_the_file_and_stores_nothing(
    db: Path, read_only: Connection, tmp_path: Path
) -> None:
    other = tmp_path / "other.csv"
    other.write_text(JOBS.replace("j", "k"))

    with pytest.raises(StoreError) as caught:
        import_file(read_only, other, IngestOptions())

    text = one_line(caught)
    assert text.startswith("Cannot import other.csv into the planner database:")
    assert f"the planner database {db} was opened read-only" in text
    assert "make the file and its folder writable" in text
    read_only.close()
    with connect(db) as con:
        assert len(list_traces(con)) == 1


def test_a_price_written_to_a_read_only_database_is_a_store_error_naming_the_price(
    read_only: Connection,
) -> None:
    with pytest.raises(StoreError) as caught:
        add_price(read_only, QUOTE)

    text = one_line(caught)
    assert text.startswith("Cannot save the price example-broker/cn-east/")
    assert "was opened read-only" in text


def test_a_price_file_imported_into_a_read_only_database_names_the_file(
    read_only: Connection, tmp_path: Path
) -> None:
    prices = tmp_path / "prices.csv"
    prices.write_text(prices_to_csv([PriceQuote.model_validate(QUOTE)]))

    with pytest.raises(StoreError) as caught:
        import_prices(read_only, prices)

    assert one_line(caught).startswith("Cannot import the prices of prices.csv: ")


def test_a_scenario_saved_to_a_read_only_database_names_the_scenario(
    read_only: Connection,
) -> None:
    with pytest.raises(StoreError) as caught:
        save(read_only, "two nodes", REPLAY)

    text = one_line(caught)
    assert text.startswith("Cannot save the scenario 'two nodes': ")
    assert "was opened read-only" in text


def test_a_save_that_keeps_meeting_another_sessions_write_gives_up_and_says_to_retry(
    db: Path,
) -> None:
    """Another session (a cursor of the shared connection, as in the app) holds an
    uncommitted change to the row: the save is retried, then reported."""
    con = open_store(db)
    save(con, "a", REPLAY)
    other = con.cursor()
    other.execute("BEGIN TRANSACTION")
    other.execute("UPDATE scenarios SET updated_at = now() WHERE name = 'a'")

    with pytest.raises(StoreError) as caught:
        save(con, "a", Prepared("replay", "name: three nodes\n", None), replace=True)

    other.execute("ROLLBACK")
    assert "another session changed the same rows at the same moment" in one_line(caught)
    assert load(con, "a").yaml_text == "name: two nodes\n"
    con.close()


def test_an_import_that_runs_out_of_memory_says_which_setting_to_raise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANNER_DB_MEMORY", "4MB")
    big = tmp_path / "big.csv"
    big.write_text(
        "job_id,submit_time,duration,num_gpu\n"
        + "".join(f"j{i},{i * 30},{600 + i % 977},{1 + i % 8}\n" for i in range(150_000))
    )
    con = open_store(tmp_path / "planner.duckdb")

    with pytest.raises(StoreError) as caught:
        import_file(con, big, IngestOptions())

    con.close()
    text = one_line(caught)
    assert text.startswith("Cannot import big.csv into the planner database:")
    assert "ran out of the memory it may use (4MB); set $PLANNER_DB_MEMORY higher" in text


# A process whose files may not grow past 300 kB: DuckDB's writes fail as on a full disk.
_FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import open_store
con = open_store(Path(sys.argv[1]))
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000))
try:
    import_file(con, Path(sys.argv[2]), IngestOptions())
except Exception as err:
    print(type(err).__name__, err)
"""


def test_an_import_that_fills_the_disk_says_so_in_one_line(tmp_path: Path) -> None:
    jobs = tmp_path / "jobs.csv"
    jobs.write_text(
        "job_id,submit_time,duration,num_gpu\n"
        + "".join(f"j{i},{i * 30},{600 + i % 977},{1 + i % 8}\n" for i in range(15_000))
    )
    db = tmp_path / "planner.duckdb"

    done = subprocess.run(
        [sys.executable, "-c", _FULL_DISK, str(db), str(jobs)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=120,
    )

    assert done.stdout.startswith(f"StoreError The disk holding {db} is full; free some space")
    assert done.stdout.count("\n") == 1


def test_a_closed_connection_is_a_store_error_not_a_duckdb_one(db: Path) -> None:
    con = open_store(db)
    con.close()

    with pytest.raises(StoreError) as caught:
        list_prices(con)

    text = one_line(caught)
    # listing prices first checks the seeds: that is the step that fails
    assert text.startswith("Cannot seed the price book: the connection to the planner database")
    assert "restart the app or the command" in text


def test_a_broken_query_is_reported_as_a_bug_not_as_a_storage_problem(db: Path) -> None:
    with connect(db) as con, pytest.raises(StoreError) as caught, doing("list the traces"):
        fetch_all(con, "SELECT no_such_column FROM traces")

    text = one_line(caught)
    assert text.startswith("Cannot list the traces: a query of the planner failed (Binder")
    assert "this is a bug in the planner" in text
    assert isinstance(caught.value.__cause__, duckdb.BinderException)
