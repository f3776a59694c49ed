"""The one owner of the planner's DuckDB file: where it is, connections and migrations.

Sharing the file between the app and the CLI. DuckDB lets one process at a time open a file
read-write (its threads share it), or several processes open it read-only, never both; a
process that finds the file taken is refused at once. So no planner process keeps the file
open: each CLI command opens it for its own run, and the app (`planner.store.shared`) opens
it when a page needs it and closes it 0.3 s after the last page let go. A process that finds
it taken waits with a growing pause (50 ms doubling to 0.5 s, `planner.store.waiting`) for
at most its patience ($PLANNER_DB_WAIT seconds; the CLI 120 by default, the app 300, which
shows "busy, retrying" meanwhile), then names the process holding it. A waiter leaves a
marker beside the file (`<file>.wait-<pid>`) and the app, seeing it, closes the file as soon
as its pages are done and holds its own pages back until the waiter is served, so sessions
that never pause cannot starve a command. Every write is one transaction, so whichever side
waits, it writes all of its change or none, and a process killed mid-import leaves nothing
half-written (DuckDB replays only committed transactions from its write-ahead log). Read-only
connections were tried (DuckDB 2.0.1) and not chosen: a reader's shared lock blocks the
writer just as a writer's does, and DuckDB refuses a read-only and a read-write connection
to one file in one process, which the app needs (pages read and write).

A file this user cannot write (a read-only file or folder, a read-only mount) is opened
read-only for a command that only reads (`connect(path, writes=False)`), provided its schema
is current: migrating would write. A command that writes is refused at once, naming the file,
before it does any work. The choice is made here, from what the command says it does.

Every table is created by numbered SQL files, applied in order, each in its own transaction,
and recorded in `schema_migrations`: the planner's (traces, clusters, ...) in
`planner/store/migrations/`, the price book's in `pricing/migrations/`. Each package numbers
its own files, so work on one never collides with the other. Other modules borrow
connections from here; nothing else opens the file.
"""

import fcntl
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import cache
from importlib.util import find_spec
from pathlib import Path

import duckdb

from planner.core.errors import PlannerError, StoreError
from planner.store.errors import (
    DEFAULT_MEMORY_LIMIT,
    MEMORY_ENV,
    first_line,
    is_lock_error,
    storage_error,
)
from planner.store.sql import Connection, count, doing, translated
from planner.store.waiting import NO_WAIT, Patience, until_free

DEFAULT_DB = Path(__file__).resolve().parents[2] / "data" / "planner.duckdb"
DB_ENV = "PLANNER_DB"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
# Packages whose NNN_*.sql files are applied, in this order (found via `_MIGRATION_HOME`). Named,
# not imported: the store stays below `pricing` in the layers.
SCHEMA_PACKAGES = ("planner", "pricing")
# Where each package keeps its NNN_*.sql files; the package name is what schema_migrations records.
_MIGRATION_HOME = {"planner": "planner.store.migrations", "pricing": "pricing.migrations"}
# Two sessions of the app opening a fresh file at once must not both apply its migrations.
_MIGRATING = threading.Lock()


def database_path(explicit: str | Path | None = None) -> Path:
    """`--db` if given, else $PLANNER_DB, else data/planner.duckdb in the checkout."""
    if explicit:
        return Path(explicit)
    env = os.environ.get(DB_ENV)
    return Path(env) if env else DEFAULT_DB


@cache
def migrations(package: str = "planner") -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration of `package`, in order."""
    found = []
    for entry in _migration_folder(package).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def _migration_folder(package: str) -> Path:
    """The folder of `package`'s migrations, found without running the package's `__init__`:
    `pricing`'s imports pandas and pyarrow (70 MiB), which reading a trace back never needs."""
    top, *inside = _MIGRATION_HOME[package].split(".")
    spec = find_spec(top)  # a top-level package is found, not imported
    if spec is None or not spec.submodule_search_locations:
        raise StoreError(f"the {package} migrations are missing: reinstall the planner")
    return Path(next(iter(spec.submodule_search_locations)), *inside)


def open_store(path: Path, wait: Patience = NO_WAIT) -> Connection:
    """Open (creating if needed) the database at `path` and apply pending migrations,
    waiting up to `wait.seconds` while another process holds the file."""
    return until_free(lambda: open_once(path), path, wait)


