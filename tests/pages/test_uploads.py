"""Uploads are somebody's data on a shared server: staged privately, removed once imported or
read, and removed an hour after they were last staged if nothing used them."""

import hashlib
import os
import threading
import time
from pathlib import Path
from types import SimpleNamespace

from streamlit.runtime.scriptrunner_utils.script_run_context import SCRIPT_RUN_CONTEXT_ATTR_NAME

from planner.ui import uploads
from tests.pages.test_history import GOOD, open_page, upload


def _staged(data: bytes) -> list[Path]:
    """The folders (one per session) holding an upload of `data`."""
    return list(uploads.UPLOADS.glob(f"*/{hashlib.sha256(data).hexdigest()[:16]}"))


def test_an_upload_is_private() -> None:
    path = uploads.write_once(b"job_id,gpus\nx,1\n", "mine.csv", "upload.csv")

    assert path.name == "mine.csv"
    assert path.read_bytes() == b"job_id,gpus\nx,1\n"
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert uploads.UPLOADS.stat().st_mode & 0o777 == 0o700
    assert path.parent.parent.stat().st_mode & 0o777 == 0o700  # the session's folder
    assert [p.name for p in path.parent.iterdir()] == ["mine.csv"]  # no part file left
    uploads.discard(path)
    assert not path.parent.exists()


def test_a_name_that_is_no_file_name_gets_the_fallback() -> None:
    for name in ("", ".", "..", "../../etc/passwd"):
        path = uploads.write_once(name.encode() + b"x", name, "upload.csv")
        assert path.parent.parent.parent == uploads.UPLOADS
        assert path.name == ("passwd" if name.endswith("passwd") else "upload.csv")
        uploads.discard(path)


def test_stale_uploads_are_removed_and_fresh_ones_kept() -> None:
    stale = uploads.write_once(b"left behind by a closed tab", "old.csv", "upload.csv")
    fresh = uploads.write_once(b"another session's upload", "new.csv", "upload.csv")
    long_ago = time.time() - uploads.MAX_AGE_S - 60
    os.utime(stale.parent, (long_ago, long_ago))

    again = uploads.write_once(b"a third", "third.csv", "upload.csv")

    assert not stale.parent.exists()
    assert fresh.is_file()
    for path in (fresh, again):
        uploads.discard(path)


def test_an_imported_upload_is_not_kept(db: Path) -> None:
    at = upload(open_page(), "kept.csv", GOOD)
    assert len(_staged(GOOD.encode())) == 1  # staged to detect its format and columns

    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert _staged(GOOD.encode()) == []


def _in_session(session_id: str, data: bytes) -> Path:
    """`write_once` as a run of browser session `session_id` stages it (Streamlit keeps the
    run's context on the thread; AppTest gives every test the same session id)."""
    thread = threading.current_thread()
    before = getattr(thread, SCRIPT_RUN_CONTEXT_ATTR_NAME, None)
    setattr(thread, SCRIPT_RUN_CONTEXT_ATTR_NAME, SimpleNamespace(session_id=session_id))
    try:
        return uploads.write_once(data, "same.csv", "upload.csv")
    finally:
        setattr(thread, SCRIPT_RUN_CONTEXT_ATTR_NAME, before)


def test_two_sessions_uploading_the_same_file_keep_their_own_copies() -> None:
    """One session's clean-up (after its import) leaves the other's copy in place."""
    data = b"job_id,gpus\nshared,1\n"
    mine, theirs = _in_session("session-a", data), _in_session("session-b", data)

    uploads.discard(mine)

    assert mine != theirs
    assert not mine.exists()
    assert theirs.read_bytes() == data
    uploads.discard(theirs)
