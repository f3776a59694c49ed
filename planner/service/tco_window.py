"""One month of a replayed workload, counted within the trace's window.

The window is the priced jobs' span, first submit to last submit + run time (at least an
hour): what the cloud options are billed over, and what every figure is scaled from to a
730-hour month. An owned cluster (the self-hosted one, the hybrid's kept servers) is credited
only the work it did within it: a cluster too small for the demand builds a backlog that its
replay works off after the trace ends, and no month of the window pays for that work. Each
job's share inside the window comes from its runs (`planner.engine.metrics.
run_share_in_window`), so useful GPU-hours, the ledger (the rest is `carried`), the
allocation by hour of day and the chargeback's team hours all count the same work.
"""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.core.notes import note
from planner.cost import tco
from planner.cost.baremetal import HOURS_PER_MONTH, BareMetal, installed_gpus
from planner.cost.chargeback_usage import RAN, credited
from planner.cost.elsewhere import unserved_gpu_hours
from planner.cost.ledger import Hours, PricedBill, replay_outcome
from planner.cost.scenario import TcoScenario
from planner.engine import ReplayResult
from planner.engine.metrics import run_share_in_window, summarize, useful_gpu_hours
from planner.engine.summary import ReplaySummary
from planner.service.tco_trail import Trail, said

DAY_S = 86_400.0
_MIN_SPAN_S = 3600.0
SHORT_HORIZON_SHARE = 0.05
"""A trace spanning less than this share of the longest horizon (or less than a month) is
priced with a warning: every figure is its span scaled up."""


@dataclass(frozen=True, slots=True)
class Window:
    """The trace's window: work is counted within [start_s, end_s]; `hours` is its length
    (at least one hour, as the month scale has always taken it)."""

    start_s: float
    end_s: float
    hours: float

    @property
    def scale(self) -> float:
        """Months per window: a figure over the window x this is the figure per month."""
        return HOURS_PER_MONTH / self.hours


def window(jobs: Sequence[Job]) -> Window:
    if not jobs:
        raise ScenarioError("the trace has no jobs to price")
    start = min(j.submit_s for j in jobs)
    end = max(j.submit_s + j.duration_s for j in jobs)
    span = max(end - start, _MIN_SPAN_S)
    return Window(start, end if end - start >= _MIN_SPAN_S else start + span, span / 3600.0)


def short_span(jobs: Sequence[Job], years: Sequence[float]) -> Trail:
    """A warning when the jobs span less than a month, or under 5 % of the longest horizon."""
    span_h = (max(j.submit_s + j.duration_s for j in jobs) - min(j.submit_s for j in jobs)) / 3600
    horizon_h = max(years, default=0.0) * 12 * HOURS_PER_MONTH
    if span_h >= HOURS_PER_MONTH and span_h >= SHORT_HORIZON_SHARE * horizon_h:
        return Trail()
    share = span_h / horizon_h if horizon_h else 0.0
    return said(
        note(
            "short_trace",
            days=f"{span_h / 24:,.2f}",
            jobs=f"{len(jobs):,}",
            share=f"{share * 100:.2g}%",
            years=f"{max(years, default=0.0):g}",
        )
    )


@dataclass(frozen=True, slots=True)
class Credited:
    """An owned cluster's replay as counted within the window, a month of it."""

    within: list[float]
    """Per job, the share of its hours credited within the window (`counted_shares`)."""
    demand: tco.Demand
    summary: ReplaySummary
    outcome: Hours
    """Where its jobs ran or why they did not (the ledger's run), a month."""
    team_hours: dict[str, float]
    """GPU-hours by team within the window, a month (the chargeback's)."""
    trail: Trail
    """A note when the cluster left work waiting or running at the window's end."""


def credit(
    result: ReplayResult,
    bm: BareMetal,
    win: Window,
    scenario: TcoScenario,
    *,
    name: str,
    burst: PricedBill | None = None,
) -> Credited:
    """The owned option `name`'s replay (on `bm`'s servers; `burst`: the bill of the jobs it
    burst to the cloud) as credited within the window."""
    within = counted_shares(result, win)
    demand, summary = replay_demand(result, bm, win, scenario, within)
    trail = Trail()
    if (carried := carried_gpu_hours(result, within)) > 0:
        hours = f"{carried * win.scale:,.0f}"
        option = note(f"option_{name.replace('-', '_')}")  # worded in the reader's language
        trail = said(note("carried_past_window", option=option, hours=hours))
    outcome = replay_outcome(result, burst, within).scaled(win.scale)
    demand = replace(demand, unserved_gpu_hours=unserved_gpu_hours(outcome))
    ran = RAN if burst is None else (*RAN, "burst")  # burst jobs count for their team too
    team_hours = team_hours_within(result, within, ran, win.scale)
    return Credited(within, demand, summary, outcome, team_hours, trail)


