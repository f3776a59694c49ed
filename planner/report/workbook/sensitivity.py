"""The Sensitivity sheet: the tornado of `planner.cost.comparison` (NPV of buying for the
headline pair, `planner.cost.pair`, over the first horizon, each driver moved to
base x (1 - swing) and base x (1 + swing) alone), with the input each case sets and a bar
chart.

Live where a driver is one input a formula chain already follows: each such case is a column
re-evaluating the monthly saving of buying with that input moved, and its NPV. The model is
linear in each of these inputs, so a month's saving moves by the input's change times the
column it scales (f is the case's factor, t the tax rate; the columns are the self-hosted
sheet's and the pair's cloud option's):

    discount rate     the same savings, discounted at the moved rate
    electricity, PUE  - f x (1 - t) x energy            f = moved / base - 1 (PUE at least 1)
    staff cost        - f x (1 - t) x staff             f = multiplier - 1
    cloud price       + f x (1 - t) x in service        f = (m - 1) x bill without commitment
    commitment price  + f x (1 - t) x in service        f = (m - 1) x commitment
    demand            + f x (1 - t) x in service        f = (m - 1) x bill - energy a month
                                                            moved (allocation by hour x m,
                                                            at most 1: a 24-hour kW table)
    server price      - f x (CapEx + (1 - t) lines on CapEx or book value (spares, ...)
                           - t tax depreciation + resale + disposal tax)
                      - (m - 1)(1 - t) lines on server price (support)
                                                         f = (m - 1) x servers' share of CapEx
    resale share      + f x (1 - t) x CapEx, last month  f = moved share - share (the resale
                                                            value less its disposal tax)

(in service: renting's bill is moved in every month, and so is the bridge before delivery,
so the saving moves only in the months the servers are in service). Server life and FX are
the model's values, not live: a life moves the whole depreciation schedule (in whole months
or years), FX moves server and cloud prices together; so are every driver of a scenario
whose workbook shows another horizon than the first, or was saved without its inputs, or
grows its demand (the model's tornado is year 1's; the sheets price every year's), or whose
pair is the hybrid (no Comparison columns weigh it), or a cloud option other than the one
that bridges a lead time (the cases move the months in service only). The resale
share's low and high are not base x (1 -/+ swing) but the share -/+ 0.30 of CapEx, within 0
and 1 (`planner.cost.comparison.RESALE_SWING`: its base is usually 0).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from openpyxl.chart import BarChart, Reference
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from planner.core.notes import worded
from planner.cost.comparison import RESALE_SWING, resale_range
from planner.cost.lines import LINES, MOVES_WITH_CAPEX, Basis
from planner.cost.pair import OWNED
from planner.cost.results import SensitivityBar, TcoReport
from planner.report.cells import Kind
from planner.report.headline import Named
from planner.report.text import text
from planner.report.workbook.assumptions import Names
from planner.report.workbook.book import (
    BOLD,
    Book,
    header,
    npv_formula,
    put,
    put_formula,
    put_text,
    ref,
    span,
)
from planner.report.workbook.compare import saving_cells
from planner.report.workbook.owned import COL as OWN
from planner.report.workbook.owned import ENERGY_COLUMN, figure
from planner.report.workbook.rented import rented_figure
from planner.report.workbook.scenario import Live
from planner.report.workbook.timing import escalation_factor, retired

LIVE = (
    "rate",
    "electricity",
    "pue",
    "staff",
    "cloud_price",
    "commit_price",
    "utilization",
    "server_price",
    "resale_share",
)
_KEYS = (
    "scenario",
    "output",
    "driver",
    "input",
    "multiplier_low",
    "multiplier_high",
    "input_low",
    "input_high",
    "low",
    "high",
    "swing",
    "base",
    "how",
)
COL = {key: k for k, key in enumerate(_KEYS, start=1)}
_BLOCK_TOP = 24
"""Case blocks start below the chart's rows."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """A scenario's live sheets the cases refer to."""

    names: Names
    own: Worksheet
    cloud: Worksheet
    comparison: Worksheet
    clouds: int
    months: int
    k: int = 0
    """The headline pair's cloud option among the clouds (its saving's columns, row 4 + k)."""


LiveRows = dict[tuple[str, str], int]
"""The bar table's row of each live case, by scenario and driver."""


def sensitivity_sheet(
    book: Book, sheet: Worksheet, reports: Sequence[Named], live: Sequence[Live | None]
) -> LiveRows:
    """Each scenario's tornado; its live drivers' cases in blocks below the table. Returns
    the rows of the live cases (the flips sheet interpolates them)."""
    live_rows: LiveRows = {}
    lang = book.lang
    header(sheet, 1, [text(f"report.wb.sens.{k}", lang) for k in _KEYS])
    rows = sum(len(r.sensitivity.bars) for _, r in reports if r.sensitivity)
    r, top = 2, max(_BLOCK_TOP, rows + 4)
    for (name, report), plan in zip(reports, live, strict=True):
        s = report.sensitivity
        if s is None:
            continue
        found = _plan(report, plan)
        cases = [b for b in s.bars if b.driver in LIVE] if found else []
        block = _Block(book, sheet, found, top, cases) if found and cases else None
        for bar in s.bars:
            _bar_row(book, sheet, r, (name, report), bar=bar, block=block)
            if block is not None and bar.driver in LIVE:
                live_rows[name, bar.driver] = r
            r += 1
        if block is not None:
            top = block.write(name) + 3
    sheet.freeze_panes = "A2"
    for k, size in enumerate((22, 36, 20, 30, 11, 11, 14, 14, 16, 16, 16, 16, 34), start=1):
        sheet.column_dimensions[get_column_letter(k)].width = size
    if r > 2:
        _chart(sheet, r - 1, lang)
    return live_rows


def _plan(report: TcoReport, plan: Live | None) -> _Plan | None:
    """The live sheets, when they show the sensitivity's horizon (the first) and its pair is
    the self-hosted servers against a cloud option the Comparison sheet weighs them against."""
    if plan is None or plan.names is None or plan.comparison is None:
        return None
    if plan.owned is None or not plan.cloud_sheets or not report.horizons:
        return None
    if plan.months != round(report.horizons[0].years * 12) or plan.years > 1:
        return None  # another horizon, or growing demand: the model's tornado is year 1's
    k = _pair_cloud(report)
    if k is None:
        return None
    return _Plan(
        plan.names, plan.owned, plan.cloud_sheets[k], plan.comparison, plan.clouds, plan.months, k
    )


def _pair_cloud(report: TcoReport) -> int | None:
    """The pair's cloud option's index among the clouds, when the cases can follow it: the
    owned side is the self-hosted servers (the hybrid has no Comparison columns), and the
    bridge in the lead time is that same cloud option or there is no lead time (the cases
    move the saving in the months in service only)."""
    pair = report.horizons[0].pair
    if pair is None or pair.owned != "self-hosted":
        return None
    clouds = [o.name for o in report.horizons[0].options if o.name not in OWNED]
    k = clouds.index(pair.rented)
    inputs = report.inputs
    lead = inputs.owned[0].bare_metal.lead_time_months if inputs and inputs.owned else 1
    return k if k == 0 or lead == 0 else None


def _bar_row(
    book: Book,
    sheet: Worksheet,
    r: int,
    named: Named,
    *,
    bar: SensitivityBar,
    block: "_Block | None",
) -> None:
    lang, cur = book.lang, book.currency
    name, report = named
    s = report.sensitivity
    assert s is not None  # rows are written for a report's bars only
    live = block is not None and bar.driver in LIVE
    for key, value in (
        ("scenario", name),
        ("output", worded(s.output, lang)),
        ("driver", text(f"report.driver.{bar.driver}", lang)),
        ("input", text(f"report.wb.sens_input.{bar.driver}", lang)),
        ("how", text(f"report.wb.sens.{'live' if live else 'model'}", lang)),
    ):
        put_text(sheet.cell(r, COL[key]), value)
    if block is not None and live:
        block.bar(r, bar.driver)
        return
    (low, high), kind = _moved(report, bar.driver)
    shown = _model_input(report, bar.driver, (low, high))
    cells: tuple[tuple[str, float, Kind], ...] = (
        ("multiplier_low", low, kind),
        ("multiplier_high", high, kind),
        ("input_low", shown[0], kind),
        ("input_high", shown[1], kind),
        ("low", bar.low, "money"),
        ("high", bar.high, "money"),
        ("swing", bar.swing, "money"),
        ("base", s.base, "money"),
    )
    for key, number, cell_kind in cells:
        put(sheet.cell(r, COL[key]), number, cell_kind, cur)


def _moved(report: TcoReport, driver: str) -> tuple[tuple[float, float], Kind]:
    """A model-only case's low and high: the base x (1 -/+ swing) (the rate's base is the
    rate, the others' 1), or the resale share's absolute range (`comparison.resale_range`)."""
    inputs = report.inputs
    if driver == "resale_share":
        share = inputs.owned[0].bare_metal.resale_share if inputs and inputs.owned else 0.0
        return resale_range(share), "percent"
    swing = inputs.sensitivity_swing if inputs else 0.2
    rate = inputs.discount_rate if inputs else None
    base = rate if driver == "rate" and rate is not None else 1.0
    kind: Kind = "percent" if driver == "rate" else "decimal"
    return (base * (1 - swing), base * (1 + swing)), kind


