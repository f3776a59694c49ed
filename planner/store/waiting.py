"""Waiting for another process's lock on the database file, with a bound and a backoff.

DuckDB lets one process at a time open a file for writing; a second process's `connect`
fails at once with "Could not set lock ... (PID n)". The planner's processes (the app, each
CLI command) therefore keep the file open only while they use it, and one that finds it held
tries again after 50 ms, then 100, 200, ... up to half a second between tries, until its
`Patience` runs out. Then it says which process holds the file and what it runs (read from
/proc on Linux), so the user knows whom to wait for.
"""

import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import duckdb

from planner.core.errors import StoreError
from planner.store.errors import WAIT_ENV, holder_pid, holder_text, in_use_error, is_lock_error

T = TypeVar("T")
FIRST_PAUSE_S = 0.05
LONGEST_PAUSE_S = 0.5


def _no_notice(holder: str) -> AbstractContextManager[None]:
    del holder
    return nullcontext()


@dataclass(frozen=True, slots=True)
class Patience:
    """How long to wait for another process to let go of the file, and what to show the
    user meanwhile: `while_busy(holder)` is entered on the first refused try (with a text
    naming the process, e.g. "PID 12 running `planner ingest jobs.csv`") and left when the
    file is ours or the wait is given up."""

    seconds: float
    while_busy: Callable[[str], AbstractContextManager[None]] = field(default=_no_notice)


def patience(
    default_s: float, while_busy: Callable[[str], AbstractContextManager[None]] | None = None
) -> Patience:
    """`default_s`, or $PLANNER_DB_WAIT seconds when it is set to a number >= 0."""
    text = os.environ.get(WAIT_ENV, "").strip()
    try:
        seconds = float(text) if text else default_s
    except ValueError:
        raise StoreError(
            f"${WAIT_ENV} is '{text}'; set it to the seconds to wait for the planner database "
            "(e.g. 120) or unset it"
        ) from None
    if not seconds >= 0:
        raise StoreError(f"${WAIT_ENV} is {text}; set it to 0 or more seconds, or unset it")
    return Patience(seconds, while_busy or _no_notice)


NO_WAIT = Patience(0.0)


def until_free(attempt: Callable[[], T], path: Path, wait: Patience) -> T:
    """`attempt()` (which opens `path`), tried again with a growing pause while another
    process holds the file, for at most `wait.seconds`; then a `StoreError` naming it."""
    started = time.monotonic()
    try:
        return attempt()
    except duckdb.Error as err:
        if not is_lock_error(err):
            raise
        holder = holder_text(holder_pid(err))
    if wait.seconds <= 0:
        raise in_use_error(path, holder, 0.0) from None
    with wait.while_busy(holder):
        for pause in _pauses(started + wait.seconds):
            time.sleep(pause)
            try:
                return attempt()
            except duckdb.Error as err:
                if not is_lock_error(err):
                    raise
                holder = holder_text(holder_pid(err))
    raise in_use_error(path, holder, time.monotonic() - started)


def _pauses(deadline: float) -> Iterator[float]:
    """50 ms, 100, 200, ... at most LONGEST_PAUSE_S (with jitter: two waiting processes do
    not knock in step), the last one ending at `deadline`."""
    pause = FIRST_PAUSE_S
    while (left := deadline - time.monotonic()) > 0:
        yield min(pause * random.uniform(0.75, 1.25), left)
        pause = min(pause * 2, LONGEST_PAUSE_S)
