"""The "Options (all horizons)" sheet: every scenario, horizon and option with its cost by
category, total, costs per GPU-hour, useful GPU-hours, equivalent annual cost and idle cost.

Where a scenario's option sheets exist for that horizon (`Live.at`), each figure is a formula
over them: a category's total is the SUM of its monthly column, the others the option
sheet's key figures. So an edited Assumptions sheet moves every horizon's row with the
option sheets, never leaving a typed number that contradicts them. The replay's waits, and
every figure of a scenario saved without its inputs, are the model's values.
"""

from collections.abc import Sequence

from openpyxl.worksheet.worksheet import Worksheet

from planner.report.model import Report
from planner.report.workbook.book import Book, put_formula, span
from planner.report.workbook.owned import COL as OWN
from planner.report.workbook.owned import figure
from planner.report.workbook.rented import COL as RENT
from planner.report.workbook.rented import rented_figure
from planner.report.workbook.scenario import Live
from planner.report.workbook.tables import table_sheet

OWNED_FIGURES = {
    "total": "total_pnl",
    "cost_per_useful_gpu_hour": "per_useful",
    "cost_per_installed_gpu_hour": "per_installed",
    "cost_per_allocated_gpu_hour": "per_allocated",
    "useful_gpu_hours": "useful",
    "equivalent_annual_cost": "eac",
    "idle_cost": "idle",
}
"""The table's columns an owned option's sheet has as key figures."""
RENTED_FIGURES = {
    "total": "total_pnl",
    "cost_per_useful_gpu_hour": "per_useful",
    "useful_gpu_hours": "useful",
    "equivalent_annual_cost": "eac",
}
"""The table's columns a cloud option's sheet has as key figures."""


def options_sheet(
    book: Book, sheet: Worksheet, report: Report, live: Sequence[Live | None]
) -> None:
    """The options table, its figures live where the option sheets price them."""
    table = report.options
    table_sheet(book, sheet, table)
    keys = [c.key for c in table.columns]
    kinds = {c.key: c.kind for c in table.columns}
    row = 2
    for (_, tco), plan in zip(report.sources, live, strict=True):
        owned = {o.name for o in tco.inputs.owned} if tco.inputs else set()
        for horizon in tco.horizons:
            sheets = plan.at(horizon.years) if plan is not None else None
            by_name = {name: s for name, s, _ in sheets.options} if sheets else {}
            for option in horizon.options:
                found = by_name.get(option.name)
                if found is not None:
                    cells = _formulas(found, option.name in owned, round(horizon.years * 12))
                    cells |= _per_busy(sheet, row, keys, plan)
                    for key, formula in cells.items():
                        if key in keys and sheet.cell(row, keys.index(key) + 1).value is not None:
                            cell = sheet.cell(row, keys.index(key) + 1)
                            put_formula(cell, formula, kinds[key], book.currency)
                row += 1


def _per_busy(sheet: Worksheet, row: int, keys: list[str], plan: Live | None) -> dict[str, str]:
    """The cost per busy GPU-hour: the row's cost per useful GPU-hour / the named busy share."""
    busy = plan.names.busy_share if plan is not None and plan.names is not None else ""
    if not busy or "cost_per_busy_gpu_hour" not in keys:
        return {}
    useful = sheet.cell(row, keys.index("cost_per_useful_gpu_hour") + 1).coordinate
    return {"cost_per_busy_gpu_hour": f"{useful}/{busy}"}


def _formulas(option: Worksheet, owns: bool, months: int) -> dict[str, str]:
    """The table's columns as formulas over one option sheet of `months` rows."""
    columns, figures = (OWN, OWNED_FIGURES) if owns else (RENT, RENTED_FIGURES)
    totals = {
        key: f"SUM({span(option, 2, months + 1, column, None)})"
        for key, column in columns.items()
        if key not in ("month", "in_service", "pnl", "cash", "cumulative")
    }
    at = figure if owns else rented_figure
    return {**totals, **{key: at(option, short) for key, short in figures.items()}}
