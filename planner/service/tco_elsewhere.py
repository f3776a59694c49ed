"""The rate an owned option's unserved demand is bought elsewhere at (`planner.cost.
elsewhere`): the scenario's `served_elsewhere.rate`, or the cheapest on-demand cloud option's
list price per GPU-hour (its cheapest SKU in the bill, price per instance-hour / GPUs per
instance) among the options renting the owned servers' GPU (any on-demand option when none
does, said in a note), named in a note; or off, said in a note too.
"""

from collections.abc import Sequence

from planner.core.notes import note
from planner.cost.elsewhere import ServedElsewhere, unserved_gpu_hours
from planner.cost.inputs import CloudInputs, OwnedInputs
from planner.cost.ledger import before_delivery
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.service.tco_priced import PricedOptions
from planner.service.tco_trail import Trail, said


def served_elsewhere(
    scenario: TcoScenario, options: PricedOptions
) -> tuple[ServedElsewhere, Trail]:
    """The rates, and the note that names them when an owned option leaves demand unserved
    or waits at a cost (the rates are always stated as assumptions)."""
    spec, clouds, runs = scenario.served_elsewhere, options.clouds, options.runs
    wait = spec.wait_per_gpu_hour
    lead = unserved_gpu_hours(before_delivery(runs.demand, runs.rented[0] if runs.rented else None))
    found, trail = _rates(scenario, clouds, wait, lead)
    return found, trail if _matters(options.owned, lead, wait) else Trail()


def _matters(owned: Sequence[OwnedInputs], lead: float, wait: float) -> bool:
    """Whether an owned option has demand to buy elsewhere or waits that cost."""
    return any(
        o.demand.unserved_gpu_hours
        or (lead and o.bare_metal.lead_time_months)
        or (wait and o.demand.waited_gpu_hours)
        for o in owned
    )


def _rates(
    scenario: TcoScenario, clouds: Sequence[CloudInputs], wait: float, lead: float
) -> tuple[ServedElsewhere, Trail]:
    spec = scenario.served_elsewhere
    if not spec.enabled:
        return ServedElsewhere(None, wait_rate=wait), said(note("served_elsewhere_off"))
    if spec.rate is not None:
        found = ServedElsewhere(spec.rate, "", wait, lead)
        return found, said(_named(found, "`served_elsewhere.rate`", scenario.currency))
    offers = [
        (price, sku, option.gpu.upper())
        for cloud, option in zip(clouds, scenario.cloud, strict=True)
        if _on_demand(option)
        for price, sku in _list_prices(cloud)
    ]
    if not offers:
        return ServedElsewhere(None, wait_rate=wait), said(note("served_elsewhere_none"))
    owned = {pool.gpu.upper() for pool in scenario.self_hosted}
    same_gpu = [offer for offer in offers if offer[2] in owned]
    price, source, gpu = min(same_gpu or offers)
    found = ServedElsewhere(price, source, wait, lead)
    trail = said(_named(found, source, scenario.currency))
    if not same_gpu and owned:
        other = note("served_elsewhere_other_gpu", owned=", ".join(sorted(owned)), gpu=gpu)
        trail = trail + said(other)
    return found, trail


def _on_demand(option: CloudSpec) -> bool:
    return (
        option.pricing_model == "on_demand"
        and option.spot is None
        and not (option.committed_gpus or option.committed_gpus_by_year)
    )


def _list_prices(cloud: CloudInputs) -> list[tuple[float, str]]:
    """Each GPU SKU of the option's bill at its price per GPU-hour."""
    return [(q.price / q.gpus_per_unit, q.sku) for q in cloud.bill.compute if q.gpus_per_unit]


def _named(found: ServedElsewhere, source: str, currency: str) -> str:
    return note(
        "served_elsewhere",
        source=source,
        rate=f"{currency.upper()} {found.rate or 0.0:,.4g}",
        wait_rate=f"{currency.upper()} {found.wait_rate:,.4g}",
    )
