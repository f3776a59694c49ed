"""The app's shared connection at process exit: no linger timer is left waiting. One that
woke while the interpreter shut down aborted test processes that had pytest-playwright's
greenlet loaded (exit status 134, "terminate called ... exception not rethrown") after every
test had passed."""

import threading
from pathlib import Path

from planner.store import shared
from planner.store.db import connect
from planner.store.waiting import Patience


def _lingering() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if isinstance(t, threading.Timer) and t.is_alive()]


def test_the_exit_hook_closes_the_connection_and_ends_its_linger_timer(tmp_path: Path) -> None:
    path = tmp_path / "planner.duckdb"
    with connect(path):
        pass
    store = shared.shared_store(path)
    with store.cursor(Patience(5.0)) as cur:
        assert cur.execute("select 42").fetchall() == [(42,)]
    assert store._closer is not None  # the connection lingers for the next page read
    timer = store._closer

    shared._close_all()  # what atexit runs

    assert store._con is None
    assert not timer.is_alive()
    assert timer not in _lingering()
