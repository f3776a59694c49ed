"""How many cloud GPUs to commit to for a demand curve: the level that minimises the billed
cost of committed capacity plus the on-demand overflow above it.

The bill is the one `planner.cost.cloud.with_commitment` charges and the workbook rebuilds
from a bill's demand levels (`planner.cost.bill_quantities`): committed GPUs C are paid every
hour of the bill's span at the commitment price p, and at any moment they cover min(1, C / D)
of every running job alike, D being the GPUs held at once; the rest is billed at each job's
own price. Over a month, with `cost_L` the on-demand cost of the time spent at level L:

    cost(C) = C x p x H + sum over levels L of cost_L x max(0, 1 - C / L)

(H the hours a month the commitment is paid). It is convex and piecewise linear in C, with
slope p x H - sum over L > C of cost_L / L, so the cheapest commitment is the newsvendor's
quantile: raise C while the on-demand money a committed GPU saves above it (cost_L / L is the
time at level L times its mean price per GPU-hour) exceeds what it costs. With one on-demand
price o this is the textbook rule: commit to level C while the share of hours with demand of
at least C exceeds p / o. The answer is the cheaper of the two whole GPU counts around the
real minimiser (convexity: nothing farther can be cheaper), ties going to the smaller.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from planner.core.errors import ScenarioError
from planner.cost.inputs import CloudBillInputs


@dataclass(frozen=True, slots=True)
class DemandCurve:
    """A month of cloud demand by level: while `levels[k]` GPUs are held at once, that
    time's GPU-hours and their on-demand cost (levels increasing, all above 0)."""

    levels: tuple[float, ...]
    gpu_hours: tuple[float, ...]
    on_demand_cost: tuple[float, ...]

    def __post_init__(self) -> None:
        if not len(self.levels) == len(self.gpu_hours) == len(self.on_demand_cost):
            raise ValueError("a demand curve needs as many GPU-hours and costs as levels")
        if any(b <= a for a, b in zip(self.levels, self.levels[1:], strict=False)):
            raise ValueError("a demand curve's levels must increase")
        if self.levels and self.levels[0] <= 0:
            raise ValueError("a demand curve's levels must be above 0")

    def hours_at_least(self, gpus: float) -> float:
        """Hours of the month with at least `gpus` GPUs held."""
        return sum(g / lv for lv, g in zip(self.levels, self.gpu_hours, strict=True) if lv >= gpus)


@dataclass(frozen=True, slots=True)
class Commitment:
    """A month's cloud bill for a curve at `committed_gpus` (money in the bill's currency)."""

    committed_gpus: int
    commitment: float
    """committed GPUs x commitment price x hours paid."""
    overflow: float
    """The demand above the commitment, at the prices it is billed (on demand; on spot, with
    its re-runs)."""
    committed_gpu_hours_used: float
    on_demand_gpu_hours: float

    @property
    def total(self) -> float:
        return self.commitment + self.overflow


def curve_of(bill: CloudBillInputs) -> DemandCurve:
    """The demand curve of a bill's demand levels (kept when it was billed with a
    commitment): each level's units of every compute line, in GPU-hours and at its price,
    spot lines with their re-runs (paid on the overflow only, `cloud.with_commitment`), so
    that `bill_at`'s overflow is what the bill pays above the commitment."""
    levels, gpu_hours, costs = [], [], []
    for level in bill.levels:
        lines = zip(bill.compute, level.hours, strict=True)
        units = [(line.gpus_per_unit, line.price, line.rerun_share, h) for line, h in lines]
        if level.gpus <= 0:
            continue
        levels.append(level.gpus)
        gpu_hours.append(sum(g * h for g, _, _, h in units))
        costs.append(sum(p * h * (1 + r) for _, p, r, h in units))
    return DemandCurve(tuple(levels), tuple(gpu_hours), tuple(costs))


def bill_at(curve: DemandCurve, committed_gpus: int, price: float, hours: float) -> Commitment:
    """The month's bill with `committed_gpus` committed at `price` a GPU-hour, paid `hours`."""
    if committed_gpus < 0 or price < 0 or hours < 0:
        raise ScenarioError("committed GPUs, their price and the hours paid must not be negative")
    overflow = used = on_demand = 0.0
    for level, gpu_h, cost in zip(curve.levels, curve.gpu_hours, curve.on_demand_cost, strict=True):
        covered = min(1.0, committed_gpus / level)
        overflow += cost * (1.0 - covered)
        used += gpu_h * covered
        on_demand += gpu_h * (1.0 - covered)
    return Commitment(committed_gpus, committed_gpus * price * hours, overflow, used, on_demand)


def merged(curves: Sequence[DemandCurve], weights: Sequence[float]) -> DemandCurve:
    """Several months' curves as one: each level's GPU-hours and cost weighted by its curve's
    share of `weights` (a year's months in the horizon, say), equal levels summed. One
    commitment held through all of them costs `bill_at` on this curve, the weighted mean
    of each curve's bill: the cheapest for the horizon is `best_commitment` of it."""
    whole = sum(weights)
    if len(curves) != len(weights) or whole <= 0 or any(w < 0 for w in weights):
        raise ValueError("merging demand curves needs one weight each, not negative, some > 0")
    hours: dict[float, float] = {}
    costs: dict[float, float] = {}
    for curve, weight in zip(curves, weights, strict=True):
        share = weight / whole
        for level, gpu_h, cost in zip(
            curve.levels, curve.gpu_hours, curve.on_demand_cost, strict=True
        ):
            hours[level] = hours.get(level, 0.0) + gpu_h * share
            costs[level] = costs.get(level, 0.0) + cost * share
    levels = sorted(hours)
    return DemandCurve(
        tuple(levels), tuple(hours[lv] for lv in levels), tuple(costs[lv] for lv in levels)
    )


def best_commitment(curve: DemandCurve, price: float, hours: float) -> Commitment:
    """The cheapest whole number of committed GPUs for `curve` (ties: the fewest)."""
    real = _newsvendor_level(curve, price * hours)
    candidates = sorted({math.floor(real), math.ceil(real)})
    bills = [bill_at(curve, c, price, hours) for c in candidates]
    return min(bills, key=lambda b: b.total)  # min keeps the first (smaller) of equal totals


def _newsvendor_level(curve: DemandCurve, committed_cost: float) -> float:
    """The smallest level where one more committed GPU saves no more than it costs: walking
    down from the highest level, the saving of a GPU committed just below level L is the sum
    of cost_L' / L' over the levels L' >= L."""
    saving = 0.0
    for level, cost in zip(reversed(curve.levels), reversed(curve.on_demand_cost), strict=True):
        saving += cost / level
        if saving > committed_cost:
            return level
    return 0.0


def brute_force(curve: DemandCurve, price: float, hours: float) -> Commitment:
    """Every whole commitment from 0 to the highest level tried; the cheapest (ties: fewest).
    For tests and small curves: the rule above gives the same answer at two evaluations."""
    top = math.ceil(max(curve.levels, default=0.0))
    return min((bill_at(curve, c, price, hours) for c in range(top + 1)), key=lambda b: b.total)


def share_at_least(curve: DemandCurve, gpus: float, hours: float) -> float:
    """The share of the `hours` paid with at least `gpus` GPUs held (the newsvendor's
    fraction, for one on-demand price)."""
    return curve.hours_at_least(gpus) / hours if hours else 0.0
