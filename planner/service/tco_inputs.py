"""From a TCO scenario and the price book to the plain numbers `planner.cost.tco` works on.

`load_inputs` reads the price book once into `Inputs`, a value that never changes: the
reporting currency, the FX table and date, the assumption set's values in the reporting
currency, and the staleness limit. `bare_metal` prices the owned servers from it, `skus`,
`per_gpu_hour` and `cpu_rate` a cloud option. Each returns what it found with a `Trail`: every
amount in another currency converted at the scenario's FX date, anything taken from the price
book listed with its source, date and confidence, and stale or low-confidence prices flagged
in the notes: each price older than the staleness limit with its date, age and the limit, and
each one without a source date as an unsourced estimate.
"""

from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from planner.core.errors import ScenarioError
from planner.core.notes import note
from planner.cost.baremetal import BareMetal, ServerPool
from planner.cost.cloud import CpuRate, Sku
from planner.cost.lines import ASSUMPTIONS, Assumption
from planner.cost.pool_defaults import POOL_DEFAULTS
from planner.cost.results import PriceUsed
from planner.cost.scenario import MAX_AMOUNT, CloudSpec, OwnedPoolSpec, TcoScenario
from planner.cost.scope import CPU_POOL
from planner.service.tco_trail import Trail, said
from planner.store import Connection
from pricing import (
    CURRENCIES,
    Freshness,
    FxTable,
    Offer,
    OfferRequest,
    assumption_set,
    ensure_seeded,
    freshness,
    fx_table,
    offers_for,
    server_for,
)
from pricing import Assumption as BookItem


@dataclass(frozen=True, slots=True)
class SetValue:
    """One value of the assumption set: the book's item, its value in the reporting currency."""

    item: BookItem
    value: float


@dataclass(frozen=True, slots=True)
class Inputs:
    """What the price book gives a scenario, read once and converted: the TCO's fixed inputs."""

    currency: str
    on_date: date
    rates: FxTable
    set_name: str
    fresh: Freshness
    """Today and the staleness limit the book's prices are judged by."""
    owning: tuple[tuple[Assumption, SetValue], ...] = ()
    """The bare-metal assumptions the set gives (`planner.cost.lines.ASSUMPTIONS`' price-book
    keys, this market's), in that table's order."""
    vcpu_hour: SetValue | None = None
    """A cloud CPU instance's price per vCPU-hour (`cloud_vcpu_hour`), for CPU-only jobs."""
    gib_hour: SetValue | None = None
    """... and per GiB-hour of memory (`cloud_gib_hour`)."""
    pool_delays: tuple[SetValue | None, SetValue | None] = (None, None)
    """A node pool's provisioning and scale-down delays (`pool.provisioning_s`,
    `pool.scale_down_s`), for a pooled cloud option that gives none."""
    allocation_utilization: float | None = None
    """The allocated share of owned GPUs to assume without a trace or a utilization."""

    def to_reporting(self, amount: float, currency: str, what: str) -> tuple[float, Trail]:
        """`amount` in the reporting currency; noted if the FX rate is a placeholder."""
        if currency.upper() == self.currency:
            return amount, Trail()
        kind = what.split(" ", 1)[0] if what.startswith("server") else "cloud"
        conversion = self.rates.conversion(currency.upper(), self.currency, self.on_date)
        notes: tuple[str, ...] = ()
        if conversion.confidence == "L":
            pair = {"base": currency, "quote": self.currency}
            notes = (note("placeholder_fx", price=what, **pair),)
        return amount * conversion.rate, Trail(notes, converted=frozenset({kind}))

    def used(self, price: PriceUsed, as_of: date | None) -> Trail:
        """A price-book entry listed with its date, noted if stale or without a source date."""
        stale = as_of is not None and self.fresh.is_stale(as_of)
        price = replace(price, as_of="" if as_of is None else str(as_of), stale=stale)
        warning = self.fresh.warning(price.price, as_of)
        return Trail((warning,) if warning is not None else (), (price,))

    def from_set(self, value: SetValue) -> Trail:
        """A note if a value taken from the set is dated and stale (an undated one is a value
        of the set, not a quote: it is not flagged)."""
        as_of = value.item.as_of
        if as_of is None:
            return Trail()
        name = note("assumption_in_set", name=value.item.name, set=self.set_name)
        warning = self.fresh.warning(name, as_of)
        return said(warning) if warning is not None else Trail()


