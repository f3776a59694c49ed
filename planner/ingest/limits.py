"""Bounds on what one upload may make the planner read, parse or echo back.

A hostile or broken file (a gigabyte-long line in a small gzip, a megabyte in a time cell, a
header of millions of characters) must cost time and memory in proportion to the useful
data in it. Reading stops at these limits with a message naming the file, the place and the
limit; values are cut short before they are echoed in a message. Nothing here reads files.
"""

import os
from dataclasses import dataclass, field

from planner.core.shown import SHOWN_CHARS, shorten

__all__ = ["SHOWN_CHARS", "shorten"]  # their old home: many readers import them from here

# A job-history line is a few hundred bytes; the widest real exports we know (Slurm with
# long TRES strings, free-text comments) stay under a few KiB.
MAX_LINE_BYTES = 1 << 20
# The largest export the planner is tested with is 1 GiB (tests/test_large_file.py); a
# compressed file may unpack to four times that. The app reads no command-line flag, so
# whoever runs it may set this environment variable instead (GiB, as --max-unpacked-gib).
MAX_UNPACKED_BYTES = 4 << 30
UNPACKED_ENV = "PLANNER_MAX_UNPACKED_GIB"
# Excel's own limit on a sheet's rows: a workbook longer than this was not saved by Excel,
# and streaming one row by row costs minutes (a 4 MB workbook can hold 8 million rows).
EXCEL_MAX_ROWS = 1_048_576
# Dates, durations and numbers are at most ~40 characters ('2024-01-05T10:00:00.123456789
# +08:00'); parsing a megabyte-long "date" took a minute (the parser is quadratic).
MAX_VALUE_CHARS = 64
# Columns of a header. Slurm's `sacct --format=ALL` has about 110, Alibaba's and openb's
# exports a few dozen; pandas pays per column and chunk (10,000 columns: 25 s for 300 rows).
MAX_COLUMNS = 1_000
# Rows and bytes of one parsed chunk: memory stays flat however long the file is (a
# chunk of wide rows holds fewer rows, so it stays near CHUNK_BYTES).
CHUNK_ROWS = 100_000
CHUNK_BYTES = 16 << 20


def unpacked_limit() -> int:
    """MAX_UNPACKED_BYTES, or the GiB set in UNPACKED_ENV (ignored unless a number above 0)."""
    try:
        gib = float(os.environ.get(UNPACKED_ENV, ""))
    except ValueError:
        return MAX_UNPACKED_BYTES
    return int(min(gib, 1e6) * (1 << 30)) if gib > 0 else MAX_UNPACKED_BYTES


def size_text(n_bytes: int) -> str:
    """1 MiB, 4 GiB, 300 KiB: a limit as people read it."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n_bytes >= scale:
            value = n_bytes / scale
            return f"{value:.0f} {unit}" if value.is_integer() else f"{value:.1f} {unit}"
    return f"{n_bytes} bytes"


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """Where reading a file stops (tests make them small to keep their files small)."""

    max_line_bytes: int = MAX_LINE_BYTES
    max_unpacked_bytes: int = field(default_factory=unpacked_limit)
    max_sheet_rows: int = EXCEL_MAX_ROWS
