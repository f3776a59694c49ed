"""The Cover sheet: the question, the answer, the scenarios, scope, date and the replay's twin
check, then each scenario's headline facts. Every figure a formula can give is one, over the
option and comparison sheets (`planner.report.workbook.cover_figures`, whose blocks beside
the facts also hold page 1's figures as defined names); a scenario saved without its inputs
shows the model's values."""

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
)
from planner.report.workbook.cover_figures import Figures, live_figures
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
    figures = _blocks(book, sheet, report, live)
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
    for head, found in zip(report.headlines, figures, strict=True):
        r += 1
        for fact in head.facts:
            put_text(sheet.cell(r, 1), fact.label)
            live_fact = found.facts.get(fact.label) if found else None
            if live_fact is not None and fact.value is not None:
                put_formula(sheet.cell(r, 2), live_fact[0], live_fact[1], cur)
            else:
                put(sheet.cell(r, 2), fact.value, fact.kind, cur)
            r += 1
    sheet.freeze_panes = "A3"
    sheet.column_dimensions["A"].width = 48
    sheet.column_dimensions["B"].width = 90
    sheet.column_dimensions["D"].width = 44
    for column in "EFG":
        sheet.column_dimensions[column].width = 18


def _blocks(
    book: Book, sheet: Worksheet, report: Report, live: Sequence[Live | None]
) -> list[Figures | None]:
    """Each scenario's live figures beside the facts (None: saved without its inputs)."""
    many, row = len(report.sources) > 1, 3
    out: list[Figures | None] = []
    for k, ((_, tco), plan) in enumerate(zip(report.sources, live, strict=True)):
        if plan is None:
            out.append(None)
            continue
        row, found = live_figures(book, (sheet, row), plan, tco, f"S{k + 1}_" if many else "")
        out.append(found)
    return out
