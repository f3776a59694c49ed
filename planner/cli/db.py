"""The planner database for a command, imported only when a command runs (DuckDB loads in
about a second, and `--help` should not wait for it)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from planner.store import Connection


def database(db: str | None) -> "AbstractContextManager[Connection]":
    """`--db` if given, else $PLANNER_DB, else the checkout's database, connected."""
    from planner.store import connect, database_path

    return connect(database_path(db))
