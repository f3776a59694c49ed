"""A long command's progress on stderr: one line rewritten in place on a terminal, plain
lines otherwise (a log or a pipe keeps every step, with no carriage returns in it).

stdout is left alone, so `--json` output stays one parseable document. The line is padded
with spaces over the previous one instead of an erase sequence: any terminal shows it right.
"""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from planner.cli.output import unfiltered


class StatusLine:
    """Shows the latest of a series of one-line statuses on `stream`."""

    def __init__(self, stream: TextIO) -> None:
        self.in_place = stream.isatty()
        # Our own text only: the carriage return must reach the terminal unescaped.
        self.stream = unfiltered(stream) if self.in_place else stream
        self.width = 0

    def show(self, text: str) -> None:
        if self.in_place:
            self.stream.write("\r" + text.ljust(self.width))
            self.width = max(self.width, len(text))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def end(self) -> None:
        """Leave the last status on screen, the cursor on a new line."""
        if self.in_place and self.width:
            self.stream.write("\n")
            self.stream.flush()
            self.width = 0


@contextmanager
def status_line(stream: TextIO | None = None) -> Iterator[StatusLine]:
    """A `StatusLine` on `stream` (stderr), ended when the block ends, even by an error (so
    the error's own line starts on a line of its own)."""
    line = StatusLine(stream or sys.stderr)
    try:
        yield line
    finally:
        line.end()


def seconds_text(seconds: float) -> str:
    """A duration in the largest unit that keeps it readable, as the app's pages show it
    (a tenth of a second below 10 s)."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    for limit, divisor, unit in ((60, 1, "s"), (3600, 60, "min"), (86_400, 3600, "h")):
        if seconds < limit:
            return f"{seconds / divisor:,.{0 if divisor == 1 else 1}f} {unit}"
    return f"{seconds / 86_400:,.1f} d"
