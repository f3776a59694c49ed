"""The cheapest mix of owned servers, committed cloud GPUs and on-demand (or spot) bursts that
meets a wait target (`planner sweep --target ... --mix`).

A mix is the scenario's hybrid: it keeps n servers of one pool (the other pools as the hybrid
has them) and bursts a job to the cloud once it has waited `burst_after_s`, so the waits and
the cloud demand come from one replay. The cloud it bursts to is a copy of the hybrid's cloud
option, appended to the scenario (so the first cloud option, which bridges the lead time and
is the NPV's reference, stays as it was) and priced three ways:

* committed GPUs C at the commitment's price (the burst option's own model when it is a
  commitment, else `reserved`), the demand above them on demand: C is the cheapest level for
  the replay's burst curve (`planner.cost.commitment`, the newsvendor rule), read off a probe
  priced with one committed GPU, whose bill keeps the demand levels; the mix at n is then
  priced with C as any sweep point is, so its figures are those of `planner tco` on the mix
  written as a scenario (`mix_scenario`);
* and, when the scenario has a spot option for the same GPU, every burst on spot instead (the
  replay is the same, so the waits are too); the cheaper of the two is the mix at n. A
  commitment with its overflow on spot is not priced (the cloud model bills a commitment's
  overflow on demand).

The search. Owning alone is sized first (`planner.service.sweep_search.smallest`, the
self-hosted option): no mix needs more servers than meet the target alone, so that count is
the ceiling. The cost of a mix is not monotone in n (servers are cheap when busy, bursts
cheap when rare), so the mix is priced at the ceiling, at 0 and at every power of two below
it, then around the cheapest meeting count: the midpoints between it and its neighbours
tried, until its neighbours are adjacent counts. That finds the cheapest count whenever the
cost over the meeting counts falls then rises (one valley); with several valleys it finds the
cheapest in the valley of the cheapest power of two. A count meets the target when the
hybrid's wait statistic is within it and the hybrid starts as many jobs as at the ceiling
(`sweep_search`'s rule). Each mix point is a stored sweep point, and the commitment chosen for
n is kept with the sweep's points, so a repeated search prices and replays nothing.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from planner.core.errors import ScenarioError
from planner.cost.commitment import Commitment, DemandCurve, best_commitment, bill_at, curve_of
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.service.sweep_keys import Point, Value, apply, pool_of
from planner.service.sweep_point import OptionResult, PointResult
from planner.service.sweep_run import Sweep, point_key, run_sweep, sweep_key
from planner.service.sweep_search import Search, Target, smallest
from planner.service.sweep_search import Tried as AloneTried
from planner.service.tco_run import tco_of_jobs
from planner.store import Connection
from planner.store.sweep_inputs import load_inputs, save_inputs

HYBRID = "hybrid"
COMMITMENTS = ("reserved", "savings_plan", "cud", "subscription")
"""Pricing models paid for capacity whether used or not."""
DEFAULT_TERM_MONTHS = 12
_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

Tried = Callable[["MixPoint"], None]


@dataclass(frozen=True, slots=True)
class MixTerms:
    """The scenario a mix is priced on, and how its keys reach it."""

    scenario: TcoScenario
    """The base scenario with the mix's cloud option appended and the hybrid bursting to it."""
    cloud: int
    """The mix's cloud option (on demand; a point sets its commitment)."""
    servers_key: str
    """`hybrid.servers.GPU`: the kept servers of the sized pool."""
    commit_model: str
    term_months: int | None
    spot: str | None
    """The scenario's spot option for the burst GPU, if any (bursts may go there)."""


@dataclass(frozen=True, slots=True)
class MixPoint:
    """The mix at n servers: its commitment, what the cloud serves a month, its priced point."""

    servers: int
    committed_gpus: int
    committed_gpu_hours: float
    """GPU-hours a month the commitment serves."""
    on_demand_gpu_hours: float
    spot_gpu_hours: float
    result: PointResult
    meets: bool

    @property
    def hybrid(self) -> OptionResult:
        found = self.result.option(HYBRID)
        assert found is not None  # the mix scenario always has a hybrid
        return found

    @property
    def total(self) -> float:
        return self.hybrid.total


@dataclass(frozen=True, slots=True)
class Mix:
    answer: MixPoint | None
    """The cheapest mix meeting the target (None: none tried does)."""
    frontier: tuple[MixPoint, ...]
    """Every count tried, in server order: cost against wait."""
    alone: Search
    """Owning alone, sized to the target: its count is the search's ceiling."""
    ceiling: int
    terms: MixTerms


