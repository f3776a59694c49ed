"""Files the user asked for are written whole or not at all.

A report rewritten in place on a full disk (or past a file-size limit) used to leave a
truncated file where a good one had been. Every writer of a user's file writes a temporary
file in the same folder and renames it over the target only once it is complete and on disk:
a failure leaves the old file as it was and no temporary file behind.
"""

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

_UMASK = os.umask(0)
os.umask(_UMASK)
"""Read once at import (reading it means setting it): a new file gets the mode an ordinary
`open(path, "w")` would give it, not the temporary file's private 0600."""


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write; renamed over `path` when the block ends,
    removed if it raises. The target keeps its mode if it exists."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    part = Path(name)
    try:
        yield part
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_UMASK
        os.chmod(part, mode)
        os.replace(part, path)
    except BaseException:
        with suppress(OSError):
            part.unlink()
        raise


@contextmanager
def opened(path: Path, mode: str = "w", **options: object) -> Iterator[IO[str]]:
    """`open(path, mode)` for writing text, as `replacing` writes it (synced before the rename)."""
    with replacing(path) as part, part.open(mode, **options) as handle:  # type: ignore[call-overload]
        yield handle
        handle.flush()
        os.fsync(handle.fileno())


def write_bytes(path: Path, data: bytes) -> None:
    """`path.write_bytes(data)`, whole or not at all."""
    with replacing(path) as part, part.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_text(path: Path, text: str, encoding: str = "utf-8", newline: str | None = None) -> None:
    """`path.write_text(text)`, whole or not at all."""
    with opened(path, "w", encoding=encoding, newline=newline) as handle:
        handle.write(text)
