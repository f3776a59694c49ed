"""The Monthly cash flow sheet: every option's cash a month (a reference to its option sheet's
formula, or the planner's value for a scenario without recorded inputs) and its cumulative
cash, with the cumulative cash chart."""

from collections.abc import Sequence

from openpyxl.worksheet.worksheet import Worksheet

from planner.cost.results import TcoReport
from planner.cost.tco import OptionReport
from planner.report.model import Report
from planner.report.text import text
from planner.report.workbook.book import Book, header, put, put_formula, ref, widths
from planner.report.workbook.compare import cash_chart
from planner.report.workbook.scenario import Live


def cash_flow_sheet(
    book: Book, sheet: Worksheet, report: Report, live: Sequence[Live | None]
) -> None:
    cur = book.currency
    table = report.cash
    labels = [c.label for c in table.columns[1:]]
    count = len(labels)
    cumulative = [f"{label} ({_word(book)})" for label in labels]
    header(sheet, 1, [table.columns[0].label, *labels, *cumulative])
    sources = [
        (sheet_, column) if plan is not None else None
        for plan, (_, tco) in zip(live, report.sources, strict=True)
        for sheet_, column in _columns(plan, len(_options(report, tco)))
    ]
    for r, row in enumerate(table.rows, start=2):
        put(sheet.cell(r, 1), row[0], "int", cur)
        for k in range(count):
            source = sources[k] if k < len(sources) else None
            cell = sheet.cell(r, 2 + k)
            if source is not None and source[0] is not None and row[k + 1] is not None:
                put_formula(cell, ref(source[0], r, source[1]), "money", cur)
            else:
                put(cell, row[k + 1], "money", cur)
            mine = ref(sheet, r, 2 + k, sheet)
            before = f"{ref(sheet, r - 1, 2 + count + k, sheet)}+" if r > 2 else ""
            put_formula(sheet.cell(r, 2 + count + k), f"{before}{mine}", "money", cur)
    sheet.freeze_panes = "B2"
    widths(sheet, dict.fromkeys(range(1, 2 + 2 * count), 18.0))
    if count and table.rows:
        cash_chart(sheet, count, len(table.rows), book.lang)


def _word(book: Book) -> str:
    return text("report.wb.cumulative", book.lang)


def _options(report: Report, tco: TcoReport) -> list[OptionReport]:
    horizon = tco.horizons[min(report.horizon_index, len(tco.horizons) - 1)]
    return list(horizon.options)


def _columns(plan: Live | None, count: int) -> list[tuple[Worksheet | None, int]]:
    if plan is None:
        return [(None, 0)] * count
    return [(sheet, column) for _, sheet, column in plan.options]
