"""What the CLI prints, with control characters shown as escapes ("\\x1b") instead of sent.

Names come from files (a TCO scenario's `name:`, its options, traces, queues): one holding
ESC sequences could clear the screen, recolour or hide lines, or rewrite the terminal's
title when `planner tco` prints it. `planner.cli.main.main` writes through `visible_controls()`;
tabs and line breaks pass, JSON output is unchanged (its strings escape controls already).
"""

import io
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO, cast

# C0 controls but tab and newline, DEL, C1 controls (0x9b is a one-byte CSI), and the
# bidirectional overrides that reorder what a line appears to say.
_UNSEEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` with each control character written as its Python escape."""
    return _UNSEEN.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class _Visible(io.TextIOBase):
    """A text stream that writes `visible(text)` to another."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream.isatty()


def unfiltered(stream: TextIO) -> TextIO:
    """The stream beneath `visible_controls`, for the CLI's own control characters (the
    carriage return of a progress line); never for text that came from a file."""
    return stream._stream if isinstance(stream, _Visible) else stream


@contextmanager
def visible_controls() -> Iterator[None]:
    """stdout and stderr show control characters as escapes until the block ends."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = cast("TextIO", _Visible(out)), cast("TextIO", _Visible(err))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
