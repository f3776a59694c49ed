"""Owning GPU servers: what they cost per month, from plain values in one currency.

The structure is the reference's (`../shared/reference/pricing-and-tco.md` 3.2):

    CapEx     = servers x price x (1 + network share + storage share) + installation
    Depr_m    = (CapEx - residual) / (life x 12)                      book P&L, straight line
    Energy_m  = servers x P(u) x hours x PUE x price per kWh          P(u) = idle + (load - idle) u
    Colo_m    = contracted kW (servers x max kW) x rate per kW-month, or a rack fee
    Support_m = support share x server price x servers / 12
    Staff_m   = FTE per server x servers x loaded cost per FTE-year / 12
    Software_m, Spares_m, Insurance_m likewise; PropertyTax_m = rate x book value / 12
    Bridge_m  = cloud cost of the demand during the lead time

The running lines (colocation .. property tax) are `planner.cost.lines.LINES`: each is a
rate of these assumptions times a basis (`basis`), so a new line is one entry there.

CapEx is paid at order (month 0); depreciation and every running cost start at delivery
(month `lead_time_months`). A horizon longer than the book life buys a new generation of the
same servers at the same price (`planner.cost.refresh`: ordered so it is delivered the month
the old one retires, its own depreciation and tax shield, the old one sold then). At the
horizon's end the servers are sold at their resale value (`resale_share` x CapEx, 0 by
default), taxed on the gain against their tax book value (`tax_book_value`). During the lead
time the demand is bridged in the cloud, or by nothing (then it is unserved).

Escalation: power, salaries, colocation and cloud prices may rise by a yearly rate (0 by
default); month m (from 0, the month of purchase) pays year 1's price x (1 + rate) ^ (m // 12),
so months 1-12 as the reports count them are at year 1's price, months 13-24 one step up.
The break-even utilization F / (C - V) is year 1's (`fixed_per_installed_gpu_hour`).

`u` is the share of the hour the servers' GPUs are allocated: from the replay (by hour of
day, so a time-of-use tariff is priced right) or one number. Energy and cloud bridging are
the only terms that move with demand; the rest is fixed, which is why utilization decides.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from planner.core.errors import ScenarioError
from planner.cost import depreciation, refresh
from planner.cost.escalation import ESCALATES, escalated, escalation
from planner.cost.lines import ASSUMPTIONS, LINE_KEYS, LINES, Basis, CostLine

HOURS_PER_YEAR = 8760.0
HOURS_PER_MONTH = HOURS_PER_YEAR / 12
DAY_HOURS = 24


@dataclass(frozen=True, slots=True)
class ServerPool:
    """Identical servers; money in the reporting currency, power in kW per server."""

    name: str
    servers: int
    gpus_per_server: int
    price: float
    idle_kw: float
    load_kw: float
    max_kw: float

    @property
    def gpus(self) -> int:
        return self.servers * self.gpus_per_server


@dataclass(frozen=True, slots=True)
class BareMetal:
    """Self-hosted assumptions (reference 2.1 defaults); shares are fractions, per year where
    the name says so."""

    pools: tuple[ServerPool, ...]
    network_share: float = 0.12
    storage_share: float = 0.05
    installation: float = 0.0
    life_years: float = 5.0
    residual_share: float = 0.0
    """Book salvage estimate at the end of the life (the book schedule's residual, not cash)."""
    resale_share: float = 0.0
    """Market value at the horizon's end as a share of CapEx: the cash the servers fetch when
    sold then (0: nothing; book value is not cash)."""
    depreciation_method: depreciation.Method = "straight_line"
    """Book depreciation: straight_line, double_declining or sum_of_years_digits."""
    tax_life_years: float | None = None
    """Tax depreciation life (None: the book life; China's minimum for electronics is 3)."""
    tax_method: depreciation.Method = "straight_line"
    tax_rate: float = 0.0
    """Income tax rate: deductible costs (tax depreciation, running costs, cloud bills) then
    save this share in cash (the tax shield). 0: pre-tax cash flows."""
    pue: float = 1.5
    kwh_price: tuple[float, ...] = (0.09,)
    """One flat price, or 24 prices by hour of day (time of use)."""
    colo_per_kw_month: float = 200.0
    rack_fee_month: float | None = None
    """Per server-rack month instead of per kW (None: per kW of contracted maximum power)."""
    servers_per_rack: int = 4
    support_share_year: float = 0.10
    fte: float = 0.25
    """Staff for all the servers, used only without `fte_per_server`."""
    fte_per_server: float | None = None
    """Staff per server: a cluster with fewer servers pays for its own (None: `fte`)."""
    fte_cost_year: float = 180_000.0
    software_per_gpu_year: float = 0.0
    spares_share_year: float = 0.0
    insurance_share_year: float = 0.0
    """Insurance of the equipment, a share of CapEx a year."""
    property_tax_share_year: float = 0.0
    """Property (personal property) tax on equipment, a share of its book value a year."""
    lead_time_months: int = 0
    availability: float = 1.0
    """Share of hours the GPUs can be scheduled (maintenance, failures)."""
    power_escalation_year: float = 0.0
    """Yearly escalation of the electricity price (0: year 1's price throughout)."""
    staff_escalation_year: float = 0.0
    """Yearly escalation of staff salaries."""
    colo_escalation_year: float = 0.0
    """Yearly escalation of the colocation fee (per kW or per rack)."""
    cloud_escalation_year: float = 0.0
    """Yearly escalation of cloud prices: the bridge, the hybrid's bursts and every cloud
    option's bill (`planner.cost.tco.rented_option`)."""
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True, slots=True)
class MonthCosts:
    """One month of owning: every category, P&L (depreciation) and cash (CapEx) views."""

    capex: float
    depreciation: float
    energy: float
    lines: tuple[float, ...]
    """The running lines (`planner.cost.lines.LINES`), in that order."""
    bridge: float
    tax_shield: float = 0.0
    """Cash only, negative: tax saved on tax depreciation and running costs."""
    refresh: float = 0.0
    """Cash only: the CapEx of the servers replacing those whose life ends (`monthly`)."""
    resale: float = 0.0
    """Cash only, negative: the servers retired this month sold at their resale value."""
    disposal_tax: float = 0.0
    """Cash only: the tax on their gain on disposal (negative: a loss saves tax)."""

    @property
    def running(self) -> float:
        return _running(self.energy, self.lines, self.bridge)

    @property
    def pnl(self) -> float:
        return self.depreciation + self.running

    @property
    def cash(self) -> float:
        sold = self.resale + self.disposal_tax
        return self.capex + self.running + self.tax_shield + self.refresh + sold

    def category(self, key: str) -> float:
        """The month's amount of category `key` (`planner.cost.lines.CATEGORIES`)."""
        at = _LINE_AT.get(key)
        if at is not None:
            return self.lines[at]
        value: float = getattr(self, key)
        return value


