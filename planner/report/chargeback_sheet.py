"""The workbook's Chargeback sheet: team rows x option columns for the report's horizon, the
rule stated above the table, a totals row of SUM formulas and, under it, each option's total
from the model and the difference (zero to the cent: the split is in whole cents).

In the workbook with live option sheets (`write_xlsx`), each amount is a formula instead
(`planner.report.workbook.chargeback_live`): the option's total and idle cost from its sheet
split by the replay's GPU-hours and the quotas written under the table, so an edited
Assumptions sheet moves the chargeback with the options.

Team names come from the user's trace: every text cell is written as a string (with Excel's
quote prefix when a spreadsheet would run it), so `=HYPERLINK(...)` stays text. The only
formulas on the sheet are the ones written here.
"""

from collections.abc import Mapping

from openpyxl import Workbook
from openpyxl.cell import Cell, MergedCell
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from planner.core.i18n import Language, number_style
from planner.core.spreadsheet_text import is_formula_like
from planner.cost.chargeback import Rule
from planner.report.chargeback_busy import add_busy_block
from planner.report.chargeback_table import chargeback, totals, wide_rows
from planner.report.model import Report
from planner.report.text import text
from planner.report.workbook.chargeback_live import Key, LiveColumn, live_amounts

BOLD = Font(bold=True)
WRAP = Alignment(wrap_text=True, vertical="top")


def add_chargeback_sheet(
    book: Workbook,
    report: Report,
    rule: Rule = "use",
    live: Mapping[Key, LiveColumn] | None = None,
) -> Worksheet:
    """Append the Chargeback sheet for `report` (its scenarios, horizon and language);
    `live`: by scenario and option, where the option's total and idle cost are on its sheet
    and what splits them (an option it lacks keeps the model's amounts as numbers)."""
    lang = report.lang
    cb = chargeback(report.sources, report.horizon_index, rule, lang)
    sheet: Worksheet = book.create_sheet(text("report.sheet.chargeback", lang)[:31])
    put_text(sheet.cell(1, 1), text("report.chargeback.title", lang)).font = Font(
        bold=True, size=14
    )
    statement = cb.statement
    if live:  # the amounts are formulas: exact shares, not whole cents
        statement = (*statement[:-1], text("report.chargeback.rounding_live", lang))
    for k, line in enumerate(statement, start=2):
        put_text(sheet.cell(k, 1), line)
    header = len(statement) + 3
    if not cb.columns:
        put_text(sheet.cell(header, 1), text("report.chargeback.none", lang))
        sheet.column_dimensions["A"].width = 100
        return sheet
    money = number_style(report.currency).excel_format(2)
    put_text(sheet.cell(header, 1), text("report.chargeback.team", lang)).font = BOLD
    for j, col in enumerate(cb.columns, start=2):
        cell = put_text(sheet.cell(header, j), col.label)
        cell.font, cell.alignment = BOLD, WRAP
    rows = wide_rows(cb, lang)
    for i, (label, values) in enumerate(rows, start=header + 1):
        put_text(sheet.cell(i, 1), label)
        for j, value in enumerate(values, start=2):
            sheet.cell(i, j, value).number_format = money
    _totals(sheet, (header + 1, header + len(rows)), totals(cb), money, lang)
    if live:
        live_amounts(sheet, cb, (header, len(rows)), live, (money, lang))
    add_busy_block(sheet, report)
    sheet.freeze_panes = sheet.cell(header + 1, 2).coordinate
    sheet.column_dimensions["A"].width = min(60, max(_width(r[0]) for r in rows) + 4, 40)
    for j in range(2, len(cb.columns) + 2):
        sheet.column_dimensions[get_column_letter(j)].width = 20
    return sheet


def _totals(
    sheet: Worksheet, rows: tuple[int, int], model: list[float], money: str, lang: Language
) -> None:
    """Under the rows: SUM formulas, the model's totals, and their difference."""
    first, last = rows
    total_row, model_row, diff_row = last + 1, last + 2, last + 3
    for row, key in (
        (total_row, "report.chargeback.total"),
        (model_row, "report.chargeback.option_total"),
        (diff_row, "report.chargeback.difference"),
    ):
        put_text(sheet.cell(row, 1), text(key, lang)).font = BOLD
    for j, value in enumerate(model, start=2):
        col = get_column_letter(j)
        sheet.cell(total_row, j, f"=SUM({col}{first}:{col}{last})").number_format = money
        sheet.cell(model_row, j, value).number_format = money
        difference = f"=ROUND({col}{total_row}-{col}{model_row},2)"
        sheet.cell(diff_row, j, difference).number_format = money
        sheet.cell(total_row, j).font = BOLD


def put_text(cell: Cell | MergedCell, value: str) -> Cell | MergedCell:
    """`value` in `cell` as a string, never a formula (quote-prefixed when it looks like one)."""
    cell.value = value
    cell.data_type = "s"
    if is_formula_like(value):
        cell.quotePrefix = True
    return cell


def _width(value: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if ord(c) > 0x2E80 else 1 for c in value)
