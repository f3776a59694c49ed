"""Monte Carlo re-pricing: an option's monthly cash flow and NPV under price paths, from the
inputs its report recorded (`TcoInputs`), without replaying.

Each option's cash is split once into parts that move with one driver each, read off the
model itself (`planner.cost.tco.owned_option` run with a part switched off, so every rule of
the model, tax shield, lead time and resale value included, stays the model's):

    owned   fixed        colocation, staff, software, installation (nothing moves them)
            server       what the servers' price drives: CapEx, support, spares, the tax
                         saved on depreciation, the resale value at the end and
                         the tax on its gain on disposal
            energy       idle + busy power by hour of day x utilization, after tax
            cloud        the bridge while the servers are on order and the hybrid's bursts
    rented  locked       the commitment (its price and size fixed by the contract)
            moving       every other part of the bill

A draw's cash in month m is then

    owned   fixed + S server + E(m) energy(min(1, u_h D(m))) + C(m) D(m) cloud
    rented  locked + C(m) D(m) moving          (both after tax)

(S server price at purchase, E electricity, C cloud price, D demand: `montecarlo_paths`), and
with every multiplier 1 the cash is the report's, so the NPVs are the model's to the cent.
The deterministic escalation of power and cloud prices (`BareMetal.power_escalation_year`,
`cloud_escalation_year`) is left out here: E(m) and C(m) have their own trends, which take
its place (counting both would raise those prices twice); with either escalation set, the
draws at multiplier 1 are the report's cash without it. Staff and colocation escalation stay
in `fixed` (no path moves them).
The demand scales the bills and the owned servers' busy power only: queueing is not replayed
again (waits stay the replay's), and the owned servers never serve more than their capacity.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from planner.core.errors import ScenarioError
from planner.core.serialize import IN_MEMORY
from planner.cost import finance, tco
from planner.cost.baremetal import (
    DAY_HOURS,
    HOURS_PER_MONTH,
    BareMetal,
    energy_per_hour,
    in_service_from,
)
from planner.cost.elsewhere import ServedElsewhere, Unserved, owned_unserved
from planner.cost.inputs import OwnedInputs, TcoInputs
from planner.cost.montecarlo_paths import Array, Paths


@dataclass(frozen=True, slots=True)
class OwnedParts:
    name: str
    fixed: Array
    server: Array
    cloud: Array
    in_service: npt.NDArray[np.bool_]
    """Per month: the servers are delivered (they draw power)."""
    idle_energy: float
    """Idle power's cost a month, after tax."""
    busy_energy: Array
    """Per hour of day: what that hour's allocation (0..1) adds to a month's energy cost,
    after tax (sum over hours of busy x utilization, plus idle: the month's energy)."""
    utilization: Array
    """Per month and hour of day (months x 24)."""


@dataclass(frozen=True, slots=True)
class RentedParts:
    name: str
    locked: Array
    moving: Array
    """Cash by month (after tax)."""


@dataclass(frozen=True, slots=True)
class Parts:
    """Every option of a report over one horizon, split by driver."""

    months: int
    rate: float
    owned: tuple[OwnedParts, ...]
    rented: tuple[RentedParts, ...]


def parts_of(inputs: TcoInputs | Sequence[TcoInputs], months: int) -> Parts:
    """The options of a report priced from `inputs`, over `months`; with growing demand (its
    `later_years`, or one `TcoInputs` a year as sweep points stored them before), year k's
    months come from year k's (the last year's beyond), as
    `planner.cost.growth.splice` takes them from year k's report."""
    years = list(inputs.by_year()) if isinstance(inputs, TcoInputs) else list(inputs)
    if not years:
        raise ScenarioError("no inputs to re-price")
    each = [_parts(y, months) for y in years]
    if len(each) == 1:
        return each[0]
    segments = [
        (each[min(k, len(each) - 1)], slice(start, min(start + 12, months)))
        for k, start in enumerate(range(0, months, 12))
    ]
    return replace(
        each[0],
        owned=tuple(_spliced(k, segments, "owned") for k in range(len(each[0].owned))),
        rented=tuple(_spliced(k, segments, "rented") for k in range(len(each[0].rented))),
    )


