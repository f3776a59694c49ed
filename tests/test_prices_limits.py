"""Price imports at scale and at the edges: the insert is one statement whatever the row
count; a value the book cannot store rejects its row only (named by row, column and limit);
a price dated in the future is refused, and one already stored is flagged."""

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pytest

from planner.cli import main
from pricing import PricingError, add_price, import_prices, list_prices
from pricing.freshness import Freshness

HEAD = (
    "provider,instance_type,gpu_model,gpus_per_instance,price_per_instance_hour,currency,"
    "pricing_model,as_of,gpu_mem_gb,term_months\n"
)


def row(
    n: int, price: str = "10.5", as_of: str = "2026-11-01", mem: str = "", term: str = ""
) -> str:
    return f"BulkCloud,gpu-{n},H100,8,{price},USD,on_demand,{as_of},{mem},{term}\n"


class CountingConnection:
    """A DuckDB connection that counts the statements run on it."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.statements = 0

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        self.statements += 1
        return self.con.execute(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)


def statements_to_import(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    counting = CountingConnection(con)
    import_prices(counting, path)  # type: ignore[arg-type]
    return counting.statements


def test_the_import_runs_the_same_statements_for_20_or_2000_rows(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    # seeds loaded and one row stored: later imports start from the same state
    import_prices(con, _write(tmp_path / "first.csv", HEAD + row(0)))
    small = _write(tmp_path / "small.csv", HEAD + "".join(row(n) for n in range(1, 21)))
    large = _write(tmp_path / "large.csv", HEAD + "".join(row(n) for n in range(100, 2100)))

    for_small = statements_to_import(con, small)
    for_large = statements_to_import(con, large)
    again = statements_to_import(con, large)  # all unchanged: nothing written

    assert for_large == for_small
    assert again <= for_large
    stored = {p.key for p in list_prices(con) if p.provider == "BulkCloud"}
    assert len(stored) == 2021


def test_a_price_beyond_the_book_s_limit_rejects_its_row_only(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    path = _write(tmp_path / "p.csv", HEAD + row(1) + row(2, price="123456789") + row(3))

    report = import_prices(con, path)

    assert (report.added, report.rejected) == (2, 1)
    (error,) = report.errors
    assert (error.row, error.column) == (3, "price_per_instance_hour")
    assert "100,000,000" in error.message


@pytest.mark.parametrize(
    ("cells", "column"),
    [
        ({"mem": "99999999999"}, "gpu_mem_gb"),
        ({"term": "3000000000"}, "term_months"),
        ({"price": "1e300"}, "price_per_instance_hour"),
    ],
)
def test_integers_and_decimals_the_columns_cannot_hold_are_row_errors(
    con: duckdb.DuckDBPyConnection, tmp_path: Path, cells: dict[str, str], column: str
) -> None:
    path = _write(tmp_path / "p.csv", HEAD + row(1) + row(2, **cells))

    report = import_prices(con, path)

    assert (report.added, report.rejected) == (1, 1)
    assert report.errors[0].column == column


def test_a_per_gpu_price_beyond_the_limit_is_a_row_error(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    text = HEAD + "BulkCloud,frac,H100,0.25,99999999,USD,on_demand,2026-11-01,,\n" + row(1)

    report = import_prices(con, _write(tmp_path / "p.csv", text))

    assert (report.added, report.rejected) == (1, 1)
    assert report.errors[0].column == "price_per_gpu_hour"


def test_a_price_dated_in_the_future_is_refused_by_row_and_column(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    future = (date.today() + timedelta(days=30)).isoformat()
    path = _write(tmp_path / "p.csv", HEAD + row(1) + row(2, as_of=future))

    report = import_prices(con, path)

    assert (report.added, report.rejected) == (1, 1)
    (error,) = report.errors
    assert (error.row, error.column) == (3, "as_of")
    assert "in the future" in error.message


def test_a_price_dated_tomorrow_is_accepted_for_time_zones(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    tomorrow = (date.today() + timedelta(days=1)).isoformat()

    report = import_prices(con, _write(tmp_path / "p.csv", HEAD + row(1, as_of=tomorrow)))

    assert (report.added, report.rejected) == (1, 0)


def test_adding_a_future_price_is_refused(con: duckdb.DuckDBPyConnection) -> None:
    quote = {
        "provider": "BulkCloud",
        "instance_type": "gpu-9",
        "gpu_model": "H100",
        "gpus_per_instance": 8,
        "price_per_instance_hour": 20,
        "currency": "USD",
        "pricing_model": "on_demand",
        "as_of": "2999-01-01",
    }

    with pytest.raises(PricingError, match=r"as_of: 2999-01-01 is in the future"):
        add_price(con, quote)


def test_the_cli_refuses_a_future_price(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "prices", "add", "--provider", "BulkCloud", "--instance", "gpu-9", "--gpu", "H100",
        "--gpus", "8", "--price-per-hour", "20", "--currency", "USD", "--model", "on_demand",
        "--as-of", "2999-01-01", "--db", str(tmp_path / "p.duckdb"),
    ]  # fmt: skip

    assert main(args) != 0
    assert "in the future" in capsys.readouterr().err


def test_a_stored_price_dated_in_the_future_is_flagged_stale() -> None:
    fresh = Freshness(today=date(2026, 11, 30), stale_days=90)

    assert fresh.is_stale(date(2027, 6, 1))
    assert not fresh.is_stale(date(2026, 12, 1))  # tomorrow: a time zone ahead
    assert not fresh.is_stale(date(2026, 11, 1))


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
