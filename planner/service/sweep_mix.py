"""The cheapest mix of owned servers, committed cloud GPUs and on-demand (or spot) bursts that
meets a wait target (`planner sweep --target ... --mix`).

A mix is the scenario's hybrid: it keeps n servers of one pool (the other pools as the hybrid
has them) and bursts a job to the cloud once it has waited `burst_after_s`, so the waits and
the cloud demand come from one replay. The cloud it bursts to is a copy of the hybrid's cloud
option, appended to the scenario (so the first cloud option, which bridges the lead time and
is the NPV's reference, stays as it was), priced per job (`packing: per-job`: the
commitment's newsvendor rule reads the demand levels of per-job instances), and priced
three ways:

* committed GPUs C at the commitment's price (the burst option's own model when it is a
  commitment, else `reserved`), the demand above them on demand: C is the cheapest level for
  the replay's burst curve (`planner.cost.commitment`, the newsvendor rule), read off a probe
  priced with one committed GPU, whose bill keeps the demand levels
  (`planner.service.sweep_mix_price`); the mix at n is then priced with C as any sweep point
  is, so its figures are those of `planner tco` on the mix written as a scenario
  (`mix_scenario`);
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
(`sweep_search`'s rule).

Growing demand (`growth:`). Every point is priced as `planner tco` prices the scenario: each
year's months from that year's replay and cloud bill, the hybrid's waits those of its worst
year. So a count meets the target only if it meets it in every year of the horizon; owning
alone is sized the same way; each year commits the cheapest level for its own burst curve
(`committed_gpus_by_year`; one level for them all when the term is longer than a year:
`planner.service.sweep_mix_price`), and each mix point names each year's cloud figures
(`MixPoint.by_year`).

Each mix point is a stored sweep point, and the commitment chosen for n is kept with the
sweep's points, so a repeated search prices and replays nothing.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from planner.core.errors import ScenarioError
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.service.sweep_keys import apply, pool_of
from planner.service.sweep_mix_price import (
    HYBRID,
    Decision,
    Pricer,
    committed_point,
    spills_to_spot,
    spot_point,
)
from planner.service.sweep_point import PointOption, PointResult
from planner.service.sweep_run import Sweep, run_sweep
from planner.service.sweep_search import Search, Target, smallest
from planner.service.sweep_search import Tried as AloneTried
from planner.store import Connection

__all__ = ["Mix", "MixPoint", "MixTerms", "YearCloud", "cheapest_mix", "committed_point"]
__all__ += ["mix_scenario", "mix_terms", "spot_point"]
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
    term_months: int
    spot: str | None
    """The scenario's spot option for the burst GPU, if any (bursts may go there)."""


@dataclass(frozen=True, slots=True)
class YearCloud:
    """What the cloud serves a month in one year of the horizon at the mix's commitment."""

    year: int
    arrival_rate: float
    """The year's factor on the trace's arrival rate (1 without growth)."""
    committed_gpus: int
    committed_gpu_hours: float
    on_demand_gpu_hours: float
    spot_gpu_hours: float


@dataclass(frozen=True, slots=True)
class MixPoint:
    """The mix at n servers: its commitment, what the cloud serves a month (the mean month of
    the horizon, and year by year), its priced point."""

    servers: int
    committed_gpus: int
    committed_gpu_hours: float
    """GPU-hours a month the commitment serves."""
    on_demand_gpu_hours: float
    spot_gpu_hours: float
    result: PointResult
    meets: bool
    by_year: tuple[YearCloud, ...] = ()
    """Year 1 first; one year without `growth:`."""

    @property
    def hybrid(self) -> PointOption:
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
    pricer = Pricer(con, Sweep(terms.scenario, sweep.jobs, sweep.trace_id, sweep.today), terms)
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


def _mix_point(n: int, result: PointResult, decided: Decision, meets: bool) -> MixPoint:
    all_spot = dict(result.point).get("hybrid.cloud") is not None
    on_spot = all_spot or spills_to_spot(result.point)  # the demand above the commitment
    committed = 0 if all_spot else decided.committed
    plan = decided.bill(committed)
    bills = decided.year_bills(committed)
    years = tuple(
        YearCloud(
            year=k,
            arrival_rate=rate,
            committed_gpus=bill.committed_gpus,
            committed_gpu_hours=bill.committed_gpu_hours_used,
            on_demand_gpu_hours=0.0 if on_spot else bill.on_demand_gpu_hours,
            spot_gpu_hours=bill.on_demand_gpu_hours if on_spot else 0.0,
        )
        for k, (bill, rate, weight) in enumerate(
            zip(bills, decided.arrival_rates, decided.weights, strict=False), start=1
        )
        if weight > 0
    )
    return MixPoint(
        servers=n,
        committed_gpus=plan.committed_gpus,
        committed_gpu_hours=plan.committed_gpu_hours_used,
        on_demand_gpu_hours=0.0 if on_spot else plan.on_demand_gpu_hours,
        spot_gpu_hours=plan.on_demand_gpu_hours if on_spot else 0.0,
        result=result,
        meets=meets,
        by_year=years,
    )


def _never_ran(result: PointResult) -> int:
    found = result.option(HYBRID)
    return (found.never_ran or 0) if found is not None else 0


def _burst_cloud(scenario: TcoScenario) -> CloudSpec:
    assert scenario.hybrid is not None
    wanted = scenario.hybrid.cloud
    return next(c for c in scenario.cloud if wanted is None or c.label() == wanted)


def _on_demand(spec: CloudSpec, name: str) -> dict[str, Any]:
    data = spec.model_dump(mode="json", exclude_unset=True)
    data.update(name=name, pricing_model="on_demand", packing="per-job")
    for pool_only in ("max_instances", "provisioning_s", "scale_down_s"):
        data.pop(pool_only, None)
    data.pop("term_months", None)
    data.pop("committed_gpus", None)
    return data
