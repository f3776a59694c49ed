"""The planner database for a command, imported only when a command runs (DuckDB loads in
about a second, and `--help` should not wait for it), and `planner db reset`.

A command opens the file for its own run only, read-only when this user cannot write it and
the command only reads. When the app or another command holds it,
the command says so once on stderr and waits (up to 120 s, or $PLANNER_DB_WAIT seconds),
then names the process holding the file and stops with exit code 2.
"""

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from planner.store import Connection

CLI_WAIT_S = 120.0
DB_HELP = "database file (default: $PLANNER_DB or data/planner.duckdb)"


@contextmanager
def _notice(holder: str) -> Iterator[None]:
    print(
        f"waiting: the planner database is in use by {holder}; trying again until it is free "
        "(Ctrl-C to stop)",
        file=sys.stderr,
        flush=True,
    )
    yield


def database(db: str | None, *, writes: bool = False) -> "AbstractContextManager[Connection]":
    """`--db` if given, else $PLANNER_DB, else the checkout's database, connected; waits
    while another process (the app, another command) has the file open.

    `writes`: the command saves to the database (an import, an edit, a saved scenario), so
    a file this user cannot write is refused at once; a command that only reads gets it
    read-only instead (a write it may still try, e.g. importing a trace given as a file,
    fails naming the file)."""
    from planner.store import connect, database_path
    from planner.store.waiting import patience

    return connect(database_path(db), patience(CLI_WAIT_S, _notice), writes=writes)


def add_db_commands(sub: "argparse._SubParsersAction[Any]") -> None:
    """`planner db reset`: the way out of a damaged database file."""
    db = sub.add_parser("db", help="look after the database file (reset a damaged one)")
    commands = db.add_subparsers(required=True, metavar="ACTION")
    reset = commands.add_parser(
        "reset",
        help="move the database file aside (kept as <file>.broken-<time>) and start an empty one",
        description="Move the database file (and its .wal) aside, kept as "
        "<file>.broken-<time>, and make an empty database in its place. Use it when the "
        "file is damaged; re-import the job histories and prices afterwards.",
    )
    reset.add_argument("--db", help=DB_HELP)
    reset.set_defaults(run=_reset)


def _reset(args: argparse.Namespace) -> int:
    from planner.store import database_path
    from planner.store.db import reset_store

    path = database_path(args.db)
    aside = reset_store(path)
    print(f"moved {path} aside to {aside}; {path} is a new, empty planner database")
    return 0
