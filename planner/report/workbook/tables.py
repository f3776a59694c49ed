"""The workbook's value sheets: the report's tables (options over every horizon, prices used,
notes), the Ledger with its balance as a formula, and the Replay summary (utilization, waits,
why jobs waited). Sensitivity is `planner.report.workbook.sensitivity`."""

from collections.abc import Sequence

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from planner.core.i18n import Language
from planner.cost.inputs import ReplayFacts
from planner.report.cells import Kind
from planner.report.headline import Named
from planner.report.model import Table
from planner.report.text import text
from planner.report.workbook.book import (
    BOLD,
    MAX_WIDTH,
    WRAP,
    Book,
    display_width,
    header,
    option_label,
    put,
    put_formula,
    put_text,
)


def table_sheet(book: Book, sheet: Worksheet, table: Table, unique: bool = False) -> None:
    """`table` as a sheet: header frozen, numbers formatted, text as text (rows once each
    with `unique`)."""
    header(sheet, 1, [c.label for c in table.columns])
    rows = list(dict.fromkeys(table.rows)) if unique else list(table.rows)
    for r, row in enumerate(rows, start=2):
        for k, (value, column) in enumerate(zip(row, table.columns, strict=True), start=1):
            put(sheet.cell(r, k), value, column.kind, book.currency)
    sheet.freeze_panes = "B2" if table.columns and table.columns[0].key == "month" else "A2"
    for k, column in enumerate(table.columns, start=1):
        sample = [display_width(str(r[k - 1])) for r in rows[:50] if isinstance(r[k - 1], str)]
        numeric = 14 if column.kind != "text" else 0
        width = max([display_width(column.label) // 2 + 2, numeric, *sample])
        sheet.column_dimensions[get_column_letter(k)].width = min(MAX_WIDTH, width + 2)


def ledger_sheet(book: Book, sheet: Worksheet, table: Table) -> None:
    """The ledger, its imbalance a formula: demanded - (owned + cloud + unserved)."""
    table_sheet(book, sheet, table)
    keys = [c.key for c in table.columns]
    demanded, imbalance = keys.index("demanded") + 1, keys.index("imbalance") + 1
    first, last = get_column_letter(demanded + 1), get_column_letter(imbalance - 1)
    for r in range(2, len(table.rows) + 2):
        formula = f"{get_column_letter(demanded)}{r}-SUM({first}{r}:{last}{r})"
        put_formula(sheet.cell(r, imbalance), formula, "number", book.currency)


def notes_sheet(book: Book, sheet: Worksheet, notes: Sequence[str]) -> None:
    put_text(sheet.cell(1, 1), text("report.col.note", book.lang)).font = BOLD
    for r, note in enumerate(notes or (text("report.note.none", book.lang),), start=2):
        put_text(sheet.cell(r, 1), note).alignment = WRAP
    sheet.freeze_panes = "A2"
    sheet.column_dimensions["A"].width = 120


def replay_sheet(book: Book, sheet: Worksheet, reports: Sequence[Named]) -> None:
    """Each owned option's replay: jobs, utilization, waits and why jobs waited (with growing
    demand, each year's replay)."""
    lang, cur = book.lang, book.currency
    r = 1
    keys = ("scenario", "option", "item", "value")
    header(sheet, r, [text(f"report.wb.replay.{k}", lang) for k in keys])
    sheet.freeze_panes = "A2"
    for name, report in reports:
        years = report.inputs.by_year() if report.inputs else ()
        owned_by_year = [(k, o) for k, year in enumerate(years, start=1) for o in year.owned]
        for year, owned in owned_by_year:
            if owned.replay is None:
                continue
            option = option_label(owned.name, lang)
            if len(years) > 1:
                option = text("report.wb.in.year_tag", lang, name=option, year=year)
            for label, value, kind in _facts(owned.replay, lang):
                r += 1
                put_text(sheet.cell(r, 1), name)
                put_text(sheet.cell(r, 2), option)
                put_text(sheet.cell(r, 3), label)
                put(sheet.cell(r, 4), value, kind, cur)
    if r == 1:
        put_text(sheet.cell(2, 1), text("report.wb.replay.none", lang))
    for k, size in enumerate((24, 14, 56, 16), start=1):
        sheet.column_dimensions[get_column_letter(k)].width = size


def _facts(facts: ReplayFacts, lang: Language) -> list[tuple[str, float | None, Kind]]:
    def hours(seconds: float | None) -> float | None:
        return None if seconds is None else seconds / 3600

    def label(key: str) -> str:
        return text(f"report.wb.replay.{key}", lang)

    rows: list[tuple[str, float | None, Kind]] = [
        (label("jobs"), facts.jobs, "number"),
        (label("completed"), facts.completed, "number"),
        (label("unschedulable"), facts.unschedulable, "number"),
        (label("unfinished"), facts.unfinished, "number"),
        (label("utilization"), facts.utilization, "percent"),
        (label("wait_mean"), hours(facts.wait_mean_s), "hours"),
        (label("wait_p95"), hours(facts.wait_p95_s), "hours"),
    ]
    for reason, value in sorted(facts.waiting_gpu_hours_by_reason.items(), key=lambda kv: -kv[1]):
        rows.append((text("report.wb.replay.waited", lang, reason=reason), value, "hours"))
    for reason, count in sorted(facts.unschedulable_by_reason.items(), key=lambda kv: -kv[1]):
        rows.append((text("report.wb.replay.never_ran", lang, reason=reason), count, "number"))
    return rows