_LINE_AT = {key: at for at, key in enumerate(LINE_KEYS)}


def _running(energy: float, lines: tuple[float, ...], bridge: float) -> float:
    """Energy, the running lines and the bridge, added in that order."""
    total = energy
    for amount in lines:
        total += amount
    return total + bridge


def by_category(costs: Sequence[MonthCosts], keys: Sequence[str]) -> dict[str, list[float]]:
    """Each category of `keys` month by month (what `MonthCosts.category` reads, a column at
    a time: the totals and the P&L by category of a long horizon read every month)."""
    lines = [list(column) for column in zip(*(c.lines for c in costs), strict=True)]
    if not costs:
        lines = [[] for _ in LINE_KEYS]
    return {
        key: lines[_LINE_AT[key]] if key in _LINE_AT else [getattr(c, key) for c in costs]
        for key in keys
    }


def capex(bm: BareMetal) -> float:
    servers = sum(p.servers * p.price for p in bm.pools)
    return servers * (1 + bm.network_share + bm.storage_share) + bm.installation


def installed_gpus(bm: BareMetal) -> int:
    return sum(p.gpus for p in bm.pools)


def energy_per_hour(bm: BareMetal, utilization_by_hour: Sequence[float]) -> float:
    """Mean energy cost per hour: 24 hourly utilizations (or one) x the (TOU) tariff."""
    hours = _by_hour(utilization_by_hour, "utilization")
    prices = _by_hour(bm.kwh_price, "kwh_price")
    total = 0.0
    for u, price in zip(hours, prices, strict=True):
        kw = sum(p.servers * (p.idle_kw + (p.load_kw - p.idle_kw) * u) for p in bm.pools)
        total += kw * bm.pue * price
    return total / DAY_HOURS


