"""The Capacity page's sweep, shared with `planner sweep`: the servers of one self-hosted pool
(the others held fixed) and, with a hybrid, its burst threshold, as rows read from the points
`planner.service.sweep_run.run_sweep` priced and stored; the answers picked from the rows.

A point is one `planner sweep --vary servers=...,burst_after_h=...` makes, priced by the same
`price_point` and stored under the same key, so the page and the command show the same
numbers. Rows are plain (option, servers, burst threshold, p95 wait in hours, years, total, per
useful GPU-hour, the ledger's lines and the twin error bar) so the helpers that pick answers
can be tested on hand-made rows.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from planner.cost.scenario import TcoScenario
from planner.service.sweep_keys import BURST_H, SERVERS, with_burst
from planner.service.sweep_keys import with_servers as _with_servers
from planner.service.sweep_point import OWNED, PointOption, PointResult

_ROUNDING_GPU_H = 1e-6


@dataclass(frozen=True, slots=True)
class Row:
    """One option at one point of the sweep (its server count and, for the hybrid, its burst
    threshold) over one horizon; money in the point's currency, waits in hours, work in
    GPU-hours over the horizon (the option's ledger: demanded = served + left out +
    carried)."""

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
    """GPU-hours of jobs the option never served in the window (too large for the cluster,
    unfinished, withdrawn, waiting for delivery), from its ledger; carried work is not in it."""
    carried_gpu_h: float = 0.0
    """GPU-hours done after the trace's window by a backlog: served, but by no month paid."""
    served_gpu_h: float | None = None
    demanded_gpu_h: float | None = None
    utilization: float | None = None
    """Owned GPUs' allocated share within the trace's window (None for a cloud option)."""
    twin_error: float | None = None
    """The twin check's error e behind the bar (None: not calibrated, or a cloud option)."""
    per_hour_bar: tuple[float, float] | None = None
    p95_wait_bar_h: tuple[float, float] | None = None
    """Low and high: the cost per useful GPU-hour x (1 - e) and x (1 + e); the p95 wait x
    the twin check's wait factors (`planner.cost.montecarlo_twin`)."""


def with_servers(
    scenario: TcoScenario, servers: int, burst_after_s: float | None = None, pool: int = 0
) -> TcoScenario:
    """The scenario with self-hosted pool number `pool` at `servers` (and the hybrid keeping
    as many of that pool when it names it); the hybrid's burst threshold replaced if given."""
    changed = _with_servers(scenario, servers, pool)
    return changed if burst_after_s is None else with_burst(changed, burst_after_s)


def option_row(option: PointOption, servers: int, burst_after_h: float | None) -> Row:
    """A stored option's figures as a row (waits in hours)."""
    owned = option.option in OWNED
    return Row(
        option=option.option,
        servers=servers if owned else None,
        years=option.years,
        total=option.total,
        per_useful_gpu_hour=option.per_useful_gpu_hour,
        p95_wait_h=_hours(option.wait_p95_s),
        burst_after_h=burst_after_h if option.option == "hybrid" else None,
        left_out_gpu_h=option.left_out_gpu_h or 0.0,
        carried_gpu_h=option.carried_gpu_h or 0.0,
        served_gpu_h=option.served_gpu_h,
        demanded_gpu_h=option.demanded_gpu_h,
        utilization=option.utilization,
        twin_error=option.twin_error,
        per_hour_bar=_pair(option.per_hour_low, option.per_hour_high),
        p95_wait_bar_h=_pair(_hours(option.wait_p95_low_s), _hours(option.wait_p95_high_s)),
    )


def _hours(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / 3600


def _pair(low: float | None, high: float | None) -> tuple[float, float] | None:
    return None if low is None or high is None else (low, high)


def rows_of(results: Sequence[PointResult], own_burst_h: float | None = None) -> list[Row]:
    """The rows of a grid's points (`servers`/`servers.GPU` and maybe `burst_after_h` keys),
    in their order. Self-hosted rows do not depend on the threshold and cloud rows on
    neither, so they are kept once per server count and once overall. Without a threshold
    key the hybrid's row carries `own_burst_h` (the scenario's)."""
    rows: list[Row] = []
    counts_seen: set[int] = set()
    for done, result in enumerate(results):
        values = dict(result.point)
        servers = next(_number(v) for k, v in values.items() if k.partition(".")[0] == SERVERS)
        burst = values.get(BURST_H, own_burst_h)
        burst_h = None if burst is None else float(_number(burst))
        first_of_count = int(servers) not in counts_seen
        counts_seen.add(int(servers))
        rows.extend(
            option_row(o, int(servers), burst_h)
            for o in result.options
            if o.option == "hybrid" or (o.option in OWNED and first_of_count) or done == 0
        )
    return rows


def _number(value: object) -> float:
    if not isinstance(value, int | float):
        raise TypeError(f"a sweep point's count or threshold is a number, not {value!r}")
    return value


def balances(row: Row, tolerance_gpu_h: float = 1e-6) -> bool:
    """Whether the row's ledger adds up: demanded = served + left out + carried."""
    if row.demanded_gpu_h is None or row.served_gpu_h is None:
        return True  # no ledger, nothing to add up
    accounted = row.served_gpu_h + row.left_out_gpu_h + row.carried_gpu_h
    return abs(row.demanded_gpu_h - accounted) <= tolerance_gpu_h * max(1.0, row.demanded_gpu_h)


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
    """The rows with their money (total, per useful GPU-hour and its bar) multiplied by an FX
    `rate`."""
    return [
        replace(
            r,
            total=r.total * rate,
            per_useful_gpu_hour=None
            if r.per_useful_gpu_hour is None
            else r.per_useful_gpu_hour * rate,
            per_hour_bar=None
            if r.per_hour_bar is None
            else (r.per_hour_bar[0] * rate, r.per_hour_bar[1] * rate),
        )
        for r in rows
    ]
