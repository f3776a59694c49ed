"""Equal service in the workbook: on the Comparison sheet, each option's cost beside the share
of the demand it served and its p95 wait; on a cloud option's sheet, its packing figures
(`planner.cost.packing_facts`: GPU-hours billed and held a month, overhead = billed / held,
the per-GPU price floor, provisioning and cap waits).

Costs are formulas over the option sheets (total, cost per useful GPU-hour, the
served-elsewhere column's sum); the served share and p95 wait come from the replay and the
ledger, stated as the model computed them.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openpyxl.worksheet.worksheet import Worksheet

from planner.cost.packing_facts import PackingFacts
from planner.cost.tco import OptionReport
from planner.report.text import text
from planner.report.workbook.book import BOLD, Book, header, put, put_formula, put_text, ref, span
from planner.report.workbook.owned import COL as OWN
from planner.report.workbook.owned import LABEL_COLUMN, VALUE_COLUMN, figure
from planner.report.workbook.rented import FIGURES as CLOUD_FIGURES
from planner.report.workbook.rented import rented_figure

if TYPE_CHECKING:
    from planner.report.cells import Kind

SERVICE = ("option", "total", "per_useful", "served_share", "p95_wait", "elsewhere")


@dataclass(frozen=True, slots=True)
class Served:
    """One option as the Comparison sheet's service table shows it."""

    label: str
    sheet: Worksheet
    owned: bool
    option: OptionReport


def service_rows(options: int) -> int:
    """Rows the service table takes (a title, a header and a row per option)."""
    return options + 2


def service_table(book: Book, sheet: Worksheet, row: int, served: Sequence[Served]) -> None:
    """The table at `row` of the Comparison sheet."""
    lang, cur = book.lang, book.currency
    put_text(sheet.cell(row, 1), text("report.wb.service.title", lang)).font = BOLD
    header(sheet, row + 1, [text(f"report.wb.service.{k}", lang) for k in SERVICE])
    for k, s in enumerate(served, start=row + 2):
        here, o = s.sheet, s.option
        if s.owned:
            total, per_useful = figure(here, "total_pnl"), figure(here, "per_useful")
            months = len(o.monthly_pnl)
            elsewhere = f"SUM({span(here, 2, months + 1, OWN['served_elsewhere'], None)})"
        else:
            total, per_useful = rented_figure(here, "total_pnl"), rented_figure(here, "per_useful")
            elsewhere = "0"
        put_text(sheet.cell(k, 1), s.label)
        cells: tuple[tuple[str, Kind], ...] = (
            (total, "money"),
            (per_useful, "rate"),
            (elsewhere, "money"),
        )
        for column, (formula, kind) in zip((2, 3, 6), cells, strict=True):
            put_formula(sheet.cell(k, column), formula, kind, cur)
        put(sheet.cell(k, 4), o.served_share, "percent", cur)
        p95 = None if o.wait_p95_s is None else o.wait_p95_s / 3600
        put(sheet.cell(k, 5), p95, "decimal", cur)


PACKING = ("packing", "billed", "held", "overhead", "floor", "provisioning_p95", "cap_p95")


def packing_block(book: Book, sheet: Worksheet, facts: PackingFacts | None) -> None:
    """A cloud option's packing a month, under its key figures (nothing when not known)."""
    if facts is None:
        return
    lang, cur = book.lang, book.currency
    top = len(CLOUD_FIGURES) + 3
    put_text(sheet.cell(top, LABEL_COLUMN), text("report.wb.packing.title", lang)).font = BOLD
    rows = {key: top + 1 + k for k, key in enumerate(PACKING)}

    def cell(key: str) -> str:
        return ref(sheet, rows[key], VALUE_COLUMN, sheet)

    for key, r in rows.items():
        put_text(sheet.cell(r, LABEL_COLUMN), text(f"report.wb.packing.{key}", lang))
    rule = text(f"report.pdf.service.packing.{facts.packing}", lang)
    put_text(sheet.cell(rows["packing"], VALUE_COLUMN), rule)
    stated: tuple[tuple[str, float | None, Kind], ...] = (
        ("billed", facts.billed_gpu_hours, "number"),
        ("held", facts.held_gpu_hours, "number"),
        ("floor", facts.price_floor, "money"),
        ("provisioning_p95", _hours(facts.provisioning_wait_p95_s), "decimal"),
        ("cap_p95", _hours(facts.cap_wait_p95_s), "decimal"),
    )
    for key, value, kind in stated:
        put(sheet.cell(rows[key], VALUE_COLUMN), value, kind, cur)
    overhead = f'IF({cell("held")}>0,{cell("billed")}/{cell("held")},"")'
    put_formula(sheet.cell(rows["overhead"], VALUE_COLUMN), overhead, "decimal", cur)


def _hours(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / 3600
