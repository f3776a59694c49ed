"""From a TCO scenario and the price book to the plain numbers `planner.cost.tco` works on.

Every price is converted to the reporting currency at the scenario's FX date; anything taken
from the price book is listed with its source, date and confidence, and stale or low-confidence
prices are flagged in the notes: each price older than the staleness limit with its date, age
and the limit, and each one without a source date as an unsourced estimate.
"""

from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from planner.core.errors import ScenarioError
from planner.core.notes import note
from planner.cost.baremetal import BareMetal, ServerPool
from planner.cost.cloud import CpuRate, Sku
from planner.cost.ledger import PricedBill
from planner.cost.lines import ASSUMPTIONS
from planner.cost.results import PriceUsed
from planner.cost.scenario import CloudSpec, OwnedPoolSpec, TcoScenario
from planner.cost.scope import CPU_POOL
from planner.engine.summary import ReplaySummary
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


@dataclass
class Inputs:
    """What the price book gave, converted, with notes on where each number came from."""

    currency: str
    on_date: date
    rates: FxTable
    set_name: str
    assumptions: dict[str, float]
    fresh: Freshness
    """Today and the staleness limit the book's prices are judged by."""
    notes: list[str] = field(default_factory=list)
    sources: list[PriceUsed] = field(default_factory=list)
    converted: set[str] = field(default_factory=set)
    """What was converted from another currency: 'server', 'cloud' (the FX driver moves it)."""
    dated: dict[str, date] = field(default_factory=dict)
    """The set's assumptions that carry the date they were seen (prices such as electricity)."""
    bills: dict[str, PricedBill] = field(default_factory=dict)
    """Each cloud option's bill by name (and the hybrid's burst): the workbook's quantities."""
    replays: dict[str, ReplaySummary] = field(default_factory=dict)
    """Each owned option's replay summary by name (the workbook's Replay sheet)."""

    def to_reporting(self, amount: float, currency: str, what: str) -> float:
        if currency.upper() == self.currency:
            return amount
        self.converted.add(what.split(" ", 1)[0] if what.startswith("server") else "cloud")
        conversion = self.rates.conversion(currency.upper(), self.currency, self.on_date)
        if conversion.confidence == "L":
            pair = {"base": currency, "quote": self.currency}
            self.notes.append(note("placeholder_fx", price=what, **pair))
        return amount * conversion.rate

    def used(self, price: PriceUsed, as_of: date | None) -> None:
        """List a price-book entry once, with a note if it is stale or has no source date."""
        price = replace(
            price,
            as_of="" if as_of is None else str(as_of),
            stale=as_of is not None and self.fresh.is_stale(as_of),
        )
        if price in self.sources:
            return
        self.sources.append(price)
        self._warn(price.price, as_of)

    def assumption_used(self, name: str) -> None:
        """Note an assumption taken from the set if it is dated and stale (an undated one is a
        value of the set, not a quote: it is not flagged)."""
        if name in self.dated:
            self._warn(note("assumption_in_set", name=name, set=self.set_name), self.dated[name])

    def _warn(self, name: str, as_of: date | None) -> None:
        warning = self.fresh.warning(name, as_of)
        if warning is not None and warning not in self.notes:
            self.notes.append(warning)


def load_inputs(con: Connection, scenario: TcoScenario, today: date | None = None) -> Inputs:
    ensure_seeded(con)
    if scenario.currency.upper() not in CURRENCIES:
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
    inputs = Inputs(scenario.currency.upper(), on_date, rates, scenario.assumptions, {}, fresh)
    local = ".cn" if inputs.currency == "CNY" else ".us"
    for name, item in book.items():
        if name.endswith((".cn", ".us")) and not name.endswith(local):
            continue  # the other market's figure: never converted, never used
        value = item.value
        if item.currency:
            value = inputs.to_reporting(value, item.currency, note("assumption", name=name))
        inputs.assumptions[name] = value
        if item.as_of is not None:
            inputs.dated[name] = item.as_of
    return inputs


def bare_metal(con: Connection, scenario: TcoScenario, inputs: Inputs) -> BareMetal:
    """Servers from the price book (or the scenario), assumptions from the set, then overrides;
    the CPU servers (scope all-jobs) are one more pool without GPUs."""
    pools = tuple(_pool(con, spec, inputs) for spec in scenario.self_hosted)
    cpu = scenario.cpu_servers
    if cpu is not None and scenario.scope == "all-jobs":
        price = inputs.to_reporting(cpu.price, cpu.currency or inputs.currency, "server CPU")
        kw = cpu.power_kw
        pools += (ServerPool(CPU_POOL, cpu.count, 0, price, kw, kw, kw),)
    base = _from_book(scenario, inputs) | _overrides(scenario)
    if "fte" in scenario.overrides and "fte_per_server" not in scenario.overrides:
        # an explicit total is for all the scenario's servers: a cluster keeping fewer of
        # them (the hybrid) pays its share, servers kept / servers in all
        base["fte_per_server"] = float(base["fte"]) / sum(p.servers for p in pools)
    return replace(BareMetal(pools=pools), **base)


def _from_book(scenario: TcoScenario, inputs: Inputs) -> dict[str, Any]:
    """The `BareMetal` fields the assumption set gives (`planner.cost.lines.ASSUMPTIONS`'
    price-book keys); a dated price the scenario does not override is noted if stale."""
    local = "cn" if inputs.currency == "CNY" else "us"
    base: dict[str, Any] = {}
    for entry in ASSUMPTIONS:
        key = entry.book.format(local=local)
        if not key or key not in inputs.assumptions:
            continue
        value = inputs.assumptions[key]
        base[entry.field] = (
            (value,) if entry.kind == "tariff" else int(value) if entry.kind == "int" else value
        )
        if entry.dated and entry.field not in scenario.overrides:
            inputs.assumption_used(key)
    return base


