"""Writes to the price-book tables, keeping seed rows and the user's rows apart.

A row is `(key, origin, values...)`. Writing a user row marks it `user` only if its values
change, so re-importing an exported file does not freeze the seeds. Re-seeding inserts and
updates `seed` rows, deletes seed rows the new seeds no longer have, and never touches a key
the user owns. Callers hold the transaction; table and column names are constants here,
never user input.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Literal

import pandas as pd
from pydantic import BaseModel

from planner.store import Connection, fetch_all, fetch_one, registered, run

Value = str | int | float | date | None
Change = Literal["added", "updated", "unchanged"]

PRICE_COLUMNS = (
    "provider",
    "region",
    "instance_type",
    "gpu_model",
    "gpu_mem_gb",
    "gpu_form",
    "gpus_per_instance",
    "price_per_instance_hour",
    "price_per_gpu_hour",
    "currency",
    "pricing_model",
    "term_months",
    "upfront_fraction",
    "billing_granularity_s",
    "min_billing_s",
    "includes",
    "as_of",
    "source_url",
    "source_kind",
    "confidence",
    "notes",
)
SERVER_COLUMNS = (
    "gpu_model",
    "gpu_mem_gb",
    "gpu_form",
    "gpus_per_server",
    "price",
    "currency",
    "max_kw",
    "idle_kw",
    "load_kw",
    "as_of",
    "source",
    "confidence",
    "power_source",
    "power_confidence",
    "notes",
)
FX_COLUMNS = ("rate_date", "base", "quote", "rate", "source", "confidence", "notes")
ASSUMPTION_COLUMNS = (
    "set_name",
    "name",
    "value",
    "unit",
    "currency",
    "source",
    "confidence",
    "notes",
    "as_of",
)


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: tuple[str, ...]


PRICE_POINTS = Table("price_points", PRICE_COLUMNS)
SERVERS = Table("server_prices", SERVER_COLUMNS)
FX_RATES = Table("fx_rates", FX_COLUMNS)
ASSUMPTIONS = Table("assumptions", ASSUMPTION_COLUMNS)
TABLES = (PRICE_POINTS, SERVERS, FX_RATES, ASSUMPTIONS)


@dataclass(frozen=True, slots=True)
class SeedCounts:
    added: int = 0
    updated: int = 0
    removed: int = 0
    kept_user: int = 0

    def __add__(self, other: "SeedCounts") -> "SeedCounts":
        return SeedCounts(
            self.added + other.added,
            self.updated + other.updated,
            self.removed + other.removed,
            self.kept_user + other.kept_user,
        )


# DECIMAL columns, read back as DOUBLE so callers see plain floats.
_DECIMALS = frozenset({"price_per_instance_hour", "price_per_gpu_hour", "price"})


def select_list(table: Table) -> str:
    """`key, origin` and the table's columns, for a SELECT."""
    columns = [f"CAST({c} AS DOUBLE) AS {c}" if c in _DECIMALS else c for c in table.columns]
    return ", ".join(["key", "origin", *columns])


def row_values(table: Table, row: BaseModel) -> tuple[Value, ...]:
    """The row's values in the table's column order."""
    return tuple(getattr(row, column) for column in table.columns)


def stored(con: Connection, table: Table) -> dict[str, tuple[str, tuple[Value, ...]]]:
    """key -> (origin, values) of every row, with DECIMALs as floats."""
    rows = fetch_all(con, f"SELECT key, origin, {', '.join(table.columns)} FROM {table.name}")
    return {key: (origin, _plain(values)) for key, origin, *values in rows}


def write_user_row(con: Connection, table: Table, key: str, values: tuple[Value, ...]) -> Change:
    """Insert or update one row as the user's; a row whose values are unchanged stays as is."""
    found = fetch_one(
        con, f"SELECT {', '.join(table.columns)} FROM {table.name} WHERE key = ?", [key]
    )
    if found is not None and _plain(found) == _plain(values):
        return "unchanged"
    _insert(con, table, "user", [(key, values)])
    return "added" if found is None else "updated"


def write_user_rows(
    con: Connection, table: Table, rows: Sequence[tuple[str, tuple[Value, ...]]]
) -> list[Change]:
    """`write_user_row` for many rows (unique keys) in two statements, whatever their number:
    one reads the rows already stored under these keys, one writes those that change."""
    keys = [key for key, _ in rows]
    found = fetch_all(
        con,
        f"SELECT key, {', '.join(table.columns)} FROM {table.name} "
        "WHERE key IN (SELECT unnest(?::VARCHAR[]))",
        [keys],
    )
    current = {key: _plain(values) for key, *values in found}
    changes: list[Change] = []
    changed = []
    for key, values in rows:
        before = current.get(key)
        if before is not None and before == _plain(values):
            changes.append("unchanged")
            continue
        changes.append("added" if before is None else "updated")
        changed.append((key, values))
    _insert(con, table, "user", changed)
    return changes


def reseed(con: Connection, table: Table, rows: Mapping[str, tuple[Value, ...]]) -> SeedCounts:
    """Make the table's seed rows equal `rows`, except keys the user owns."""
    current = stored(con, table)
    user_keys = {key for key, (origin, _) in current.items() if origin == "user"}
    changed = [
        (key, values)
        for key, values in rows.items()
        if key not in user_keys and (key not in current or current[key][1] != _plain(values))
    ]
    obsolete = [key for key, (origin, _) in current.items() if origin == "seed" and key not in rows]
    for key in obsolete:
        run(con, f"DELETE FROM {table.name} WHERE key = ?", [key])
    _insert(con, table, "seed", changed)
    added = sum(1 for key, _ in changed if key not in current)
    return SeedCounts(
        added=added,
        updated=len(changed) - added,
        removed=len(obsolete),
        kept_user=len(user_keys & rows.keys()),
    )


def _insert(
    con: Connection,
    table: Table,
    origin: str,
    rows: Iterable[tuple[str, tuple[Value, ...]]],
) -> None:
    """One statement for all rows, reading them as a DataFrame: a statement per row (or
    executemany) costs ~20 ms a row, a VALUES list with a parameter per cell ~1 ms."""
    records = [(key, origin, *values) for key, values in rows]
    if not records:
        return
    columns = ["key", "origin", *table.columns]
    # object columns keep None as NULL and ints as ints; the INSERT casts to the table's types
    frame = pd.DataFrame.from_records(records, columns=columns).astype(object)
    with registered(con, "incoming_rows", frame):
        run(
            con,
            f"INSERT OR REPLACE INTO {table.name} ({', '.join(columns)}, updated_at) "
            f"SELECT {', '.join(columns)}, now() FROM incoming_rows",
        )


def _plain(values: Iterable[object]) -> tuple[Value, ...]:
    return tuple(_plain_value(value) for value in values)


def _plain_value(value: object) -> Value:
    if isinstance(value, Decimal):
        return float(value)
    if value is None or isinstance(value, str | int | float | date):
        return value
    raise TypeError(f"unexpected value in the price book: {value!r}")
