"""What would flip the verdict: for the headline pair, the value of each main driver at
which the NPV of buying is 0, the others at today's value.

The pair is re-priced (`PairModel.npv`), never re-replayed. The root is found by regula falsi
(Illinois): exact in one step where the NPV is linear in the driver (cloud, server and power
prices, the resale share), and safe where it is not (demand clipped at full allocation, the
discount rate). The server life moves in whole months (whole years for the declining
methods), and not one way (a life shorter than the horizon buys a replacement), so every
whole life is priced and its flip is the one nearest today's on the other side. A driver
whose NPV keeps its sign over its range (`RANGES`) never flips within it.
"""

from collections.abc import Callable

from planner.cost.pair_model import PairModel, life_unit, life_years
from planner.cost.results import Flip, Verdict

DRIVERS = (
    "utilization",
    "cloud_price",
    "server_price",
    "electricity",
    "resale_share",
    "life",
    "rate",
)
"""The main drivers, in the order the tables list them (the demand's flip is also shown as
the allocation it means)."""
RANGES: dict[str, tuple[float, float]] = {
    "utilization": (0.0, 10.0),
    "cloud_price": (0.0, 10.0),
    "server_price": (0.0, 10.0),
    "electricity": (0.0, 20.0),
    "resale_share": (0.0, 1.0),
    "life": (1.0, 15.0),
    "rate": (0.0, 1.0),
}
"""Sane ranges: multipliers of today's value, the resale share of CapEx, the life in years,
the discount rate a year. Beyond them a flip is no longer a plausible plan. The demand stops
sooner where its busiest hour fills the owned servers: beyond that they cannot serve it."""
ITERATIONS = 200
"""Regula falsi stops well before this: it is a guard, not a tolerance."""


def verdict(model: PairModel) -> Verdict:
    """The pair's NPV of buying today and every main driver's flip value."""
    return Verdict(
        owned=model.owned,
        rented=model.cloud.name,
        years=model.months / 12,
        npv_of_buying=model.npv({}),
        flips=tuple(flip(model, driver) for driver in DRIVERS),
        allocation=model.demand.allocation,
    )


def flip(model: PairModel, driver: str) -> Flip:
    """Where `driver` alone brings the NPV of buying to 0 (None: not within its range)."""
    low, high = RANGES[driver]
    if driver == "utilization":
        high = min(high, 1 / peak) if (peak := max(model.demand.utilization_by_hour)) else high
    base = model.base()[driver]
    if driver == "life":
        years = model.servers.life_years
        return Flip(driver, years, _life_flip(model), low, high)
    return Flip(driver, base, _root(lambda x: model.npv({driver: x}), base, (low, high)), low, high)


def _root(f: Callable[[float], float], base: float, bounds: tuple[float, float]) -> float | None:
    """A root of `f` between `base` and the bound on whose side `f` changes sign."""
    at_base = f(base)
    if at_base == 0:
        return base
    for end in bounds:
        at_end = f(end)
        if at_end == 0:
            return end
        if (at_end > 0) != (at_base > 0):
            return _regula_falsi(f, (base, at_base), (end, at_end))
    return None


def _regula_falsi(
    f: Callable[[float], float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    """Illinois regula falsi on a bracket (f(a) and f(b) of opposite signs)."""
    (xa, fa), (xb, fb) = a, b
    scale = max(abs(fa), abs(fb))
    for _ in range(ITERATIONS):
        x = xb - fb * (xb - xa) / (fb - fa)
        fx = f(x)
        if abs(fx) <= 1e-9 * scale or abs(xb - xa) <= 1e-12 * max(1.0, abs(x)):
            return x
        if (fx > 0) != (fb > 0):
            xa, fa = xb, fb
        else:
            fa /= 2
        xb, fb = x, fx
    return xb


def _life_flip(model: PairModel) -> float | None:
    """The whole life (months, or years for the declining methods) nearest today's whose NPV
    of buying has the other sign, the shorter on a tie. Every whole life in the range is
    priced: the NPV need not move one way with the life (a life shorter than the horizon
    buys the servers' replacement)."""
    bm = model.servers
    unit = life_unit(bm)
    today = round(life_years(bm, 1.0) * 12 / unit)
    low, high = (round(y * 12 / unit) for y in RANGES["life"])

    def npv(units: int) -> float:
        return model.npv({"life": units * unit / 12 / bm.life_years})

    at_today = npv(today) >= 0
    other = [u for u in range(low, high + 1) if (npv(u) >= 0) != at_today]
    if not other:
        return None
    return min(other, key=lambda u: (abs(u - today), u)) * unit / 12
