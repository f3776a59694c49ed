"""Upgrades: new seeds update untouched seed rows only; old databases migrate forward."""

from datetime import date
from importlib import resources
from pathlib import Path

import duckdb
import pytest

from planner.store import migrations, open_store
from pricing import (
    PriceQuote,
    PricingError,
    SeedSet,
    add_fx_rate,
    add_price,
    convert,
    edit_price,
    ensure_seeded,
    list_prices,
    price_point,
    shipped_seeds,
)
from pricing.rows import PRICE_POINTS, SeedCounts

TODAY = date(2026, 11, 30)
P5 = "aws/us-east-1/p5.48xlarge/on_demand"
P4D = "aws/us-east-1/p4d.24xlarge/on_demand"
G4DN_METAL = "aws/us-east-1/g4dn.metal/on_demand"
USER_QUOTE = {
    "provider": "Example Broker",
    "instance_type": "8x H20",
    "gpu_model": "H20 96GB",
    "gpus_per_instance": 8,
    "price_per_instance_hour": 96,
    "currency": "CNY",
    "pricing_model": "quote",
    "as_of": "2026-11-28",
}


def next_seeds(seeds: SeedSet, prices: list[PriceQuote]) -> SeedSet:
    """The same seeds one version later, with `prices` as the cloud price rows."""
    rows = tuple((t, tuple(prices) if t == PRICE_POINTS else r) for t, r in seeds.rows)
    return SeedSet(seeds.version + 1, rows)


def seed_prices(seeds: SeedSet) -> dict[str, PriceQuote]:
    return {
        row.key: row
        for table, rows in seeds.rows
        if table == PRICE_POINTS
        for row in rows
        if isinstance(row, PriceQuote)
    }


def repriced(quote: PriceQuote, per_instance: float, **changes: object) -> PriceQuote:
    return PriceQuote.model_validate(
        {
            **quote.model_dump(),
            "price_per_instance_hour": per_instance,
            "price_per_gpu_hour": None,
            **changes,
        }
    )


def test_user_edits_and_quotes_survive_a_seed_upgrade(con: duckdb.DuckDBPyConnection) -> None:
    edit_price(con, P5, {"price_per_instance_hour": 50.0})
    quote_key, _ = add_price(con, USER_QUOTE)
    add_fx_rate(con, {"base": "USD", "quote": "CNY", "rate": 7.12, "rate_date": "2026-11-28"})
    old = shipped_seeds()
    prices = seed_prices(old)
    upgraded = [
        repriced(prices[P4D], 20.0),  # untouched by the user: updated
        repriced(prices[P5], 45.0),  # edited by the user: kept as the user left it
        *(q for k, q in prices.items() if k not in {P4D, P5, G4DN_METAL}),  # metal removed
        repriced(prices[P4D], 21.0, key="", region="us-west-2"),  # new
    ]

    counts = ensure_seeded(con, next_seeds(old, upgraded))

    assert counts == SeedCounts(added=1, updated=1, removed=1, kept_user=1)
    assert price_point(con, P5).price_per_instance_hour == 50.0
    assert price_point(con, P5).origin == "user"
    assert price_point(con, quote_key).price_per_instance_hour == 96
    assert price_point(con, P4D).price_per_instance_hour == 20.0
    assert price_point(con, "aws/us-west-2/p4d.24xlarge/on_demand").origin == "seed"
    with pytest.raises(PricingError):
        price_point(con, G4DN_METAL)
    assert convert(con, 1, "USD", "CNY", TODAY) == pytest.approx(7.12)
    assert len(list_prices(con)) == 67 - 1 + 1 + 1


def test_untouched_seed_rows_follow_every_seed_version(con: duckdb.DuckDBPyConnection) -> None:
    list_prices(con)
    old = shipped_seeds()
    prices = [repriced(q, 1.0) if k == P4D else q for k, q in seed_prices(old).items()]

    counts = ensure_seeded(con, next_seeds(old, prices))

    assert counts == SeedCounts(updated=1)
    assert price_point(con, P4D).price_per_instance_hour == 1.0
    assert price_point(con, P4D).origin == "seed"


def test_an_older_seed_version_is_never_applied(con: duckdb.DuckDBPyConnection) -> None:
    list_prices(con)
    old = shipped_seeds()
    downgrade = SeedSet(old.version - 1, tuple((t, ()) for t, _ in old.rows))

    assert ensure_seeded(con, downgrade) is None
    assert len(list_prices(con)) == 67


def test_changed_seed_content_is_applied_even_without_a_version_bump(
    con: duckdb.DuckDBPyConnection,
) -> None:
    list_prices(con)
    old = shipped_seeds()
    fewer = SeedSet(
        old.version, tuple((t, r[:-1] if t == PRICE_POINTS else r) for t, r in old.rows)
    )

    assert ensure_seeded(con, fewer) == SeedCounts(removed=1)


def test_a_seed_row_breaking_a_table_constraint_fails_without_writing_anything(
    con: duckdb.DuckDBPyConnection,
) -> None:
    old = shipped_seeds()
    bad = PriceQuote.model_construct(**{**USER_QUOTE, "key": "bad", "price_per_gpu_hour": -1.0})
    broken = next_seeds(old, [bad])

    with pytest.raises(PricingError, match=r"Cannot seed the price book: .*CHECK"):
        ensure_seeded(con, broken)

    assert con.execute("SELECT count(*) FROM price_points").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM price_book_seedings").fetchone() == (0,)


def test_the_shipped_seed_files_validate() -> None:
    folder = resources.files("pricing") / "seeds"

    assert sorted(p.name for p in folder.iterdir() if p.name.endswith(".csv")) == [
        "assumptions.csv",
        "cloud_prices.csv",
        "fx_rates.csv",
        "servers.csv",
    ]
    assert [(t.name, len(rows)) for t, rows in shipped_seeds().rows] == [
        ("price_points", 67),
        ("server_prices", 5),
        ("fx_rates", 6),
        ("assumptions", 45),  # 42 + the resale value at the horizon's end + 2 pool delays
    ]


def test_a_database_from_before_the_price_book_migrates_forward(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    old = duckdb.connect(str(path))
    old.execute(
        "CREATE TABLE schema_migrations "
        "(version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP)"
    )
    for version, name, sql in migrations("planner"):
        old.execute(sql)
        old.execute("INSERT INTO schema_migrations VALUES (?, ?, now())", [version, name])
    old.execute(
        "INSERT INTO clusters VALUES ('c1', 'lab', 'nodes.csv', 'abc', now(), 2, 16, '{}', '{}')"
    )
    old.close()

    with open_store(path) as con:
        log = con.execute(
            "SELECT package, version, name FROM schema_migrations ORDER BY package, version"
        ).fetchall()
        kept = con.execute("SELECT name FROM clusters").fetchall()
        seeded = len(list_prices(con))

    assert log == [
        *(("planner", v, n) for v, n, _ in migrations("planner")),
        *(("pricing", v, n) for v, n, _ in migrations("pricing")),
    ]
    assert kept == [("lab",)]
    assert seeded == 67
