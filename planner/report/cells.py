"""What a report cell holds and how it is shown (shared by the tables and the writers)."""

from typing import Literal

from planner.core.i18n import fmt_money, fmt_number, fmt_percent

Kind = Literal["text", "money", "rate", "percent", "number", "decimal", "hours", "years", "int"]
"""How a cell is shown: money (the report currency, whole amounts), rate (the report
currency per GPU-hour, cents), percent (a 0-1 share), number (whole), decimal (two
decimals, no currency: prices in their own currency), hours (one decimal), years, int, text."""
Cell = str | float | int | None


def cell_text(value: Cell, kind: Kind, currency: str, na: str) -> str:
    """A cell as text: money in `currency`'s format, shares as percentages."""
    if value is None or isinstance(value, str):
        return na if value is None else value
    digits = {"decimal": 2, "hours": 1}
    if kind in {"money", "rate"}:
        return fmt_money(value, currency, None if kind == "rate" else 0, na)
    if kind == "percent":
        return fmt_percent(value, 1, currency, na)
    if kind == "years":
        return f"{value:g}"
    return fmt_number(value, digits.get(kind, 0), currency, na)