def monthly(
    bm: BareMetal,
    months: int,
    utilization_by_hour: Sequence[float],
    bridge_per_month: float = 0.0,
) -> list[MonthCosts]:
    """Costs of months 0..months-1. CapEx is paid at order (month 0); the servers are in
    service from delivery (month `lead_time_months`) and only then depreciate and cost to
    run (energy and the running lines, `LINES`); before it, `bridge_per_month`
    (what renting the demand costs, 0 if nothing bridges it). A horizon beyond the servers'
    life buys their replacement (`planner.cost.refresh`): its CapEx is the month's
    `refresh`, the retired servers are sold that month (`resale`, `disposal_tax`). Prices
    that escalate (`escalation`) are year 1's times (1 + rate) ^ (m // 12)."""
    if months <= 0:
        raise ScenarioError(f"the horizon must be at least one month (got {months})")
    plan = _plan(bm, months, utilization_by_hour, bridge_per_month)
    result = []
    book_value = plan.capex
    for m in range(months):
        if plan.generations.age(m) == 0:
            book_value = plan.capex  # a generation delivered: its CapEx on the books
        month = _month(bm, plan, m, book_value)
        result.append(month)
        book_value -= month.depreciation
    return result


@dataclass(frozen=True, slots=True)
class _Plan:
    """What each month of `monthly` is priced from: the same every month."""

    capex: float
    generations: refresh.Generations
    book: list[float]
    tax: list[float]
    """One generation's book and tax depreciation by month of its life."""
    retired_sale: tuple[float, float]
    energy: float
    """Year 1's energy a month in service."""
    fixed: tuple[float, ...]
    on_book: bool
    """A line on book value has a rate (the lines then change every month)."""
    bridge: float


def _plan(bm: BareMetal, months: int, utilization_by_hour: Sequence[float], bridge: float) -> _Plan:
    total = capex(bm)
    book, tax = _life_schedules(bm, total)
    return _Plan(
        capex=total,
        generations=generations(bm, months),
        book=book,
        tax=tax,
        retired_sale=_retired_sale(bm, total, tax),
        energy=energy_per_hour(bm, utilization_by_hour) * HOURS_PER_MONTH,
        fixed=_fixed_running(bm),
        on_book=any(line.basis == "book_value" and getattr(bm, line.rate) for line in LINES),
        bridge=bridge,
    )


def _month(bm: BareMetal, plan: _Plan, m: int, book_value: float) -> MonthCosts:
    """Month `m`'s costs; `book_value`: the servers' in service at the month's start."""
    age = plan.generations.age(m)
    lines, spent, bridged = _IDLE, 0.0, plan.bridge * escalation(bm, "cloud", m)
    if age is not None:
        lines = _on_book_value(bm, plan.fixed, book_value) if plan.on_book else plan.fixed
        lines = escalated(bm, lines, m)
        spent, bridged = plan.energy * escalation(bm, "power", m), 0.0
    running = _running(spent, lines, bridged)
    shield = -bm.tax_rate * ((plan.tax[age] if age is not None else 0.0) + running)
    sold = plan.retired_sale if plan.generations.retired(m) else (0.0, 0.0)
    return MonthCosts(
        plan.capex if m == 0 else 0.0,
        plan.book[age] if age is not None else 0.0,
        spent,
        lines,
        bridged,
        shield,
        refresh=plan.capex if plan.generations.replaced(m) else 0.0,
        resale=sold[0],
        disposal_tax=sold[1],
    )


_IDLE = (0.0,) * len(LINES)
"""The running lines before delivery: none."""


def in_service_from(bm: BareMetal, months: int) -> int:
    """The first month the servers are in service (delivery), at most `months`."""
    return min(bm.lead_time_months, months)


def generations(bm: BareMetal, months: int) -> refresh.Generations:
    """The servers' generations over `months`: one per book life in service."""
    life = depreciation.DepreciationRule(bm.life_years).life_months
    return refresh.Generations(in_service_from(bm, months), life, months)