def mix_terms(scenario: TcoScenario, key: str, commitment: str | None = None) -> MixTerms:
    """The scenario a mix of `key`'s pool is priced on (see the module's docstring)."""
    if scenario.hybrid is None:
        raise ScenarioError(
            "--mix sizes the scenario's hybrid: add `hybrid: {burst_after_s: 3600}` (the wait "
            "after which a job bursts to the cloud)"
        )
    if scenario.growth is not None:
        raise ScenarioError("--mix does not size a scenario with `growth:` yet; leave it out")
    pool = scenario.self_hosted[pool_of(scenario, key)].gpu
    kept = next((k for k in scenario.hybrid.servers if k.upper() == pool.upper()), pool)
    if not _WORD.match(kept):
        raise ScenarioError(f"--mix: the GPU name '{kept}' must be letters, digits and _")
    burst = _burst_cloud(scenario)
    model = commitment or (burst.pricing_model if burst.pricing_model in COMMITMENTS else None)
    model = model or "reserved"
    if model not in COMMITMENTS:
        raise ScenarioError(f"--commitment {model}: give one of {', '.join(COMMITMENTS)}")
    term = burst.term_months if burst.pricing_model == model else None
    data = scenario.model_dump(mode="json", exclude_unset=True)
    name = f"{burst.label()} (mix)"
    data["cloud"] = [*data.get("cloud", []), _on_demand(burst, name)]
    data["hybrid"]["cloud"] = name
    spot = next(
        (
            c.label()
            for c in scenario.cloud
            if c.pricing_model == "spot" and c.gpu.upper() == burst.gpu.upper()
        ),
        None,
    )
    return MixTerms(
        TcoScenario.model_validate(data),
        len(scenario.cloud),
        f"hybrid.servers.{kept}",
        model,
        term or DEFAULT_TERM_MONTHS,
        spot,
    )


def committed_point(terms: MixTerms, servers: int, committed: int) -> Point:
    """The mix at `servers` with `committed` GPUs committed (0: every burst on demand)."""
    k = terms.cloud
    model: Value = terms.commit_model if committed else "on_demand"
    term: Value = terms.term_months if committed else None
    return (
        (terms.servers_key, servers),
        (f"cloud[{k}].pricing_model", model),
        (f"cloud[{k}].term_months", term),
        (f"cloud[{k}].committed_gpus", committed or None),
    )


def spot_point(terms: MixTerms, servers: int) -> Point:
    """The mix at `servers` bursting to the scenario's spot option."""
    return ((terms.servers_key, servers), ("hybrid.cloud", terms.spot))


def mix_scenario(terms: MixTerms, mix: MixPoint) -> TcoScenario:
    """The mix written as a TCO scenario: `planner tco` on it gives the mix's figures."""
    return apply(terms.scenario, mix.result.point)


def cheapest_mix(
    con: Connection,
    sweep: Sweep,
    key: str,
    target: Target,
    *,
    commitment: str | None = None,
    on_tried: Tried | None = None,
    on_alone: AloneTried | None = None,
) -> Mix:
    """The cheapest mix of `key`'s pool meeting `target` (see the module's docstring);
    `on_alone` is told each count owning alone tries, `on_tried` each mix."""
    terms = mix_terms(sweep.scenario, key, commitment)
    alone = smallest(
        sweep.scenario,
        key,
        Target(target.stat, target.seconds, "self-hosted"),
        lambda points: list(run_sweep(con, sweep, points).results),
        on_tried=on_alone,
    )
    ceiling = alone.ceiling if alone.answer is None else int(str(alone.answer.point[0][1]))
    pricer = _Pricer(con, Sweep(terms.scenario, sweep.jobs, sweep.trace_id, sweep.today), terms)
    on_hybrid = Target(target.stat, target.seconds, HYBRID)
    tried: dict[int, MixPoint] = {}

    def evaluate(n: int) -> None:
        if n not in tried:
            result, decided = pricer.priced(n)
            never = _never_ran(result)
            # the ceiling, tried first, is the reference: a count meets only if it starts as
            # many jobs (`sweep_search`'s rule)
            reference = _never_ran(tried[ceiling].result) if tried else never
            meets = on_hybrid.met_by(result) and never <= reference
            tried[n] = _mix_point(n, result, decided, meets)
            if on_tried is not None:
                on_tried(tried[n])

    for n in (ceiling, *_powers_below(ceiling, _fewest(terms))):  # the ceiling: the reference
        evaluate(n)
    while new := _refinements(tried):
        for n in new:
            evaluate(n)
    frontier = tuple(tried[n] for n in sorted(tried))
    return Mix(_cheapest(frontier), frontier, alone, ceiling, terms)


def _fewest(terms: MixTerms) -> int:
    """0 when the hybrid keeps servers of another pool, else 1: the cost model prices no
    hybrid without servers (renting only is the scenario's cloud option)."""
    scenario = terms.scenario
    assert scenario.hybrid is not None
    kept = {k.upper(): v for k, v in scenario.hybrid.servers.items()}
    sized = terms.servers_key.split(".", 2)[2].upper()
    pools = [p for p in scenario.self_hosted if p.gpu.upper() != sized]
    return 0 if sum(kept.get(p.gpu.upper(), p.servers) for p in pools) else 1


def _powers_below(ceiling: int, fewest: int) -> list[int]:
    """`fewest`, then the powers of two from it up to below `ceiling`."""
    counts, n = [fewest], max(fewest, 1)
    while n < ceiling:
        counts.append(n)
        n *= 2
    return [c for c in dict.fromkeys(counts) if c < ceiling]


