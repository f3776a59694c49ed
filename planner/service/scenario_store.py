"""Saved scenarios: named replay or TCO scenario YAML in the planner database, with the
results of their last run, and the one way to run them (the CLI's and the pages').

A saved scenario is its YAML exactly as it is downloaded, the stored trace it runs on (its
`trace:` is that trace's id, so the exported file runs on the command line against the same
database), and the results of its last run (`planner replay --json`'s summary or `planner tco
--json`'s report) with the key they were computed for: a hash of the YAML and the trace id
(and, for a TCO scenario, of the price book), so results left over from an earlier version of
the scenario, or from before a price was edited, are recognised as stale.
Nothing here knows about Streamlit; every write is one transaction, retried when a
concurrent session's transaction conflicts with it.
"""

import contextlib
import hashlib
import json
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import duckdb
import yaml
from pydantic import ValidationError

from planner.core.errors import ScenarioError, StoreError
from planner.core.file_access import FileAccess
from planner.cost.scenario import TcoScenario
from planner.engine.metrics import summarize
from planner.engine.scenario import Scenario
from planner.service.replay import resolve_trace, run_scenario, validation_text, with_files
from planner.service.tco_files import tco_scenario_from_text
from planner.service.tco_run import run_tco
from planner.store import transaction

Kind = Literal["replay", "tco"]
KINDS: tuple[Kind, ...] = ("replay", "tco")
MAX_NAME_CHARS = 80
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
MAX_YAML_BYTES = 256 * 1024
_RETRIES = 20
_COLUMNS = "name, kind, yaml_text, trace_id, created_at, updated_at, results_json, results_key"
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


def price_book_key(con: duckdb.DuckDBPyConnection) -> str:
    """A hash of everything a TCO run reads from the price book: prices, servers, FX rates
    and assumptions. Any edit, import or re-seed changes it."""
    digest = hashlib.sha256()
    for table in _PRICE_TABLES:
        rows = con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
        digest.update(f"{table}\0{rows!r}\0".encode())
    return digest.hexdigest()[:32]


def _key(con: duckdb.DuckDBPyConnection, kind: str, yaml_text: str, trace_id: str | None) -> str:
    prices = price_book_key(con) if kind == "tco" else ""  # a replay reads no prices
    return results_key(yaml_text, trace_id, prices)


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


def kind_of(data: Mapping[str, Any]) -> Kind:
    """'tco' for files with `self_hosted:` or `cloud:`, else 'replay'."""
    return "tco" if "self_hosted" in data or "cloud" in data else "replay"


def parse(yaml_text: str, source: str, files: FileAccess) -> Scenario | TcoScenario:
    """The scenario the YAML describes, validated as its kind, its file references checked
    against `files` (local ones looked up under `files.base`, the file's folder)."""
    data = _mapping(yaml_text, source)
    if kind_of(data) == "tco":
        return tco_scenario_from_text(yaml_text, source, files)
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(f"{source}: {validation_text(err)}") from err
    return with_files(scenario, files)


def prepare(
    con: duckdb.DuckDBPyConnection, yaml_text: str, source: str, files: FileAccess
) -> Prepared:
    """Validate YAML for saving and make it self-contained in this database: a trace file is
    imported and `trace:` becomes its stored id; a relative local node list becomes
    absolute (the app's stay as written, relative to the bundled scenarios)."""
    if len(yaml_text.encode()) > MAX_YAML_BYTES:
        raise ScenarioError(f"{source} is larger than {MAX_YAML_BYTES // 1024} KiB")
    data = dict(_mapping(yaml_text, source))
    scenario = parse(yaml_text, source, files)
    trace_id = resolve_trace(con, scenario.trace, files=files) if scenario.trace else None
    if trace_id is not None:
        data["trace"] = trace_id
    if isinstance(scenario, Scenario) and scenario.cluster and scenario.cluster.node_list:
        data["cluster"] = {**data["cluster"], "node_list": scenario.cluster.node_list}
    header = "".join(line + "\n" for line in _header(yaml_text))
    return Prepared(kind_of(data), header + _dump(data), trace_id)


def to_yaml(model: Scenario | TcoScenario, trace_id: str | None = None) -> str:
    """A scenario built in code as the YAML a user would write (defaults left out)."""
    data = model.model_dump(mode="json", exclude_defaults=True)
    if trace_id is not None:
        data["trace"] = trace_id
    return _dump(data)


def save(
    con: duckdb.DuckDBPyConnection,
    name: str,
    prepared: Prepared,
    *,
    results: Mapping[str, Any] | None = None,
    replace: bool = False,
) -> SavedScenario:
    """Save under `name`; an existing name is replaced only with `replace=True`. Without
    `results`, a replaced scenario keeps its old results (then stale if the YAML changed)."""
    name = check_name(name)
    key = _key(con, prepared.kind, prepared.yaml_text, prepared.trace_id)
    payload = None if results is None else json.dumps(results, default=str)

    def write(cur: duckdb.DuckDBPyConnection) -> None:
        old = cur.execute("SELECT 1 FROM scenarios WHERE name = ?", [name]).fetchone()
        if old and not replace:
            raise ScenarioError(
                f"a scenario named '{name}' exists already: choose another name or replace it"
            )
        if old:
            cur.execute(
                "UPDATE scenarios SET kind = ?, yaml_text = ?, trace_id = ?, updated_at = now(), "
                "results_json = coalesce(?, results_json), "
                "results_key = CASE WHEN ? IS NULL THEN results_key ELSE ? END WHERE name = ?",
                [prepared.kind, prepared.yaml_text, prepared.trace_id, payload, payload, key, name],
            )
        else:
            cur.execute(
                "INSERT INTO scenarios VALUES (?, ?, ?, ?, now(), now(), ?, ?)",
                [
                    name,
                    prepared.kind,
                    prepared.yaml_text,
                    prepared.trace_id,
                    payload,
                    None if payload is None else key,
                ],
            )

    _write(con, write)
    return load(con, name)


