"""The Cover's live figures: each option's cost per useful GPU-hour and total, and the
figures of the PDF's first page (the decision, the cloud option it is weighed against, the
NPV and break-even month of buying against it, the cost per useful GPU-hour, the key
assumptions), each a formula over the option and comparison sheets and a defined name
(`Page1_NPV`, ...; `S1_Page1_NPV` with several scenarios), so an edited Assumptions sheet
never leaves the Cover contradicting the sheets, and a test can hold page 1, the JSON and
the recalculated workbook to the same figures.

The decision follows `planner.report.pdf_summary.decide`: the option as built with the
lowest cost per useful GPU-hour (the first on a tie); buying is weighed as the headline pair
(`planner.cost.pair`) is, against the cheapest cloud option, on the Comparison sheet, or on
the hybrid's own comparison sheet when the pair's owned option is the hybrid.
"""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from openpyxl.worksheet.worksheet import Worksheet

from planner.cost.results import TcoReport
from planner.report.text import text
from planner.report.workbook.book import (
    BOLD,
    Book,
    header,
    option_label,
    put,
    put_formula,
    put_text,
    ref,
    span,
)
from planner.report.workbook.owned import COL as OWN
from planner.report.workbook.owned import figure
from planner.report.workbook.rented import rented_figure
from planner.report.workbook.scenario import Live

if TYPE_CHECKING:
    from planner.report.cells import Kind

COLUMN = 4
"""The blocks' first column (the Cover's facts take A and B)."""
PAGE_ONE: "tuple[tuple[str, str, Kind], ...]" = (
    ("decision", "Decision", "text"),
    ("priced", "OptionsPriced", "int"),
    ("against", "Against", "text"),
    ("npv", "NPV", "money"),
    ("break_even_month", "BreakEvenMonth", "int"),
    ("per_useful", "PerUseful", "rate"),
    ("owned_per_useful", "OwnedPerUseful", "rate"),
    ("decision_total", "DecisionTotal", "money"),
    ("break_even_allocation", "BreakEvenAllocation", "percent"),
    ("years", "Years", "decimal"),
    ("rate", "Rate", "percent"),
    ("useful_per_month", "UsefulPerMonth", "number"),
    ("installed_gpus", "InstalledGPUs", "int"),
    ("allocation", "Allocation", "percent"),
    ("fixed", "Fixed", "rate"),
    ("variable", "Variable", "rate"),
    ("resale", "Resale", "money"),
)
"""Page 1's figures: key, defined name (after `Page1_`), kind."""
AGAINST = "{against}"
"""Stands for the rival's cell in the formulas that look it up (written before them)."""


@dataclass
class Figures:
    """Where one scenario's live figures are: page 1's by key (defined names) and the
    headline facts' formulas by label."""

    page_one: dict[str, str] = field(default_factory=dict)
    facts: "dict[str, tuple[str, Kind]]" = field(default_factory=dict)


def live_figures(
    book: Book, where: tuple[Worksheet, int], plan: Live, tco: TcoReport, prefix: str
) -> tuple[int, Figures]:
    """Write one scenario's blocks at `where` (the Cover and a row; column `COLUMN`); the
    next free row and where the figures are."""
    sheet, row = where
    horizon = next((h for h in tco.horizons if h.years == plan.horizon_years), None)
    parts = {o.name for o in (horizon.options if horizon else ()) if o.part_of}
    options = _options_block(book, sheet, row, plan, parts)
    row += len(plan.options) + 2
    put_text(sheet.cell(row, COLUMN), text("report.wb.cover.page_one", book.lang)).font = BOLD
    formulas = _page_one(plan, tco, options)
    out = Figures()
    for key, name, kind in PAGE_ONE:
        if key not in formulas:
            continue
        row += 1
        put_text(sheet.cell(row, COLUMN), text(f"report.wb.page_one.{key}", book.lang))
        formula = formulas[key].replace(AGAINST, out.page_one.get("against", AGAINST))
        put_formula(sheet.cell(row, COLUMN + 1), formula, kind, book.currency)
        out.page_one[key] = book.define(f"{prefix}Page1_{name}", sheet, sheet.cell(row, COLUMN + 1))
    out.facts = _facts(book, plan, tco, out.page_one)
    return row + 2, out


@dataclass(frozen=True, slots=True)
class _Block:
    """The options block's columns as ranges: names, cost per useful GPU-hour, totals, and
    the cost per useful GPU-hour of the cloud options only."""

    names: str
    costs: str
    totals: str
    cloud_costs: str


def _options_block(book: Book, sheet: Worksheet, row: int, plan: Live, parts: set[str]) -> _Block:
    """Each option of the report's horizon: its name, cost per useful GPU-hour and total
    (from its sheet) and, for a cloud option, its cost again (the cheapest cloud's column).
    An option that is only a part of another (`parts`: the hybrid's owned part) says so
    instead of its cost, so the decision never ranks it (`planner.cost.pair.as_built`)."""
    lang, cur = book.lang, book.currency
    keys = ("option", "per_useful", "total", "cloud_per_useful")
    header(sheet, row, [text(f"report.wb.cover.opt.{k}", lang) for k in keys], COLUMN)
    owned = {s.title for s in _owned_sheets(plan)}
    for k, (name, option, _) in enumerate(plan.options, start=row + 1):
        mine = option.title in owned
        at = figure if mine else rented_figure
        put_text(sheet.cell(k, COLUMN), option_label(name, lang))
        put_formula(sheet.cell(k, COLUMN + 1), at(option, "per_useful"), "rate", cur)
        if name in parts:
            put_text(sheet.cell(k, COLUMN + 1), text("report.wb.cover.part_of", lang))
        put_formula(sheet.cell(k, COLUMN + 2), at(option, "total_pnl"), "money", cur)
        cost = ref(sheet, k, COLUMN + 1, sheet)
        put(sheet.cell(k, COLUMN + 3), None, "rate", cur)
        if not mine:
            put_formula(sheet.cell(k, COLUMN + 3), cost, "rate", cur)
    first, last = row + 1, row + len(plan.options)
    return _Block(*(span(sheet, first, last, COLUMN + j, sheet) for j in range(4)))


