"""A cloud option's sheet: the same bill every month (`planner.cost.tco.rented_option`) as
formulas over the Assumptions' names, one column per part of the bill (cloud compute,
commitment, overflow above it, spot overhead, CPU instances, storage, egress, and amounts
stated by the model in reports saved before the parts were recorded;
`planner.report.workbook.cloud_inputs` says how each is priced):

    part in month m = year 1's (that year's with growing demand) x (1 + cloud escalation)
                      ^ INT((m - 1) / 12)
    cash = P&L x (1 - tax rate)

Its key figures (column `VALUE_COLUMN`) sit at the rows `planner.report.workbook.owned` uses, so the
bridge and the comparison refer to them by key.
"""

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from openpyxl.worksheet.worksheet import Worksheet

from planner.report.text import text
from planner.report.workbook.assumptions import CloudNames, Names
from planner.report.workbook.book import (
    BOLD,
    Book,
    eac_formula,
    header,
    npv_formula,
    put_formula,
    put_text,
    ref,
    span,
    widths,
)
from planner.report.workbook.cloud_inputs import PARTS
from planner.report.workbook.owned import LABEL_COLUMN, VALUE_COLUMN, figure, year_of
from planner.report.workbook.timing import escalation_factor

if TYPE_CHECKING:
    from planner.report.cells import Kind

COLUMNS = ("month", *PARTS, "pnl", "cash", "cumulative")
COL = {key: k for k, key in enumerate(COLUMNS, start=1)}
FIGURES = (
    "monthly_total",
    "monthly_cash",
    "useful_month",
    *PARTS,
    "total_pnl",
    "total_cash",
    "useful",
    "per_useful",
    "per_gpu_hour",
    "npv_cash",
    "eac",
)

ROWS = {key: k for k, key in enumerate(FIGURES, start=2)}
_KINDS: "dict[str, Kind]" = {
    "useful_month": "number",
    "useful": "number",
    "per_useful": "rate",
    "per_gpu_hour": "rate",
}


LATER_COLUMN = VALUE_COLUMN + 2
"""Growing demand: year k's (k >= 2) bill a month, by part, in column LATER_COLUMN + k - 2."""
_BY_YEAR = ("monthly_total", "useful_month", *PARTS)


def rented_figure(
    sheet: Worksheet, key: str, here: Worksheet | None = None, *, year: int = 1
) -> str:
    """A key figure's cell; with growing demand, year `year`'s where it moves by year."""
    column = VALUE_COLUMN if year == 1 or key not in _BY_YEAR else LATER_COLUMN + year - 2
    return ref(sheet, ROWS[key], column, here)


def rented_sheet(
    book: Book,
    sheet: Worksheet,
    names: Names,
    mine: CloudNames,
    months: int,
    *,
    later: Sequence[CloudNames] = (),
) -> None:
    """Fill `sheet` for a cloud option over `months`; `later`: its names in years 2, 3, ...
    of growing demand (each year's months priced from that year's bill)."""
    lang, cur, last = book.lang, book.currency, months + 1
    header(sheet, 1, [text(f"report.wb.cloud.{k}", lang) for k in COLUMNS])
    years = 1 + len(later)

    def f(key: str, year: int = 1) -> str:
        return rented_figure(sheet, key, sheet, year=year)

    for r in range(2, last + 1):
        put_formula(sheet.cell(r, 1), f"{r - 1}", "int", cur)
        cash = ref(sheet, r, COL["cash"], sheet)
        up = escalation_factor(names.cloud_escalation, ref(sheet, r, 1, sheet))
        cells = {
            **{k: f"{f(k, year_of(r - 1, years))}*{up}" for k in PARTS},
            "pnl": "+".join(ref(sheet, r, COL[k], sheet) for k in PARTS),
            "cash": f"{ref(sheet, r, COL['pnl'], sheet)}*(1-{names.tax})",
            "cumulative": (
                cash if r == 2 else f"{ref(sheet, r - 1, COL['cumulative'], sheet)}+{cash}"
            ),
        }
        for key, formula in cells.items():
            put_formula(sheet.cell(r, COL[key]), formula, "money", cur)
    cash_first = ref(sheet, 2, COL["cash"], sheet)
    cash_rest = span(sheet, 3, last, COL["cash"], sheet)
    formulas = {
        "monthly_total": "+".join(f(k) for k in PARTS),
        "monthly_cash": f"{f('monthly_total')}*(1-{names.tax})",
        "useful_month": mine.useful,
        **mine.bill.parts(),
        "total_pnl": f"SUM({span(sheet, 2, last, COL['pnl'], sheet)})",
        "total_cash": f"SUM({span(sheet, 2, last, COL['cash'], sheet)})",
        "useful": _useful(f, years, months),
        "per_useful": f'IF({f("useful")}>0,{f("total_pnl")}/{f("useful")},"")',
        # C, the price per useful GPU-hour, leaves out storage and egress (the model's)
        "per_gpu_hour": (
            f"IF({f('useful_month')}>0,({f('monthly_total')}-{f('storage')}-{f('egress')})"
            f"/{f('useful_month')},0)"
        ),
        "npv_cash": npv_formula(cash_first, cash_rest if months > 1 else None, names.rate),
        "eac": eac_formula(f("npv_cash"), names.rate, names.months),
    }
    for key, formula in formulas.items():
        row = ROWS[key]
        put_text(sheet.cell(row, LABEL_COLUMN), text(f"report.wb.cfig.{key}", lang))
        put_formula(sheet.cell(row, VALUE_COLUMN), formula, _KINDS.get(key, "money"), cur)
    put_text(sheet.cell(1, LABEL_COLUMN), text("report.wb.key_figures", lang)).font = BOLD
    for year, grown in enumerate(later, start=2):
        _later_year(book, sheet, grown, year)
    sheet.freeze_panes = "B2"
    widths(
        sheet,
        {**dict.fromkeys(range(1, len(COLUMNS) + 1), 14.0), LABEL_COLUMN: 40, VALUE_COLUMN: 16},
    )


def _useful(f: Callable[[str, int], str], years: int, months: int) -> str:
    """Useful GPU-hours over the horizon: each year's a month times its months."""
    counts = [
        sum(1 for m in range(1, months + 1) if year_of(m, years) == k) for k in range(1, 1 + years)
    ]
    return (
        "+".join(f"{f('useful_month', k)}*{n}" for k, n in enumerate(counts, start=1) if n) or "0"
    )


def _later_year(book: Book, sheet: Worksheet, mine: CloudNames, year: int) -> None:
    """Year `year`'s bill a month by part (and its useful GPU-hours) in its own column."""
    column = LATER_COLUMN + year - 2
    header(sheet, 1, [text("report.wb.year.figures", book.lang, year=year)], column)
    parts = mine.bill.parts()
    formulas = {
        "monthly_total": "+".join(rented_figure(sheet, k, sheet, year=year) for k in PARTS),
        "useful_month": mine.useful,
        **parts,
    }
    for key, formula in formulas.items():
        kind = _KINDS.get(key, "money")
        put_formula(sheet.cell(ROWS[key], column), formula, kind, book.currency)
    widths(sheet, {column: 16})


__all__ = ["figure", "rented_figure", "rented_sheet"]
