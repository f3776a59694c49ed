"""The prices page's glue: the price book read into display tables, and its writes.

Plain functions the page calls. Every read and write takes a cursor from `planner.ui.cache`
(the one shared store connection per process) and goes through the `pricing` package, whose
writes are transactions, so concurrent sessions adding quotes or importing files are safe.
Nothing here is cached: the book is small and the CLI or another session may change it.
"""

import tempfile
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from planner.core.errors import PlannerError
from planner.ui.cache import cursor
from planner.ui.error_text import price_row_words
from planner.ui.i18n import fmt_number, t
from planner.ui.safe import md
from pricing import (
    DEFAULT_SET,
    DEFAULT_STALE_DAYS,
    PRICING_MODELS,
    FxTable,
    ImportReport,
    PricePoint,
    PricingError,
    add_fx_rate,
    add_price,
    assumption_set,
    export_prices,
    import_prices,
    list_fx_rates,
    list_prices,
    list_servers,
)
from pricing.assumptions import COMMITMENTS
from pricing.models import MAX_TERM_MONTHS

MAX_UPLOAD_MB = 5
PRICE_COLUMNS = (
    "stale",
    "provider",
    "region",
    "instance_type",
    "gpu_model",
    "gpus_per_instance",
    "price_per_instance_hour",
    "price_per_gpu_hour",
    "currency",
    "reporting_per_gpu_hour",
    "pricing_model",
    "term_months",
    "as_of",
    "age_days",
    "confidence",
    "source_url",
    "notes",
    "origin",
    "key",
)
FILTER_COLUMNS = ("provider", "gpu_model", "pricing_model", "currency")
_MONEY = st.column_config.NumberColumn


def _headers(columns: Iterable[str], **special: ColumnConfig) -> dict[str, ColumnConfig]:
    """Every column with its translated header; `special` ones formatted as given."""
    plain = {c: st.column_config.Column(t(f"prices.col.{c}")) for c in columns}
    return plain | special


def _confidence() -> ColumnConfig:
    return st.column_config.TextColumn(t("prices.col.confidence"), help=t("prices.confidence_help"))


def _stale() -> ColumnConfig:
    return st.column_config.CheckboxColumn(
        t("prices.col.stale"), help=t("prices.col.stale_help", days=DEFAULT_STALE_DAYS)
    )


def fx_config(columns: Iterable[str]) -> dict[str, ColumnConfig]:
    return _headers(
        columns,
        placeholder=st.column_config.CheckboxColumn(
            t("prices.col.placeholder"), help=t("prices.col.placeholder_help")
        ),
        rate=_MONEY(t("prices.col.rate"), format="%.4f"),
        confidence=_confidence(),
    )


def assumption_config(columns: Iterable[str]) -> dict[str, ColumnConfig]:
    return _headers(columns, confidence=_confidence())


@dataclass(frozen=True, slots=True)
class Book:
    """The whole price book as display tables (one read, one cursor)."""

    prices: pd.DataFrame
    """One row per price point, `PRICE_COLUMNS`; `reporting_per_gpu_hour` is NaN when no
    FX rate converts the price."""
    fx: pd.DataFrame
    servers: pd.DataFrame
    assumptions: pd.DataFrame


def read_book(reporting_currency: str, today: date | None = None) -> Book:
    """Prices (with the per-GPU-hour price in `reporting_currency`), FX, servers, assumptions."""
    on_date = today or date.today()
    with cursor() as cur:
        points = list_prices(cur, today=on_date)
        rates = list_fx_rates(cur)
        servers = list_servers(cur, today=on_date)
        assumptions = assumption_set(cur, DEFAULT_SET)
    fx = FxTable(tuple(rates))
    prices = pd.DataFrame(
        [_price_row(p, fx, reporting_currency, on_date) for p in points],
        columns=list(PRICE_COLUMNS),
    )
    fx_rows = [
        {
            "placeholder": _is_placeholder(r.confidence, r.source),
            "base": r.base,
            "quote": r.quote,
            "rate": r.rate,
            "rate_date": r.rate_date,
            "confidence": r.confidence,
            "source": r.source,
            "notes": r.notes,
            "origin": r.origin,
        }
        for r in rates
    ]
    server_rows = [
        {
            "stale": s.is_stale,
            "server": s.key,
            "gpu_model": s.gpu_model,
            "gpus_per_server": s.gpus_per_server,
            "price": s.price,
            "currency": s.currency,
            "max_kw": s.max_kw,
            "idle_kw": s.idle_kw,
            "load_kw": s.load_kw,
            "as_of": s.as_of.isoformat() if s.as_of else t("prices.no_source_date"),
            "source": s.source,
            "confidence": s.confidence,
            "power_confidence": s.power_confidence,
            "notes": s.notes,
        }
        for s in servers
    ]
    assumption_rows = [
        {
            "name": a.name,
            "value": a.value,
            "unit": a.unit,
            "source": a.source,
            "confidence": a.confidence,
            "notes": a.notes,
        }
        for a in assumptions.values()
    ]
    return Book(
        prices, pd.DataFrame(fx_rows), pd.DataFrame(server_rows), pd.DataFrame(assumption_rows)
    )


def _price_row(point: PricePoint, fx: FxTable, currency: str, on_date: date) -> dict[str, object]:
    try:
        converted = fx.convert(point.price_per_gpu_hour, point.currency, currency, on_date)
    except PricingError:
        converted = float("nan")
    row = {column: getattr(point, column, None) for column in PRICE_COLUMNS}
    return row | {"stale": point.is_stale, "reporting_per_gpu_hour": converted}


