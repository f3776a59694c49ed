"""A user's text as a message or a report echoes it: control characters escaped, long text
cut short with its length, so a megabyte cell or a 400-digit number never floods a message."""

import re

SHOWN_CHARS = 80
"""Characters of a user's value shown in a message or a report."""

_CONTROL_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(32), 127)}
_CUT = re.compile(r"[^\n]*…\(\d{1,3}(,\d{3})* characters\)", re.DOTALL)


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """`text` fit to echo: control characters escaped, long text cut with its length. Text
    already cut (a rejected row's stored value, shown again) keeps the length it gave."""
    if _CUT.fullmatch(text) and len(text) <= 4 * limit:
        return text
    shown = text[:limit].translate(_CONTROL_ESCAPES)
    return shown if len(text) <= limit else f"{shown}…({len(text):,} characters)"
