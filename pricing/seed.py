"""The shipped seed rows (pricing/seeds/*.csv) and putting them into a database.

Seeding runs on first use and again whenever the shipped seeds are newer than the ones the
database holds (a higher `SEED_VERSION`, or the same version with different content). It
updates only `seed` rows: rows the user added or edited (`origin = 'user'`) survive, seed
rows the new files no longer have are removed. Bad seed files fail loudly with their row
and column.
"""

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from planner.store import Connection, doing, fetch_one, run, transaction
from pricing.csv_rows import read_rows
from pricing.errors import PricingError
from pricing.models import AssumptionQuote, BookRow, FxQuote, PriceQuote, ServerQuote
from pricing.rows import (
    ASSUMPTIONS,
    FX_RATES,
    PRICE_POINTS,
    SERVERS,
    SeedCounts,
    Table,
    reseed,
    row_values,
)

# Bump when a file in pricing/seeds/ changes, so existing databases pick the change up.
SEED_VERSION = 2
SEED_FILES: dict[str, tuple[Table, type[BookRow]]] = {
    "cloud_prices.csv": (PRICE_POINTS, PriceQuote),
    "servers.csv": (SERVERS, ServerQuote),
    "fx_rates.csv": (FX_RATES, FxQuote),
    "assumptions.csv": (ASSUMPTIONS, AssumptionQuote),
}


@dataclass(frozen=True, slots=True)
class SeedSet:
    """Validated seed rows by table, with the version and a digest of their content."""

    version: int
    rows: tuple[tuple[Table, tuple[BookRow, ...]], ...]

    @property
    def digest(self) -> str:
        text = repr([(t.name, [row_values(t, r) for r in rows]) for t, rows in self.rows])
        return hashlib.sha256(text.encode()).hexdigest()

    def count(self, table: Table) -> int:
        return sum(len(rows) for t, rows in self.rows if t == table)


@cache
def shipped_seeds() -> SeedSet:
    """The seed files in this package, validated (a bad file raises `PricingError`)."""
    folder = resources.files("pricing") / "seeds"
    tables = []
    for name, (table, model) in SEED_FILES.items():
        parsed = read_rows((folder / name).read_text(encoding="utf-8"), model)
        if parsed.errors:
            shown = "; ".join(str(error) for error in parsed.errors[:3])
            raise PricingError(f"Seed file pricing/seeds/{name} is invalid: {shown}.")
        tables.append((table, tuple(row for _, row in parsed.rows)))
    return SeedSet(SEED_VERSION, tuple(tables))


def ensure_seeded(con: Connection, seeds: SeedSet | None = None) -> SeedCounts | None:
    """Seed the price book if it never was or the seeds are newer; the counts, or None."""
    seeds = seeds or shipped_seeds()
    with doing("seed the price book", invalid=PricingError):
        last = fetch_one(
            con,
            "SELECT version, content_sha256 FROM price_book_seedings "
            "ORDER BY seeded_at DESC, version DESC LIMIT 1",
        )
        if last is not None and (last[0] > seeds.version or last == (seeds.version, seeds.digest)):
            return None
        with transaction(con):
            return _reseed_all(con, seeds)


def _reseed_all(con: Connection, seeds: SeedSet) -> SeedCounts:
    total = SeedCounts()
    for table, rows in seeds.rows:
        total += reseed(con, table, {r.key: row_values(table, r) for r in rows})
    run(
        con,
        "INSERT INTO price_book_seedings VALUES (?, ?, now(), ?, ?, ?, ?)",
        [seeds.version, seeds.digest, total.added, total.updated, total.removed, total.kept_user],
    )
    return total
