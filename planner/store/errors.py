"""What DuckDB reports, said as a `PlannerError` a user can act on.

`storage_error` names what the file or the disk did wrong (in use by another process, not a
database, cut short, corrupt, full disk, no permission); for a damaged file it gives the way
out, `planner db reset` (the file is moved aside, not deleted). `database_error` covers
every other DuckDB error too: a read-only connection, memory running out, a write conflict
with another session, a value the schema refuses (raised as the caller's `invalid` error, e.g.
`PricingError`), and, last, a failed query, which is said to be a bug rather than passed off
as a storage problem. Nothing here runs SQL.
"""

import os
import re
from collections.abc import Callable
from pathlib import Path

import duckdb

from planner.core.errors import PlannerError, StoreError

Failure = Callable[[str], PlannerError]
"""Makes the error to raise from a message: `StoreError`, `PricingError`, `ScenarioError`."""

MEMORY_ENV = "PLANNER_DB_MEMORY"
# DuckDB would otherwise take up to 80% of RAM; above this it spills to disk, which keeps
# 10-million-job imports within a laptop's memory. Override with $PLANNER_DB_MEMORY.
DEFAULT_MEMORY_LIMIT = "384MB"
WAIT_ENV = "PLANNER_DB_WAIT"
_LOCK_PID = re.compile(r"\(PID (\d+)\)")
_COMMAND_CHARS = 120
# What to do with a damaged file: nothing is deleted, the move can be undone.
_WAY_OUT = (
    "move it aside and start an empty one with `planner db reset --db {path}` (it is kept "
    "as {path}.broken-<time>), or restore it from a backup"
)
# (what DuckDB or the OS says, what the user is told): one line each, naming the cause
_STORAGE_PROBLEMS = (
    (
        ("not a valid DuckDB database file",),
        "{path} is not a DuckDB database file (or its header is damaged); pass --db with the "
        "planner's database, or " + _WAY_OUT,
    ),
    (
        ("Could not read enough bytes",),
        "The planner database {path} is cut short (truncated: it ends before the data it "
        "lists, as after an interrupted copy or a full disk); " + _WAY_OUT,
    ),
    (("Is a directory",), "{path} is a folder, not a database file; pass --db with a file name"),
    (
        ("Corrupt database file", "does not match stored checksum"),
        "The planner database {path} is corrupt ({text}); " + _WAY_OUT,
    ),
    (
        ("No space left on device", "Disk quota exceeded", "File too large"),
        "The disk holding {path} is full; free some space and run the command again (the "
        "step that failed was not saved)",
    ),
    (
        ("Permission denied", "Read-only file system"),
        "The planner database {path} or its folder cannot be written ({text}); make both "
        "writable for this user, or pass --db with a file in a writable folder",
    ),
)


def storage_error(err: duckdb.Error, path: Path) -> StoreError | None:
    """What the file or the disk did wrong, in one line that says which; None for any other
    error (a bug in a query must not pass for a storage problem)."""
    text = first_line(err)
    if is_lock_error(err):
        return in_use_error(path, holder_text(holder_pid(err)), 0.0)
    for needles, message in _STORAGE_PROBLEMS:
        if any(needle in text for needle in needles):
            return StoreError(message.format(path=path, text=text))
    if isinstance(err, duckdb.IOException | duckdb.PermissionException):
        return StoreError(f"Cannot read or write the planner database {path}: {text}")
    return None


def is_lock_error(err: duckdb.Error) -> bool:
    """Whether `err` is DuckDB refusing the file because another process has it open."""
    text = str(err)
    return "Could not set lock" in text or "Conflicting lock" in text


def holder_pid(err: duckdb.Error) -> int | None:
    held = _LOCK_PID.search(str(err))
    return int(held[1]) if held else None


def holder_text(pid: int | None) -> str:
    """'another process (PID 12) running `python -m planner ingest jobs.csv`' (the command
    when /proc shows it, so the user knows which window to look at)."""
    if pid is None:
        return "another process"
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return f"another process (PID {pid})"
    args = [part.decode(errors="replace") for part in raw.split(b"\0") if part]
    if not args:
        return f"another process (PID {pid})"
    command = " ".join([Path(args[0]).name, *args[1:]])
    if len(command) > _COMMAND_CHARS:
        command = command[: _COMMAND_CHARS - 1] + "…"
    return f"another process (PID {pid}) running `{command}`"


def in_use_error(path: Path, holder: str, waited_s: float) -> StoreError:
    """The file is held by `holder` (see `holder_text`), after waiting `waited_s` for it."""
    waited = f"; waited {waited_s:.0f} s for it" if waited_s >= 1 else ""
    return StoreError(
        f"The planner database {path} is in use by {holder}{waited}. Run this again when that "
        f"one has finished (the app lets go of the file between pages), set ${WAIT_ENV} to "
        "wait longer (seconds), or pass --db with another file"
    )


def database_error(
    err: duckdb.Error, path: Path | None, action: str, invalid: Failure = StoreError
) -> PlannerError:
    """`err`, met while trying to `action` ("save the scenario 'a'"), as one line that says
    what failed and what to do. `path` is the database file (None: unknown or in memory)."""
    where = f"the planner database {path}" if path else "the planner database"
    problem = storage_error(err, path or Path("(in memory)"))
    if problem is not None:
        return problem
    text = first_line(err)
    if isinstance(err, duckdb.ConstraintException):
        return invalid(f"Cannot {action}: {where} refuses the data ({text}); correct it")
    return StoreError(f"Cannot {action}: {_cause(err, text, where)}")


def _memory_cause(err: duckdb.Error, text: str, where: str) -> str | None:
    """Out of memory, or out of the disk it spills to (DuckDB calls both 'Out of Memory')."""
    if "failed to offload" in text or "max_temp_directory_size" in str(err):
        return (
            f"the disk holding the temporary files of {where} (a `.tmp` folder beside it, "
            "where it spills what does not fit its memory) is full; free space on that disk, "
            f"or set ${MEMORY_ENV} higher (e.g. 2GB) so that less spills, then run it again"
        )
    if isinstance(err, duckdb.OutOfMemoryException) or "could not allocate" in text:
        limit = os.environ.get(MEMORY_ENV, DEFAULT_MEMORY_LIMIT)
        return (
            f"the database ran out of the memory it may use ({limit}); set ${MEMORY_ENV} "
            "higher (e.g. 2GB) or close other programs, then run it again"
        )
    return None


def _cause(err: duckdb.Error, text: str, where: str) -> str:
    """What went wrong and what to do, for an error that is not the file's or the disk's."""
    if "read-only mode" in text:
        return (
            f"{where} was opened read-only (as a command that only reads opens a file this "
            "user cannot write), so nothing can be written to it; make the file and its folder "
            "writable (or open it for writing) and repeat the step"
        )
    memory = _memory_cause(err, text, where)
    if memory is not None:
        return memory
    if isinstance(err, duckdb.TransactionException) and "Conflict" in text:
        return (
            "another session changed the same rows at the same moment, so nothing was saved; "
            "run it again"
        )
    if isinstance(err, duckdb.ConnectionException | duckdb.FatalException):
        return (
            f"the connection to {where} is closed or broken ({text}); restart the app or the "
            "command (if it happens again, restore the file from a backup)"
        )
    if isinstance(err, duckdb.InterruptException):
        return "the query was interrupted; run it again"
    return (
        f"a query of the planner failed ({text}); this is a bug in the planner, not a "
        "problem with your data: please report it with the step you took"
    )


def first_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return lines[0].rstrip(".!") if lines else type(err).__name__