CPU_ASSUMPTIONS = ("cloud_vcpu_hour", "cloud_gib_hour")


def load_inputs(
    con: Connection, scenario: TcoScenario, today: date | None = None
) -> tuple[Inputs, Trail]:
    ensure_seeded(con)
    currency = scenario.currency.upper()
    if currency not in CURRENCIES:
        raise ScenarioError(
            f"unknown reporting currency '{scenario.currency}'; use one of "
            f"{', '.join(sorted(CURRENCIES))}"
        )
    on_date = scenario.fx_date or today or date.today()
    rates = fx_table(con)
    book = assumption_set(con, scenario.assumptions)
    if not book:
        raise ScenarioError(f"no assumption set '{scenario.assumptions}' in the price book")
    fresh = freshness(con, today=today)
    money = Inputs(currency, on_date, rates, scenario.assumptions, fresh)  # no set values yet
    values, trail = _set_values(money, book)
    local = "cn" if currency == "CNY" else "us"
    keys = [(a, a.book.format(local=local)) for a in ASSUMPTIONS]
    vcpu, gib = (values.get(name) for name in CPU_ASSUMPTIONS)
    provisioning, scale_down = (values.get(d.name) for d in POOL_DEFAULTS)
    allocation = values.get("allocation_utilization")
    inputs = replace(
        money,
        owning=tuple((a, values[key]) for a, key in keys if key and key in values),
        vcpu_hour=vcpu,
        gib_hour=gib,
        pool_delays=(provisioning, scale_down),
        allocation_utilization=None if allocation is None else allocation.value,
    )
    return inputs, trail


def _set_values(inputs: Inputs, book: dict[str, BookItem]) -> tuple[dict[str, SetValue], Trail]:
    """This market's items of the set by name, in the reporting currency. Every item is
    converted, read or not, so a placeholder FX rate under any of them is noted."""
    local = ".cn" if inputs.currency == "CNY" else ".us"
    values: dict[str, SetValue] = {}
    trail = Trail()
    for name, item in book.items():
        if name.endswith((".cn", ".us")) and not name.endswith(local):
            continue  # the other market's figure: never converted, never used
        value = item.value
        if item.currency:
            value, found = inputs.to_reporting(value, item.currency, note("assumption", name=name))
            trail += found
        values[name] = SetValue(item, value)
    return values, trail


def bare_metal(con: Connection, scenario: TcoScenario, inputs: Inputs) -> tuple[BareMetal, Trail]:
    """Servers from the price book (or the scenario), assumptions from the set, then overrides;
    the CPU servers (scope all-jobs) are one more pool without GPUs."""
    pools: tuple[ServerPool, ...] = ()
    trail = Trail()
    for spec in scenario.self_hosted:
        pool, found = _pool(con, spec, inputs)
        pools += (pool,)
        trail += found
    cpu = scenario.cpu_servers
    if cpu is not None and scenario.scope == "all-jobs":
        currency = cpu.currency or inputs.currency
        price, found = inputs.to_reporting(cpu.price, currency, "server CPU")
        kw = cpu.power_kw
        pools += (ServerPool(CPU_POOL, cpu.count, 0, price, kw, kw, kw),)
        trail += found
    base, found = _from_book(scenario, inputs)
    base |= _overrides(scenario)
    if "fte" in scenario.overrides and "fte_per_server" not in scenario.overrides:
        # an explicit total is for all the scenario's servers: a cluster keeping fewer of
        # them (the hybrid) pays its share, servers kept / servers in all
        base["fte_per_server"] = float(base["fte"]) / sum(p.servers for p in pools)
    return replace(BareMetal(pools=pools), **base), trail + found