_MONTHLY = ("fixed", "server", "cloud", "utilization", "locked", "moving")


def _spliced(index: int, segments: list[tuple["Parts", slice]], kind: str) -> Any:
    """Option `index` of `kind` with every monthly array taken year by year."""
    first = getattr(segments[0][0], kind)[index]
    moved = {
        name: np.concatenate([getattr(getattr(p, kind)[index], name)[s] for p, s in segments])
        for name in _MONTHLY
        if hasattr(first, name)
    }
    return replace(first, **moved)


def _parts(inputs: TcoInputs, months: int) -> Parts:
    first = inputs.clouds[0].rented if inputs.clouds else None
    rate = inputs.discount_rate
    prices = inputs.served_elsewhere
    owned = tuple(_owned_parts(o, first, (months, rate), prices) for o in inputs.owned)
    rented = tuple(_rented_parts(c.rented, inputs.tax_rate, months) for c in inputs.clouds)
    return Parts(months, rate, owned, rented)


def _owned_parts(
    owned: OwnedInputs,
    first: tco.Rented | None,
    priced: tuple[int, float],
    prices: ServedElsewhere | None,
) -> OwnedParts:
    """`priced` = (months, discount rate); `prices`: the served-elsewhere rates recorded, whose
    lines are cloud bills (the `cloud` part, with the bridge and the bursts)."""
    months, rate = priced
    # the draws' electricity and cloud paths carry their own trends: the model's escalation
    # of those prices would count twice (staff and colocation escalate in `fixed`)
    bm = replace(owned.bare_metal, power_escalation_year=0.0, cloud_escalation_year=0.0)
    demand = owned.demand
    bridge = _bridge(demand, first)
    lines = None
    if prices is not None and prices.enabled:
        at = (months, in_service_from(bm, months))
        lines = owned_unserved(prices, demand.unserved_gpu_hours, demand.waited_gpu_hours, at)
    dark = _dark(bm)
    quiet = replace(demand, burst_per_month=0.0)

    def cash(servers: BareMetal, d: tco.Demand, b: tco.Bridge, u: Unserved | None) -> Array:
        option = tco.owned_option(owned.name, servers, d, months, rate, bridge=b, unserved=u)
        return np.array(option.monthly_cash)

    fixed = cash(_free(dark), quiet, tco.NO_BRIDGE, None)
    with_servers = cash(dark, quiet, tco.NO_BRIDGE, None)
    clouds = cash(dark, demand, bridge, lines) - with_servers
    after_tax = 1 - bm.tax_rate
    in_service = np.arange(months) >= in_service_from(bm, months)
    idle = energy_per_hour(bm, (0.0,))
    busy = [energy_per_hour(bm, _one_hot(h)) - idle for h in range(DAY_HOURS)]
    month = HOURS_PER_MONTH * after_tax
    return OwnedParts(
        owned.name,
        fixed=fixed,
        server=with_servers - fixed,
        cloud=clouds,
        in_service=in_service,
        idle_energy=idle * month,
        busy_energy=np.array(busy) * month,
        utilization=np.tile(_by_hour(demand.utilization_by_hour), (months, 1)),
    )


def _rented_parts(rented: tco.Rented, tax_rate: float, months: int) -> RentedParts:
    after_tax = 1 - tax_rate
    locked = rented.per_month.get("commitment", 0.0) * after_tax
    moving = rented.monthly_total * after_tax - locked
    return RentedParts(rented.name, np.full(months, locked), np.full(months, moving))


def _bridge(demand: tco.Demand, first: tco.Rented | None) -> tco.Bridge:
    """As the report bridges the lead time: the first cloud option (`comparison._bridge`)."""
    if first is None:
        return tco.NO_BRIDGE
    useful = demand.useful_gpu_hours if first.useful_gpu_hours is None else first.useful_gpu_hours
    return tco.Bridge(first.monthly_total, useful)


def _dark(bm: BareMetal) -> BareMetal:
    return replace(bm, kwh_price=tuple(0.0 for _ in bm.kwh_price))


