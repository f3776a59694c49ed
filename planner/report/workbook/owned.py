"""An owned option's sheet (self-hosted, or the hybrid's kept servers) and its columns of the
Depreciation sheet: the monthly P&L and cash flow as formulas over the Assumptions' names,
rebuilding `planner.cost.tco.owned_option` and `planner.cost.baremetal.monthly`:

    CapEx        = servers x price x (1 + network + storage) + installation, paid in month 1
    in service   from month lead + 1 (lead = min(lead time, horizon)); before it the first
                 cloud option bridges the demand
    refresh      = CapEx again in month g x life + 1 (g >= 1) when that generation is
                 delivered within the horizon (life: the book life in months), so it goes into
                 service the month the one before it retires
    depreciation book schedule of the Depreciation sheet (from delivery, each generation
                 from its own)
    energy       = mean kW by hour of day (idle + (load - idle) x allocation) x PUE x tariff
                   x hours a month x (1 + power escalation) ^ INT((month - 1) / 12)
    running lines  each of `planner.cost.lines.LINES` (colocation, support, staff, ...): rate
                 x basis a month while in service; a line on book value is charged on the
                 Depreciation sheet's book value at the month's start; colocation and staff
                 x their escalation factor, as energy's; bridge and bursts x cloud's
    tax shield   = -tax rate x (tax depreciation + running costs)
    resale       = -resale share x CapEx in the last month and in each month a generation
                 retires (the servers sold: cash in)
    disposal tax = tax rate x (resale value - tax book value) in those months (a gain on
                 disposal pays tax, a loss saves it)

The key figures (column `VALUE_COLUMN`) sit at fixed rows so other sheets can refer to them.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openpyxl.worksheet.worksheet import Worksheet

from planner.cost.lines import CATEGORIES, LINE_KEYS, LINES
from planner.report.text import text
from planner.report.workbook import lines
from planner.report.workbook.assumptions import Names, OwnedNames
from planner.report.workbook.book import (
    BOLD,
    Book,
    eac_formula,
    header,
    npv_formula,
    put_formula,
    put_text,
    ref,
    span,
    widths,
)
from planner.report.workbook.owned_depreciation import DepreciationRefs, depreciation_block
from planner.report.workbook.timing import (
    escalation_factor,
    generation_age,
    retired,
)

if TYPE_CHECKING:
    from planner.report.cells import Kind

COLUMNS = (
    "month",
    "in_service",
    *CATEGORIES[:-1],  # capex .. bridge, as `planner.cost.baremetal.monthly` has them
    "cloud_burst",
    "served_elsewhere",
    "waiting",
    "tax_depreciation",
    "tax_shield",
    "resale",
    "disposal_tax",
    "pnl",
    "cash",
    "cumulative",
)

COL = {key: k for k, key in enumerate(COLUMNS, start=1)}
FIGURES = (
    "servers",
    "gpus",
    "capex",
    "lead",
    "energy_per_hour",
    *LINE_KEYS,
    "bridge",
    "burst",
    "elsewhere",
    "elsewhere_lead",
    "waiting",
    "total_pnl",
    "total_cash",
    "useful",
    "elsewhere_hours",
    "per_useful",
    "per_installed",
    "allocation",
    "per_allocated",
    "fixed",
    "variable",
    "idle",
    "npv_cash",
    "eac",
    "book_life",
    "book_residual",
    "tax_life",
    "tax_residual",
)
LABEL_COLUMN = len(COLUMNS) + 2
VALUE_COLUMN = LABEL_COLUMN + 1
ROW = {key: k for k, key in enumerate(FIGURES, start=2)}
ENERGY_COLUMN = VALUE_COLUMN + 2
"""Hour, allocation, tariff, kW: the energy table's first column."""
_KINDS: "dict[str, Kind]" = {
    "servers": "number",
    "gpus": "number",
    "lead": "int",
    "useful": "number",
    "elsewhere_hours": "number",
    "allocation": "percent",
    "book_life": "int",
    "tax_life": "int",
    "energy_per_hour": "rate",
    "per_useful": "rate",
    "per_installed": "rate",
    "per_allocated": "rate",
    "fixed": "rate",
    "variable": "rate",
}


def figure(sheet: Worksheet, key: str, here: Worksheet | None = None) -> str:
    """A key figure's cell on an option sheet (owned or rented)."""
    return ref(sheet, ROW[key], VALUE_COLUMN, here)


