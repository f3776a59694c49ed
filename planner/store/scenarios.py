"""Saved scenarios in the planner database: named scenario YAML, the stored trace it runs
on, and the results of its last run with the key they were computed for.

The key is a hash of the YAML and the trace id (and, for a TCO scenario, of the price book),
so results left over from an earlier version of the scenario, or from before a price was
edited, are recognised as stale. Validating and running scenarios is
`planner.service.scenario_store`'s; this module only reads and writes rows. Every write is
one transaction on its own cursor, retried when a concurrent session's transaction
conflicts with it; a DuckDB error becomes a `StoreError` (a refused value a
`ScenarioError`) that names the scenario.
"""

import hashlib
import json
import time
import unicodedata
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import duckdb

from planner.core.errors import ScenarioError
from planner.store.sql import Connection, Row, doing, fetch_all, fetch_one, translated

Kind = Literal["replay", "tco"]
KINDS: tuple[Kind, ...] = ("replay", "tco")
MAX_NAME_CHARS = 80
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_RETRIES = 20
_COLUMNS = "name, kind, yaml_text, trace_id, created_at, updated_at, results_json, results_key"
# Everything a TCO run reads from the price book; table names are constants, never input.
_PRICE_TABLES = ("price_points", "server_prices", "fx_rates", "assumptions")


@dataclass(frozen=True, slots=True)
class SavedScenario:
    name: str
    kind: Kind
    yaml_text: str
    trace_id: str | None
    created_at: datetime
    updated_at: datetime
    results: dict[str, Any] | None
    results_key: str | None
    key: str
    """The key results of this YAML on this trace (and today's price book) would carry."""

    @property
    def state(self) -> Literal["none", "current", "stale"]:
        """Whether results are stored, and whether they still fit the scenario."""
        if self.results is None:
            return "none"
        return "stale" if self.is_stale else "current"

    @property
    def is_stale(self) -> bool:
        """Results are stored, but for another version of the YAML, another trace, or (a TCO
        scenario) another state of the price book."""
        return self.results is not None and self.results_key != self.key


@dataclass(frozen=True, slots=True)
class Prepared:
    """YAML ready to save: validated, its trace resolved to a stored trace id."""

    kind: Kind
    yaml_text: str
    trace_id: str | None


def results_key(yaml_text: str, trace_id: str | None, prices: str = "") -> str:
    text = f"{yaml_text}\0{trace_id or ''}\0{prices}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def price_book_key(con: Connection) -> str:
    """A hash of everything a TCO run reads from the price book: prices, servers, FX rates
    and assumptions. Any edit, import or re-seed changes it."""
    digest = hashlib.sha256()
    for table in _PRICE_TABLES:
        rows = fetch_all(con, f"SELECT * FROM {table} ORDER BY ALL")
        digest.update(f"{table}\0{rows!r}\0".encode())
    return digest.hexdigest()[:32]


def check_name(name: str) -> str:
    """The name without surrounding blanks; non-empty, at most 80 characters and on one line
    (no control characters: a terminal escape in `planner scenarios list` could rewrite the
    screen)."""
    clean = name.strip()
    if not clean:
        raise ScenarioError("give the scenario a name")
    if len(clean) > MAX_NAME_CHARS:
        raise ScenarioError(f"the name has {len(clean)} characters; use at most {MAX_NAME_CHARS}")
    bad = control_character(clean)
    if bad is not None:
        raise ScenarioError(
            f"the name has a control character ({bad}: a line break, tab or terminal escape); "
            "use letters, digits, spaces and punctuation"
        )
    return clean


def control_character(text: str) -> str | None:
    """The first control, line-separator or bidirectional-override character of `text` as
    "U+001B", or None."""
    for char in text:
        if unicodedata.category(char) in {"Cc", "Zl", "Zp"} or char in _BIDI_CONTROLS:
            return f"U+{ord(char):04X}"
    return None