def counted_shares(result: ReplayResult, win: Window) -> list[float]:
    """Per job of a replay, the share of its hours credited within the window: the share of
    its runs on the owned GPUs inside it; a job burst to the cloud counts whole (its cloud
    bill is counted whole)."""
    inside = run_share_in_window(result, win.start_s, win.end_s)
    return [1.0 if s == "burst" else v for s, v in zip(result.status, inside, strict=True)]


def carried_gpu_hours(result: ReplayResult, shares: Sequence[float]) -> float:
    """GPU-hours of the jobs the replay completed after the window closed (the ledger's
    `carried`): each completed job's hours outside its share within the window."""
    return sum(
        job.gpu_hours * (1.0 - share)
        for job, status, share in zip(result.jobs, result.status, shares, strict=True)
        if status == "completed"
    )


def replay_demand(
    result: ReplayResult,
    bm: BareMetal,
    win: Window,
    scenario: TcoScenario,
    shares: Sequence[float],
) -> tuple[tco.Demand, ReplaySummary]:
    """One month of the replayed workload: useful work done within the window (on prem and
    burst; less failed and cancelled jobs with `exclude_failed`), the owned GPUs' allocation
    by hour of day over the window and the waits of the scenario's `wait_scope`; and the
    replay's summary, for the report."""
    exclude = scenario.exclude_failed
    done = useful_gpu_hours(
        result, exclude_failed=exclude, served=("completed", "burst"), share=shares
    )
    summary = summarize(result, wait_scope=scenario.wait_scope)
    demand = tco.Demand(
        useful_gpu_hours=done * win.scale,
        utilization_by_hour=by_hour(result, installed_gpus(bm), win),
        wait_mean_s=summary.wait_s.mean,
        wait_p95_s=summary.wait_s.p95,
        waited_gpu_hours=sum(summary.waiting_gpu_hours_by_reason.values()) * win.scale,
    )
    return demand, summary


def by_hour(result: ReplayResult, gpus: int, win: Window) -> tuple[float, ...]:
    """The owned GPUs' allocated share by hour of day, over the timeline's bins that overlap
    the window (the backlog worked off after it is no month's). The bin the window opens in
    weighs the part of it inside: nothing ran before the first submission, so its mean over
    the whole bin is all the window's. The bin it closes in weighs whole, as the replay's
    last bin always has (its mean is over the full width)."""
    timeline = result.timeline
    width = timeline.bin_s
    sums, weights = [0.0] * 24, [0.0] * 24
    for k, pools in enumerate(timeline.allocated_gpus):
        if (k + 1) * width <= win.start_s or k * width >= win.end_s:
            continue
        hour = int((((k + 0.5) * width) % DAY_S) // 3600)
        sums[hour] += sum(pools)
        weights[hour] += (
            1.0 if k * width >= win.start_s else ((k + 1) * width - win.start_s) / width
        )
    if not any(weights):
        return (result.allocated_gpu_s / (gpus * result.horizon_s) if result.horizon_s else 0.0,)
    mean = sum(sums) / sum(weights)
    return tuple(min(1.0, (sums[h] / weights[h] if weights[h] else mean) / gpus) for h in range(24))


def team_hours_within(
    result: ReplayResult, shares: Sequence[float], statuses: Sequence[str], scale: float
) -> dict[str, float]:
    """GPU-hours by team (`Job.queue`) of the jobs with one of `statuses`, each its share
    within the window, times `scale` (the window to a month)."""
    out: dict[str, float] = defaultdict(float)
    hours = credited(result, shares, statuses)
    for job, status, credit in zip(result.jobs, result.status, hours, strict=True):
        if status in statuses:  # a team whose jobs ran only after the window is listed at 0
            out[job.queue] += credit * scale
    return dict(out)