@dataclass(frozen=True, slots=True)
class Bridge:
    """What serves the demand before delivery: a cloud sheet's monthly total and the
    defined name of its useful GPU-hours a month ("0" for both without a cloud option)."""

    per_month: str = "0"
    useful: str = "0"


LATER_COLUMN = ENERGY_COLUMN + 5
"""Growing demand: year k's (k >= 2) allocation and kW by hour of day in columns
LATER_COLUMN + 2 (k - 2) and the next, its figures that move with the demand below them."""
LATER_ROWS = {"energy_per_hour": 27, "bridge": 28, "burst": 29, "elsewhere": 30, "waiting": 31}
Later = Sequence[tuple[OwnedNames, Bridge]]
"""Years 2, 3, ... of growing demand: the option's names and the bridge in each."""


def year_figure(sheet: Worksheet, key: str, year: int, here: Worksheet | None = None) -> str:
    """A figure of year `year`'s demand: year 1's key figure, a later year's own cell."""
    if year == 1 or key not in LATER_ROWS:
        return figure(sheet, key, here)
    return ref(sheet, LATER_ROWS[key], LATER_COLUMN + 2 * (year - 2) + 1, here)


def owned_sheet(
    book: Book,
    sheet: Worksheet,
    *,
    names: Names,
    mine: OwnedNames,
    hybrid: bool,
    months: int,
    bridge: Bridge,
    depreciation: tuple[Worksheet, int],
    later: Later = (),
) -> None:
    """Fill `sheet` (created empty) for an owned option over `months`; its depreciation goes
    to `depreciation` (sheet, first column); `later`: years 2, 3, ... of growing demand, each
    year's months priced from its own energy, bridge and bursts."""
    lang, cur = book.lang, book.currency
    labels = [text(f"report.wb.own.{k}", lang) for k in COLUMNS]
    header(sheet, 1, labels)
    _figures(book, sheet, names, mine, hybrid=hybrid, bridge=bridge)
    _energy(book, sheet, names, mine)
    for year, (grown, its_bridge) in enumerate(later, start=2):
        _later_year(book, sheet, names, grown, (year, its_bridge))
    dep_sheet, dep_col = depreciation
    last, years = months + 1, 1 + len(later)

    def book_value(row: int) -> str:
        """The book value at the start of row `row`'s month: CapEx less the depreciation of
        the months before it in the generation in service (the Depreciation sheet's
        accumulated charge, which starts again with each generation)."""
        capex = figure(sheet, "capex", sheet)
        if row == 2:
            return f"({capex})"
        age = generation_age(ref(sheet, row, 1, sheet), figure(sheet, "lead", sheet), life)
        return f"IF({age}=0,{capex},{capex}-{ref(dep_sheet, row - 1, dep_col + 2)})"

    life, s = figure(sheet, "book_life", sheet), names.scalars
    for r in range(2, last + 1):
        put_formula(sheet.cell(r, 1), f"{r - 1}", "int", cur)

        def c(key: str, row: int = r) -> str:
            return ref(sheet, row, COL[key], sheet)

        def f(key: str, row: int = r) -> str:
            return year_figure(sheet, key, year_of(row - 1, years), sheet)

        def up(rate: str) -> str:
            return escalation_factor(s[rate], c("month"))

        # a generation retired this month is sold against its tax book value at the end of
        # the month before (its last); the last one at the horizon's end against this month's
        cloud_up = escalation_factor(names.cloud_escalation, c("month"))
        gone = retired(c("month"), f("lead"), life) if r > 2 else "0"
        sold = f"({gone}+{1 if r == last else 0})"
        written_off = []  # the tax book value of what is sold this month
        if r > 2:
            written_off.append(f"{gone}*({f('capex')}-{ref(dep_sheet, r - 1, dep_col + 5)})")
        if r == last:
            written_off.append(ref(dep_sheet, r, dep_col + 6))
        cells = {
            "in_service": f"IF({c('month')}-1>={f('lead')},1,0)",
            "capex": f"IF({c('month')}=1,{f('capex')},0)",
            "refresh": (
                f"IF(AND({c('month')}-1>={life},MOD({c('month')}-1,{life})=0,"
                f"{c('month')}-1+{f('lead')}<{names.months}),{f('capex')},0)"
            ),
            "depreciation": ref(dep_sheet, r, dep_col + 1),
            "energy": (
                f"{c('in_service')}*{f('energy_per_hour')}*{names.hours}"
                f"*{up('power_escalation_year')}"
            ),
            **{
                line.key: lines.month_cell(line, c("in_service"), f(line.key), names, book_value(r))
                + (f"*{up(line.escalation)}" if line.escalation else "")
                for line in LINES
            },
            "bridge": f"(1-{c('in_service')})*{f('bridge')}*{cloud_up}",
            "cloud_burst": f"{c('in_service')}*{f('burst')}*{cloud_up}",
            "served_elsewhere": (
                f"{c('in_service')}*{f('elsewhere')}+(1-{c('in_service')})*{f('elsewhere_lead')}"
            ),
            "waiting": f"{c('in_service')}*{f('waiting')}",
            "tax_depreciation": ref(dep_sheet, r, dep_col + 4),
            "tax_shield": f"-{names.tax}*({c('tax_depreciation')}+{_running(c)})",
            "resale": f"-{s['resale_share']}*{f('capex')}*{sold}" if written_off else "0",
            "disposal_tax": (
                f"{names.tax}*(-{c('resale')}-({'+'.join(written_off)}))" if written_off else "0"
            ),
            "pnl": f"{c('depreciation')}+{_running(c)}+{_bills(c)}",
            "cash": (
                f"{c('capex')}+{c('refresh')}+{_running(c)}+{c('tax_shield')}"
                f"+{_bills(c)}*(1-{names.tax})+{c('resale')}+{c('disposal_tax')}"
            ),
            "cumulative": c("cash") if r == 2 else f"{c('cumulative', r - 1)}+{c('cash')}",
        }
        for key, formula in cells.items():
            kind: Kind = "int" if key == "in_service" else "money"
            put_formula(sheet.cell(r, COL[key]), formula, kind, cur)
    _totals(book, sheet, names, [(mine, bridge), *later], months=months)
    refs = DepreciationRefs(
        *(figure(sheet, k) for k in ("capex", "lead", "book_life", "book_residual")),
        *(figure(sheet, k) for k in ("tax_life", "tax_residual")),
    )
    depreciation_block(book, (dep_sheet, dep_col), sheet.title, refs, names=names, months=months)
    sheet.freeze_panes = "B2"
    widths(sheet, {**dict.fromkeys(range(1, 19), 14.0), LABEL_COLUMN: 40, VALUE_COLUMN: 16})


