"""Uploads staged on disk: the readers sniff formats and name traces from a file's own name,
so an upload is written under that name, in a folder named by its bytes' digest (the same
bytes land in the same place, written once)."""

import hashlib
import tempfile
from pathlib import Path

_UPLOADS = Path(tempfile.gettempdir()) / "planner-uploads"


def write_once(data: bytes, name: str, fallback: str) -> Path:
    """`data` written under its own file name (`fallback` when it has none)."""
    digest = hashlib.sha256(data).hexdigest()[:16]
    path = _UPLOADS / digest / (Path(name).name or fallback)
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path