def _is_placeholder(confidence: str, source: str) -> bool:
    return confidence == "L" or "placeholder" in source.lower()


def price_config(reporting_currency: str) -> dict[str, ColumnConfig]:
    """Column headers and formats of the prices table: money to the cent, stale as a
    checkbox."""
    return _headers(
        PRICE_COLUMNS,
        stale=_stale(),
        price_per_instance_hour=_MONEY(t("prices.col.price_per_instance_hour"), format="%.2f"),
        price_per_gpu_hour=_MONEY(t("prices.col.price_per_gpu_hour"), format="%.3f"),
        reporting_per_gpu_hour=_MONEY(
            t("prices.col.reporting_per_gpu_hour", currency=reporting_currency),
            format="%.3f",
            help=t("prices.col.reporting_help"),
        ),
        as_of=st.column_config.DateColumn(t("prices.col.as_of")),
        confidence=_confidence(),
    )


def filter_choices(prices: pd.DataFrame) -> dict[str, list[str]]:
    """The distinct values of each filterable column, sorted."""
    return {column: sorted(prices[column].dropna().unique()) for column in FILTER_COLUMNS}


def filter_prices(prices: pd.DataFrame, chosen: Mapping[str, Collection[str]]) -> pd.DataFrame:
    """The rows whose value in each column of `chosen` is one of the chosen (none = any)."""
    keep = pd.Series(True, index=prices.index)
    for column, values in chosen.items():
        if values:
            keep &= prices[column].isin(list(values))
    return prices.loc[keep]


def pricing_words(pricing_model: str) -> str:
    """A pricing model in words ("on demand", "按需"); a code the app does not know as
    stored."""
    return t(f"labels.plan.{pricing_model}") if pricing_model in PRICING_MODELS else pricing_model


def in_words(prices: pd.DataFrame) -> pd.DataFrame:
    """The prices as the table shows them: each pricing model in words. The filters, the
    editor and the CSV export keep the codes (a CSV is imported back)."""
    return prices.assign(pricing_model=prices["pricing_model"].map(pricing_words))


def needs_term(pricing_model: str) -> bool:
    """Whether a price of `pricing_model` is for a commitment of some months."""
    return pricing_model in COMMITMENTS


def check_term(pricing_model: str, term_months: object) -> int | None:
    """The quote's term in months: required (1-120) for a commitment, refused otherwise."""
    if not needs_term(pricing_model):
        if term_months is not None:
            models = ", ".join(sorted(COMMITMENTS))
            raise PricingError(t("prices.term_not_taken", model=pricing_model, models=models))
        return None
    if term_months is None:
        raise PricingError(t("prices.term_needed", model=pricing_model))
    if not isinstance(term_months, int | float) or term_months != int(term_months):
        raise PricingError(t("prices.term_range", term=term_months))
    if not 1 <= term_months <= MAX_TERM_MONTHS:
        raise PricingError(t("prices.term_range", term=fmt_number(term_months, 0)))
    return int(term_months)


def add_quote(fields: Mapping[str, object]) -> str:
    """Store a quote from the form; a sentence saying what changed. PricingError if invalid
    (a commitment without its term, or a term for a price that takes none, included)."""
    quote = dict(fields)
    model = str(quote.get("pricing_model", ""))
    quote["term_months"] = check_term(model, quote.get("term_months"))
    with cursor() as cur:
        key, change = add_price(cur, quote)
    return t("prices.quote_stored", quote=md(key), change=t(f"prices.change.{change}"))


def add_fx(fields: Mapping[str, object]) -> str:
    """Store an FX rate from the form; a sentence saying what changed."""
    with cursor() as cur:
        key, change = add_fx_rate(cur, dict(fields))
    return t("prices.fx_stored", rate=md(key), change=t(f"prices.change.{change}"))


def import_csv(data: bytes, name: str) -> ImportReport:
    """Import an uploaded prices CSV (at most `MAX_UPLOAD_MB`); good rows are kept.

    PlannerError, naming the upload (never a temporary path), when the file is too large,
    not UTF-8 or has unknown columns.
    """
    if len(data) > MAX_UPLOAD_MB * 1024 * 1024:
        size_mb = fmt_number(len(data) / 1024 / 1024, 1)
        raise PlannerError(t("prices.too_big", name=name, size=size_mb, max=MAX_UPLOAD_MB))
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PlannerError(t("prices.not_utf8", name=name)) from None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / (Path(name).name or "prices.csv")
        path.write_bytes(data)
        with cursor() as cur:
            return import_prices(cur, path)


def import_summary(report: ImportReport) -> str:
    """'6 rows: 2 added, 0 updated, 0 unchanged, 4 rejected' in the session's language."""
    return t(
        "prices.import_summary",
        rows=fmt_number(report.rows),
        added=fmt_number(report.added),
        updated=fmt_number(report.updated),
        unchanged=fmt_number(report.unchanged),
        rejected=fmt_number(report.rejected),
    )


def rejected_rows(report: ImportReport) -> pd.DataFrame:
    """One row per bad cell: row number (header = 1), column, value found, reason (in the
    session's language)."""
    rows = [
        {
            "row": e.row,
            "column": e.column,
            "value": e.value,
            "reason": price_row_words(e.column, e.message),
        }
        for e in report.errors
    ]
    return pd.DataFrame(rows, columns=["row", "column", "value", "reason"])


def export_csv() -> bytes:
    """The whole price book as `planner prices export` writes it (it imports back unchanged)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "prices.csv"
        with cursor() as cur:
            export_prices(cur, path)
        return path.read_bytes()
