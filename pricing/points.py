"""Cloud price points: list and filter them (flagging stale ones), add a quote, edit a row.

Prices come out as plain frozen dataclasses in their native currency; `pricing.offers`
converts and picks SKUs for the cost model. Every function seeds the price book on first use.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from planner.store import Connection, doing, fetch_all, fetch_one, transaction
from pricing.errors import PricingError
from pricing.freshness import Freshness, freshness
from pricing.gpus import gpu_matches, parse_gpu
from pricing.models import PriceQuote
from pricing.problems import refuse_future, validated
from pricing.rows import (
    PRICE_COLUMNS,
    PRICE_POINTS,
    Change,
    row_values,
    select_list,
    write_user_row,
)
from pricing.seed import ensure_seeded


@dataclass(frozen=True, slots=True)
class PricePoint:
    """A stored cloud price; `age_days` and `is_stale` are as of the day it was read."""

    key: str
    origin: str
    provider: str
    region: str
    instance_type: str
    gpu_model: str
    gpu_mem_gb: int | None
    gpu_form: str | None
    gpus_per_instance: float
    price_per_instance_hour: float
    price_per_gpu_hour: float
    currency: str
    pricing_model: str
    term_months: int | None
    upfront_fraction: float | None
    billing_granularity_s: int
    min_billing_s: int
    includes: str
    as_of: date
    source_url: str
    source_kind: str
    confidence: str
    notes: str
    age_days: int
    is_stale: bool


@dataclass(frozen=True, slots=True)
class PriceFilter:
    """Which prices to list; None means any. `gpu` may carry memory: "A100 80GB"."""

    provider: str | None = None
    gpu: str | None = None
    pricing_model: str | None = None
    currency: str | None = None
    region: str | None = None


def list_prices(
    con: Connection,
    where: PriceFilter | None = None,
    *,
    today: date | None = None,
    stale_days: int | None = None,
) -> list[PricePoint]:
    """Matching prices by provider, GPU, GPUs per instance and instance type."""
    ensure_seeded(con)
    where = where or PriceFilter()
    fresh = freshness(con, today=today, stale_days=stale_days)
    sql, params = _select(where)
    with doing("read the prices", invalid=PricingError):
        points = [_point(row, fresh) for row in fetch_all(con, sql, params)]
    if where.gpu:
        wanted = parse_gpu(where.gpu)
        points = [p for p in points if gpu_matches(wanted, p.gpu_model, p.gpu_mem_gb)]
    return points


def _select(where: PriceFilter) -> tuple[str, list[str]]:
    tests, params = [], []
    for column, value in (
        ("provider", where.provider),
        ("pricing_model", where.pricing_model),
        ("currency", where.currency),
        ("region", where.region),
    ):
        if value:
            tests.append(f"lower({column}) = lower(?)")
            params.append(value.strip())
    condition = f"WHERE {' AND '.join(tests)}" if tests else ""
    sql = (
        f"SELECT {select_list(PRICE_POINTS)} FROM price_points {condition} "
        "ORDER BY provider, gpu_model, gpus_per_instance, region, instance_type, "
        "pricing_model, key"
    )
    return sql, params


def _point(row: tuple[Any, ...], fresh: Freshness) -> PricePoint:
    fields = dict(zip(("key", "origin", *PRICE_COLUMNS), row, strict=True))
    as_of = fields["as_of"]
    return PricePoint(**fields, age_days=fresh.age_days(as_of), is_stale=fresh.is_stale(as_of))


def price_point(con: Connection, key: str, *, today: date | None = None) -> PricePoint:
    """The price stored under `key`."""
    ensure_seeded(con)
    with doing(f"read the price {key}", invalid=PricingError):
        sql = f"SELECT {select_list(PRICE_POINTS)} FROM price_points WHERE key = ?"
        row = fetch_one(con, sql, [key])
    if row is None:
        raise PricingError(f"No price with key {key!r}; `planner prices list` shows the keys.")
    return _point(row, freshness(con, today=today))


def add_price(con: Connection, quote: PriceQuote | Mapping[str, object]) -> tuple[str, Change]:
    """Store a price as the user's: (key, "added" | "updated" | "unchanged").

    A quote with the key of an existing row replaces it (and so overrides a seed row for
    good); the key defaults to provider/region/instance/pricing model[/term].
    """
    ensure_seeded(con)
    if not isinstance(quote, PriceQuote):
        quote = validated(PriceQuote, quote, "price")
    refuse_future(quote, "price")
    with doing(f"save the price {quote.key}", invalid=PricingError), transaction(con):
        change = write_user_row(con, PRICE_POINTS, quote.key, row_values(PRICE_POINTS, quote))
    return quote.key, change


def edit_price(con: Connection, key: str, changes: Mapping[str, object]) -> PricePoint:
    """Change some fields of a stored price; the row becomes the user's."""
    current = price_point(con, key)
    fields = {name: getattr(current, name) for name in ("key", *PRICE_COLUMNS)}
    if {"price_per_instance_hour", "gpus_per_instance"} & changes.keys():
        del fields["price_per_gpu_hour"]  # recomputed unless given
    add_price(con, {**fields, **changes, "key": key})
    return price_point(con, key)