def _cheapest(points: tuple[MixPoint, ...]) -> MixPoint | None:
    meeting = [p for p in points if p.meets]
    return min(meeting, key=lambda p: (p.total, p.servers), default=None)


def _refinements(tried: dict[int, MixPoint]) -> list[int]:
    """The midpoints between the cheapest meeting count and its neighbours tried, where a
    count lies between them."""
    best = _cheapest(tuple(tried.values()))
    if best is None:
        return []
    n = best.servers
    below = max((k for k in tried if k < n), default=n)
    above = min((k for k in tried if k > n), default=n)
    return [m for m in {(below + n) // 2, (n + above) // 2} if m not in tried]


def _mix_point(n: int, result: PointResult, decided: "Decision", meets: bool) -> MixPoint:
    on_spot = dict(result.point).get("hybrid.cloud") is not None
    plan = decided.bill(0 if on_spot else decided.committed_gpus)
    return MixPoint(
        servers=n,
        committed_gpus=plan.committed_gpus,
        committed_gpu_hours=plan.committed_gpu_hours_used,
        on_demand_gpu_hours=0.0 if on_spot else plan.on_demand_gpu_hours,
        spot_gpu_hours=plan.on_demand_gpu_hours if on_spot else 0.0,
        result=result,
        meets=meets,
    )


@dataclass(frozen=True, slots=True)
class Decision:
    """The burst demand of the mix at n servers a month, and the commitment chosen for it."""

    curve: DemandCurve
    price: float
    """Per committed GPU-hour."""
    hours: float
    """Hours a month the commitment is paid."""
    committed_gpus: int

    def bill(self, committed: int) -> Commitment:
        return bill_at(self.curve, committed, self.price, self.hours)

    def text(self) -> str:
        curve = [list(self.curve.levels), list(self.curve.gpu_hours), self.curve.on_demand_cost]
        return json.dumps([curve, self.price, self.hours, self.committed_gpus])

    @classmethod
    def read(cls, text: str) -> "Decision":
        (levels, gpu_hours, costs), price, hours, committed = json.loads(text)
        curve = DemandCurve(tuple(levels), tuple(gpu_hours), tuple(costs))
        return cls(curve, float(price), float(hours), int(committed))


class _Pricer:
    """Prices the mix at n: the commitment decided (stored, or from a probe) and the mix's
    points run as a sweep's (stored, or priced)."""

    def __init__(self, con: Connection, sweep: Sweep, terms: MixTerms) -> None:
        self.con, self.sweep, self.terms = con, sweep, terms
        self.base = ""

    def priced(self, n: int) -> tuple[PointResult, Decision]:
        decided = self.decision(n)
        points = [committed_point(self.terms, n, decided.committed_gpus)]
        if self.terms.spot is not None:
            points.append(spot_point(self.terms, n))
        results = run_sweep(self.con, self.sweep, points).results
        hybrid = [r.option(HYBRID) for r in results]
        best = min(range(len(results)), key=lambda k: (_total(hybrid[k]), k))
        return results[best], decided

    def decision(self, n: int) -> Decision:
        self.base = self.base or sweep_key(self.con, self.sweep)
        # keyed by the probe's point: the pool sized, n and how the commitment is paid
        probe = committed_point(self.terms, n, 1)
        key = point_key(self.base, (("mix.commitment", "newsvendor"), *probe))
        stored = load_inputs(self.con, [key])
        if key in stored:
            return Decision.read(stored[key])
        decided = self._probe(n)
        save_inputs(self.con, key, decided.text())
        return decided

    def _probe(self, n: int) -> Decision:
        """The burst curve at n, from the mix priced with one committed GPU (a bill with a
        commitment keeps its demand levels), and the cheapest commitment for it."""
        probe = apply(self.terms.scenario, committed_point(self.terms, n, 1))
        report = tco_of_jobs(self.con, probe, self.sweep.jobs, today=self.sweep.today)
        owned = report.inputs.owned if report.inputs is not None else ()
        bill = next((o.burst for o in owned if o.name == HYBRID), None)
        if bill is None or not bill.committed_gpus:  # nothing bursts
            return Decision(DemandCurve((), (), ()), 0.0, 0.0, 0)
        curve = curve_of(bill)
        best = best_commitment(curve, bill.commit_price, bill.commit_hours)
        return Decision(curve, bill.commit_price, bill.commit_hours, best.committed_gpus)


def _never_ran(result: PointResult) -> int:
    found = result.option(HYBRID)
    return (found.never_ran or 0) if found is not None else 0


def _total(option: OptionResult | None) -> float:
    return float("inf") if option is None else option.total


def _burst_cloud(scenario: TcoScenario) -> CloudSpec:
    assert scenario.hybrid is not None
    wanted = scenario.hybrid.cloud
    return next(c for c in scenario.cloud if wanted is None or c.label() == wanted)


def _on_demand(spec: CloudSpec, name: str) -> dict[str, Any]:
    data = spec.model_dump(mode="json", exclude_unset=True)
    data.update(name=name, pricing_model="on_demand")
    data.pop("term_months", None)
    data.pop("committed_gpus", None)
    return data
