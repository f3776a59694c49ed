"""CSV import and export of price points: round trips, and row-level errors that keep good rows."""

from dataclasses import replace
from datetime import date
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.store import open_store
from pricing import (
    PRICING_MODELS,
    PriceFilter,
    PriceQuote,
    PricingError,
    export_prices,
    import_prices,
    list_prices,
    price_point,
)
from pricing.prices_csv import prices_to_csv, quotes_from_csv

DATA = Path(__file__).parent / "data"
TODAY = date(2026, 11, 30)
P5 = "aws/us-east-1/p5.48xlarge/on_demand"
HEAD = "provider,instance_type,gpu_model,gpus_per_instance,price_per_instance_hour,currency,pricing_model,as_of\n"


def test_export_then_import_into_the_same_book_changes_nothing(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    before = list_prices(con, today=TODAY)
    written = export_prices(con, tmp_path / "prices.csv")

    report = import_prices(con, tmp_path / "prices.csv")

    assert written == 67
    assert (report.rows, report.unchanged, report.added, report.rejected) == (67, 67, 0, 0)
    assert list_prices(con, today=TODAY) == before


def test_user_quotes_travel_to_another_book_by_csv(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    import_prices(con, DATA / "prices_quotes.csv")
    export_prices(con, tmp_path / "prices.csv")

    with open_store(tmp_path / "other.duckdb") as other:
        report = import_prices(other, tmp_path / "prices.csv")
        copied = list_prices(other, today=TODAY)

    assert (report.added, report.unchanged) == (2, 67)
    assert copied == list_prices(con, today=TODAY)


def test_filtered_export_writes_only_the_matching_rows(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    count = export_prices(con, tmp_path / "h100.csv", PriceFilter(gpu="H100", provider="AWS"))

    lines = (tmp_path / "h100.csv").read_text(encoding="utf-8").splitlines()
    assert count == len(lines) - 1 == 3
    assert lines[0].startswith("key,provider,region,instance_type,gpu_model,gpu_mem_gb")


def test_bad_rows_are_reported_by_row_column_and_expected_value_and_good_rows_kept(
    con: duckdb.DuckDBPyConnection,
) -> None:
    report = import_prices(con, DATA / "prices_quotes.csv")

    assert (report.rows, report.added, report.rejected) == (6, 2, 4)
    assert [str(e) for e in report.errors] == [
        "row 4, column price_per_instance_hour: expected a price >= 0 and below 100,000,000 "
        "(the price book's limit), got '-5'",
        "row 5, column currency: expected one of USD, CNY, EUR, GBP, JPY, HKD, SGD, KRW, TWD, "
        "INR, AUD, CAD (ISO 4217), got 'RMB'",
        "row 6, column gpus_per_instance: expected a number of GPUs > 0, got '0'",
        "row 7, column as_of: missing; expected a date YYYY-MM-DD",
    ]
    [h20] = list_prices(con, PriceFilter(gpu="H20"))
    assert (h20.gpu_mem_gb, h20.pricing_model, h20.term_months, h20.upfront_fraction) == (
        96,
        "subscription",
        12,
        1.0,
    )


def test_a_repeated_key_is_a_row_error(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    row = "A,i,H100,8,10,USD,on_demand,2026-11-01\n"
    path = tmp_path / "twice.csv"
    path.write_text(HEAD + row + row, encoding="utf-8")

    report = import_prices(con, path)

    assert [str(e) for e in report.errors] == ["row 3, column key: duplicate of row 2"]
    assert report.added == 1


def test_a_row_with_more_cells_than_the_header_is_a_row_error() -> None:
    _, errors = quotes_from_csv(HEAD + "A,i,H100,8,10,USD,on_demand,2026-11-01,extra\n")

    assert [str(e) for e in errors] == ["row 2: more cells than columns in the header"]


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (HEAD.replace("currency", "curency"), r"Unknown column\(s\) curency; the columns are key"),
        (HEAD.replace(",as_of", ""), r"Missing column\(s\) as_of\."),
    ],
)
def test_unknown_or_missing_columns_refuse_the_file(header: str, message: str) -> None:
    with pytest.raises(PricingError, match=message):
        quotes_from_csv(header)


def test_a_file_that_is_not_utf8_is_a_clear_error(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    path = tmp_path / "gbk.csv"
    path.write_bytes((HEAD + "阿里云,i,A10,1,15,CNY,on_demand,2026-01-01\n").encode("gbk"))

    with pytest.raises(PricingError, match=r"is not UTF-8 text; save it as UTF-8 CSV"):
        import_prices(con, path)


def test_excel_utf8_with_bom_imports(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    path = tmp_path / "excel.csv"
    path.write_bytes(("\ufeff" + HEAD + "阿里云,i,A10,1,15,CNY,on_demand,2026-01-01\n").encode())

    assert import_prices(con, path).added == 1


def test_an_imported_change_to_a_seed_row_makes_it_the_users(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    p5 = price_point(con, P5, today=TODAY)
    cheaper = replace(p5, price_per_instance_hour=50.0, price_per_gpu_hour=6.25)
    (tmp_path / "p5.csv").write_text(prices_to_csv([cheaper]), encoding="utf-8")

    first = import_prices(con, tmp_path / "p5.csv")
    again = import_prices(con, tmp_path / "p5.csv")

    assert (first.updated, again.unchanged) == (1, 1)
    after = price_point(con, P5, today=TODAY)
    assert (after.price_per_instance_hour, after.origin) == (50.0, "user")


words = (
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=20)
    .map(str.strip)
    .filter(bool)
)
notes = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
quotes = st.builds(
    PriceQuote,
    provider=words,
    region=st.one_of(st.just(""), words),
    instance_type=words,
    gpu_model=st.sampled_from(["A100", "H100 80GB SXM", "L40S", "H800", "Ascend 910B", "A10G"]),
    gpus_per_instance=st.sampled_from([0.333333, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0]),
    price_per_instance_hour=st.floats(0, 1e6, allow_nan=False),
    currency=st.sampled_from(["USD", "CNY", "EUR", "JPY"]),
    pricing_model=st.sampled_from(PRICING_MODELS),
    term_months=st.one_of(st.none(), st.integers(1, 60)),
    upfront_fraction=st.one_of(st.none(), st.floats(0, 1)),
    as_of=st.dates(date(2015, 1, 1), date(2030, 12, 31)),
    notes=notes.map(str.strip),
)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(quotes, max_size=6, unique_by=lambda q: q.key))
def test_csv_round_trip_preserves_every_quote(rows: list[PriceQuote]) -> None:
    back, errors = quotes_from_csv(prices_to_csv(rows))

    assert errors == ()
    assert back == rows
