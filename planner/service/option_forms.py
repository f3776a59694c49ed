"""Options built with forms instead of YAML: own servers, a cloud option, or a hybrid of both.

A form's values become the same `TcoScenario` a YAML file does, through the one pydantic
model, so a form-built option saved, exported and run with `planner tco --scenario` gives the
numbers the app shows. The choices come from the price book (providers, GPUs, instance types,
pricing models and terms present in it); `check_cloud` asks the price book the question the
TCO run will ask, so a combination it cannot price is explained before saving.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from pydantic import ValidationError

from planner.core.errors import ScenarioError
from planner.core.notes import cloud_label
from planner.core.pricing_model import PricingModel
from planner.cost.scenario import TcoScenario
from planner.service.replay import validation_text
from planner.store import Connection
from pricing import (
    DEFAULT_SET,
    Offer,
    OfferRequest,
    PricePoint,
    PricingError,
    ServerPrice,
    assumption_set,
    list_prices,
    list_servers,
    offers_for,
)
from pricing.assumptions import COMMITMENTS

_Part = TypeVar("_Part")
Kind = Literal["own", "cloud", "hybrid"]
KINDS: tuple[Kind, ...] = ("own", "cloud", "hybrid")
PAYMENTS: tuple[PricingModel, ...] = (
    "on_demand",
    "reserved",
    "savings_plan",
    "cud",
    "subscription",
    "spot",
    "capacity_block",
)
"""Every way a cloud option may be paid; `check_cloud` says which the book can price."""
_RULE_TERM = re.compile(r"^discount\.([a-z_]+)\.(\d+)m")


def is_commitment(pricing_model: str) -> bool:
    """Paid for a term (reserved, savings plan, CUD, subscription): it has a term and may
    commit GPUs."""
    return pricing_model in COMMITMENTS


@dataclass(frozen=True, slots=True)
class PoolForm:
    """Servers of one GPU type; price and power None: the price book's server for the GPU."""

    gpu: str
    servers: int
    gpus_per_server: int = 8
    price: float | None = None
    currency: str | None = None
    power_kw: tuple[float, float, float] | None = None
    """(idle, full load, max) per server, with a price copied from another server."""


@dataclass(frozen=True, slots=True)
class OwnForm:
    pools: tuple[PoolForm, ...]
    lead_time_months: int
    life_years: float


@dataclass(frozen=True, slots=True)
class CloudForm:
    provider: str
    gpu: str
    instance: str | None = None
    """One instance type; None: whichever of the provider's fits each job best."""
    pricing_model: PricingModel = "on_demand"
    term_months: int | None = None
    committed_gpus: float = 0.0

    def label(self) -> str:
        """The option's name in reports, e.g. 'AWS p5.48xlarge reserved 36m' (worded in
        Chinese: `planner.core.notes.cloud_label`)."""
        term = self.term_months if self.committed else None
        return cloud_label(self.provider, self.instance or self.gpu, self.pricing_model, term)

    @property
    def committed(self) -> bool:
        return is_commitment(self.pricing_model)


@dataclass(frozen=True, slots=True)
class HybridForm:
    kept: Mapping[str, int]
    """Servers kept per self-hosted GPU type."""
    burst_after_h: float


@dataclass(frozen=True, slots=True)
class OptionForm:
    """What the form holds: the option's kind, its name, the trace it is priced on."""

    name: str
    kind: Kind
    trace: str | None
    own: OwnForm | None = None
    cloud: CloudForm | None = None
    hybrid: HybridForm | None = None
    currency: str = "USD"


def build(form: OptionForm) -> TcoScenario:
    """The TCO scenario the form describes, validated as a YAML file is (ScenarioError with
    the fields at fault otherwise)."""
    try:
        return TcoScenario.model_validate(scenario_data(form))
    except ValidationError as err:
        raise ScenarioError(f"{form.name or form.kind}: {validation_text(err)}") from err


def scenario_data(form: OptionForm) -> dict[str, object]:
    """The form as the mapping a scenario file holds (keys the YAML reference documents)."""
    data: dict[str, object] = {"name": form.name.strip(), "currency": form.currency}
    if form.trace:
        data["trace"] = form.trace
    if form.kind in ("own", "hybrid"):
        data |= _own(_required(form.own, "own"))
    if form.kind in ("cloud", "hybrid"):
        data["cloud"] = [_cloud(_required(form.cloud, "cloud"))]
    if form.kind == "hybrid":
        hybrid = _required(form.hybrid, "hybrid")
        data["hybrid"] = {
            "burst_after_s": hybrid.burst_after_h * 3600,
            "servers": dict(hybrid.kept),
        }
    return data


def _required(part: _Part | None, name: str) -> _Part:
    if part is None:
        raise ScenarioError(f"a {name} option needs its {name} part")
    return part


def _own(own: OwnForm) -> dict[str, object]:
    pools = []
    for pool in own.pools:
        spec: dict[str, object] = {
            "gpu": pool.gpu,
            "servers": pool.servers,
            "gpus_per_server": pool.gpus_per_server,
        }
        if pool.price is not None:
            spec["price"] = pool.price
            if pool.currency:
                spec["currency"] = pool.currency
        if pool.power_kw is not None:
            spec |= dict(zip(("idle_kw", "load_kw", "max_kw"), pool.power_kw, strict=True))
        pools.append(spec)
    overrides = {"lead_time_months": own.lead_time_months, "life_years": own.life_years}
    return {"self_hosted": pools, "overrides": overrides}