def save(
    con: Connection,
    name: str,
    prepared: Prepared,
    *,
    results: Mapping[str, Any] | None = None,
    replace: bool = False,
) -> SavedScenario:
    """Save under `name`; an existing name is replaced only with `replace=True`. Without
    `results`, a replaced scenario keeps its old results (then stale if the YAML changed)."""
    name = check_name(name)
    with doing(f"save the scenario '{name}'", invalid=ScenarioError):
        key = _key(con, prepared.kind, prepared.yaml_text, prepared.trace_id)
        payload = None if results is None else json.dumps(results, default=str)
        fields = [prepared.kind, prepared.yaml_text, prepared.trace_id]

        def write(cur: Connection) -> None:
            old = cur.execute("SELECT 1 FROM scenarios WHERE name = ?", [name]).fetchone()
            if old and not replace:
                raise ScenarioError(
                    f"a scenario named '{name}' exists already: choose another name or replace it"
                )
            if old:
                cur.execute(
                    "UPDATE scenarios SET kind = ?, yaml_text = ?, trace_id = ?, "
                    "updated_at = now(), results_json = coalesce(?, results_json), "
                    "results_key = CASE WHEN ? IS NULL THEN results_key ELSE ? END "
                    "WHERE name = ?",
                    [*fields, payload, payload, key, name],
                )
            else:
                cur.execute(
                    "INSERT INTO scenarios VALUES (?, ?, ?, ?, now(), now(), ?, ?)",
                    [name, *fields, payload, None if payload is None else key],
                )

        _write(con, write)
        return load(con, name)


def store_results(
    con: Connection, saved: SavedScenario, results: Mapping[str, Any]
) -> SavedScenario:
    """Record `results` as those of `saved`'s YAML on its trace."""

    def write(cur: Connection) -> None:
        cur.execute(
            "UPDATE scenarios SET results_json = ?, results_key = ? WHERE name = ?",
            [json.dumps(results, default=str), saved.key, saved.name],
        )

    with doing(f"store the results of the scenario '{saved.name}'"):
        _write(con, write)
        return load(con, saved.name)


def list_saved(con: Connection) -> list[SavedScenario]:
    """Every saved scenario, most recently updated first."""
    with doing("list the saved scenarios"):
        rows = fetch_all(con, f"SELECT {_COLUMNS} FROM scenarios ORDER BY updated_at DESC, name")
        prices = price_book_key(con) if any(row[1] == "tco" for row in rows) else ""
    return [_saved(row, prices) for row in rows]


def load(con: Connection, name: str) -> SavedScenario:
    with doing(f"read the scenario '{name}'"):
        row = fetch_one(con, f"SELECT {_COLUMNS} FROM scenarios WHERE name = ?", [name.strip()])
        if row is None:
            raise ScenarioError(
                f"no saved scenario named '{name}'; `planner scenarios list` shows them"
            )
        return _saved(row, price_book_key(con) if row[1] == "tco" else "")


def delete(con: Connection, name: str) -> None:
    load(con, name)  # a clear error for an unknown name

    def write(cur: Connection) -> None:
        cur.execute("DELETE FROM scenarios WHERE name = ?", [name.strip()])

    with doing(f"delete the scenario '{name}'"):
        _write(con, write)


def export_yaml(con: Connection, name: str) -> str:
    return load(con, name).yaml_text


def _key(con: Connection, kind: str, yaml_text: str, trace_id: str | None) -> str:
    prices = price_book_key(con) if kind == "tco" else ""  # a replay reads no prices
    return results_key(yaml_text, trace_id, prices)


def _write(con: Connection, body: Callable[[Connection], None]) -> None:
    """Run `body` in one transaction on its own cursor; a write-write conflict with another
    session's transaction is retried (DuckDB's optimistic concurrency aborts the later one),
    and raised as a `StoreError` when it keeps happening."""
    with translated(con):
        for attempt in range(_RETRIES):
            cur = con.cursor()
            try:
                _in_transaction(cur, body)
            except duckdb.TransactionException:
                if attempt == _RETRIES - 1:
                    raise
                time.sleep(0.01 * (attempt + 1))
            else:
                return
            finally:
                cur.close()


def _in_transaction(cur: Connection, body: Callable[[Connection], None]) -> None:
    cur.execute("BEGIN TRANSACTION")
    try:
        body(cur)
        cur.execute("COMMIT")
    except BaseException:
        with suppress(duckdb.Error):  # a failed commit has rolled back already
            cur.execute("ROLLBACK")
        raise


def _saved(row: Row, prices: str) -> SavedScenario:
    """A stored row; `prices` is the price book's key (TCO scenarios' results depend on it)."""
    name, kind, text, trace_id, created, updated, results, stored_key = row
    return SavedScenario(
        name,
        kind,
        text,
        trace_id,
        created,
        updated,
        json.loads(results) if results else None,
        stored_key,
        results_key(text, trace_id, prices if kind == "tco" else ""),
    )
