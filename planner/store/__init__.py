"""The one owner of the planner's DuckDB file: connections, migrations, stored traces and
scenarios. Everything else reaches DuckDB through here."""

from planner.store.db import (
    SCHEMA_PACKAGES,
    connect,
    database_path,
    migrations,
    open_store,
    schema_version,
    storage_error,
    transaction,
)

__all__ = [
    "SCHEMA_PACKAGES",
    "connect",
    "database_path",
    "migrations",
    "open_store",
    "schema_version",
    "storage_error",
    "transaction",
]
