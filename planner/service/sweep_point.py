"""One point of a sweep: the scenario with the point's values, the trace replayed and priced on
it, and each option's figures per horizon.

`price_point` is a pure function of (price book, scenario, jobs, point, date): the same
arguments give the same result in any process, which is what lets a sweep spread its points
over workers (`planner.service.sweep_run`) and check them against one worker's bit for bit.
"""

import gc
from collections.abc import Sequence
from dataclasses import asdict, astuple, dataclass, field
from datetime import date

from planner.core.model import Job
from planner.cost.finance import npv
from planner.cost.montecarlo_twin import bar, twin_error, wait_bar, wait_factors
from planner.cost.results import Horizon, TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.tco import OptionReport
from planner.engine.summary import ReplaySummary
from planner.service.mc_inputs import inputs_text
from planner.service.sweep_keys import Point, apply
from planner.service.tco_run import tco_of_jobs
from planner.store import Connection

OWNED = ("self-hosted", "hybrid")


@dataclass(frozen=True, slots=True)
class PointOption:
    """One option over one horizon at one point; money in the point's currency, seconds.
    Field order is `planner.store.sweeps.OPTION_COLUMNS`."""

    option: str
    years: float
    total: float
    per_useful_gpu_hour: float | None
    utilization: float | None
    """The owned GPUs' allocated share within the trace's window (first year), the share the
    TCO prices (`Demand.allocation`); work a backlog does after the window is not in it
    (None for a cloud option)."""
    wait_mean_s: float | None
    wait_p50_s: float | None
    wait_p95_s: float | None
    wait_p99_s: float | None
    """Waits of the scenario's `wait_scope` (GPU jobs unless it says otherwise); a cloud
    option's mean and p95 are its start-up time, its p50 and p99 are not kept."""
    npv_vs_cloud: float | None
    """NPV of buying this owned option against renting the first cloud option (None for a
    cloud option, or without one)."""
    never_ran: int | None = None
    """Jobs the owned GPUs never started: too large for the cluster, or still waiting when
    the replay ended (None for a cloud option). Their waits are in no wait statistic, so a
    small cluster can seem to meet a wait target by leaving jobs out; the search counts them."""
    demanded_gpu_h: float | None = None
    """The option's ledger over the horizon (GPU-hours): demanded = served + left_out +
    carried (`planner.cost.ledger`), each None without a ledger."""
    served_gpu_h: float | None = None
    """Owned, bridge, burst and rented lines: work done within the trace's window."""
    left_out_gpu_h: float | None = None
    """Unserved but carried: lead time, unschedulable, unpriced, withdrawn, unfinished."""
    carried_gpu_h: float | None = None
    """Work done after the trace's window by a backlog (no month of the window pays it)."""
    twin_error: float | None = None
    """The twin check's error e (`planner.cost.montecarlo_twin`); None: not calibrated, or a
    cloud option (its figures come from no replay)."""
    per_hour_low: float | None = None
    per_hour_high: float | None = None
    """Cost per useful GPU-hour x (1 - e) and x (1 + e) (the twin error bar)."""
    wait_p95_low_s: float | None = None
    wait_p95_high_s: float | None = None
    """p95 wait x the twin check's wait factors (`planner.cost.montecarlo_twin.wait_bar`)."""

    def values(self) -> tuple[object, ...]:
        return astuple(self)


@dataclass(frozen=True, slots=True)
class PointResult:
    point: Point
    currency: str
    options: tuple[PointOption, ...]
    inputs: str = field(default="", compare=False)
    """What the point was priced from, as JSON (`planner.service.mc_inputs`), for
    `planner montecarlo --sweep`; "" when read back from the store."""

    def option(self, name: str, years: float | None = None) -> PointOption | None:
        """The option `name` over `years` (the first horizon if None)."""
        found = [o for o in self.options if o.option == name]
        if years is not None:
            found = [o for o in found if o.years == years]
        return found[0] if found else None


def price_point(
    con: Connection, scenario: TcoScenario, jobs: list[Job], point: Point, today: date
) -> PointResult:
    """Replay `jobs` on the scenario with `point`'s values and price every option."""
    varied = apply(scenario, point)
    summaries: dict[str, ReplaySummary] = {}
    # the chargeback's per-job lines are no figure of a point
    report = tco_of_jobs(con, varied, jobs, today=today, summaries=summaries, job_lines=False)
    # a replay's own objects point back at it: they go when the cycle collector runs, which
    # was often well into the next point, beside its bills (issue 33); a full pass costs
    # about 0.1 s at 1,000,000 jobs, a point about 30 s
    gc.collect()
    results = point_options(report, summaries, twin_error(varied), wait_factors(varied))
    return PointResult(point, report.currency, results, inputs_text(report))


