"""What would flip the verdict, as text: the headline pair's flip values (`planner.cost.flip`)
as rows of (driver, today, flips at) for PDF page 1, the workbook and the Compare page.

Multipliers read "x0.83" (of today's value), the resale share and the discount rate as
percentages, the server life in years; the demand's flip also gives the allocation it
means (the pair's owned option's allocation today times the multiplier, at most 100 %).
"""

from planner.core.i18n import Language, fmt_number, fmt_percent
from planner.core.notes import worded
from planner.cost.pair import OWNED
from planner.cost.results import Flip, TcoReport, Verdict
from planner.report.text import text

SHARES = ("resale_share", "rate")
"""Drivers whose values are shares (the others are multipliers, or years for the life)."""


def title(verdict: Verdict, lang: Language) -> str:
    return text(
        "report.flip.title",
        lang,
        owned=text(f"report.pdf.option.{verdict.owned}", lang)
        if verdict.owned in OWNED
        else verdict.owned,
        rented=worded(verdict.rented, lang),  # a cloud option we named, in words
        years=f"{verdict.years:g}",
    )


def rows(report: TcoReport, lang: Language) -> list[tuple[str, str, str]]:
    """(driver, today, flips at) for each main driver; none without a verdict."""
    verdict = report.verdict
    if verdict is None:
        return []
    cur = report.currency
    return [
        (
            text(f"report.driver.{f.driver}", lang),
            value_text(f, f.base, cur, lang),
            flip_text(f, verdict.allocation, cur, lang),
        )
        for f in verdict.flips
    ]


def flip_text(f: Flip, allocation: float | None, currency: str, lang: Language) -> str:
    """Where `f` flips, or the range it never flips within."""
    if f.value is None:
        low, high = (value_text(f, v, currency, lang) for v in (f.low, f.high))
        return text("report.flip.never", lang, low=low, high=high)
    shown = value_text(f, f.value, currency, lang)
    if f.driver == "utilization" and allocation is not None:
        share = fmt_percent(min(1.0, allocation * f.value), 0, currency)
        return text("report.flip.allocation", lang, value=shown, share=share)
    return shown


def value_text(f: Flip, value: float, currency: str, lang: Language) -> str:
    """A driver's value in its unit."""
    if f.driver in SHARES:
        return fmt_percent(value, 1, currency)
    if f.driver == "life":
        decimals = 0 if float(value).is_integer() else 2
        return text("report.flip.years", lang, value=fmt_number(value, decimals, currency))
    return f"x{fmt_number(value, 2, currency)}"


def nearest(report: TcoReport) -> Flip | None:
    """The multiplier flip nearest today's value (the driver the verdict is most fragile
    to), for the conclusion; None without one."""
    if report.verdict is None:
        return None
    moves = [
        (abs(f.value - f.base), f)
        for f in report.verdict.flips
        if f.value is not None and f.driver not in (*SHARES, "life")
    ]
    return min(moves, key=lambda m: m[0])[1] if moves else None