def _bills(c: Callable[[str], str]) -> str:
    """The cloud bills of one month beside the bridge: bursts, demand bought elsewhere and
    waiting (`planner.cost.elsewhere`), deductible alike."""
    return f"({c('cloud_burst')}+{c('served_elsewhere')}+{c('waiting')})"


def _running(c: Callable[[str], str]) -> str:
    """Energy, the running lines and the bridge in one month."""
    keys = ("energy", *LINE_KEYS, "bridge")
    return "(" + "+".join(c(k) for k in keys) + ")"


def _figures(
    book: Book, sheet: Worksheet, names: Names, mine: OwnedNames, *, hybrid: bool, bridge: Bridge
) -> None:
    """The fixed-a-month figures (column `VALUE_COLUMN`) the monthly rows use."""
    s, p, here = names.scalars, names.pools, sheet
    servers = mine.servers
    share = f"SUM({servers})/SUM({p['servers']})" if hybrid else "1"
    capex = (
        f"SUMPRODUCT({servers},{p['price']})*(1+{s['network_share']}+{s['storage_share']})"
        f"+{s['installation']}*{share}"
    )
    fixed = lines.Figures(s, p, servers, share, figure(sheet, "capex", here))
    hours = _energy_span(sheet)
    formulas = {
        "servers": f"SUM({servers})",
        "gpus": f"SUMPRODUCT({servers},{p['gpus']})",
        "capex": capex,
        "lead": f"MIN({s['lead_time_months']},{names.months})",
        "energy_per_hour": f"SUMPRODUCT({hours[3]},{hours[2]})*{s['pue']}/24",
        **{line.key: fixed.line(line, figure(sheet, "gpus", here)) for line in LINES},
        "bridge": bridge.per_month,
        "burst": mine.burst.formula() if mine.burst else "0",
        "elsewhere": f"{mine.unserved}*{names.elsewhere_rate}",
        "elsewhere_lead": f"{names.unserved_lead}*{names.elsewhere_rate}",
        "waiting": f"{mine.waited}*{names.wait_rate}",
    }
    for key, formula in formulas.items():
        _put_figure(book, sheet, key, formula)


def _put_figure(book: Book, sheet: Worksheet, key: str, formula: str) -> None:
    row = ROW[key]
    put_text(sheet.cell(row, LABEL_COLUMN), text(f"report.wb.fig.{key}", book.lang))
    put_formula(sheet.cell(row, VALUE_COLUMN), formula, _KINDS.get(key, "money"), book.currency)