def _cloud(cloud: CloudForm) -> dict[str, object]:
    spec: dict[str, object] = {
        "name": cloud.label(),
        "provider": cloud.provider,
        "gpu": cloud.gpu,
        "pricing_model": cloud.pricing_model,
    }
    if cloud.instance:
        spec["instance"] = cloud.instance
    if cloud.committed and cloud.term_months:
        spec["term_months"] = cloud.term_months
    if cloud.committed and cloud.committed_gpus > 0:
        spec["committed_gpus"] = cloud.committed_gpus
    if cloud.pricing_model == "spot":
        spec["spot"] = {}  # interruptions at the model's default rate, restarts billed
    return spec


# --- the price book's choices -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Catalog:
    """What the price book offers the forms: cloud prices, servers, the terms it knows per
    pricing model (stored prices and discount rules) and the assumption set's defaults."""

    points: tuple[PricePoint, ...]
    servers: tuple[ServerPrice, ...]
    terms: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    defaults: Mapping[str, float] = field(default_factory=dict)

    def providers(self) -> list[str]:
        return sorted({p.provider for p in self.points}, key=str.lower)

    def gpus(self, provider: str) -> list[str]:
        return sorted({p.gpu_model for p in self.points if p.provider == provider})

    def instances(self, provider: str, gpu: str) -> list[str]:
        """Instance types of `gpu` at `provider`, smallest first."""
        found = {
            (p.gpus_per_instance, p.instance_type)
            for p in self.points
            if p.provider == provider and p.gpu_model == gpu
        }
        return [name for _, name in sorted(found)]

    def server_gpus(self) -> list[str]:
        return sorted({s.gpu_model for s in self.servers})

    def server(self, gpu: str, gpus_per_server: int) -> ServerPrice | None:
        """The book's server for the pool (what the TCO run will price it at), if any."""
        found = [
            s
            for s in self.servers
            if s.gpu_model.upper() == gpu.upper() and s.gpus_per_server == gpus_per_server
        ]
        return max(found, key=lambda s: (s.origin == "user", str(s.as_of)), default=None)

    def terms_of(self, pricing_model: str) -> tuple[int, ...]:
        return self.terms.get(pricing_model, ()) + self.terms.get("commit", ())


def catalog(con: Connection, set_name: str = DEFAULT_SET) -> Catalog:
    points = tuple(list_prices(con))
    rules = assumption_set(con, set_name)
    terms: dict[str, set[int]] = {}
    for p in points:
        if p.term_months:
            terms.setdefault(p.pricing_model, set()).add(p.term_months)
    for name in rules:
        if match := _RULE_TERM.match(name):
            terms.setdefault(match.group(1), set()).add(int(match.group(2)))
    defaults: dict[str, float] = {
        name: rules[name].value for name in ("lead_time_months", "life_years") if name in rules
    }
    return Catalog(
        points,
        tuple(list_servers(con)),
        {model: tuple(sorted(found)) for model, found in terms.items()},
        defaults,
    )


@dataclass(frozen=True, slots=True)
class CloudCheck:
    """The cheapest offer the TCO run will use for a cloud form, or why there is none:
    'no_term' (the term has no price or rule; `terms` have), 'no_price' (nothing for this
    pricing model at this provider, GPU and instance)."""

    offer: Offer | None
    problem: Literal["no_term", "no_price"] | None = None
    terms: tuple[int, ...] = ()


def check_cloud(
    con: Connection, cloud: CloudForm, known: Catalog, currency: str = "USD"
) -> CloudCheck:
    """Ask the price book what `planner tco` will ask it for this option (stored prices,
    else on-demand less the set's discount rule for the term)."""
    offer = _cheapest(con, cloud, currency)
    if offer is not None:
        return CloudCheck(offer)
    if cloud.committed and cloud.term_months:
        others = tuple(
            term
            for term in sorted(set(known.terms_of(cloud.pricing_model)))
            if term != cloud.term_months
            and _cheapest(con, _with_term(cloud, term), currency) is not None
        )
        if others:
            return CloudCheck(None, "no_term", others)
    return CloudCheck(None, "no_price")


def _with_term(cloud: CloudForm, term: int) -> CloudForm:
    return CloudForm(
        cloud.provider,
        cloud.gpu,
        cloud.instance,
        cloud.pricing_model,
        term,
        cloud.committed_gpus,
    )


def _cheapest(con: Connection, cloud: CloudForm, currency: str) -> Offer | None:
    request = OfferRequest(
        gpu=cloud.gpu,
        pricing_model=cloud.pricing_model,
        currency=currency,
        provider=cloud.provider,
        term_months=cloud.term_months if cloud.committed else None,
        derive=True,
    )
    try:
        found = offers_for(con, request)
    except PricingError:
        return None  # no discount rule to derive it from on-demand
    fitting = [o for o in found if cloud.instance in (None, o.point.instance_type)]
    return fitting[0] if fitting else None
