"""FX: the latest rate on or before a date, inverse and USD-pivot rates, and missing rates."""

from datetime import date

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pricing import FxRate, FxTable, PricingError, add_fx_rate, convert, fx_table, list_fx_rates

TODAY = date(2026, 11, 30)


@pytest.fixture
def rates(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """The seeded book plus two dated USD/CNY rates."""
    for day, rate in (("2026-06-30", 7.15), ("2026-11-28", 7.12)):
        add_fx_rate(con, {"base": "USD", "quote": "CNY", "rate": rate, "rate_date": day})
    return con


def test_seeded_rates_are_labelled_placeholders(con: duckdb.DuckDBPyConnection) -> None:
    seeded = list_fx_rates(con)

    assert {(r.base, r.quote) for r in seeded} == {
        ("USD", q) for q in ("CNY", "EUR", "GBP", "JPY", "HKD", "SGD")
    }
    assert all(r.confidence == "L" and "placeholder" in r.source for r in seeded)
    assert all("planner prices fx add" in r.notes for r in seeded)


@pytest.mark.parametrize(
    ("on_date", "cny"),
    [
        (date(2026, 11, 28), 712.0),
        (TODAY, 712.0),
        (date(2026, 11, 27), 715.0),
        (date(2026, 6, 30), 715.0),
        (date(2026, 6, 29), 730.0),
    ],
)
def test_the_latest_rate_on_or_before_the_date_is_used(
    rates: duckdb.DuckDBPyConnection, on_date: date, cny: float
) -> None:
    assert convert(rates, 100, "USD", "CNY", on_date) == pytest.approx(cny)


def test_the_inverse_of_a_stored_rate_converts_back(rates: duckdb.DuckDBPyConnection) -> None:
    assert convert(rates, 712, "CNY", "USD", TODAY) == pytest.approx(100)


def test_currencies_without_a_direct_rate_go_through_usd(rates: duckdb.DuckDBPyConnection) -> None:
    conversion = fx_table(rates).conversion("CNY", "EUR", TODAY)

    assert conversion.rate == pytest.approx(0.96 / 7.12)
    assert [(leg.base, leg.quote) for leg in conversion.legs] == [("USD", "CNY"), ("USD", "EUR")]
    assert conversion.confidence == "L"


def test_same_currency_needs_no_rate() -> None:
    assert FxTable(()).convert(5.0, "jpy", "JPY", TODAY) == 5.0


def test_a_rate_before_the_first_stored_date_is_missing_and_the_message_says_what_to_add(
    rates: duckdb.DuckDBPyConnection,
) -> None:
    with pytest.raises(PricingError) as caught:
        convert(rates, 1, "CNY", "USD", date(2024, 6, 1))

    assert str(caught.value) == (
        "No CNY/USD FX rate on or before 2024-06-01 (the earliest stored CNY/USD rate is "
        "2025-01-01); add one with `planner prices fx add CNY USD RATE --date 2024-06-01`."
    )


def test_a_pair_never_stored_is_missing(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(PricingError, match=r"No USD/KRW FX rate on or before 2026-11-30; add one"):
        convert(con, 1, "USD", "KRW", TODAY)


@pytest.mark.parametrize(
    ("rate", "message"),
    [
        ({"rate": 0}, r"rate: expected a rate > 0"),
        ({"quote": "USD"}, r"quote: expected a currency other than the base USD"),
        ({"quote": "RMB"}, r"quote: expected one of USD, CNY"),
        ({"rate_date": None}, r"rate_date: expected a date YYYY-MM-DD"),
    ],
)
def test_bad_rates_are_refused(
    con: duckdb.DuckDBPyConnection, rate: dict[str, object], message: str
) -> None:
    good = {"base": "USD", "quote": "CNY", "rate": 7.1, "rate_date": "2026-11-30"}

    with pytest.raises(PricingError, match=message):
        add_fx_rate(con, {**good, **rate})


def test_a_second_rate_for_the_same_pair_and_day_replaces_the_first(
    con: duckdb.DuckDBPyConnection,
) -> None:
    first = add_fx_rate(con, {"base": "usd", "quote": "cny", "rate": 7.1, "rate_date": TODAY})
    second = add_fx_rate(con, {"base": "USD", "quote": "CNY", "rate": 7.2, "rate_date": TODAY})

    assert first == ("USD/CNY@2026-11-30", "added")
    assert second == ("USD/CNY@2026-11-30", "updated")
    assert convert(con, 1, "USD", "CNY", TODAY) == pytest.approx(7.2)


amounts = st.floats(0.01, 1e9, allow_nan=False)
positive_rates = st.floats(1e-4, 1e4, allow_nan=False)
days = st.dates(date(2020, 1, 1), date(2030, 12, 31))


@given(amount=amounts, rate=positive_rates, rate_day=days, later=st.integers(0, 3000))
def test_converting_there_and_back_returns_the_amount(
    amount: float, rate: float, rate_day: date, later: int
) -> None:
    table = FxTable((FxRate("USD", "CNY", rate_day, rate),))
    on_date = date.fromordinal(rate_day.toordinal() + later)

    there = table.convert(amount, "USD", "CNY", on_date)

    assert there == pytest.approx(amount * rate)
    assert table.convert(there, "CNY", "USD", on_date) == pytest.approx(amount)


@given(usd_cny=positive_rates, usd_eur=positive_rates, amount=amounts, rate_day=days)
def test_pivot_conversion_agrees_with_two_steps(
    usd_cny: float, usd_eur: float, amount: float, rate_day: date
) -> None:
    table = FxTable(
        (FxRate("USD", "CNY", rate_day, usd_cny), FxRate("USD", "EUR", rate_day, usd_eur))
    )

    direct = table.convert(amount, "CNY", "EUR", rate_day)
    stepwise = table.convert(table.convert(amount, "CNY", "USD", rate_day), "USD", "EUR", rate_day)

    assert direct == pytest.approx(stepwise)