def _from_book(scenario: TcoScenario, inputs: Inputs) -> tuple[dict[str, Any], Trail]:
    """The `BareMetal` fields the assumption set gives; a dated price the scenario does not
    override is noted if stale."""
    base: dict[str, Any] = {}
    trail = Trail()
    for entry, given in inputs.owning:
        value = given.value
        base[entry.field] = (
            (value,) if entry.kind == "tariff" else int(value) if entry.kind == "int" else value
        )
        if entry.dated and entry.field not in scenario.overrides:
            trail += inputs.from_set(given)
    return base, trail


def _pool(con: Connection, spec: OwnedPoolSpec, inputs: Inputs) -> tuple[ServerPool, Trail]:
    needs_book = None in (spec.price, spec.idle_kw, spec.load_kw, spec.max_kw)
    server = (
        server_for(con, spec.gpu, gpus_per_server=spec.gpus_per_server, today=inputs.fresh.today)
        if needs_book
        else None
    )
    trail = Trail()
    if server is not None:
        trail = inputs.used(
            PriceUsed(
                note("server", name=f"{server.gpus_per_server}x{server.gpu_model}"),
                per_server=server.price,
                currency=server.currency,
                source=server.source,
                confidence=server.confidence,
            ),
            server.as_of,
        )
    price = spec.price
    what = note("server", name=spec.gpu)
    if price is None:
        assert server is not None
        price, found = inputs.to_reporting(server.price, server.currency, what)
        trail += found
    elif spec.currency:
        price, found = inputs.to_reporting(price, spec.currency, what)
        trail += found
    power = {
        k: getattr(spec, k) if getattr(spec, k) is not None else getattr(server, k)
        for k in ("idle_kw", "load_kw", "max_kw")
    }
    return ServerPool(spec.gpu.upper(), spec.servers, spec.gpus_per_server, price, **power), trail


def _check_size(name: str, value: object) -> None:
    """An override's numbers are finite and at most `MAX_AMOUNT` in size."""
    numbers = value if isinstance(value, tuple) else (value,)
    for number in numbers:
        if isinstance(number, float | int) and not abs(number) <= MAX_AMOUNT:
            raise ScenarioError(
                f"overrides.{name}: {number!r} is out of range; give a finite number of at "
                f"most {MAX_AMOUNT:,.0f}"
            )


def _overrides(scenario: TcoScenario) -> dict[str, Any]:
    kinds = {a.field: a.kind for a in ASSUMPTIONS}
    result: dict[str, Any] = {}
    for name, value in scenario.overrides.items():
        if name not in kinds:
            raise ScenarioError(
                f"overrides: unknown assumption '{name}'; known: {', '.join(sorted(kinds))}"
            )
        words = kinds[name] == "method"
        if words != isinstance(value, str):
            expected = "a method name" if words else "a number"
            raise ScenarioError(f"overrides.{name}: expected {expected}, got {value!r}")
        _check_size(name, value)
        if kinds[name] == "tariff":
            result[name] = value if isinstance(value, tuple) else (value,)
        elif isinstance(value, tuple):
            raise ScenarioError(f"overrides.{name}: give one number")
        elif kinds[name] == "int":
            result[name] = int(value)
        else:
            result[name] = value
    return result


# --- the cloud's prices ----------------------------------------------------------------------

FLAT_SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64)
"""GPUs per instance a flat `price_per_gpu_hour` is offered in (a 12-GPU pod pays for 16)."""


