"""The report as an Excel workbook finance can recalculate.

Sheets: Cover (the question, the answer, scenarios, scope, date, the replay's twin check, the
headline facts), Assumptions (every input with unit, source, date and confidence, each a
defined name), one sheet per option with the monthly P&L and cash flow as live formulas over
those names and the replay's monthly quantities, Comparison (NPV, IRR, payback and break-even
of buying as formulas, with a break-even chart), Monthly cash flow (with a cumulative cash
chart), Depreciation (book and tax), Sensitivity (live where one input moves), Ledger (its
balance a formula), Replay, Chargeback, Options (every horizon, as formulas over the option
sheets), the other horizons' option and comparison sheets, Prices used and Notes.
Change an input on Assumptions and the totals, NPV and break-even move as the Python model
says (tests/test_workbook_formulas.py recalculates it with LibreOffice).

openpyxl writes it: it is already a dependency and writes formulas, defined names, number
formats and charts, which is all this needs (XlsxWriter would add a second library without a
feature we use). A scenario whose report has no `inputs` (a hand-made report, or one saved
before they were recorded) gets its monthly cash flow as values.

Text is always text (a scenario named `=HYPERLINK(...)` is never a formula): cells are
written through `planner.report.workbook.book`'s `put_text`. The bytes depend only on the
report: the document's dates are its generation date and the zip entries carry a fixed time.
"""

import re
import zipfile
from datetime import datetime, time
from io import BytesIO

from openpyxl import Workbook

from planner.cost.chargeback import Rule
from planner.report.chargeback_sheet import add_chargeback_sheet
from planner.report.model import Report
from planner.report.text import text
from planner.report.workbook.book import Book, number_format
from planner.report.workbook.chargeback_live import chargeback_columns
from planner.report.workbook.cover import cover_sheet
from planner.report.workbook.flips import flips_sheet
from planner.report.workbook.flows import cash_flow_sheet
from planner.report.workbook.horizons import options_sheet
from planner.report.workbook.scenario import Live, live_sheets
from planner.report.workbook.sensitivity import sensitivity_sheet
from planner.report.workbook.tables import (
    ledger_sheet,
    notes_sheet,
    replay_sheet,
    table_sheet,
)

__all__ = ["number_format", "write_xlsx"]


def write_xlsx(report: Report, chargeback: Rule = "use") -> bytes:
    """The workbook of `report`; `chargeback` is the Chargeback sheet's rule for idle cost."""
    lang = report.lang
    book = Book(Workbook(), report.currency, lang)
    cover = book.wb.active
    assert cover is not None  # a new workbook always has one sheet
    cover.title = book.title(text("report.wb.sheet.cover", lang))
    depreciation = book.sheet(text("report.wb.sheet.depreciation", lang))
    many = len(report.sources) > 1
    live: list[Live | None] = []
    for k, (_, tco) in enumerate(report.sources):
        horizon = tco.horizons[min(report.horizon_index, len(tco.horizons) - 1)]
        if tco.inputs is None:
            live.append(None)
            continue
        plan = live_sheets(
            book,
            index=k,
            many=many,
            report=tco,
            inputs=tco.inputs,
            horizon=horizon,
            depreciation=depreciation,
        )
        live.append(plan)
    cover_sheet(book, cover, report, live)
    cash_flow_sheet(book, book.sheet(text("report.sheet.cash", lang)), report, live)
    book.wb.move_sheet(depreciation, len(book.wb.worksheets) - 1 - book.wb.index(depreciation))
    sensitivity = book.sheet(text("report.sheet.sensitivity", lang))
    live_rows = sensitivity_sheet(book, sensitivity, report.sources, live)
    flips = book.sheet(text("report.wb.sheet.flips", lang))
    flips_sheet(book, flips, report.sources, (sensitivity, live_rows))
    ledger_sheet(book, book.sheet(text("report.sheet.ledger", lang)), report.ledger)
    replay_sheet(book, book.sheet(text("report.wb.sheet.replay", lang)), report.sources)
    add_chargeback_sheet(book.wb, report, chargeback, chargeback_columns(report, live))
    options_sheet(book, book.sheet(text("report.wb.sheet.options", lang)), report, live)
    _other_horizons_last(book, live)
    table_sheet(book, book.sheet(text("report.sheet.prices", lang)), report.prices, unique=True)
    notes_sheet(book, book.sheet(text("report.sheet.notes", lang)), report.notes)
    return _fixed_bytes(book.wb, datetime.combine(report.generated, time()))


def _other_horizons_last(book: Book, live: list[Live | None]) -> None:
    """The other horizons' option and comparison sheets after every sheet written so far
    (the options of all horizons; the prices and notes follow): a reader opens the report's
    horizon first."""
    for plan in live:
        for other in plan.others if plan is not None else ():
            sheets = [s for _, s, _ in other.options]
            for sheet in (*sheets, other.comparison):
                if sheet is not None:
                    book.wb.move_sheet(sheet, len(book.wb.worksheets) - 1 - book.wb.index(sheet))


def _fixed_bytes(wb: Workbook, when: datetime) -> bytes:
    """The saved workbook with its dates set to `when`, so the same report gives the same
    bytes (openpyxl stamps the document and each zip entry with the time of saving)."""
    wb.properties.created = wb.properties.modified = when
    saved = BytesIO()
    wb.save(saved)
    out = BytesIO()
    stamp = (max(when.year, 1980), when.month, when.day, 0, 0, 0)
    with zipfile.ZipFile(saved) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as to:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "docProps/core.xml":
                data = _no_clock(data)
            to.writestr(zipfile.ZipInfo(item.filename, date_time=stamp), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _no_clock(core: bytes) -> bytes:
    """openpyxl writes `modified` as the time of saving whatever the property says."""
    return re.sub(
        rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
        lambda m: m.group(1) + _created(core) + m.group(2),
        core,
    )


def _created(core: bytes) -> bytes:
    found = re.search(rb"<dcterms:created[^>]*>([^<]*)</dcterms:created>", core)
    return found.group(1) if found else b""
