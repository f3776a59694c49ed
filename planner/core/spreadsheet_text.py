"""Text cells a spreadsheet will show, never run: the one rule every CSV and xlsx writer uses.

A cell that starts with `=`, `+`, `-`, `@`, a tab, CR or LF (or their full-width forms) is a
formula to Excel, LibreOffice and Google Sheets, so a job named `=HYPERLINK(...)` would become
a live link in a downloaded schedule (OWASP, "CSV Injection"). Such text gets a leading `'`
in CSV; the xlsx writer stores it as a string with Excel's quote prefix instead. Real numbers
(`-3.5`, `1e-3`, floats and ints) are left as they are. No imports beyond the standard library:
every layer, from the report writers to the price book, may use it.
"""

import re
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")

FORMULA_STARTS = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
"""First characters that make a spreadsheet read a cell as a formula (ASCII and full-width)."""

QUOTE = "'"
_RISKY_FIRST = FORMULA_STARTS | {QUOTE}
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def is_formula_like(text: str) -> bool:
    """Whether `text` (after any leading quotes) would be read as a formula, not a number.

    Leading quotes are skipped so that quoting stays reversible: `'=x` is itself quoted
    (`''=x`) and `restore_text` takes exactly one quote off.
    """
    bare = text.lstrip(QUOTE)
    return bare[:1] in FORMULA_STARTS and not _NUMBER.fullmatch(bare)


def safe_text(text: str) -> str:
    """`text` with a leading `'` if a spreadsheet would run it as a formula."""
    return QUOTE + text if is_formula_like(text) else text


def restore_text(text: str) -> str:
    """The text `safe_text` was given (for files that are read back, e.g. price exports)."""
    return text[1:] if text[:1] == QUOTE and is_formula_like(text[1:]) else text


def safe_cell(value: str | T) -> str | T:
    """A CSV cell: strings made safe with `safe_text`, everything else (numbers) unchanged."""
    return safe_text(value) if isinstance(value, str) else value


def safe_row(row: Iterable[object]) -> list[object]:
    """A CSV row with every string cell made safe (inlined: schedules have millions of rows)."""
    return [
        QUOTE + value
        if isinstance(value, str) and value[:1] in _RISKY_FIRST and is_formula_like(value)
        else value
        for value in row
    ]