def _owned_sheets(plan: Live) -> list[Worksheet]:
    return [s for _, s, column in plan.options if column == OWN["cash"]]


def _page_one(plan: Live, tco: TcoReport, block: _Block) -> dict[str, str]:
    """Page 1's figures as formulas (those the scenario has)."""
    names = plan.names
    assert names is not None  # a live plan always has its names
    cheapest = f"MATCH(MIN({block.costs}),{block.costs},0)"
    out = {
        "decision": f"INDEX({block.names},{cheapest})",
        "priced": f"COUNT({block.costs})",
        "per_useful": f"MIN({block.costs})",
        "decision_total": f"INDEX({block.totals},{cheapest})",
        "years": f"{names.months}/12",
        "rate": names.rate,
    }
    owned = _owned_sheets(plan)
    if owned:
        first, weighed = owned[0], _pair_owner(plan, owned)
        out |= {
            "owned_per_useful": figure(weighed, "per_useful"),
            "installed_gpus": figure(first, "gpus"),
            "allocation": figure(first, "allocation"),
            "fixed": figure(first, "fixed"),
            "variable": figure(first, "variable"),
            "resale": f"-SUM({span(weighed, 2, plan.months + 1, OWN['resale'], None)})",
            "useful_per_month": names.owned[0].useful,
        }
    elif names.clouds:
        out["useful_per_month"] = names.clouds[0].useful
    year_one = _first_horizon(plan, tco)
    if plan.pair_comparison is not None:  # the pair is the hybrid's: its own sheet
        out |= _against(plan.pair_comparison, 1, block, year_one.pair_comparison)
    elif plan.comparison is not None:
        out |= _against(plan.comparison, plan.clouds, block, year_one.comparison)
    return out


def _pair_owner(plan: Live, owned: list[Worksheet]) -> Worksheet:
    """The owned option page 1 weighs: the hybrid of a hybrid headline pair, else the first
    (self-hosted)."""
    if plan.pair_comparison is None:
        return owned[0]
    return next(s for name, s, _ in plan.options if name == "hybrid")


def _against(
    comparison: Worksheet, clouds: int, block: _Block, first: Worksheet | None
) -> dict[str, str]:
    """The rival (the decision when it is a cloud option, else the cheapest cloud option)
    and buying against it, looked up by name on the Comparison sheets."""
    decision = f"INDEX({block.names},MATCH(MIN({block.costs}),{block.costs},0))"
    cheapest_cloud = f"INDEX({block.names},MATCH(MIN({block.cloud_costs}),{block.cloud_costs},0))"
    labels = span(comparison, 4, 3 + clouds, 1, None)
    rival = f"IF(ISNA(MATCH({decision},{labels},0)),{cheapest_cloud},{decision})"

    def lookup(sheet: Worksheet, column: int, key: str) -> str:
        values = span(sheet, 4, 3 + clouds, column, None)
        return f"INDEX({values},MATCH({key},{span(sheet, 4, 3 + clouds, 1, None)},0))"

    out = {
        "against": rival,
        "npv": lookup(comparison, 2, AGAINST),
        "break_even_month": lookup(comparison, 5, AGAINST),
    }
    if first is not None:
        out["break_even_allocation"] = lookup(first, 6, AGAINST)
    return out


def _first_horizon(plan: Live, tco: TcoReport) -> Live:
    """The sheets of the report's first horizon (the report-level figures are its)."""
    return plan.at(tco.horizons[0].years) or plan


def _facts(
    book: Book, plan: Live, tco: TcoReport, page_one: dict[str, str]
) -> "dict[str, tuple[str, Kind]]":
    """The Cover's headline facts (by label, as `planner.report.headline` words them) that
    a formula gives: page 1's figures and the first horizon's self-hosted costs."""
    lang = book.lang
    shared: dict[str, tuple[str, Kind]] = {
        "horizon": ("years", "decimal"),
        "cheapest": ("decision", "text"),
        "cheapest_cost": ("per_useful", "rate"),
        "installed_gpus": ("installed_gpus", "int"),
        "allocation": ("allocation", "percent"),
        "useful_per_month": ("useful_per_month", "number"),
        "pair_npv": ("npv", "money"),
    }
    out: dict[str, tuple[str, Kind]] = {
        text(f"report.fact.{fact}", lang): (page_one[key], kind)
        for fact, (key, kind) in shared.items()
        if key in page_one
    }
    first = _first_horizon(plan, tco)
    owned = _owned_sheets(first)
    if owned:
        for key in ("per_useful", "per_installed", "per_allocated"):
            out[text(f"report.fact.{key}", lang)] = (figure(owned[0], key), "rate")
    for k, c in enumerate(tco.horizons[0].comparisons):
        if first.comparison is not None:
            formula = ref(first.comparison, 4 + k, 6)
            out[text("report.fact.break_even", lang, name=c.rented)] = (formula, "percent")
    horizon = next((h for h in tco.horizons if h.years == plan.horizon_years), None)
    for k, c in enumerate(horizon.comparisons if horizon else ()):
        if plan.comparison is not None:
            formula = ref(plan.comparison, 4 + k, 2)
            out[text("report.fact.npv", lang, name=c.rented)] = (formula, "money")
    return out
