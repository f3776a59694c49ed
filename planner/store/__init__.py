"""The one owner of the planner's DuckDB file: connections, migrations, stored traces and
scenarios. Everything else reaches DuckDB through here, and every DuckDB error leaves as a
`PlannerError` that says what failed and what to do.
"""

from planner.store.db import (
    SCHEMA_PACKAGES,
    borrowed,
    connect,
    database_path,
    migrations,
    open_store,
    schema_version,
    transaction,
)
from planner.store.errors import database_error, storage_error
from planner.store.sql import (
    Connection,
    Row,
    count,
    doing,
    fetch_all,
    fetch_columns,
    fetch_frame,
    fetch_one,
    registered,
    run,
    translated,
)

__all__ = [
    "SCHEMA_PACKAGES",
    "Connection",
    "Row",
    "borrowed",
    "connect",
    "count",
    "database_error",
    "database_path",
    "doing",
    "fetch_all",
    "fetch_columns",
    "fetch_frame",
    "fetch_one",
    "migrations",
    "open_store",
    "registered",
    "run",
    "schema_version",
    "storage_error",
    "transaction",
    "translated",
]