def skus(con: Connection, spec: CloudSpec, inputs: Inputs, gpus: float = 0.0) -> list[Sku]:
    """The SKUs a cloud option may use, in the reporting currency (cheapest first)."""
    if spec.price_per_gpu_hour is not None:
        # a flat price per GPU-hour rents a pod the GPUs it asks for (up to 64)
        price = spec.price_per_gpu_hour
        return [Sku(spec.label(), spec.gpu.upper(), float(n), n * price) for n in FLAT_SIZES]
    offers = _offers(con, spec, inputs, gpus)
    return [
        Sku(
            o.name,
            o.point.gpu_model,
            o.point.gpus_per_instance,
            inputs.to_reporting(o.price_per_instance_hour, o.currency, o.name),
            float(o.point.billing_granularity_s or 1),
            float(o.point.min_billing_s or 0),
        )
        for o in offers
    ]


CPU_ASSUMPTIONS = ("cloud_vcpu_hour", "cloud_gib_hour")
FLAT_SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64)
"""GPUs per instance a flat `price_per_gpu_hour` is offered in (a 12-GPU pod pays for 16)."""


def cpu_rate(spec: CloudSpec, inputs: Inputs) -> CpuRate:
    """CPU instances for CPU-only jobs: the option's prices, else the assumption set's."""
    given = (spec.price_per_vcpu_hour, spec.price_per_gib_hour)
    values = inputs.assumptions
    found = [
        v if v is not None else values.get(name)
        for v, name in zip(given, CPU_ASSUMPTIONS, strict=True)
    ]
    if found[0] is None or found[1] is None:
        raise ScenarioError(
            f"cloud option '{spec.label()}': no CPU instance price for CPU-only jobs (scope "
            "all-jobs); give price_per_vcpu_hour and price_per_gib_hour, or add the "
            f"assumptions {' and '.join(CPU_ASSUMPTIONS)} to the set"
        )
    for value, name in zip(given, CPU_ASSUMPTIONS, strict=True):
        if value is None:
            inputs.assumption_used(name)
    if None in given:
        rates = {"vcpu": f"{found[0]:.4f}", "gib": f"{found[1]:.4f}"}
        source = f"{inputs.set_name}: {', '.join(CPU_ASSUMPTIONS)}"
        inputs.notes.append(note("cpu_rate", option=spec.label(), source=source, **rates))
    return CpuRate(found[0], found[1])


def per_gpu_hour(con: Connection, spec: CloudSpec, inputs: Inputs) -> float:
    """C for a demand given as a utilization: the cheapest price per GPU-hour."""
    found = skus(con, spec, inputs)
    return min(s.price_per_hour / s.gpus_per_instance for s in found)


def _offers(con: Connection, spec: CloudSpec, inputs: Inputs, gpus: float) -> list[Offer]:
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
    for offer in found[:1]:
        _note_source(inputs, offer)
    return found


def _missing_price(spec: CloudSpec) -> str:
    where = " ".join(x for x in (spec.provider, spec.region, spec.instance) if x)
    return (
        f"cloud option '{spec.label()}': no {spec.pricing_model} price for {spec.gpu}"
        f"{' at ' + where if where else ''}; add one with `planner prices add --gpu {spec.gpu} "
        f"--model {spec.pricing_model} ...` or give price_per_gpu_hour"
    )


def _note_source(inputs: Inputs, offer: Offer) -> None:
    point = offer.point
    inputs.used(
        PriceUsed(
            offer.name,
            per_gpu_hour=offer.price_per_gpu_hour,
            currency=offer.currency,
            source=point.source_url,
            confidence=point.confidence,
        ),
        point.as_of,
    )
    if offer.discount is not None:
        d = offer.discount
        rule = {"rule": d.name, "value": f"{d.value:g}", "confidence": d.confidence}
        inputs.notes.append(note("derived_discount", price=offer.name, **rule))


def _pool(con: Connection, spec: OwnedPoolSpec, inputs: Inputs) -> ServerPool:
    needs_book = None in (spec.price, spec.idle_kw, spec.load_kw, spec.max_kw)
    server = (
        server_for(con, spec.gpu, gpus_per_server=spec.gpus_per_server, today=inputs.fresh.today)
        if needs_book
        else None
    )
    if server is not None:
        inputs.used(
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
    if price is None:
        assert server is not None
        price = inputs.to_reporting(server.price, server.currency, note("server", name=spec.gpu))
    elif spec.currency:
        price = inputs.to_reporting(price, spec.currency, note("server", name=spec.gpu))
    power = {
        k: getattr(spec, k) if getattr(spec, k) is not None else getattr(server, k)
        for k in ("idle_kw", "load_kw", "max_kw")
    }
    return ServerPool(spec.gpu.upper(), spec.servers, spec.gpus_per_server, price, **power)


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
        if kinds[name] == "tariff":
            result[name] = value if isinstance(value, tuple) else (value,)
        elif isinstance(value, tuple):
            raise ScenarioError(f"overrides.{name}: give one number")
        elif kinds[name] == "int":
            result[name] = int(value)
        else:
            result[name] = value
    return result