def _energy_span(sheet: Worksheet) -> list[str]:
    """The energy table's columns (hour, allocation, tariff, kW) as ranges of 24 rows."""
    return [span(sheet, 2, 25, ENERGY_COLUMN + k, sheet) for k in range(4)]


def _energy(book: Book, sheet: Worksheet, names: Names, mine: OwnedNames) -> None:
    """24 hours of the day: the replay's allocation, the tariff and the kW drawn."""
    lang, cur, p = book.lang, book.currency, names.pools
    keys = ("hour", "allocation", "tariff", "kw")
    header(sheet, 1, [text(f"report.wb.energy.{k}", lang) for k in keys], ENERGY_COLUMN)
    servers = mine.servers
    for h in range(24):
        r = h + 2
        util = f"INDEX({mine.util},{h + 1})" if mine.util_hours > 1 else mine.util
        tariff = f"INDEX({names.tariff},{h + 1})" if names.tariff_hours > 1 else names.tariff
        alloc = ref(sheet, r, ENERGY_COLUMN + 1, sheet)
        kw = (
            f"SUMPRODUCT({servers},{p['idle']})"
            f"+SUMPRODUCT({servers},{p['load']}-{p['idle']})*{alloc}"
        )
        put_formula(sheet.cell(r, ENERGY_COLUMN), f"{h}", "int", cur)
        put_formula(sheet.cell(r, ENERGY_COLUMN + 1), util, "percent", cur)
        put_formula(sheet.cell(r, ENERGY_COLUMN + 2), tariff, "rate", cur)
        put_formula(sheet.cell(r, ENERGY_COLUMN + 3), kw, "decimal", cur)


def _later_year(
    book: Book, sheet: Worksheet, names: Names, mine: OwnedNames, grown: tuple[int, Bridge]
) -> None:
    """Year `year`'s allocation and kW by hour of day, and its energy a month, bridge and
    bursts (`LATER_ROWS`), in its two columns."""
    lang, cur, p = book.lang, book.currency, names.pools
    year, bridge = grown
    first = LATER_COLUMN + 2 * (year - 2)
    labels = [text(f"report.wb.year.{k}", lang, year=year) for k in ("allocation", "kw")]
    header(sheet, 1, labels, first)
    for h in range(24):
        r = h + 2
        util = f"INDEX({mine.util},{h + 1})" if mine.util_hours > 1 else mine.util
        alloc = ref(sheet, r, first, sheet)
        kw = (
            f"SUMPRODUCT({mine.servers},{p['idle']})"
            f"+SUMPRODUCT({mine.servers},{p['load']}-{p['idle']})*{alloc}"
        )
        put_formula(sheet.cell(r, first), util, "percent", cur)
        put_formula(sheet.cell(r, first + 1), kw, "decimal", cur)
    kw_span = span(sheet, 2, 25, first + 1, sheet)
    formulas = {
        "energy_per_hour": (
            f"SUMPRODUCT({kw_span},{_energy_span(sheet)[2]})*{names.scalars['pue']}/24"
        ),
        "bridge": bridge.per_month,
        "burst": mine.burst.formula() if mine.burst else "0",
        "elsewhere": f"{mine.unserved}*{names.elsewhere_rate}",
        "waiting": f"{mine.waited}*{names.wait_rate}",
    }
    for key, formula in formulas.items():
        put_text(sheet.cell(LATER_ROWS[key], first), text(f"report.wb.fig.{key}", lang))
        put_formula(sheet.cell(LATER_ROWS[key], first + 1), formula, _KINDS.get(key, "money"), cur)
    widths(sheet, {first: 14.0, first + 1: 16.0})


