"""Under the Chargeback sheet's table: each team's GPU-hours allocated and busy
(`planner.cost.busy`), per scenario whose trace has busy shares; the busy share is a formula
(busy / the GPU-hours with a share) so it can be checked in the sheet. Nothing without."""

from openpyxl.cell import Cell, MergedCell
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from planner.core.i18n import Language
from planner.core.spreadsheet_text import is_formula_like
from planner.cost.busy import BusyShare
from planner.report.model import Report
from planner.report.text import text

_COLUMNS = ("team", "allocated", "known", "busy", "share")


def add_busy_block(sheet: Worksheet, report: Report) -> None:
    """Each scenario's team table below what the sheet holds already."""
    row = sheet.max_row + 2
    for name, tco in report.sources:
        if tco.busy is not None:
            row = _block(sheet, row, name if len(report.sources) > 1 else "", tco.busy, report.lang)


def _block(sheet: Worksheet, row: int, scenario: str, busy: BusyShare, lang: Language) -> int:
    title = text("report.chargeback.busy_title", lang)
    _text(sheet, row, 1, f"{scenario} · {title}" if scenario else title).font = Font(bold=True)
    row += 1
    for j, key in enumerate(_COLUMNS, start=1):
        _text(sheet, row, j, text(f"report.chargeback.busy_{key}", lang)).font = Font(bold=True)
    for team in busy.teams:
        row += 1
        h = team.hours
        _text(sheet, row, 1, team.team)
        for j, value in enumerate((h.allocated_gpu_hours, h.known_gpu_hours, h.busy_gpu_hours), 2):
            sheet.cell(row, j, value).number_format = "#,##0.0"
        share = f'=IF(C{row}>0,D{row}/C{row},"")'
        sheet.cell(row, 5, share).number_format = "0.0%"
    return row + 2


def _text(sheet: Worksheet, row: int, column: int, value: str) -> Cell | MergedCell:
    """A text cell that stays text (a team named like a formula gets Excel's quote prefix),
    as `chargeback_sheet.put_text` writes them."""
    cell = sheet.cell(row, column)
    cell.value, cell.data_type = value, "s"
    if is_formula_like(value):
        cell.quotePrefix = True
    return cell
