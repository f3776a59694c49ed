"""How the cheapest-mix search (`planner.service.sweep_mix`) prices the mix at n servers: the
commitment decided from the burst demand of every year of the horizon, then the mix's points
run as a sweep's.

The decision. A probe, the mix at n priced with one committed GPU (a bill with a commitment
keeps its demand levels), gives the hybrid's burst curve for each year (`curve_of` on year
k's bill; one year without `growth:`, else one per year of the longest horizon, each from
that year's replay). A year's bill depends only on its own curve and commitment, so:

* with growth and a term of at most a year, each year commits its own curve's cheapest
  level (`committed_gpus_by_year`), the cheapest for every horizon;
* otherwise (no growth, or a longer term that holds one level through the years) the one
  level is the cheapest for the curves merged, each weighted by its year's months in the
  horizon the search minimises, the first (`planner.cost.commitment.merged`).

Decisions are kept with the sweep's points (`planner.store.sweep_inputs`), keyed by the
probe's point, so a repeated search prices nothing.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from planner.cost.commitment import Commitment, DemandCurve, best_commitment, bill_at, curve_of
from planner.cost.commitment import merged as merged_curve
from planner.cost.growth import MONTHS_PER_YEAR
from planner.cost.inputs import CloudBillInputs
from planner.cost.results import TcoReport
from planner.service.sweep_keys import Point, Value, apply
from planner.service.sweep_point import PointOption, PointResult
from planner.service.sweep_run import Sweep, point_key, run_sweep, sweep_key
from planner.service.tco_run import tco_of_jobs
from planner.store import Connection
from planner.store.sweep_inputs import load_inputs, save_inputs

HYBRID = "hybrid"
_DECIDED_BY = "newsvendor-by-year"
"""The decision's store key and text format (the single-curve format before it: not read)."""


class PriceTerms(Protocol):
    """Where the mix's keys reach the scenario (`sweep_mix.MixTerms` has them)."""

    @property
    def cloud(self) -> int: ...
    @property
    def servers_key(self) -> str: ...
    @property
    def commit_model(self) -> str: ...
    @property
    def term_months(self) -> int: ...
    @property
    def spot(self) -> str | None: ...


Committed = int | tuple[int, ...]
"""GPUs committed for the whole horizon, or year by year (year 1 first)."""


def committed_point(
    terms: PriceTerms, servers: int, committed: Committed, overflow: str | None = None
) -> Point:
    """The mix at `servers` with `committed` GPUs committed (0: every burst on demand; a
    tuple: `committed_gpus_by_year`, a year's 0 on demand), the demand above them on demand
    or, given `overflow` (the spot option's name), on spot."""
    k = terms.cloud
    model: Value = terms.commit_model if _any(committed) else "on_demand"
    term: Value = terms.term_months if _any(committed) else None
    point: Point = (
        (terms.servers_key, servers),
        (f"cloud[{k}].pricing_model", model),
        (f"cloud[{k}].term_months", term),
    )
    if isinstance(committed, tuple):
        point = (*point, (f"cloud[{k}].committed_gpus_by_year", committed))
    else:
        point = (*point, (f"cloud[{k}].committed_gpus", committed or None))
    # after the commitment: each key is checked as it is set, and overflow needs one
    return point if overflow is None else (*point, (f"cloud[{k}].overflow", overflow))


def _any(committed: Committed) -> bool:
    return any(committed) if isinstance(committed, tuple) else bool(committed)


def spills_to_spot(point: Point) -> bool:
    """Whether the point's commitment overflows to spot (`committed_point`'s `overflow`)."""
    return any(key.endswith(".overflow") and value for key, value in point)


def spot_point(terms: PriceTerms, servers: int) -> Point:
    """The mix at `servers` bursting to the scenario's spot option."""
    return ((terms.servers_key, servers), ("hybrid.cloud", terms.spot))


@dataclass(frozen=True, slots=True)
class Decision:
    """The burst demand of the mix at n servers a month, year by year, and the commitment
    chosen for it."""

    curves: tuple[DemandCurve, ...]
    """Year 1 first (one curve without growth)."""
    weights: tuple[float, ...]
    """Each year's months in the horizon the search minimises."""
    arrival_rates: tuple[float, ...]
    price: float
    """Per committed GPU-hour."""
    hours: float
    """Hours a month the commitment is paid."""
    committed: Committed

    def year_bills(self, committed: Committed) -> tuple[Commitment, ...]:
        """Each year's month with `committed` GPUs committed, year 1 first."""
        levels = committed if isinstance(committed, tuple) else (committed,) * len(self.curves)
        return tuple(
            bill_at(c, n, self.price, self.hours) for c, n in zip(self.curves, levels, strict=True)
        )

    def bill(self, committed: Committed) -> Commitment:
        """The horizon's mean month with `committed` GPUs committed (its committed GPUs:
        year 1's)."""
        bills = self.year_bills(committed)
        whole = sum(self.weights) or 1.0

        def mean(part: Callable[[Commitment], float]) -> float:
            return sum(part(b) * w for b, w in zip(bills, self.weights, strict=True)) / whole

        return Commitment(
            bills[0].committed_gpus if bills else 0,
            mean(lambda b: b.commitment),
            mean(lambda b: b.overflow),
            mean(lambda b: b.committed_gpu_hours_used),
            mean(lambda b: b.on_demand_gpu_hours),
        )

    def text(self) -> str:
        curves = [[list(c.levels), list(c.gpu_hours), list(c.on_demand_cost)] for c in self.curves]
        rest = [list(self.weights), list(self.arrival_rates), self.price, self.hours]
        committed = list(self.committed) if isinstance(self.committed, tuple) else self.committed
        return json.dumps([curves, *rest, committed])

    @classmethod
    def read(cls, text: str) -> "Decision":
        curves, weights, rates, price, hours, committed = json.loads(text)
        return cls(
            tuple(DemandCurve(tuple(a), tuple(b), tuple(c)) for a, b, c in curves),
            tuple(float(w) for w in weights),
            tuple(float(r) for r in rates),
            float(price),
            float(hours),
            tuple(int(c) for c in committed) if isinstance(committed, list) else int(committed),
        )