def _free(bm: BareMetal) -> BareMetal:
    return tco.scaled(bm, server_price=0.0)


def _one_hot(hour: int) -> tuple[float, ...]:
    return tuple(1.0 if h == hour else 0.0 for h in range(DAY_HOURS))


def _by_hour(values: Sequence[float]) -> list[float]:
    return [float(values[0])] * DAY_HOURS if len(values) == 1 else [float(v) for v in values]


# --- the draws -------------------------------------------------------------------------------


def owned_cash(parts: OwnedParts, paths: Paths, months: int) -> Array:
    """Cash by draw and month (draws x months)."""
    demand = paths.demand[:, :months]
    share = np.minimum(1.0, demand[:, :, None] * parts.utilization[None, :, :])
    energy = np.where(parts.in_service, parts.idle_energy + share @ parts.busy_energy, 0.0)
    cloud = parts.cloud * paths.cloud[:, :months] * demand
    moved = energy * paths.electricity[:, :months] + cloud
    return parts.fixed + paths.server[:, None] * parts.server + moved


def rented_cash(parts: RentedParts, paths: Paths, months: int) -> Array:
    moving = parts.moving * paths.cloud[:, :months] * paths.demand[:, :months]
    return parts.locked + moving


def present_values(cash: Array, rate: float) -> Array:
    """NPV of each draw's monthly cash (rows), at the start of month 0 as `finance.npv`."""
    factors = np.array(finance.discount_factors(cash.shape[1], rate))
    values: Array = cash @ factors
    return values


def npvs(parts: Parts, paths: Paths) -> dict[str, Array]:
    """Each option's NPV (of its costs) by draw."""
    if paths.cloud.shape[1] < parts.months:
        raise ScenarioError(f"the paths are shorter than the horizon ({parts.months} months)")
    out = {
        o.name: present_values(owned_cash(o, paths, parts.months), parts.rate) for o in parts.owned
    }
    for r in parts.rented:
        out[r.name] = present_values(rented_cash(r, paths, parts.months), parts.rate)
    return out


# --- the distribution ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spread:
    """One option's NPV of costs over the draws."""

    option: str
    mean: float
    p5: float
    p50: float
    p95: float
    draws: tuple[float, ...] = field(default=(), metadata=IN_MEMORY, compare=False, repr=False)
    """Every draw's NPV of costs, in draw order (for a histogram; never written to JSON)."""


@dataclass(frozen=True, slots=True)
class OwningWins:
    """Buying `owned` against renting `rented`: NPV of buying (renting's NPV of costs less
    owning's) over the draws, and the share of draws where it is positive."""

    owned: str
    rented: str
    probability: float
    npv_of_buying_mean: float
    npv_of_buying_p5: float
    npv_of_buying_p95: float


@dataclass(frozen=True, slots=True)
class McHorizon:
    years: float
    options: tuple[Spread, ...]
    owning_wins: tuple[OwningWins, ...]


def monte_carlo(
    inputs: TcoInputs | Sequence[TcoInputs], horizons: Sequence[int], paths: Paths
) -> tuple[McHorizon, ...]:
    """Every option's NPV distribution over each horizon (months), on the same `paths`
    (`inputs`: one a year with growing demand, see `parts_of`)."""
    out = []
    for months in horizons:
        parts = parts_of(inputs, months)
        values = npvs(parts, paths)
        options = tuple(_spread(name, v) for name, v in values.items())
        wins = tuple(
            _wins(o.name, r.name, values[r.name] - values[o.name])
            for o in parts.owned
            for r in parts.rented
        )
        out.append(McHorizon(months / 12, options, wins))
    return tuple(out)


def _spread(name: str, values: Array) -> Spread:
    p5, p50, p95 = (float(x) for x in np.percentile(values, [5, 50, 95]))
    return Spread(name, float(values.mean()), p5, p50, p95, tuple(values.tolist()))


def _wins(owned: str, rented: str, savings: Array) -> OwningWins:
    p5, p95 = (float(x) for x in np.percentile(savings, [5, 95]))
    share = float((savings > 0).mean())
    return OwningWins(owned, rented, share, float(savings.mean()), p5, p95)
