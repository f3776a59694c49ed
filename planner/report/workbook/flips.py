"""The Verdict flips sheet: for each scenario's headline pair (`planner.cost.pair`), the value
of each main driver at which the NPV of buying is 0 (`planner.cost.flip`).

Where the NPV is linear in the driver (cloud, server and power prices, the resale share)
and the Sensitivity sheet has the driver's live case, the flip is a formula: the straight
line through the case's low and high (input, NPV) crosses 0 at

    low + (0 - NPV low) x (high - low) / (NPV high - NPV low)

so it follows every edit the cases follow; outside the searched range it reads "never
within ...". The other drivers (demand, clipped at full allocation; the discount rate; the
server life, in whole months) are the model's values, and the sheet says so.
"""

from collections.abc import Sequence

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from planner.cost.results import Flip
from planner.report import flips
from planner.report.cells import Kind
from planner.report.headline import Named, option_name
from planner.report.text import text
from planner.report.workbook.book import Book, header, put, put_formula, put_text, ref
from planner.report.workbook.sensitivity import COL as SENS
from planner.report.workbook.sensitivity import LiveRows

LINEAR = ("cloud_price", "server_price", "electricity", "resale_share")
"""Drivers the NPV of buying is linear in: their flip is a formula of the live cases."""
_KEYS = ("scenario", "pair", "driver", "today", "at", "low", "high", "how")
COL = {key: k for k, key in enumerate(_KEYS, start=1)}


def flips_sheet(
    book: Book,
    sheet: Worksheet,
    reports: Sequence[Named],
    tornado: tuple[Worksheet, LiveRows],
) -> None:
    """One row per scenario and main driver; `tornado` is the Sensitivity sheet and the rows
    of its live cases."""
    lang = book.lang
    header(sheet, 1, [text(f"report.wb.flip.{k}", lang) for k in _KEYS])
    r = 2
    for name, report in reports:
        verdict = report.verdict
        if verdict is None:
            continue
        pair = text(
            "report.fact.pair_value",
            lang,
            owned=option_name(verdict.owned, lang),
            rented=verdict.rented,
        )
        for f in verdict.flips:
            row = tornado[1].get((name, f.driver)) if f.driver in LINEAR else None
            put_text(sheet.cell(r, COL["scenario"]), name)
            put_text(sheet.cell(r, COL["pair"]), pair)
            put_text(sheet.cell(r, COL["driver"]), text(f"report.driver.{f.driver}", lang))
            _values(book, sheet, r, f)
            if row is not None:
                _formula(book, sheet, r, (tornado[0], row), f)
            r += 1
    for k, size in enumerate((22, 34, 20, 12, 30, 12, 12, 44), start=1):
        sheet.column_dimensions[get_column_letter(k)].width = size
    sheet.freeze_panes = "A2"


def _kind(f: Flip) -> Kind:
    return "percent" if f.driver in flips.SHARES else "decimal"


def _values(book: Book, sheet: Worksheet, r: int, f: Flip) -> None:
    """The model's row: today, where it flips (or the words for never), the range."""
    lang, cur = book.lang, book.currency
    for key, number in (("today", f.base), ("low", f.low), ("high", f.high)):
        put(sheet.cell(r, COL[key]), number, _kind(f), cur)
    at = COL["at"]
    if f.value is None:
        put_text(sheet.cell(r, at), flips.flip_text(f, None, cur, lang))
    else:
        put(sheet.cell(r, at), f.value, _kind(f), cur)
    put_text(sheet.cell(r, COL["how"]), text("report.wb.flip.model", lang))


def _formula(book: Book, sheet: Worksheet, r: int, case: tuple[Worksheet, int], f: Flip) -> None:
    """The flip as the straight line through the live case's two points."""
    lang, cur = book.lang, book.currency
    tornado, row = case

    def cell(key: str) -> str:
        return ref(tornado, row, SENS[key])

    m_low, m_high, low, high = (
        cell(k) for k in ("multiplier_low", "multiplier_high", "low", "high")
    )
    x = f"({m_low}-{low}*({m_high}-{m_low})/({high}-{low}))"
    lo, hi = (ref(sheet, r, COL[k], sheet) for k in ("low", "high"))
    never = flips.flip_text(Flip(f.driver, f.base, None, f.low, f.high), None, cur, lang).replace(
        '"', "'"
    )
    formula = f'IFERROR(IF(AND({x}>={lo},{x}<={hi}),{x},"{never}"),"{never}")'
    put_formula(sheet.cell(r, COL["at"]), formula, _kind(f), cur)
    put_text(sheet.cell(r, COL["how"]), text("report.wb.flip.live", lang))
