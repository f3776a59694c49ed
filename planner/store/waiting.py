"""Waiting for another process's lock on the database file, with a bound and a backoff.

DuckDB lets one process at a time open a file for writing; a second process's `connect`
fails at once with "Could not set lock ... (PID n)". The planner's processes (the app, each
CLI command) therefore keep the file open only while they use it, and one that finds it held
tries again after 50 ms, then 100, 200, ... up to half a second between tries, until its
`Patience` runs out. Then it says which process holds the file and what it runs (read from
/proc on Linux), so the user knows whom to wait for.

A process that keeps finding the file taken could wait forever behind an app whose sessions
keep it busy without a pause. So a waiter leaves a marker beside the file,
`<file>.wait-<pid>`, while it waits, and the app (`planner.store.shared`) seeing another
process's marker stops handing out the file: it closes it as soon as its pages are done and
lets its own pages wait, until the marker is gone. A marker whose process has died is
ignored and removed.
"""

import glob
import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
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
    naming the process: "another process (PID 12) running `python -m planner ingest a.csv`")
    and left when the file is ours or the wait is given up."""

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


class YieldingTo(Exception):  # noqa: N818 - a signal between store modules, not an error
    """This process lets another one, waiting for the file, have it first (see the module's
    docstring); `holder` names that process as `holder_text` does."""

    def __init__(self, pid: int) -> None:
        super().__init__(pid)
        self.holder = holder_text(pid)


def until_free(attempt: Callable[[], T], path: Path, wait: Patience) -> T:
    """`attempt()` (which opens `path`), tried again with a growing pause while another
    process holds the file, for at most `wait.seconds`; then a `StoreError` naming it."""
    started = time.monotonic()
    got, holder = _refused(attempt)
    if holder is None:
        return got  # type: ignore[return-value]  # None only when refused
    if wait.seconds <= 0:
        raise in_use_error(path, holder, 0.0)
    with wait.while_busy(holder), _waiting_marker(path):
        for pause in _pauses(started + wait.seconds):
            time.sleep(pause)
            got, holder = _refused(attempt)
            if holder is None:
                return got  # type: ignore[return-value]
    raise in_use_error(path, holder, time.monotonic() - started)


def _refused(attempt: Callable[[], T]) -> tuple[T | None, str | None]:
    """(what `attempt()` gave, None), or (None, the text naming who has the file)."""
    try:
        return attempt(), None
    except duckdb.Error as err:
        if not is_lock_error(err):
            raise
        return None, holder_text(holder_pid(err))
    except YieldingTo as deferred:
        return None, deferred.holder


def marker(path: Path, pid: int) -> Path:
    return path.with_name(f"{path.name}.wait-{pid}")


@contextmanager
def _waiting_marker(path: Path) -> Iterator[None]:
    """`<file>.wait-<pid>` while this process waits (none if the folder is not writable:
    the wait still works, only without precedence)."""
    mine = marker(path, os.getpid())
    try:
        mine.touch()
    except OSError:
        yield
        return
    try:
        yield
    finally:
        mine.unlink(missing_ok=True)


def other_waiter(path: Path) -> int | None:
    """The id of another live process waiting for `path`, if any (dead ones' markers are
    removed)."""
    for found in path.parent.glob(f"{glob.escape(path.name)}.wait-*"):
        pid_text = found.name.rsplit("-", 1)[1]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        try:
            os.kill(int(pid_text), 0)
        except ProcessLookupError:
            found.unlink(missing_ok=True)
            continue
        except PermissionError:
            pass  # alive, another user's
        return int(pid_text)
    return None


def _pauses(deadline: float) -> Iterator[float]:
    """50 ms, 100, 200, ... at most LONGEST_PAUSE_S (with jitter: two waiting processes do
    not knock in step), the last one ending at `deadline`."""
    pause = FIRST_PAUSE_S
    while (left := deadline - time.monotonic()) > 0:
        yield min(pause * random.uniform(0.75, 1.25), left)
        pause = min(pause * 2, LONGEST_PAUSE_S)