def store_results(
    con: duckdb.DuckDBPyConnection, saved: SavedScenario, results: Mapping[str, Any]
) -> SavedScenario:
    """Record `results` as those of `saved`'s YAML on its trace."""

    def write(cur: duckdb.DuckDBPyConnection) -> None:
        cur.execute(
            "UPDATE scenarios SET results_json = ?, results_key = ? WHERE name = ?",
            [json.dumps(results, default=str), saved.key, saved.name],
        )

    _write(con, write)
    return load(con, saved.name)


def list_saved(con: duckdb.DuckDBPyConnection) -> list[SavedScenario]:
    """Every saved scenario, most recently updated first."""
    rows = con.execute(
        f"SELECT {_COLUMNS} FROM scenarios ORDER BY updated_at DESC, name"
    ).fetchall()
    prices = price_book_key(con) if any(row[1] == "tco" for row in rows) else ""
    return [_saved(row, prices) for row in rows]


def load(con: duckdb.DuckDBPyConnection, name: str) -> SavedScenario:
    row = con.execute(f"SELECT {_COLUMNS} FROM scenarios WHERE name = ?", [name.strip()]).fetchone()
    if row is None:
        raise ScenarioError(
            f"no saved scenario named '{name}'; `planner scenarios list` shows them"
        )
    return _saved(row, price_book_key(con) if row[1] == "tco" else "")


def delete(con: duckdb.DuckDBPyConnection, name: str) -> None:
    load(con, name)  # a clear error for an unknown name

    def write(cur: duckdb.DuckDBPyConnection) -> None:
        cur.execute("DELETE FROM scenarios WHERE name = ?", [name.strip()])

    _write(con, write)


def export_yaml(con: duckdb.DuckDBPyConnection, name: str) -> str:
    return load(con, name).yaml_text


def run_saved(
    con: duckdb.DuckDBPyConnection, saved: SavedScenario, *, files: FileAccess
) -> dict[str, Any]:
    """What `planner replay --scenario FILE --json` (a replay scenario) or `planner tco
    --scenario FILE --json` (a TCO scenario) prints for the exported file."""
    return run_yaml(con, saved.yaml_text, saved.name, files=files)


def run_yaml(
    con: duckdb.DuckDBPyConnection, yaml_text: str, source: str, *, files: FileAccess
) -> dict[str, Any]:
    """Run prepared YAML (see `prepare`) as `run_saved` runs a saved scenario."""
    scenario = parse(yaml_text, source, files)
    if isinstance(scenario, TcoScenario):
        return run_tco(con, scenario, files=files)
    run = run_scenario(con, scenario, files=files)
    return {"trace_id": run.trace_id, "cluster": run.cluster_name, **summarize(run.result)}


def run_and_store(con: duckdb.DuckDBPyConnection, name: str, *, files: FileAccess) -> SavedScenario:
    saved = load(con, name)
    return store_results(con, saved, run_saved(con, saved, files=files))


# --- helpers -----------------------------------------------------------------------------------


def _write(
    con: duckdb.DuckDBPyConnection, body: Callable[[duckdb.DuckDBPyConnection], None]
) -> None:
    """Run `body` in one transaction on its own cursor; a write-write conflict with another
    session's transaction is retried (DuckDB's optimistic concurrency aborts the later one)."""
    for attempt in range(_RETRIES):
        cur = con.cursor()
        try:
            with transaction(cur):
                body(cur)
        except duckdb.TransactionException as err:
            with contextlib.suppress(duckdb.Error):  # a failed commit has rolled back already
                cur.execute("ROLLBACK")
            if attempt == _RETRIES - 1:
                raise StoreError(f"the database is busy; try again ({err})") from err
            time.sleep(0.01 * (attempt + 1))
        except duckdb.ConstraintException as err:
            raise ScenarioError(f"cannot save the scenario: {err}") from err
        else:
            return
        finally:
            cur.close()


def _saved(row: tuple[Any, ...], prices: str) -> SavedScenario:
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


def _mapping(yaml_text: str, source: str) -> dict[str, Any]:
    try:
        data = yaml.safe_load(yaml_text) or {}
    except yaml.YAMLError as err:
        raise ScenarioError(f"{source}: cannot read the scenario: {err}") from err
    if not isinstance(data, dict):
        raise ScenarioError(f"{source}: a scenario file is a mapping (name:, trace:, ...)")
    return data


def _header(yaml_text: str) -> list[str]:
    """The comment lines the file starts with (kept on the saved copy)."""
    lines = []
    for line in yaml_text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return lines


def _dump(data: Mapping[str, Any]) -> str:
    return yaml.safe_dump(
        dict(data), sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )
