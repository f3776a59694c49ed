"""Own, rent or both: the TCO of each option over a horizon, from the same demand.

Pure: every price is already a plain number in the reporting currency (see
`planner/service/tco_inputs.py` for the price book side). Demand is what the replay (or an explicit
utilization) says one month of this workload is: the share of owned GPUs allocated by hour of
day, the useful GPU-hours the jobs did, and what renting the same jobs costs a month.

Reported per option and horizon (`../shared/reference/pricing-and-tco.md` 3.4): monthly P&L
(depreciation) and cash flows, totals by category, cost per installed and per useful
GPU-hour, idle cost; against each rented option the NPV of buying, IRR, payback and
break-even month, equivalent annual cost, and break-even utilization F / (C - V).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from planner.core.errors import ScenarioError
from planner.core.serialize import OMIT
from planner.cost import finance
from planner.cost.baremetal import (
    HOURS_PER_MONTH,
    BareMetal,
    MonthCosts,
    by_category,
    capex,
    fixed_per_installed_gpu_hour,
    in_service_from,
    installed_gpus,
    monthly,
    tax_book_value,
    variable_per_busy_gpu_hour,
)
from planner.cost.elsewhere import Unserved, added
from planner.cost.escalation import escalation
from planner.cost.ledger import Ledger
from planner.cost.lines import CATEGORIES, END_CATEGORIES, LINE_KEYS

OWNED_CATEGORIES = (*CATEGORIES[1:], "cloud_burst")
"""Owned options' categories in the P&L view (CapEx is cash only)."""
EQUAL_SERVICE = ("served_elsewhere", "waiting")
"""The categories that price every option at the same served demand (`planner.cost.
elsewhere`): in an option's totals when the scenario prices them and they are not 0."""


@dataclass(frozen=True, slots=True)
class Sale:
    """The servers sold at the horizon's end: cash in (positive) and the tax on the gain on
    disposal, resale less the tax book value (negative: a loss saves tax)."""

    resale: float
    disposal_tax: float


def sale(bm: BareMetal, months: int) -> Sale:
    """The servers bought (CapEx is paid at order) are sold at the horizon's end for
    `resale_share` x CapEx, delivered or not: an order the horizon ends before is still the
    owner's to sell (its tax book value is then all of CapEx). With a refresh, the last
    generation's (earlier ones are sold as they retire, `baremetal.monthly`)."""
    resale = bm.resale_share * capex(bm)
    return Sale(resale, bm.tax_rate * (resale - tax_book_value(bm, months)))


@dataclass(frozen=True, slots=True)
class Demand:
    """One month of the workload, as the replay (or an explicit utilization) gives it."""

    useful_gpu_hours: float
    """GPU-hours of work the jobs did per month (completed jobs' GPUs x run time)."""
    utilization_by_hour: tuple[float, ...] = (0.0,)
    """Allocated share of the owned GPUs, one value or 24 by hour of day."""
    burst_per_month: float = 0.0
    """Hybrid: what the jobs that burst cost in the cloud per month."""
    wait_mean_s: float | None = None
    wait_p95_s: float | None = None
    waited_gpu_hours: float = 0.0
    """GPU-hours jobs waited in the queue per month (the replay's; 0 without one)."""
    unserved_gpu_hours: float = 0.0
    """GPU-hours a month in service the option leaves unserved and has bought elsewhere
    (`planner.cost.elsewhere.ELSEWHERE_LINES` of its ledger's run; 0 without a replay)."""

    @property
    def allocation(self) -> float:
        hours = self.utilization_by_hour
        return sum(hours) / len(hours)


@dataclass(frozen=True, slots=True)
class Rented:
    """A cloud option: its cost for the same demand, per month, by category."""

    name: str
    per_month: Mapping[str, float]
    per_gpu_hour: float
    """Effective price per useful GPU-hour (packing, billing and overheads included): C."""
    useful_gpu_hours: float | None = None
    """Per month, as the cloud counts it (None: the demand's)."""
    wait_mean_s: float | None = 0.0
    wait_p95_s: float | None = 0.0

    @property
    def monthly_total(self) -> float:
        return sum(self.per_month.values())


@dataclass(frozen=True, slots=True)
class Bridge:
    """What serves the demand while the servers are on order: a cloud option's monthly cost
    and the useful GPU-hours it does a month (nothing: the demand is unserved)."""

    per_month: float = 0.0
    useful_gpu_hours: float = 0.0


NO_BRIDGE = Bridge()


@dataclass(frozen=True, slots=True)
class OptionReport:
    """One option (self-hosted, hybrid or a cloud option) over one horizon, as `owned_option`
    and `rented_option` price it; the report carries it as it is (`TcoReport.horizons`), so
    field names and order are the keys of each option in `planner tco --json`."""

    name: str
    total: float
    """Sum of the monthly P&L."""
    totals: Mapping[str, float]
    """P&L by cost category over the horizon."""
    monthly_pnl: tuple[float, ...]
    monthly_cash: tuple[float, ...]
    useful_gpu_hours: float
    cost_per_useful_gpu_hour: float | None
    cost_per_installed_gpu_hour: float | None = None
    cost_per_allocated_gpu_hour: float | None = None
    idle_cost: float | None = None
    equivalent_annual_cost: float | None = None
    wait_mean_s: float | None = None
    wait_p95_s: float | None = None
    served_share: float | None = None
    """GPU-hours it served (owned + cloud) / GPU-hours demanded, from its ledger."""
    served_elsewhere_gpu_hours: float = 0.0
    """Demand it left unserved and bought elsewhere over the horizon (`planner.cost.
    elsewhere`); its cost per useful GPU-hour counts them as served."""
    ledger: Ledger | None = field(default=None, metadata=OMIT)
    """Where the option serves the demand (`planner.cost.ledger`); the cost model leaves it
    None and the report adds each option's from its runs."""
    scenario: str | None = field(default=None, metadata=OMIT)
    """The saved scenario the option is of, in a report over several (None in one's own)."""
    pnl_by_category: Mapping[str, tuple[float, ...]] | None = field(default=None, metadata=OMIT)
    """The monthly P&L per cost category (they add up to `monthly_pnl`); None: not kept,
    and a rented option's is its `totals` spread evenly (the same bill every month)."""
    cash_by_category: Mapping[str, tuple[float, ...]] | None = field(default=None, metadata=OMIT)
    """An owned option's monthly cash that is not in its P&L (`CASH_ONLY`; with the P&L's
    running costs they add up to `monthly_cash`); None: not kept (a FOCUS export then shows
    the month's difference as one row)."""
    part_of: str | None = field(default=None, metadata=OMIT)
    """The option this one is only a part of: "hybrid" for the self-hosted servers when the
    hybrid keeps all of them (they are then its owned part, jobs waiting instead of
    bursting: `planner.cost.pair.as_built` never ranks them). None: an option of its own."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """Buying (the owned option) against renting one cloud option."""

    owned: str
    rented: str
    npv_of_buying: float
    irr: float | None
    irr_note: str
    payback_month: int | None
    """The first month the cumulative saving of buying is >= 0, counted from 1 (month 1 is the
    month of purchase, as the workbook's month column and the PDF count); None: never."""
    break_even_month: int | None
    """The same month for the discounted saving, counted from 1; None: never in the horizon."""
    break_even_utilization: float | None


def owned_option(
    name: str,
    bm: BareMetal,
    demand: Demand,
    months: int,
    rate: float,
    *,
    bridge: Bridge = NO_BRIDGE,
    unserved: Unserved | None = None,
) -> OptionReport:
    """Self-hosted (with bursts for a hybrid) over `months`. Before delivery the servers cost
    nothing but their CapEx and `bridge` serves the demand (or nothing does); bursts start at
    delivery. A horizon beyond the servers' life buys their replacement (`baremetal.monthly`,
    the `refresh` category). At the end the servers are sold at their resale value, the gain
    on disposal taxed (`sale`); a retired generation is sold at the end of its life, and
    both add to the `resale` and `disposal_tax` totals. Cost per installed (and allocated)
    GPU-hour is over the months in service, without the bridge or `unserved`'s lines; per
    useful GPU-hour, with them."""
    costs = monthly(bm, months, demand.utilization_by_hour, bridge_per_month=bridge.per_month)
    lead = in_service_from(bm, months)
    burst = [
        0.0 if m < lead else demand.burst_per_month * escalation(bm, "cloud", m)
        for m in range(months)
    ]
    after_tax = 1 - bm.tax_rate  # cloud bills are deductible costs too
    bills = burst if unserved is None else added(burst, unserved)
    pnl = [c.pnl + b for c, b in zip(costs, bills, strict=True)]
    cash = [c.cash + b * after_tax for c, b in zip(costs, bills, strict=True)]
    end = sale(bm, months)
    cash[-1] += end.disposal_tax - end.resale
    retired = (sum(c.resale for c in costs), sum(c.disposal_tax for c in costs))
    at_end = (retired[0] - end.resale, retired[1] + end.disposal_tax + 0.0)  # + 0.0: no -0.0
    totals = _owned_totals(costs, burst, bm.tax_rate, unserved) | dict(
        zip(END_CATEGORIES, at_end, strict=True)
    )
    gpus = installed_gpus(bm)
    in_service = (months - lead) * HOURS_PER_MONTH
    installed_hours = gpus * in_service * bm.availability
    useful = demand.useful_gpu_hours * (months - lead) + bridge.useful_gpu_hours * lead
    allocated = demand.allocation * gpus * in_service
    total = sum(pnl)
    own = total - totals["bridge"] - sum(totals.get(k, 0.0) for k in EQUAL_SERVICE)
    fixed = fixed_per_installed_gpu_hour(bm) * gpus * in_service
    elsewhere = unserved.gpu_hours if unserved else 0.0
    return OptionReport(
        name=name,
        total=total,
        totals=totals,
        monthly_pnl=tuple(pnl),
        monthly_cash=tuple(cash),
        useful_gpu_hours=useful,
        cost_per_useful_gpu_hour=total / (useful + elsewhere) if useful + elsewhere else None,
        cost_per_installed_gpu_hour=own / installed_hours if installed_hours else None,
        cost_per_allocated_gpu_hour=own / allocated if allocated else None,
        idle_cost=(1 - demand.allocation) * fixed,
        equivalent_annual_cost=_eac(cash, rate, months),
        wait_mean_s=demand.wait_mean_s,
        wait_p95_s=demand.wait_p95_s,
        served_elsewhere_gpu_hours=elsewhere,
        pnl_by_category=_pnl_by_category(costs, burst, unserved),
        cash_by_category=_cash_by_category(costs, bills, bm.tax_rate, end),
    )


def rented_option(
    rented: Rented,
    demand: Demand,
    months: int,
    rate: float,
    *,
    tax_rate: float = 0.0,
    unserved: Unserved | None = None,
    escalation_year: float = 0.0,
) -> OptionReport:
    """Renting: the same bill every month, or year 1's bill x (1 + `escalation_year`) ^
    (m // 12) in month m when cloud prices escalate; with a tax rate, cash is after the tax
    saved. `unserved`'s lines (not escalated: the workbook's served-elsewhere column is
    year 1's rate) are part of the bill."""
    lines = _equal_service(unserved)
    monthly_cost = rented.monthly_total
    steps = [(1 + escalation_year) ** (m // 12) if escalation_year else 1.0 for m in range(months)]
    extra = (
        [e + w for e, w in zip(unserved.elsewhere, unserved.waiting, strict=True)]
        if unserved
        else [0.0] * months
    )
    per_month = (
        demand.useful_gpu_hours if rented.useful_gpu_hours is None else rented.useful_gpu_hours
    )
    useful = per_month * months
    elsewhere = unserved.gpu_hours if unserved else 0.0
    pnl = tuple(monthly_cost * f + x for f, x in zip(steps, extra, strict=True))
    cash = tuple(p * (1 - tax_rate) for p in pnl)
    billed = sum(steps)  # months billed, in year-1 bills
    bills = monthly_cost * billed + sum(extra)
    return OptionReport(
        name=rented.name,
        total=sum(pnl),  # the months added up, like an owned option's (not cost x months)
        totals={k: v * billed for k, v in rented.per_month.items()}
        | lines
        | ({"tax_shield": -tax_rate * bills} if tax_rate else {}),
        monthly_pnl=pnl,
        monthly_cash=cash,
        useful_gpu_hours=useful,
        cost_per_useful_gpu_hour=bills / (useful + elsewhere) if useful + elsewhere else None,
        equivalent_annual_cost=_eac(cash, rate, months),
        wait_mean_s=rented.wait_mean_s,
        wait_p95_s=rented.wait_p95_s,
        served_elsewhere_gpu_hours=elsewhere,
        pnl_by_category=(
            {k: tuple(v * f for f in steps) for k, v in rented.per_month.items()}
            | _unserved_by_month(unserved)
            if escalation_year
            else None
        ),
    )


def compare(
    owned: OptionReport,
    rented: OptionReport,
    bm: BareMetal,
    rented_per_gpu_hour: float,
    rate: float,
) -> Comparison:
    """Savings of buying = renting's cash minus owning's, month by month."""
    savings = [r - o for r, o in zip(rented.monthly_cash, owned.monthly_cash, strict=True)]
    found = finance.irr(savings)
    return Comparison(
        owned=owned.name,
        rented=rented.name,
        npv_of_buying=finance.npv(savings, rate),
        irr=found.annual_rate,
        irr_note=found.reason,
        payback_month=finance.payback_month(savings),
        break_even_month=finance.break_even_month(rented.monthly_cash, owned.monthly_cash, rate),
        break_even_utilization=finance.break_even_utilization(
            fixed_per_installed_gpu_hour(bm), variable_per_busy_gpu_hour(bm), rented_per_gpu_hour
        ),
    )


def sensitivity(
    model: Callable[[dict[str, float]], float],
    base: Mapping[str, float],
    swing: float = 0.2,
    ranges: Mapping[str, tuple[float, float]] | None = None,
) -> finance.Tornado:
    """The output's swing when each driver moves +/- `swing` alone (or to its low and high in
    `ranges`), widest first."""
    return finance.tornado(model, dict(base), swing, ranges)


def scaled(bm: BareMetal, *, server_price: float) -> BareMetal:
    """`bm` with every server's price multiplied by `server_price` (for sensitivities; other
    assumptions change with `dataclasses.replace`, which checks their types)."""
    return replace(bm, pools=tuple(replace(p, price=p.price * server_price) for p in bm.pools))


def horizons_months(years: Sequence[float]) -> list[int]:
    months = [round(y * 12) for y in years]
    if not months or min(months) < 1:
        raise ScenarioError(f"horizons must be at least one month (got {list(years)} years)")
    return months


def _owned_totals(
    costs: list[MonthCosts], burst: list[float], tax_rate: float, unserved: Unserved | None
) -> dict[str, float]:
    columns = by_category(costs, OWNED_CATEGORIES[:-1])
    totals = {k: sum(column) for k, column in columns.items()}
    totals["capex"] = sum(c.capex for c in costs)
    totals["cloud_burst"] = sum(burst)
    totals |= _equal_service(unserved)
    billed = totals["cloud_burst"] + sum(totals.get(k, 0.0) for k in EQUAL_SERVICE)
    totals["tax_shield"] -= tax_rate * billed
    return totals


def _equal_service(unserved: Unserved | None) -> dict[str, float]:
    """The served-elsewhere and waiting totals (none when the scenario prices neither)."""
    if unserved is None:
        return {}
    waiting = {"waiting": sum(unserved.waiting)} if any(unserved.waiting) else {}
    elsewhere = {"served_elsewhere": sum(unserved.elsewhere)} if unserved.gpu_hours else {}
    return elsewhere | waiting


def _unserved_by_month(unserved: Unserved | None) -> dict[str, tuple[float, ...]]:
    """The equal-service lines month by month (none when the scenario prices neither)."""
    lines: dict[str, tuple[float, ...]] = {}
    if unserved is not None and unserved.gpu_hours:
        lines["served_elsewhere"] = unserved.elsewhere
    if unserved is not None and any(unserved.waiting):
        lines["waiting"] = unserved.waiting
    return lines


def _pnl_by_category(
    costs: list[MonthCosts], burst: list[float], unserved: Unserved | None
) -> dict[str, tuple[float, ...]]:
    """Owning's P&L categories month by month: what `MonthCosts.pnl` adds, the bursts and
    the equal-service lines."""
    pnl = ("depreciation", "energy", *LINE_KEYS, "bridge")
    by_month = {k: tuple(column) for k, column in by_category(costs, pnl).items()}
    return by_month | {"cloud_burst": tuple(burst)} | _unserved_by_month(unserved)


CASH_ONLY = ("capex", "refresh", "tax_shield", "resale", "disposal_tax")
"""An owned option's cash categories that are not in its P&L (depreciation is instead)."""


def _cash_by_category(
    costs: list[MonthCosts], bills: list[float], tax_rate: float, end: Sale
) -> dict[str, tuple[float, ...]]:
    """Owning's cash-only categories month by month: what `MonthCosts.cash` adds beyond the
    running costs, the tax saved on the cloud bills, and the sale at the horizon's end."""
    by_month = by_category(costs, CASH_ONLY)
    by_month["tax_shield"] = [
        t - tax_rate * b for t, b in zip(by_month["tax_shield"], bills, strict=True)
    ]
    by_month["resale"][-1] -= end.resale
    by_month["disposal_tax"][-1] += end.disposal_tax
    return {k: tuple(v) for k, v in by_month.items()}


def _eac(cash: Sequence[float], rate: float, months: int) -> float:
    return finance.equivalent_annual_cost(finance.npv(cash, rate), rate, months / 12)