def skus(
    con: Connection, spec: CloudSpec, inputs: Inputs, gpus: float = 0.0
) -> tuple[list[Sku], Trail]:
    """The SKUs a cloud option may use, in the reporting currency (cheapest first)."""
    if spec.price_per_gpu_hour is not None:
        # a flat price per GPU-hour rents a pod the GPUs it asks for (up to 64)
        price = spec.price_per_gpu_hour
        flat = [Sku(spec.label(), spec.gpu.upper(), float(n), n * price) for n in FLAT_SIZES]
        return flat, Trail()
    offers, trail = _offers(con, spec, inputs, gpus)
    found: list[Sku] = []
    for o in offers:
        price, converted = inputs.to_reporting(o.price_per_instance_hour, o.currency, o.name)
        trail += converted
        p = o.point
        billing = (float(p.billing_granularity_s or 1), float(p.min_billing_s or 0))
        found.append(Sku(o.name, p.gpu_model, p.gpus_per_instance, price, *billing))
    return found, trail


def per_gpu_hour(con: Connection, spec: CloudSpec, inputs: Inputs) -> tuple[float, Trail]:
    """C for a demand given as a utilization: the cheapest price per GPU-hour."""
    found, trail = skus(con, spec, inputs)
    return min(s.price_per_hour / s.gpus_per_instance for s in found), trail


def cpu_rate(spec: CloudSpec, inputs: Inputs) -> tuple[CpuRate, Trail]:
    """CPU instances for CPU-only jobs: the option's prices, else the assumption set's."""
    given = (spec.price_per_vcpu_hour, spec.price_per_gib_hour)
    book = (inputs.vcpu_hour, inputs.gib_hour)
    vcpu, gib = (
        v if v is not None else b.value if b is not None else None
        for v, b in zip(given, book, strict=True)
    )
    if vcpu is None or gib is None:
        raise ScenarioError(
            f"cloud option '{spec.label()}': no CPU instance price for CPU-only jobs (scope "
            "all-jobs); give price_per_vcpu_hour and price_per_gib_hour, or add the "
            f"assumptions {' and '.join(CPU_ASSUMPTIONS)} to the set"
        )
    trail = Trail()
    for value, from_book in zip(given, book, strict=True):
        if value is None and from_book is not None:
            trail += inputs.from_set(from_book)
    if None in given:
        rates = {"vcpu": f"{vcpu:.4f}", "gib": f"{gib:.4f}"}
        source = f"{inputs.set_name}: {', '.join(CPU_ASSUMPTIONS)}"
        trail += said(note("cpu_rate", option=spec.label(), source=source, **rates))
    return CpuRate(vcpu, gib), trail


def _offers(
    con: Connection, spec: CloudSpec, inputs: Inputs, gpus: float
) -> tuple[list[Offer], Trail]:
    request = OfferRequest(
        gpu=spec.gpu,
        pricing_model=spec.pricing_model,
        provider=spec.provider,
        region=spec.region,
        term_months=spec.term_months,
        gpus=gpus,
        derive=True,
        assumption_set=inputs.set_name,
        on_date=inputs.on_date,
    )
    found = [
        o
        for o in offers_for(con, request, today=inputs.on_date)
        if spec.instance is None or o.point.instance_type == spec.instance
    ]
    if not found:
        raise ScenarioError(_missing_price(spec))
    return found, _source(inputs, found[0])


def _missing_price(spec: CloudSpec) -> str:
    where = " ".join(x for x in (spec.provider, spec.region, spec.instance) if x)
    return (
        f"cloud option '{spec.label()}': no {spec.pricing_model} price for {spec.gpu}"
        f"{' at ' + where if where else ''}; add one with `planner prices add --gpu {spec.gpu} "
        f"--model {spec.pricing_model} ...` or give price_per_gpu_hour"
    )


def _source(inputs: Inputs, offer: Offer) -> Trail:
    """The offer a price was taken from, and the rule it was derived by."""
    point = offer.point
    trail = inputs.used(
        PriceUsed(
            offer.name,
            per_gpu_hour=offer.price_per_gpu_hour,
            currency=offer.currency,
            source=point.source_url,
            confidence=offer.confidence,
        ),
        point.as_of,
    )
    if offer.discount is not None:
        d = offer.discount
        rule = {"rule": d.name, "value": f"{d.value:g}", "confidence": d.confidence}
        trail += said(note("derived_discount", price=offer.name, **rule))
    return trail
