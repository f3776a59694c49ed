"""The report as an Excel workbook: Summary, Options, Monthly cash flow, Sensitivity, Prices
used, Ledger and Notes sheets, numbers stored as numbers with the report currency's formats, text
always stored as text (a scenario named `=HYPERLINK(...)` must not become a formula)."""

from io import BytesIO

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from planner.core.i18n import number_style
from planner.core.spreadsheet_text import is_formula_like
from planner.report.cells import Cell, Kind
from planner.report.model import Report, Table
from planner.report.text import text

BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
WRAP = Alignment(wrap_text=True, vertical="top")
MAX_WIDTH = 60


def number_format(kind: Kind, currency: str) -> str:
    """Excel's number format for a cell kind; money in the report currency."""
    style = number_style(currency)
    formats = {
        "money": style.excel_format(0),
        "rate": style.excel_format(),
        "percent": "0.0%",
        "number": "#,##0",
        "decimal": "#,##0.00",
        "hours": "#,##0.0",
        "int": "0",
    }
    return formats.get(kind, "General")


def write_xlsx(report: Report) -> bytes:
    book = Workbook()
    summary = book.active
    assert summary is not None  # a new workbook always has one sheet
    _summary(summary, report)
    tables = (report.options, report.cash, report.sensitivity, report.prices, report.ledger)
    for table in tables:
        _table(book.create_sheet(_sheet_name(table.title)), table, report.currency)
    _notes(book.create_sheet(_sheet_name(text("report.sheet.notes", report.lang))), report)
    for sheet in book.worksheets:
        _text_as_text(sheet)
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def _sheet_name(title: str) -> str:
    """Excel allows 31 characters and none of []:*?/\\ in a sheet name."""
    return "".join("-" if c in "[]:*?/\\" else c for c in title)[:31]


def _summary(sheet: Worksheet, report: Report) -> None:
    lang = report.lang
    sheet.title = _sheet_name(text("report.sheet.summary", lang))
    sheet.append([text("report.title", lang)])
    sheet["A1"].font = TITLE
    sheet.append([text("report.col.item", lang), text("report.col.value", lang)])
    for cell in sheet[2]:
        cell.font = BOLD
    sheet.append([text("report.fact.generated", lang), report.generated])
    sheet.cell(sheet.max_row, 2).number_format = "yyyy-mm-dd"
    for head in report.headlines:
        sheet.append([])
        for fact in head.facts:
            _append(sheet, [fact.label, fact.value], ["text", fact.kind], report.currency)
        sheet.append([text("report.fact.conclusion", lang), head.conclusion])
        sheet.cell(sheet.max_row, 2).alignment = WRAP
        sheet.cell(sheet.max_row, 1).font = BOLD
    sheet.freeze_panes = "A3"
    sheet.column_dimensions["A"].width = min(
        MAX_WIDTH, max(_width(f.label) for h in report.headlines for f in h.facts) + 2
    )
    sheet.column_dimensions["B"].width = 90


def _table(sheet: Worksheet, table: Table, currency: str) -> None:
    sheet.append([c.label for c in table.columns])
    for cell in sheet[1]:
        cell.font = BOLD
        cell.alignment = Alignment(wrap_text=True, vertical="bottom")
    kinds = [c.kind for c in table.columns]
    for row in table.rows:
        _append(sheet, list(row), kinds, currency)
    sheet.freeze_panes = "B2" if table.columns[0].key == "month" else "A2"
    for k, column in enumerate(table.columns, start=1):
        sample = [_width(str(r[k - 1])) for r in table.rows[:50] if isinstance(r[k - 1], str)]
        numeric = 14 if column.kind != "text" else 0
        width = max([_width(column.label) // 2 + 2, numeric, *sample])
        sheet.column_dimensions[get_column_letter(k)].width = min(MAX_WIDTH, width + 2)


def _append(sheet: Worksheet, values: list[Cell], kinds: list[Kind], currency: str) -> None:
    sheet.append(values)
    row = sheet.max_row
    for k, kind in enumerate(kinds, start=1):
        if kind != "text":
            sheet.cell(row, k).number_format = number_format(kind, currency)


def _text_as_text(sheet: Worksheet) -> None:
    """Every string a string: openpyxl makes one starting with "=" a formula. Text a
    spreadsheet would run also gets Excel's quote prefix, so editing the cell keeps it text."""
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, str):
                cell.data_type = "s"
                if is_formula_like(cell.value):
                    cell.quotePrefix = True


def _notes(sheet: Worksheet, report: Report) -> None:
    sheet.append([text("report.col.note", report.lang)])
    sheet["A1"].font = BOLD
    for note in report.notes or (text("report.note.none", report.lang),):
        sheet.append([note])
        sheet.cell(sheet.max_row, 1).alignment = WRAP
    sheet.freeze_panes = "A2"
    sheet.column_dimensions["A"].width = 120


def _width(value: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if ord(c) > 0x2E80 else 1 for c in value)