def _model_input(report: TcoReport, driver: str, moved: tuple[float, float]) -> tuple[float, float]:
    """The input a model-only case sets: a life in years as the model rounds it, otherwise
    the multiplier (or rate) itself."""
    if driver != "life" or not report.inputs or not report.inputs.owned:
        return moved
    bm = report.inputs.owned[0].bare_metal
    unit = 12 if bm.depreciation_method != "straight_line" else 1
    low, high = (max(1, round(bm.life_years * m * 12 / unit)) * unit / 12 for m in moved)
    return low, high


class _Block:
    """A live scenario's cases: a factor row, an NPV row and the monthly savings, one
    column per case (driver low, driver high)."""

    def __init__(
        self, book: Book, sheet: Worksheet, plan: _Plan, top: int, bars: Sequence[SensitivityBar]
    ) -> None:
        self.book, self.sheet, self.plan, self.top = book, sheet, plan, top
        self.cases = [(b.driver, side) for b in bars for side in ("low", "high")]
        self.bar_row: dict[str, int] = {}

    def column(self, driver: str, side: str) -> int:
        return 2 + self.cases.index((driver, side))

    def bar(self, r: int, driver: str) -> None:
        """The bar table's row `r` for a live driver: multipliers from the swing, the input
        each case sets, the NPVs from the block, swing and base as formulas."""
        cur, sheet = self.book.currency, self.sheet
        self.bar_row[driver] = r
        kind: Kind = "percent" if driver in ("rate", "resale_share") else "decimal"
        for key, sign in (("multiplier_low", "-"), ("multiplier_high", "+")):
            put_formula(sheet.cell(r, COL[key]), self._multiplier(driver, sign), kind, cur)
        for side in ("low", "high"):
            m = ref(sheet, r, COL[f"multiplier_{side}"], sheet)
            shown, shown_kind = self._shown(driver, m)
            put_formula(sheet.cell(r, COL[f"input_{side}"]), shown, shown_kind, cur)
            npv = ref(sheet, self.top + 3, self.column(driver, side), sheet)
            put_formula(sheet.cell(r, COL[side]), npv, "money", cur)
        low, high = (ref(sheet, r, COL[k], sheet) for k in ("low", "high"))
        put_formula(sheet.cell(r, COL["swing"]), f"ABS({high}-{low})", "money", cur)
        base = ref(self.plan.comparison, 4 + self.plan.k, 2)
        put_formula(sheet.cell(r, COL["base"]), base, "money", cur)

    def _multiplier(self, driver: str, sign: str) -> str:
        """A case's multiplier (`sign` "-" low, "+" high): 1 -/+ the swing, the rate moved so,
        or the resale share itself moved by `RESALE_SWING` within 0 and 1."""
        names = self.plan.names
        if driver == "resale_share":
            share = names.scalars["resale_share"]
            bound = "MAX(0," if sign == "-" else "MIN(1,"
            return f"{bound}{share}{sign}{RESALE_SWING})"
        base = f"{names.rate}*" if driver == "rate" else ""
        return f"{base}(1{sign}{names.swing})"

    def _shown(self, driver: str, m: str) -> tuple[str, Kind]:
        """The input a case sets, as a formula of the multiplier cell `m`."""
        names, own, cloud = self.plan.names, self.plan.own, self.plan.cloud
        s = names.scalars
        shown: dict[str, tuple[str, Kind]] = {
            "rate": (m, "percent"),
            "electricity": (f"AVERAGE({names.tariff})*{m}", "rate"),
            "pue": (f"MAX(1,{s.get('pue', '1')}*{m})", "decimal"),
            "staff": (f"{s.get('fte_cost_year', '0')}*{m}", "money"),
            "cloud_price": (f"({_non_commit(cloud)})*{m}", "money"),
            "commit_price": (f"{rented_figure(cloud, 'commitment')}*{m}", "money"),
            "utilization": (f"{figure(own, 'allocation')}*{m}", "percent"),
            "server_price": (
                f"{m}*{_servers(names)}+{figure(own, 'capex')}-{_servers(names)}",
                "money",
            ),
            "resale_share": (m, "percent"),
        }
        return shown[driver]

    def write(self, scenario: str) -> int:
        """The block; returns its last row."""
        book, sheet, plan, top = self.book, self.sheet, self.plan, self.top
        lang, cur = book.lang, book.currency
        put_text(sheet.cell(top, 1), text("report.wb.sens.block", lang, name=scenario)).font = BOLD
        labels = [text("report.wb.cmp.month", lang)] + [
            text(f"report.wb.sens.case_{side}", lang, driver=text(f"report.driver.{d}", lang))
            for d, side in self.cases
        ]
        header(sheet, top + 1, labels)
        put_text(sheet.cell(top + 2, 1), text("report.wb.sens.factor", lang))
        put_text(sheet.cell(top + 3, 1), text("report.wb.sens.npv", lang))
        saving_col, first, _ = saving_cells(plan.clouds, plan.k, plan.months)
        months = range(1, plan.months + 1)
        for month in months:
            put_formula(sheet.cell(top + 3 + month, 1), f"{month}", "int", cur)
        helper = 2 + len(self.cases)
        for driver, side in self.cases:
            c = self.column(driver, side)
            m = ref(sheet, self.bar_row[driver], COL[f"multiplier_{side}"], sheet)
            factor_cell = ref(sheet, top + 2, c, sheet)
            factor, delta = self._case(driver, m, factor_cell, (helper, side))
            put_formula(sheet.cell(top + 2, c), factor, "decimal", cur)
            for month in months:
                saving = ref(plan.comparison, first + month - 1, saving_col)
                change = delta(month + 1)
                formula = saving + (f"+{change}" if change else "")
                put_formula(sheet.cell(top + 3 + month, c), formula, "money", cur)
            rate = m if driver == "rate" else plan.names.rate
            head = ref(sheet, top + 4, c, sheet)
            rest = (
                span(sheet, top + 5, top + 3 + plan.months, c, sheet) if plan.months > 1 else None
            )
            put_formula(sheet.cell(top + 3, c), npv_formula(head, rest, rate), "money", cur)
        last = top + 3 + plan.months
        if any(d == "utilization" for d, _ in self.cases):
            last = max(last, self._kw_table(helper))
        return last

    def _case(
        self, driver: str, m: str, f: str, helper: tuple[int, str]
    ) -> tuple[str, Callable[[int], str]]:
        """A case's factor formula and its change to the saving in an owned sheet's row."""
        names, own, cloud = self.plan.names, self.plan.own, self.plan.cloud
        pue, after = names.scalars.get("pue", "1"), f"(1-{names.tax})"

        def scaled(key: str, sign: str) -> Callable[[int], str]:
            return lambda row: f"{sign}{f}*{after}*{ref(own, row, OWN[key])}"

        def rented(row: int) -> str:
            """A cloud bill's change in the owned sheet's row: in service, escalated."""
            up = escalation_factor(names.cloud_escalation, ref(own, row, OWN["month"]))
            return f"{f}*{after}*{ref(own, row, OWN['in_service'])}*{up}"

        simple = {
            "rate": ("0", lambda _: ""),
            "electricity": (f"{m}-1", scaled("energy", "-")),
            "pue": (f"MAX(1,{pue}*{m})/{pue}-1", scaled("energy", "-")),
            "staff": (f"{m}-1", scaled("staff", "-")),
            "cloud_price": (f"({m}-1)*({_non_commit(cloud)})", rented),
            "commit_price": (f"({m}-1)*{rented_figure(cloud, 'commitment')}", rented),
        }
        if driver in simple:
            return simple[driver]
        if driver == "utilization":
            bill = f"({m}-1)*{rented_figure(cloud, 'monthly_total')}"

            def demand(row: int) -> str:
                """The bill's change at cloud's escalation, the energy's (the bill's less the
                factor) at power's."""
                month, in_service = ref(own, row, OWN["month"]), ref(own, row, OWN["in_service"])
                cloud_up = escalation_factor(names.cloud_escalation, month)
                power_up = escalation_factor(names.scalars["power_escalation_year"], month)
                moved = f"{bill}*{cloud_up}-({bill}-{f})*{power_up}"
                return f"{after}*{in_service}*({moved})"

            return self._demand(m, helper), demand
        if driver == "resale_share":
            return self._resale(m, f)
        return self._server(m, f)

    def _resale(self, m: str, f: str) -> tuple[str, Callable[[int], str]]:
        """The resale share case: each month servers are sold (the last, and each a
        generation retires in) gets the share's change x CapEx back, less the tax on it (the
        tax book value does not move)."""
        names, own, last = self.plan.names, self.plan.own, self.plan.months + 1
        capex = figure(own, "capex")

        def change(row: int) -> str:
            month = ref(own, row, OWN["month"])
            sold = retired(month, figure(own, "lead"), figure(own, "book_life"))
            sold = f"({sold}+1)" if row == last else sold
            return f"{f}*(1-{names.tax})*{capex}*{sold}"

        return f"{m}-{names.scalars['resale_share']}", change

    def _demand(self, m: str, helper: tuple[int, str]) -> str:
        """The demand case's factor: the bill moved less the energy moved, a month of year 1
        (later years escalate each part at its rate)."""
        names, own = self.plan.names, self.plan.own
        column = helper[0] + (1 if helper[1] == "low" else 2)
        kw = span(self.sheet, self.top + 4, self.top + 27, column, self.sheet)
        tariff = span(own, 2, 25, ENERGY_COLUMN + 2, None)
        moved = f"SUMPRODUCT({kw},{tariff})*{names.scalars.get('pue', '1')}/24"
        energy = f"({moved}-{figure(own, 'energy_per_hour')})*{names.hours}"
        return f"({m}-1)*{rented_figure(self.plan.cloud, 'monthly_total')}-{energy}"

    def _server(self, m: str, f: str) -> tuple[str, Callable[[int], str]]:
        """The server price case: CapEx and the lines that scale with it move by f, the
        lines on the servers' price (support) by m - 1 (`planner.cost.lines.LINES`' bases)."""
        names, own = self.plan.names, self.plan.own
        after = f"(1-{names.tax})"

        def col(key: str, row: int) -> str:
            return ref(own, row, OWN[key])

        def change(row: int) -> str:
            with_capex = "+".join(col(line.key, row) for line in LINES if line.basis in CAPEX)
            with_price = "+".join(col(line.key, row) for line in LINES if line.basis in PRICE)
            moved = (
                f"{col('capex', row)}+{col('refresh', row)}+{after}*({with_capex or '0'})"
                f"-{names.tax}*{col('tax_depreciation', row)}"
                f"+{col('resale', row)}+{col('disposal_tax', row)}"
            )
            return f"-({f}*({moved})+({m}-1)*{after}*({with_price or '0'}))"

        return f"({m}-1)*{_servers(names)}/{figure(own, 'capex')}", change

    def _kw_table(self, helper: int) -> int:
        """kW drawn by hour of day with the demand low and high (allocation x multiplier, at
        most 1), for the demand cases' energy."""
        book, sheet, plan, top = self.book, self.sheet, self.plan, self.top
        lang, cur, p = book.lang, book.currency, plan.names.pools
        servers = plan.names.owned[0].servers
        heads = [text("report.wb.energy.hour", lang)] + [
            text(f"report.wb.sens.kw_{side}", lang) for side in ("low", "high")
        ]
        header(sheet, top + 3, heads, helper)
        for h in range(24):
            r = top + 4 + h
            put_formula(sheet.cell(r, helper), f"{h}", "int", cur)
            alloc = ref(plan.own, h + 2, ENERGY_COLUMN + 1)
            for k, side in enumerate(("low", "high"), start=1):
                m = ref(sheet, self.bar_row["utilization"], COL[f"multiplier_{side}"], sheet)
                kw = (
                    f"SUMPRODUCT({servers},{p['idle']})"
                    f"+SUMPRODUCT({servers},{p['load']}-{p['idle']})*MIN(1,{alloc}*{m})"
                )
                put_formula(sheet.cell(r, helper + k), kw, "decimal", cur)
        return top + 27


CAPEX = MOVES_WITH_CAPEX
PRICE: frozenset[Basis] = frozenset({"server_price"})


def _non_commit(cloud: Worksheet) -> str:
    return f"{rented_figure(cloud, 'monthly_total')}-{rented_figure(cloud, 'commitment')}"


def _servers(names: Names) -> str:
    """The servers' part of CapEx (installation is not a server price)."""
    s, p = names.scalars, names.pools
    return f"SUMPRODUCT({p['servers']},{p['price']})*(1+{s['network_share']}+{s['storage_share']})"


def _chart(sheet: Worksheet, last: int, lang: str) -> None:
    chart = BarChart()
    chart.type = "bar"
    chart.title = text("report.wb.chart.tornado", lang)  # type: ignore[arg-type]
    data = Reference(sheet, min_col=COL["low"], max_col=COL["high"], min_row=1, max_row=last)
    chart.add_data(data, True)
    chart.set_categories(Reference(sheet, min_col=COL["driver"], min_row=2, max_row=last))
    chart.height, chart.width = 9, 18
    sheet.add_chart(chart, "O2")