def _life_schedules(bm: BareMetal, total: float) -> tuple[list[float], list[float]]:
    """Monthly book and tax depreciation of one generation's CapEx (`planner.cost.
    depreciation` schedules) over its book life in service; a tax life longer than that
    leaves a tax book value the sale writes off."""
    residual = total * bm.residual_share
    book = depreciation.DepreciationRule(bm.life_years, bm.depreciation_method, residual)
    tax = depreciation.DepreciationRule(
        bm.tax_life_years or bm.life_years, bm.tax_method, residual if bm.tax_rate else 0.0
    )
    asset = depreciation.Asset(total, book=book, tax=tax)
    life = book.life_months
    book_charges = depreciation.depreciation_schedule(asset, life, "book").charge
    tax_charges = depreciation.depreciation_schedule(asset, life, "tax").charge
    return list(book_charges), list(tax_charges)


def _retired_sale(bm: BareMetal, total: float, tax: Sequence[float]) -> tuple[float, float]:
    """A generation sold at the end of its life: cash in (negative) and the tax on its gain
    against its tax book value, as `planner.cost.tco.sale` sells the last one."""
    resale = bm.resale_share * total
    return -resale, bm.tax_rate * (resale - (total - sum(tax)))


def tax_book_value(bm: BareMetal, months: int) -> float:
    """CapEx less the tax depreciation of the generation in service at the end of `months`:
    what a sale at the horizon's end is taxed against (all of CapEx if the servers are not
    delivered)."""
    total = capex(bm)
    age = generations(bm, months).age(months - 1)
    if age is None:
        return total
    _, tax = _life_schedules(bm, total)
    return total - sum(tax[: age + 1])


def fixed_per_installed_gpu_hour(bm: BareMetal) -> float:
    """F of the break-even formula: every cost that does not move with use, idle power
    included, per installed GPU-hour (depreciation, the running lines, idle energy; a line on
    book value at the mean book value over the life, (CapEx + residual) / 2), at year 1's
    prices: escalation is left out, as it is of V and of the cloud price C."""
    per_year = capex(bm) * (1 - bm.residual_share) / bm.life_years
    mean_book_value = capex(bm) * (1 + bm.residual_share) / 2
    per_year += sum(_on_book_value(bm, _fixed_running(bm), mean_book_value)) * 12
    per_year += energy_per_hour(bm, (0.0,)) * HOURS_PER_YEAR
    return per_year / (installed_gpus(bm) * HOURS_PER_YEAR)


def variable_per_busy_gpu_hour(bm: BareMetal) -> float:
    """V of the break-even formula: the energy one allocated GPU-hour adds."""
    busy = energy_per_hour(bm, (1.0,)) - energy_per_hour(bm, (0.0,))
    return busy / installed_gpus(bm)