def year_of(month: int, years: int) -> int:
    """The year of demand month `month` (1-based) is priced from (the last beyond)."""
    return min((month - 1) // 12 + 1, years)


def _year_rows(months: int, years: int) -> list[tuple[int, int]]:
    """Each year's first and last row of the monthly table (years with no month left out)."""
    spans = [
        ((k - 1) * 12 + 1, months if k == years else min(k * 12, months))
        for k in range(1, years + 1)
    ]
    return [(a + 1, b + 1) for a, b in spans if a <= months]


def _by_year(
    sheet: Worksheet, mine: Sequence[tuple[OwnedNames, Bridge]], months: int
) -> tuple[str, str]:
    """Useful GPU-hours over the horizon and the in-service-weighted allocation, each year's
    months at that year's demand (in service: the option's own; before it, the bridge's)."""
    useful, weighted = [], []
    for k, (first, last) in enumerate(_year_rows(months, len(mine))):
        own, bridge = mine[k]
        served = f"SUM({span(sheet, first, last, COL['in_service'], sheet)})"
        useful.append(f"{own.useful}*{served}+{bridge.useful}*({last - first + 1}-{served})")
        column = ENERGY_COLUMN + 1 if k == 0 else LATER_COLUMN + 2 * (k - 1)
        weighted.append(f"AVERAGE({span(sheet, 2, 25, column, sheet)})*{served}")
    in_service = f"SUM({span(sheet, 2, months + 1, COL['in_service'], sheet)})"
    year_one = f"AVERAGE({_energy_span(sheet)[1]})"
    allocation = f"IF({in_service}>0,({'+'.join(weighted)})/{in_service},{year_one})"
    return "+".join(useful), allocation


def _totals(
    book: Book,
    sheet: Worksheet,
    names: Names,
    mine: Sequence[tuple[OwnedNames, Bridge]],
    *,
    months: int,
) -> None:
    """Totals and unit costs over the horizon, as `owned_option` reports them; `mine`: the
    option's names and bridge in each year of demand (year 1's alone without growth)."""
    s, p, here, last = names.scalars, names.pools, sheet, months + 1
    (first_year, bridge) = mine[0]
    useful = f"{first_year.useful}*({names.months}-{figure(sheet, 'lead', here)})"
    useful += f"+{bridge.useful}*{figure(sheet, 'lead', here)}"
    allocation = f"AVERAGE({_energy_span(sheet)[1]})"
    if len(mine) > 1:
        useful, allocation = _by_year(sheet, mine, months)

    def f(key: str) -> str:
        return figure(sheet, key, here)

    def column(key: str) -> str:
        return span(sheet, 2, last, COL[key], here)

    in_service = f"({names.months}-{f('lead')})*{names.hours}"
    own = (
        f"({f('total_pnl')}-SUM({column('bridge')})-SUM({column('served_elsewhere')})"
        f"-SUM({column('waiting')}))"
    )
    rate = names.elsewhere_rate
    hours = _energy_span(sheet)
    fixed_year = (
        f"{f('capex')}*(1-{s['residual_share']})/{s['life_years']}"
        f"+12*({lines.fixed_year(f, s)})"
        f"+SUMPRODUCT({first_year.servers},{p['idle']})"
        f"*{s['pue']}*AVERAGE({hours[2]})*12*{names.hours}"
    )
    cash = column("cash")
    first, rest = ref(sheet, 2, COL["cash"], here), span(sheet, 3, last, COL["cash"], here)
    formulas = {
        "total_pnl": f"SUM({column('pnl')})",
        "total_cash": f"SUM({cash})",
        "useful": useful,
        "elsewhere_hours": f"IF({rate}>0,SUM({column('served_elsewhere')})/{rate},0)",
        "per_useful": (
            f"IF({f('useful')}+{f('elsewhere_hours')}>0,"
            f'{f("total_pnl")}/({f("useful")}+{f("elsewhere_hours")}),"")'
        ),
        "per_installed": (
            f"IF({f('gpus')}*{in_service}>0,"
            f'{own}/({f("gpus")}*{in_service}*{s["availability"]}),"")'
        ),
        "allocation": allocation,
        "per_allocated": (
            f"IF({f('allocation')}*{f('gpus')}*{in_service}>0,"
            f'{own}/({f("allocation")}*{f("gpus")}*{in_service}),"")'
        ),
        "fixed": f"({fixed_year})/({f('gpus')}*12*{names.hours})",
        "variable": (
            f"SUMPRODUCT({first_year.servers},{p['load']}-{p['idle']})*{s['pue']}"
            f"*AVERAGE({hours[2]})/{f('gpus')}"
        ),
        "idle": f"(1-{f('allocation')})*{f('fixed')}*{f('gpus')}*{in_service}",
        "npv_cash": npv_formula(first, rest if months > 1 else None, names.rate),
        "eac": eac_formula(f("npv_cash"), names.rate, names.months),
        "book_life": f"ROUND({s['life_years']}*12,0)",
        "book_residual": f"{f('capex')}*{s['residual_share']}",
        "tax_life": f"ROUND({s['tax_life_years']}*12,0)",
        "tax_residual": f"IF({names.tax}>0,{f('book_residual')},0)",
    }
    for key, formula in formulas.items():
        _put_figure(book, sheet, key, formula)
    put_text(sheet.cell(1, LABEL_COLUMN), text("report.wb.key_figures", book.lang)).font = BOLD
