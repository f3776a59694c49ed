"""SQL on a borrowed connection, for code outside the store (the price book, the pages).

Each helper runs one statement, consumes its result, and turns a DuckDB error into a
`PlannerError` (see `planner.store.errors`) that names the step in progress: a caller
states it once with `doing("add the price", invalid=PricingError)` around its work, and
every statement inside reports failures as "Cannot add the price: ...". `Connection` is the
name other layers use for a connection, so none of them imports duckdb.
"""

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import duckdb

from planner.core.errors import StoreError
from planner.store.errors import Failure, database_error

if TYPE_CHECKING:
    # for annotations only: reading a trace's jobs back needs neither (about 55 MiB of imports)
    import numpy as np
    import pandas as pd

Connection: TypeAlias = duckdb.DuckDBPyConnection
Params: TypeAlias = Sequence[object] | Mapping[str, object] | None
Row: TypeAlias = tuple[Any, ...]
Columns: TypeAlias = "dict[str, np.ndarray | pd.Categorical]"

# The step in progress and the error for data the schema refuses. A context variable, not
# a global: each Streamlit session runs in its own thread, with its own step.
_STEP: ContextVar[tuple[str, Failure]] = ContextVar(
    "planner_store_step", default=("use the planner database", StoreError)
)


@contextmanager
def doing(action: str, *, invalid: Failure = StoreError) -> Iterator[None]:
    """Name the step in progress ("import the price file") for the errors of its statements;
    `invalid` makes the error for a value the schema refuses. The innermost step wins."""
    token = _STEP.set((action, invalid))
    try:
        yield
    finally:
        _STEP.reset(token)


@contextmanager
def translated(con: Connection) -> Iterator[None]:
    """Raise a DuckDB error met inside as the `PlannerError` of the step in progress."""
    try:
        yield
    except duckdb.Error as err:
        action, invalid = _STEP.get()
        raise database_error(err, database_file(con), action, invalid) from err


def database_file(con: Connection) -> Path | None:
    """The file `con` is attached to; None in memory, or when the connection cannot say."""
    try:
        with con.cursor() as cur:
            row = cur.execute(
                "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
            ).fetchone()
    except duckdb.Error:
        return None  # closed or broken: the error being reported says so
    return Path(row[0]) if row and row[0] else None


def fetch_all(con: Connection, sql: str, params: Params = None) -> list[Row]:
    with translated(con):
        return con.execute(sql, params).fetchall()


def fetch_one(con: Connection, sql: str, params: Params = None) -> Row | None:
    with translated(con):
        row = con.execute(sql, params).fetchone()
    return None if row is None else tuple(row)


def fetch_frame(con: Connection, sql: str, params: Params = None) -> "pd.DataFrame":
    with translated(con):
        return con.execute(sql, params).df()


def fetch_columns(con: Connection, sql: str, params: Params = None) -> Columns:
    """The result as one NumPy array per column (cheap for millions of rows)."""
    with translated(con):
        return con.execute(sql, params).fetchnumpy()


def count(con: Connection, sql: str, params: Params = None) -> int:
    """The first column of the first row as an int; 0 when there is no row."""
    row = fetch_one(con, sql, params)
    return int(row[0]) if row and row[0] is not None else 0


def run(con: Connection, sql: str, params: Params = None) -> None:
    """A statement whose result is not needed (it is consumed, so the connection is free)."""
    with translated(con):
        con.execute(sql, params).fetchall()


def append_frame(con: Connection, table: str, frame: "pd.DataFrame") -> None:
    """Append `frame`'s rows to `table`, column by column in order.

    Not through `registered`: a view registered inside a transaction keeps its frame alive
    until the commit (DuckDB 2.0.1), so an import streaming chunk after chunk into one
    transaction held every chunk it had read (about 0.1 KiB per row, 1 GiB per 10M rows).
    """
    if frame.empty:
        return
    with translated(con):
        con.from_df(frame).insert_into(table)


@contextmanager
def registered(con: Connection, name: str, frame: "pd.DataFrame") -> Iterator[None]:
    """`frame` readable in SQL as the view `name` while the block runs."""
    with translated(con):
        # DuckDB refuses to register a frame while a caller's result is half read
        con.complete()
        con.register(name, frame)
    try:
        yield
    finally:
        # after a failed statement the transaction is aborted and unregister fails too;
        # that statement's error is the one to report (the next register replaces it)
        with suppress(duckdb.Error):
            con.unregister(name)
