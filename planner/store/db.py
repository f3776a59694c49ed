"""The one owner of the planner's DuckDB file: where it is, connections and migrations.

Every table is created by numbered SQL files, applied in order, each in its own transaction,
and recorded in `schema_migrations`: the planner's (traces, clusters, ...) in
`planner/migrations/`, the price book's in `pricing/migrations/`. Each package numbers its
own files, so work on one never collides with the other. Other modules borrow connections
from here; nothing else opens the file.
"""

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import duckdb

from planner.core.errors import PlannerError, StoreError
from planner.store.errors import DEFAULT_MEMORY_LIMIT, MEMORY_ENV, first_line, storage_error
from planner.store.sql import Connection, count, doing, translated

DEFAULT_DB = Path(__file__).resolve().parents[2] / "data" / "planner.duckdb"
DB_ENV = "PLANNER_DB"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
# Packages whose `<package>.migrations` holds NNN_*.sql files, applied in this order. Named,
# not imported: the store stays below `pricing` in the layers.
SCHEMA_PACKAGES = ("planner", "pricing")
# Where each package keeps its NNN_*.sql files; the package name is what schema_migrations records.
_MIGRATION_HOME = {"planner": "planner.store.migrations", "pricing": "pricing.migrations"}


def database_path(explicit: str | Path | None = None) -> Path:
    """`--db` if given, else $PLANNER_DB, else data/planner.duckdb in the checkout."""
    if explicit:
        return Path(explicit)
    env = os.environ.get(DB_ENV)
    return Path(env) if env else DEFAULT_DB


def migrations(package: str = "planner") -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration of `package`, in order."""
    found = []
    for entry in resources.files(_MIGRATION_HOME[package]).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def open_store(path: Path) -> Connection:
    """Open (creating if needed) the database at `path` and apply pending migrations.

    Only the default database's folder is created: a --db or $PLANNER_DB in a folder that
    does not exist is a typo, not a place to make folders.
    """
    if path == DEFAULT_DB:
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not path.parent.is_dir():
        raise StoreError(
            f"Cannot open the planner database {path}: the folder {path.parent} does not "
            "exist; create it or correct the path (--db or $PLANNER_DB)"
        )
    try:
        memory = os.environ.get(MEMORY_ENV, DEFAULT_MEMORY_LIMIT)
        con = duckdb.connect(str(path), config={"memory_limit": memory})
    except duckdb.Error as err:
        raise storage_error(err, path) or StoreError(
            f"Cannot open the planner database {path}: {first_line(err)}"
        ) from err
    try:
        with doing(f"prepare the planner database {path}"):
            _apply_migrations(con)
    except duckdb.Error as err:
        con.close()
        raise storage_error(err, path) or StoreError(
            f"Cannot prepare the planner database {path}: {first_line(err)}"
        ) from err
    except PlannerError:
        con.close()
        raise
    return con


def schema_version(con: Connection, package: str = "planner") -> int:
    sql = "SELECT coalesce(max(version), 0) FROM schema_migrations WHERE package = ?"
    return count(con, sql, [package])


def _apply_migrations(con: Connection) -> None:
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (package VARCHAR NOT NULL, "
        "version INTEGER NOT NULL, name VARCHAR NOT NULL, applied_at TIMESTAMP, "
        "PRIMARY KEY (package, version))"
    )
    _add_package_column(con)
    for package in SCHEMA_PACKAGES:
        current = schema_version(con, package)
        for version, name, sql in migrations(package):
            if version <= current:
                continue
            with transaction(con):
                con.execute(sql)
                con.execute(
                    "INSERT INTO schema_migrations VALUES (?, ?, ?, now())",
                    [package, version, name],
                )


def _add_package_column(con: Connection) -> None:
    """Databases made before per-package migrations logged only the planner's versions."""
    columns = con.execute(
        "SELECT column_name FROM duckdb_columns() "
        "WHERE table_name = 'schema_migrations' AND database_name = current_database()"
    ).fetchall()
    if ("package",) in columns:
        return
    with transaction(con):
        con.execute("ALTER TABLE schema_migrations RENAME TO schema_migrations_v1")
        con.execute(
            "CREATE TABLE schema_migrations (package VARCHAR NOT NULL, version INTEGER NOT NULL,"
            " name VARCHAR NOT NULL, applied_at TIMESTAMP, PRIMARY KEY (package, version))"
        )
        con.execute(
            "INSERT INTO schema_migrations "
            "SELECT 'planner', version, name, applied_at FROM schema_migrations_v1"
        )
        con.execute("DROP TABLE schema_migrations_v1")


@contextmanager
def transaction(con: Connection) -> Iterator[Connection]:
    """All or nothing: commit on success, roll back on any exception. A DuckDB error inside
    (a failed commit too) is raised as the `PlannerError` of the step in progress (see
    `planner.store.sql.doing`)."""
    with translated(con):
        con.execute("BEGIN TRANSACTION")
        try:
            yield con
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")


@contextmanager
def borrowed(con: Connection, path: Path) -> Iterator[Connection]:
    """A cursor of the shared connection `con` (to the database at `path`) for one caller,
    closed afterwards; a storage problem met meanwhile becomes a one-line `StoreError`."""
    with translated(con):
        cur = con.cursor()
    try:
        with _storage_problems(path):
            yield cur
    finally:
        cur.close()


@contextmanager
def connect(path: Path) -> Iterator[Connection]:
    """A migrated connection for one command, closed afterwards; a storage problem met on
    the way (a corrupt block, a full disk) becomes a one-line `StoreError`."""
    con = open_store(path)
    try:
        with _storage_problems(path):
            yield con
    finally:
        con.close()


@contextmanager
def _storage_problems(path: Path) -> Iterator[None]:
    """A DuckDB error that is the file's or the disk's fault, as its `StoreError`; any other
    passes unchanged (a caller's own SQL error is not a storage problem)."""
    try:
        yield
    except duckdb.Error as err:
        problem = storage_error(err, path)
        if problem is None:
            raise
        raise problem from err