class Pricer:
    """Prices the mix at n: the commitment decided (stored, or from a probe) and the mix's
    points run as a sweep's (stored, or priced)."""

    def __init__(self, con: Connection, sweep: Sweep, terms: PriceTerms) -> None:
        self.con, self.sweep, self.terms = con, sweep, terms
        self.base = ""

    def priced(self, n: int) -> tuple[PointResult, Decision]:
        """The cheapest of the mix with its commitment and the rest on demand, and where
        the scenario has a spot option, all bursts on spot and a commitment (sized for spot
        prices) with the rest on spot."""
        decided = self.decision(n)
        candidates = [(committed_point(self.terms, n, decided.committed), decided)]
        spot = self.terms.spot
        if spot is not None:
            candidates.append((spot_point(self.terms, n), decided))
            spilling = self.decision(n, spot)
            if _any(spilling.committed):  # committing nothing is the all-spot point
                candidates.append(
                    (committed_point(self.terms, n, spilling.committed, spot), spilling)
                )
        results = run_sweep(self.con, self.sweep, [p for p, _ in candidates]).results
        hybrid = [r.option(HYBRID) for r in results]
        best = min(range(len(results)), key=lambda k: (_total(hybrid[k]), k))
        return results[best], candidates[best][1]

    def decision(self, n: int, overflow: str | None = None) -> Decision:
        """The commitment for the mix at n, its demand above it on demand or on `overflow`."""
        self.base = self.base or sweep_key(self.con, self.sweep)
        # keyed by the probe's point: the pool sized, n and how the commitment is paid
        probe = committed_point(self.terms, n, 1, overflow)
        key = point_key(self.base, (("mix.commitment", _DECIDED_BY), *probe))
        stored = load_inputs(self.con, [key])
        if key in stored:
            return Decision.read(stored[key])
        decided = self._probe(n, probe)
        save_inputs(self.con, key, decided.text())
        return decided

    def _probe(self, n: int, probe: Point) -> Decision:
        """The burst curves of the mix at n with one GPU committed (`probe`), and the
        commitment that is cheapest for them."""
        scenario = apply(self.sweep.scenario, probe)
        report = tco_of_jobs(self.con, scenario, self.sweep.jobs, today=self.sweep.today)
        bills = _burst_bills(report)
        curves = tuple(DemandCurve((), (), ()) if b is None else curve_of(b) for b in bills)
        months = round(scenario.horizons_years[0] * MONTHS_PER_YEAR)
        weights = tuple(
            float(max(0, min(MONTHS_PER_YEAR, months - MONTHS_PER_YEAR * k)))
            for k in range(len(curves))
        )
        rates = tuple(d.arrival_rate for d in report.demand_by_year or ()) or (1.0,)
        paid = next((b for b in bills if b is not None and b.committed_gpus), None)
        if paid is None:  # nothing bursts in any year
            return Decision(curves, weights, rates, 0.0, 0.0, self._none(len(curves)))
        price, hours = paid.commit_price, paid.commit_hours
        if self._by_year():  # each year's own level: the cheapest for every horizon
            best = tuple(best_commitment(c, price, hours).committed_gpus for c in curves)
            return Decision(curves, weights, rates, price, hours, best)
        one = best_commitment(merged_curve(curves, weights), price, hours).committed_gpus
        return Decision(curves, weights, rates, price, hours, one)

    def _by_year(self) -> bool:
        """With growth and terms of a year or less, the commitment changes year by year."""
        growing = self.sweep.scenario.growth is not None
        return growing and self.terms.term_months <= MONTHS_PER_YEAR

    def _none(self, years: int) -> Committed:
        return (0,) * years if self._by_year() else 0


def _burst_bills(report: TcoReport) -> list[CloudBillInputs | None]:
    """The hybrid's burst bill of each year, year 1 first (None: nothing burst that year)."""
    if report.inputs is None:
        return [None]
    bills: list[CloudBillInputs | None] = []
    for year in report.inputs.by_year():
        bill = next((o.burst for o in year.owned if o.name == HYBRID), None)
        bills.append(bill if bill is not None and bill.committed_gpus else None)
    return bills


def _total(option: PointOption | None) -> float:
    return float("inf") if option is None else option.total