def open_once(path: Path) -> Connection:
    """One try at `open_store`: DuckDB's lock error passes unchanged (for `until_free` to
    try again), any other problem is a `StoreError`.

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
    con = _opened(path)
    with _closed_on_failure(con, path, "prepare"), doing(f"prepare the planner database {path}"):
        _migrate(con)
    return con


@contextmanager
def _closed_on_failure(con: Connection, path: Path, verb: str) -> Iterator[None]:
    """Close `con` if the block fails: DuckDB's error becomes a `StoreError` saying what could
    not be done to `path` ("Cannot {verb} the planner database ..."); ours pass unchanged."""
    try:
        yield
    except duckdb.Error as err:
        con.close()
        raise storage_error(err, path) or StoreError(
            f"Cannot {verb} the planner database {path}: {first_line(err)}"
        ) from err
    except PlannerError:
        con.close()
        raise


def _opened(path: Path, *, read_only: bool = False) -> Connection:
    """DuckDB's connection to `path` within the planner's memory limit; DuckDB's lock error
    passes unchanged (for `until_free`), any other problem is a `StoreError`."""
    try:
        memory = os.environ.get(MEMORY_ENV, DEFAULT_MEMORY_LIMIT)
        return duckdb.connect(str(path), read_only=read_only, config={"memory_limit": memory})
    except duckdb.Error as err:
        if is_lock_error(err):
            raise
        raise storage_error(err, path) or StoreError(
            f"Cannot open the planner database {path}: {first_line(err)}"
        ) from err


def is_writable(path: Path) -> bool:
    """Whether this user may write `path` and its folder (DuckDB writes a `.wal` beside the
    file); a file not made yet counts as writable (opening it says why it cannot be made)."""
    if not path.exists():
        return True
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def read_only_error(path: Path) -> StoreError:
    """A command that writes, refused before it starts, naming what cannot be written."""
    what = "the file" if not os.access(path, os.W_OK) else f"its folder {path.parent}"
    return StoreError(
        f"The planner database {path} is read-only: this user cannot write {what}, and this "
        "command saves to it; make the file and its folder writable, or pass --db with a "
        "file in a writable folder"
    )


def open_read_only(path: Path) -> Connection:
    """`path` opened read-only, for a command that only reads a file it cannot write; a file
    whose schema is behind this planner's is refused (migrating would write). DuckDB's lock
    error passes unchanged, as in `open_once`."""
    con = _opened(path, read_only=True)
    with _closed_on_failure(con, path, "read"):
        behind = _pending(con)
    if behind:
        con.close()
        raise StoreError(
            f"The planner database {path} needs migrating to this version of the planner but "
            "is read-only for this user; make the file and its folder writable and run any "
            "planner command once (it migrates the file), or pass --db with a writable copy"
        )
    return con


def _migrate(con: Connection) -> None:
    if _pending(con):
        with _MIGRATING:
            if _pending(con):
                _apply_migrations(con)


def schema_version(con: Connection, package: str = "planner") -> int:
    sql = "SELECT coalesce(max(version), 0) FROM schema_migrations WHERE package = ?"
    return count(con, sql, [package])


def _pending(con: Connection) -> bool:
    """Whether some migration is not applied yet (a read: opening an up-to-date file, the
    common case, writes nothing and costs one query)."""
    try:
        rows = con.execute(
            "SELECT package, max(version) FROM schema_migrations GROUP BY package"
        ).fetchall()
    except (duckdb.CatalogException, duckdb.BinderException):
        return True  # a new file, or one from before per-package migrations
    applied = {str(package): int(version) for package, version in rows}
    return any(applied.get(package, 0) < migrations(package)[-1][0] for package in SCHEMA_PACKAGES)


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
def connect(path: Path, wait: Patience = NO_WAIT, *, writes: bool = True) -> Iterator[Connection]:
    """A migrated connection for one command, closed afterwards (so the file is free for
    the app again); a storage problem met on the way (a corrupt block, a full disk) becomes
    a one-line `StoreError`. `wait`: how long to wait while another process holds the file.

    A file this user cannot write is opened read-only when the command does not write
    (`writes=False`; a write it tries anyway fails, naming the file), and refused with a
    `StoreError` when it does."""
    if is_writable(path):
        con = open_store(path, wait)
    elif writes:
        raise read_only_error(path)
    else:
        con = until_free(lambda: open_read_only(path), path, wait)
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


def reset_store(path: Path, now: datetime | None = None) -> Path:
    """Move a damaged database (and its write-ahead log) aside to `<name>.broken-<time>`
    and make an empty one in its place; where the old file went. Nothing is deleted."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.broken-{stamp}")
    if not path.exists():
        raise StoreError(f"There is no planner database at {path} to move aside")
    if aside.exists():
        raise StoreError(f"{aside} exists already; move it away and run the reset again")
    _refuse_if_held(path)
    wal = path.with_name(path.name + ".wal")
    try:
        path.rename(aside)
        if wal.exists():
            wal.rename(aside.with_name(aside.name + ".wal"))
    except OSError as err:
        raise StoreError(f"Cannot move {path} aside to {aside}: {err.strerror}") from err
    open_store(path).close()
    return aside


def _refuse_if_held(path: Path) -> None:
    """A file another process has open (DuckDB holds a POSIX lock on it) is not moved."""
    try:
        with path.open("rb+") as file:
            fcntl.lockf(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise StoreError(
            f"The planner database {path} is in use by another process; close the app and "
            "other planner commands, then run the reset again"
        ) from None
    except OSError as err:
        raise StoreError(f"Cannot open {path} to move it aside: {err.strerror}") from err
