"""Uploads staged on disk: the readers sniff formats and name traces from a file's own name,
so an upload is written under that name, in a folder named by its bytes' digest inside one
folder per browser session (the same bytes land in the same place for that session, written
once while they are in use; two sessions uploading the same file never share, so one's
clean-up cannot remove the other's copy).

An upload is somebody's data on a shared server: the folders are private (0700, files 0600),
a file is removed once it has been imported or read (`discard`), and whatever a closed tab
or a failed import left behind is removed an hour after it was last staged.
"""

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

from streamlit.runtime.scriptrunner import get_script_run_ctx

UPLOADS = Path(tempfile.gettempdir()) / "planner-uploads"
MAX_AGE_S = 3600.0
"""An upload not staged again for this long is removed (its tab closed, its import failed)."""


def write_once(data: bytes, name: str, fallback: str) -> Path:
    """`data` written under its own file name (`fallback` when it has none)."""
    _remove_stale()
    session = _private(_private(UPLOADS) / _session_id())
    folder = _private(session / hashlib.sha256(data).hexdigest()[:16])
    path = folder / _file_name(name, fallback)
    if path.is_file():
        os.utime(folder)  # in use again: not stale
        os.utime(session)
        return path
    fd, part = tempfile.mkstemp(dir=folder, prefix=".part-")  # 0600
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(part, path)  # whole, even when two runs of a session stage it at once
    return path


def discard(path: Path) -> None:
    """Remove a staged upload (its digest folder) once it has been imported or read."""
    if path.parent.parent.parent == UPLOADS:
        shutil.rmtree(path.parent, ignore_errors=True)


def _session_id() -> str:
    """The browser session's folder name: a digest of its id (a path in a message shows no
    session id), fixed outside a Streamlit run (tests, scripts)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    session = ctx.session_id if ctx is not None else "no-session"
    return hashlib.sha256(session.encode()).hexdigest()[:16]


def _file_name(name: str, fallback: str) -> str:
    """The upload's own base name; `fallback` for none, `.` or `..`."""
    base = Path(name).name
    return base if base not in ("", ".", "..") else fallback


def _private(folder: Path) -> Path:
    folder.mkdir(mode=0o700, exist_ok=True)
    folder.chmod(0o700)  # made before this rule, or by another umask
    return folder


def _remove_stale() -> None:
    if not UPLOADS.is_dir():
        return
    now = time.time()
    for folder in [*UPLOADS.glob("*/*"), *UPLOADS.iterdir()]:  # uploads, then sessions
        try:
            stale = now - folder.stat().st_mtime > MAX_AGE_S
        except OSError:
            continue  # removed by another session meanwhile
        if stale:
            shutil.rmtree(folder, ignore_errors=True)
