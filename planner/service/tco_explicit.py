"""Demand without a trace: the owned GPUs allocated a share of every hour (the scenario's
`utilization`, else the assumption set's), and each cloud option renting those GPU-hours at
its cheapest price per GPU-hour.
"""

from planner.core.errors import ScenarioError
from planner.core.notes import note
from planner.cost import tco
from planner.cost.baremetal import HOURS_PER_MONTH, BareMetal, installed_gpus
from planner.cost.comparison import Runs
from planner.cost.inputs import CloudInputs, OwnedInputs
from planner.cost.ledger import Hours
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.service.tco_bills import flat_bill
from planner.service.tco_inputs import Inputs, per_gpu_hour
from planner.service.tco_priced import PricedOptions
from planner.service.tco_trail import Trail, said
from planner.store import Connection

DEFAULT_ALLOCATION = 0.35
"""The allocated share of the owned GPUs when neither the scenario nor the set gives one."""


def explicit(
    con: Connection, scenario: TcoScenario, inputs: Inputs, bm: BareMetal
) -> PricedOptions:
    """Every option priced on a steady month at the scenario's utilization."""
    if scenario.hybrid is not None:
        raise ScenarioError("a hybrid option needs a trace: bursts are decided in the replay")
    u = scenario.utilization
    trail = Trail()
    if u is None:
        given = inputs.allocation_utilization
        u = DEFAULT_ALLOCATION if given is None else given
        trail = said(note("default_allocation", share=f"{u:.0%}"))
    useful = u * installed_gpus(bm) * HOURS_PER_MONTH
    demand = tco.Demand(useful_gpu_hours=useful, utilization_by_hour=(u,))
    clouds: list[CloudInputs] = []
    for spec in scenario.cloud:
        cloud, found = _rent_flat(con, (spec, scenario.overflow_of(spec)), inputs, useful)
        clouds.append(cloud)
        trail += found
    runs = Runs(
        Hours({"demanded": useful}),
        Hours({"owned": useful}),
        [Hours({"rented": useful}) for _ in clouds],
    )
    mine = OwnedInputs("self-hosted", bm, demand)
    return PricedOptions((mine,), tuple(clouds), runs, None, {}, trail)


def _rent_flat(
    con: Connection, specs: tuple[CloudSpec, CloudSpec], inputs: Inputs, useful: float
) -> tuple[CloudInputs, Trail]:
    """A steady demand of `useful` GPU-hours a month: committed GPUs at the option's price,
    the rest at its overflow option's (all of it at the option's price without a
    commitment); `specs` is the option and its overflow option."""
    spec, overflow = specs
    price, trail = per_gpu_hour(con, spec, inputs)
    per_month: dict[str, float] = {}
    overflow_price = None
    if spec.committed_gpus:
        covered = min(useful, spec.committed_gpus * HOURS_PER_MONTH)
        per_month["commitment"] = spec.committed_gpus * HOURS_PER_MONTH * price
        overflow_price, found = per_gpu_hour(con, overflow, inputs)
        trail += found
        per_month["overflow"] = (useful - covered) * overflow_price
    else:
        per_month["cloud_compute"] = useful * price
    per_month |= spec.data_costs()
    total = sum(per_month.values()) - sum(spec.data_costs().values())
    rented = tco.Rented(spec.label(), per_month, total / useful if useful else price)
    return CloudInputs(rented, flat_bill(specs, rented, useful, overflow_price)), trail
