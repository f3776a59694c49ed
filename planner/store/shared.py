"""The app's way to the database: one connection per process, open only while pages use it.

Streamlit runs every session's script in a thread of one process. Each call takes a cursor
of a connection shared by the process (DuckDB serialises nothing across cursors: each is its
own connection to the same database, with its own transactions), and the connection is
closed `LINGER_S` after the last cursor is returned, which lets go of the file so that a CLI
command can open it. A page's few reads in a row reuse the open connection (opening the file
costs ~40 ms, a cursor ~0.01 ms). Opening waits while another process holds the file.

When another process waits for the file (its marker `<file>.wait-<pid>`, see
`planner.store.waiting`), no new cursor is handed out (except to a thread that holds one
already, which would otherwise wait for itself) and the connection is closed as soon as the
last cursor is back, so sessions that keep the app busy cannot starve a CLI command.
"""

import atexit
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from planner.store.db import open_once
from planner.store.sql import Connection
from planner.store.waiting import Patience, YieldingTo, other_waiter, until_free

LINGER_S = 0.3


class SharedStore:
    """The connection of this process to one database file, opened on demand."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._con: Connection | None = None
        self._users = 0
        self._closer: threading.Timer | None = None
        self._held = threading.local()  # how many cursors this thread has out

    @contextmanager
    def cursor(self, wait: Patience) -> Iterator[Connection]:
        """A cursor for one caller, returned afterwards; waits up to `wait` for the file."""
        cur = until_free(self._take, self.path, wait)
        self._held.count = getattr(self._held, "count", 0) + 1
        try:
            yield cur
        finally:
            self._held.count -= 1
            self._give_back(cur)

    def _take(self) -> Connection:
        with self._lock:
            waiter = None if getattr(self._held, "count", 0) else other_waiter(self.path)
            if waiter is not None:
                if self._users == 0:
                    self._close()
                raise YieldingTo(waiter)
            if self._con is None:
                # one try: `until_free` pauses outside the lock, so no session's thread
                # is stuck behind another's wait without its own "busy" notice
                self._con = open_once(self.path)
            if self._closer is not None:
                self._closer.cancel()
                self._closer = None
            self._users += 1
            try:
                return self._con.cursor()
            except BaseException:
                self._users -= 1
                raise

    def _give_back(self, cur: Connection) -> None:
        cur.close()
        with self._lock:
            self._users -= 1
            if self._users == 0 and self._con is not None:
                if other_waiter(self.path) is not None:
                    self._close()
                    return
                self._closer = threading.Timer(LINGER_S, self._close_if_unused)
                self._closer.daemon = True
                self._closer.start()

    def _close_if_unused(self) -> None:
        with self._lock:
            if self._users == 0 and self._con is not None:
                self._con.close()
                self._con = None

    def close(self) -> None:
        """Close now (tests; a process about to end), and wait for the linger timer's thread
        to end."""
        with self._lock:
            closer = self._closer
            self._close()
        if closer is not None and closer is not threading.current_thread():
            closer.join()

    def _close(self) -> None:
        """Close the connection and cancel its linger (the caller holds the lock)."""
        if self._closer is not None:
            self._closer.cancel()
            self._closer = None
        if self._con is not None:
            self._con.close()
            self._con = None


_STORES: dict[Path, SharedStore] = {}
_STORES_LOCK = threading.Lock()


@atexit.register
def _close_all() -> None:
    """Close every store as the process ends. A linger timer still waiting when the
    interpreter shuts down would wake in the middle of it, and its thread's forced exit
    aborts the process (`terminate called ... exception not rethrown`, exit status 134)."""
    with _STORES_LOCK:
        stores = list(_STORES.values())
    for store in stores:
        store.close()


def shared_store(path: Path) -> SharedStore:
    """The process's `SharedStore` for `path` (one per file)."""
    with _STORES_LOCK:
        return _STORES.setdefault(path, SharedStore(path))