def basis(bm: BareMetal, of: Basis) -> float:
    """What a line's rate multiplies (`planner.cost.lines.Basis`); "book_value" is CapEx
    here (`_on_book_value` charges the month's own)."""
    if of == "server_price":
        return sum(p.servers * p.price for p in bm.pools)
    if of in ("capex", "book_value"):
        return capex(bm)
    if of == "gpus":
        return installed_gpus(bm)
    if of == "staff":
        return staff_fte(bm)
    if of == "contracted_kw":
        return sum(p.servers * p.max_kw for p in bm.pools)
    return -(-servers(bm) // bm.servers_per_rack)  # racks


def line_amount(bm: BareMetal, line: CostLine) -> float:
    """A running line's cost a month in service (a line on book value: on CapEx)."""
    rate, of = line.rate, line.basis
    if line.instead is not None and getattr(bm, line.instead[0]) is not None:
        rate, of = line.instead
    return _a_month(getattr(bm, rate), basis(bm, of), line.yearly)


def _fixed_running(bm: BareMetal) -> tuple[float, ...]:
    """Each running line's cost a month in service, `LINES`' order (on CapEx for a line on
    book value)."""
    return tuple(line_amount(bm, line) for line in LINES)


def _on_book_value(bm: BareMetal, fixed: tuple[float, ...], book_value: float) -> tuple[float, ...]:
    """The month's running lines: those on book value charged on `book_value`."""
    if all(line.basis != "book_value" for line in LINES):
        return fixed
    return tuple(
        _a_month(getattr(bm, line.rate), book_value, line.yearly)
        if line.basis == "book_value"
        else amount
        for line, amount in zip(LINES, fixed, strict=True)
    )


def _a_month(rate: float, base: float, yearly: bool) -> float:
    """Rate x base, a month (a yearly rate over 12)."""
    amount = rate * base
    return amount / 12 if yearly else amount


def servers(bm: BareMetal) -> int:
    return sum(p.servers for p in bm.pools)


def staff_fte(bm: BareMetal) -> float:
    """FTEs the servers need: per server when known, else the total given."""
    if bm.fte_per_server is None:
        return bm.fte
    return bm.fte_per_server * servers(bm)


def keep_servers(bm: BareMetal, pools: Sequence[ServerPool]) -> BareMetal:
    """`bm` with only `pools` (fewer servers, e.g. a hybrid's): every per-server cost follows
    them. Costs given as totals for all of `bm`'s servers (an `fte` without `fte_per_server`,
    `installation`) scale by servers kept / servers before."""
    kept = tuple(p for p in pools if p.servers)
    share = sum(p.servers for p in kept) / servers(bm)
    return replace(
        bm,
        pools=kept,
        fte=bm.fte * share,
        installation=bm.installation * share,
    )


def _by_hour(values: Sequence[float], what: str) -> list[float]:
    if len(values) == 1:
        return [float(values[0])] * DAY_HOURS
    if len(values) != DAY_HOURS:
        raise ScenarioError(f"{what}: give one value or 24 (by hour of day), got {len(values)}")
    return [float(v) for v in values]


def _check(bm: BareMetal) -> None:
    _check_pools(bm)
    _check_rates(bm)


def _check_pools(bm: BareMetal) -> None:
    if not bm.pools or not installed_gpus(bm):
        raise ScenarioError("a self-hosted option needs at least one server with GPUs")
    for pool in bm.pools:
        if pool.price < 0 or min(pool.idle_kw, pool.load_kw, pool.max_kw) < 0:
            raise ScenarioError(f"pool {pool.name}: prices and power must not be negative")
        if pool.load_kw < pool.idle_kw:
            raise ScenarioError(
                f"pool {pool.name}: full-load power {pool.load_kw} kW is below idle "
                f"{pool.idle_kw} kW"
            )


def _check_rates(bm: BareMetal) -> None:
    if bm.life_years <= 0:
        raise ScenarioError(f"life_years must be > 0 (got {bm.life_years})")
    if bm.tax_life_years is not None and bm.tax_life_years <= 0:
        raise ScenarioError(f"tax_life_years must be > 0 (got {bm.tax_life_years})")
    if not 0 <= bm.tax_rate < 1:
        raise ScenarioError(f"tax_rate must be in [0, 1) (got {bm.tax_rate})")
    if not 0 <= bm.residual_share <= 1:
        raise ScenarioError(f"residual_share must be between 0 and 1 (got {bm.residual_share})")
    if not 0 <= bm.resale_share <= 1:
        raise ScenarioError(f"resale_share must be between 0 and 1 (got {bm.resale_share})")
    if bm.pue < 1:
        raise ScenarioError(f"PUE must be >= 1 (got {bm.pue})")
    if any(p < 0 for p in bm.kwh_price):
        raise ScenarioError("electricity prices must not be negative")
    if not 0 < bm.availability <= 1:
        raise ScenarioError(f"availability must be in (0, 1] (got {bm.availability})")
    for name in (*ESCALATES.values(), *(line.escalation for line in LINES if line.escalation)):
        if getattr(bm, name) <= -1:
            raise ScenarioError(
                f"{name} must be above -100 % a year (got {getattr(bm, name)}); "
                "give e.g. 0.03 for prices rising 3 % a year"
            )
    for name in (a.field for a in ASSUMPTIONS if a.check == "non_negative"):
        if (getattr(bm, name) or 0) < 0:
            raise ScenarioError(f"{name} must not be negative (got {getattr(bm, name)})")
