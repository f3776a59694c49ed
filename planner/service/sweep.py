"""The Capacity page's sweep, shared with `planner sweep`: the servers of one self-hosted pool
(the others held fixed) and, with a hybrid, its burst threshold; each point priced by a
caller's function (the page's is cached), and the answers picked from the points' rows.

A point is made by the same `planner.service.sweep_keys` functions `planner sweep --vary
servers=...,burst_after_h=...` applies, so the page and the command price the same scenarios.
Rows are plain (option, servers, burst threshold and p95 wait in hours, years, total, per
useful GPU-hour) so the helpers that pick answers can be tested on hand-made rows.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from planner.cost.results import OptionReport, TcoReport
from planner.cost.scenario import TcoScenario
from planner.service.sweep_keys import with_burst
from planner.service.sweep_keys import with_servers as _with_servers
from planner.service.sweep_point import OWNED

Price = Callable[[TcoScenario], TcoReport]
_ROUNDING_GPU_H = 1e-6


@dataclass(frozen=True, slots=True)
class Row:
    """One option at one point of the sweep (its server count and, for the hybrid, its burst
    threshold) over one horizon; money in the report's currency, waits in hours."""

    option: str
    servers: int | None
    """The owned options' server count (None for a cloud option)."""
    years: float
    total: float
    per_useful_gpu_hour: float | None
    p95_wait_h: float | None
    burst_after_h: float | None = None
    """The hybrid's burst threshold (None for the other options)."""
    left_out_gpu_h: float = 0.0
    """GPU-hours of jobs the owned GPUs never ran (too large for the cluster, or unfinished
    when the replay ended), from the option's ledger; 0 for a cloud option."""


def with_servers(
    scenario: TcoScenario, servers: int, burst_after_s: float | None = None, pool: int = 0
) -> TcoScenario:
    """The scenario with self-hosted pool number `pool` at `servers` (and the hybrid keeping
    as many of that pool when it names it); the hybrid's burst threshold replaced if given."""
    changed = _with_servers(scenario, servers, pool)
    return changed if burst_after_s is None else with_burst(changed, burst_after_s)


def point_rows(report: TcoReport, servers: int, burst_after_h: float | None = None) -> list[Row]:
    """Every option of every horizon of one point's report, as rows (the hybrid's with its
    burst threshold)."""
    rows: list[Row] = []
    for horizon in report.horizons:
        for o in horizon.options:
            owned = o.name in OWNED
            wait = o.wait_p95_s
            rows.append(
                Row(
                    option=o.name,
                    servers=servers if owned else None,
                    years=horizon.years,
                    total=o.total,
                    per_useful_gpu_hour=o.cost_per_useful_gpu_hour,
                    p95_wait_h=None if wait is None else wait / 3600,
                    burst_after_h=burst_after_h if o.name == "hybrid" else None,
                    left_out_gpu_h=_left_out(o) if owned else 0.0,
                )
            )
    return rows


def _left_out(option: OptionReport) -> float:
    if option.ledger is None:
        return 0.0
    unserved = option.ledger.gpu_hours.unserved
    return unserved.get("unschedulable", 0.0) + unserved.get("unfinished", 0.0)


def sweep(
    scenario: TcoScenario,
    counts: Sequence[int],
    thresholds_h: Sequence[float] = (),
    *,
    price: Price,
    on_point: Callable[[int, int], None] | None = None,
    pool: int = 0,
) -> tuple[list[Row], str]:
    """Price every (server count of pool number `pool`, burst threshold) pair with `price`;
    rows and the currency. Without thresholds the hybrid keeps the scenario's. Self-hosted
    rows do not depend on the threshold and cloud rows on neither, so they are kept once per
    server count and once overall."""
    own = scenario.hybrid.burst_after_s / 3600 if scenario.hybrid is not None else None
    hours: list[float | None] = list(thresholds_h) if scenario.hybrid and thresholds_h else [own]
    pairs = [(n, h) for n in counts for h in hours]
    rows: list[Row] = []
    currency = scenario.currency.upper()
    for done, (servers, burst_h) in enumerate(pairs, start=1):
        burst_s = None if burst_h is None else burst_h * 3600
        report = price(with_servers(scenario, servers, burst_s, pool))
        currency = report.currency
        first_of_count = burst_h == hours[0]
        rows += [
            r
            for r in point_rows(report, servers, burst_h)
            if r.option == "hybrid" or (r.option in OWNED and first_of_count) or done == 1
        ]
        if on_point is not None:
            on_point(done, len(pairs))
    return rows, currency


def for_horizon(rows: Iterable[Row], years: float) -> list[Row]:
    return [r for r in rows if r.years == years]


def smallest_meeting(
    rows: Iterable[Row], target_h: float, option: str = "self-hosted"
) -> Row | None:
    """The fewest servers of `option` whose p95 wait is at most the target and that run as
    many jobs as the most servers swept (None if none): a cluster too small for the largest
    gangs leaves them out of its waits and would otherwise seem to meet any target."""
    mine = [r for r in rows if r.option == option]
    floor = min((r.left_out_gpu_h for r in mine), default=0.0) + _ROUNDING_GPU_H
    meeting = [
        r
        for r in mine
        if r.p95_wait_h is not None and r.p95_wait_h <= target_h and r.left_out_gpu_h <= floor
    ]
    return min(meeting, key=lambda r: r.servers or 0, default=None)  # owned: never None


def cheapest(rows: Iterable[Row]) -> Row | None:
    """The row with the lowest cost per useful GPU-hour (ties: the lower total)."""
    priced = [r for r in rows if r.per_useful_gpu_hour is not None]
    return min(priced, key=lambda r: (r.per_useful_gpu_hour, r.total), default=None)


def convert(rows: Iterable[Row], rate: float) -> list[Row]:
    """The rows with their money (total, per useful GPU-hour) multiplied by an FX `rate`."""
    return [
        replace(
            r,
            total=r.total * rate,
            per_useful_gpu_hour=None
            if r.per_useful_gpu_hour is None
            else r.per_useful_gpu_hour * rate,
        )
        for r in rows
    ]
