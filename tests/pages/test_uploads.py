"""Uploads are somebody's data on a shared server: staged privately, removed once imported or
read, and removed an hour after they were last staged if nothing used them."""

import hashlib
import os
import time
from pathlib import Path

from planner.ui import uploads
from tests.pages.test_history import GOOD, open_page, upload


def _folder(data: bytes) -> Path:
    return uploads.UPLOADS / hashlib.sha256(data).hexdigest()[:16]


def test_an_upload_is_private() -> None:
    path = uploads.write_once(b"job_id,gpus\nx,1\n", "mine.csv", "upload.csv")

    assert path.name == "mine.csv"
    assert path.read_bytes() == b"job_id,gpus\nx,1\n"
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert uploads.UPLOADS.stat().st_mode & 0o777 == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["mine.csv"]  # no part file left
    uploads.discard(path)
    assert not path.parent.exists()


def test_a_name_that_is_no_file_name_gets_the_fallback() -> None:
    for name in ("", ".", "..", "../../etc/passwd"):
        path = uploads.write_once(name.encode() + b"x", name, "upload.csv")
        assert path.parent.parent == uploads.UPLOADS
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
    assert _folder(GOOD.encode()).is_dir()  # staged to detect its format and columns

    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert not _folder(GOOD.encode()).exists()
