"""The Cover sheet: the question, the answer, the scenarios, scope, date and the replay's twin
check, then each scenario's headline facts; the NPV of buying against each cloud option is
also shown live, from the Comparison sheet's formula."""

from collections.abc import Sequence
from datetime import date

from openpyxl.worksheet.worksheet import Worksheet

from planner.core.notes import worded
from planner.report.model import Report
from planner.report.text import text
from planner.report.workbook.book import (
    BOLD,
    TITLE,
    WRAP,
    Book,
    header,
    put,
    put_formula,
    put_text,
    ref,
)
from planner.report.workbook.scenario import Live


def cover_sheet(book: Book, sheet: Worksheet, report: Report, live: Sequence[Live | None]) -> None:
    lang, cur = book.lang, book.currency
    put_text(sheet.cell(1, 1), text("report.title", lang)).font = TITLE
    header(sheet, 2, [text("report.col.item", lang), text("report.col.value", lang)])
    rows: list[tuple[str, str | date]] = [
        (text("report.wb.cover.question", lang), text("report.wb.question", lang)),
    ]
    many = len(report.sources) > 1
    for head in report.headlines:
        label = text("report.fact.conclusion", lang)
        rows.append((f"{label}: {head.scenario}" if many else label, head.conclusion))
    rows.append((text("report.wb.cover.scenarios", lang), ", ".join(report.scenarios)))
    for name, tco in report.sources:
        label = text("report.fact.scope", lang)
        scope = text(f"report.scope.{tco.scope}", lang)
        rows.append((f"{label}: {name}" if many else label, scope))
    rows.append((text("report.fact.generated", lang), report.generated))
    for name, tco in report.sources:
        twin = tco.inputs.calibration if tco.inputs and tco.inputs.calibration else None
        label = text("report.wb.cover.twin", lang)
        shown = worded(twin, lang) if twin else text("report.wb.cover.no_twin", lang)
        rows.append((f"{label}: {name}" if many else label, shown))
    r = 3
    for text_label, value in rows:
        put_text(sheet.cell(r, 1), text_label).font = BOLD
        cell = sheet.cell(r, 2)
        if isinstance(value, date):
            cell.value = value
            cell.number_format = "yyyy-mm-dd"
        else:
            put_text(cell, value).alignment = WRAP
        r += 1
    for head, plan in zip(report.headlines, live, strict=True):
        r += 1
        for fact in head.facts:
            put_text(sheet.cell(r, 1), fact.label)
            put(sheet.cell(r, 2), fact.value, fact.kind, cur)
            r += 1
        if plan is not None and plan.comparison is not None:
            for k in range(len(plan.options)):
                row = 4 + k
                if plan.comparison.cell(row, 1).value is None:
                    break
                name = str(plan.comparison.cell(row, 1).value)
                put_text(sheet.cell(r, 1), text("report.wb.cover.npv_live", lang, name=name))
                put_formula(sheet.cell(r, 2), ref(plan.comparison, row, 2), "money", cur)
                r += 1
    sheet.freeze_panes = "A3"
    sheet.column_dimensions["A"].width = 48
    sheet.column_dimensions["B"].width = 90