def point_options(
    report: TcoReport,
    summaries: dict[str, ReplaySummary],
    error: float | None = None,
    wait_factors: tuple[float, float] | None = None,
) -> tuple[PointOption, ...]:
    """Every option of every horizon of a report, with the replays' percentiles, ledger
    lines and (for replayed options, given the twin check's `error` and `wait_factors`) the
    twin error bars."""
    results: list[PointOption] = []
    allocation = _allocation(report)
    for horizon in report.horizons:
        npvs = _npv_vs_cloud(horizon, report.discount_rate or 0.0)
        for o in horizon.options:
            summary = summaries.get(o.name)
            wait = summary.wait_s if summary is not None else None
            e = error if summary is not None else None
            factors = wait_factors if summary is not None else None
            per_hour, p95 = bar(o.cost_per_useful_gpu_hour, e), wait_bar(o.wait_p95_s, factors)
            demanded, served, left_out, carried = _ledger_lines(o)
            results.append(
                PointOption(
                    option=o.name,
                    years=horizon.years,
                    total=o.total,
                    per_useful_gpu_hour=o.cost_per_useful_gpu_hour,
                    utilization=allocation.get(o.name) if summary is not None else None,
                    wait_mean_s=o.wait_mean_s,
                    wait_p50_s=wait.p50 if wait is not None else None,
                    wait_p95_s=o.wait_p95_s,
                    wait_p99_s=wait.p99 if wait is not None else None,
                    npv_vs_cloud=npvs.get(o.name),
                    never_ran=_never_ran(summary),
                    demanded_gpu_h=demanded,
                    served_gpu_h=served,
                    left_out_gpu_h=left_out,
                    carried_gpu_h=carried,
                    twin_error=e,
                    per_hour_low=per_hour[0],
                    per_hour_high=per_hour[1],
                    wait_p95_low_s=p95[0],
                    wait_p95_high_s=p95[1],
                )
            )
    return tuple(results)


def _allocation(report: TcoReport) -> dict[str, float]:
    """Each owned option's allocated share within the window, as the TCO prices it."""
    inputs = report.inputs
    return {} if inputs is None else {o.name: o.demand.allocation for o in inputs.owned}


def _ledger_lines(
    option: OptionReport,
) -> tuple[float | None, float | None, float | None, float | None]:
    """(demanded, served, left out, carried) GPU-hours of the option's ledger."""
    if option.ledger is None:
        return None, None, None, None
    gpu = option.ledger.gpu_hours
    carried = gpu.unserved.get("carried", 0.0)
    left_out = sum(gpu.unserved.values()) - carried
    return gpu.demanded, gpu.owned + sum(gpu.cloud.values()), left_out, carried


def _never_ran(summary: ReplaySummary | None) -> int | None:
    return None if summary is None else summary.unschedulable + summary.still_waiting


def _npv_vs_cloud(horizon: Horizon, rate: float) -> dict[str, float]:
    """Each owned option's NPV of buying against the first cloud option, from their monthly
    cash as `planner.cost.tco.compare` computes it (the report compares only self-hosted)."""
    cloud = next((o for o in horizon.options if o.name not in OWNED), None)
    if cloud is None:
        return {}
    return {
        o.name: npv([r - x for r, x in zip(cloud.monthly_cash, o.monthly_cash, strict=True)], rate)
        for o in horizon.options
        if o.name in OWNED
    }


def from_rows(point: Point, currency: str, rows: Sequence[tuple[object, ...]]) -> PointResult:
    """A stored point back as a result (rows in `PointOption` field order)."""
    return PointResult(point, currency, tuple(PointOption(*row) for row in rows))  # type: ignore[arg-type]


def records(results: Sequence[PointResult]) -> list[dict[str, object]]:
    """One flat record per point, option and horizon: the point's keys, then the option's
    figures and the currency (the rows of `planner sweep --out`)."""
    return [
        {**dict(r.point), **asdict(o), "currency": r.currency} for r in results for o in r.options
    ]
