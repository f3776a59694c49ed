"""Equal service: demand an option leaves unserved is priced as bought elsewhere, so every
option is compared at the same served demand.

    served elsewhere (a month) = the ledger's unserved GPU-hours that month x rate
    waiting (a month)          = GPU-hours waited that month x wait rate

The unserved GPU-hours are the ledger's `ELSEWHERE_LINES`: demand the option had and did not
serve within the trace's window (before delivery without a bridge, jobs no server runs, jobs
still queued or running when the window closed). Left out: `withdrawn` (deleted by their
users: no option serves them), `unpriced` (no cloud SKU runs them, so no cloud rate prices
them) and CPU-hours (a GPU-hour rate does not price them). The rate is the scenario's
(`served_elsewhere.rate`) or the cheapest on-demand cloud option's list price per GPU-hour;
both lines are cloud bills, deductible like a burst.

An option's cost per useful GPU-hour is then its total (both lines included) over the
GPU-hours of the demand it served, itself or elsewhere: the same demand on every side.
Pure: plain numbers and `Hours` in, plain numbers out.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from planner.cost.ledger import Hours, Ledger

ELSEWHERE_LINES = ("lead_time", "unschedulable", "unfinished", "carried")


@dataclass(frozen=True, slots=True)
class ServedElsewhere:
    """The rates unserved demand and waiting are priced at (`TcoReport.served_elsewhere`)."""

    rate: float | None
    """Per GPU-hour, reporting currency; None: the line is off (the options then serve
    different demand)."""
    priced_at: str = ""
    """The cloud option whose list price the rate is ("": the scenario's own rate)."""
    wait_rate: float = 0.0
    """Per GPU-hour waited, reporting currency (0: waiting costs nothing)."""
    before_delivery_gpu_hours: float = 0.0
    """GPU-hours a month an owned option leaves unserved while its servers are on order:
    the bridge's (the first cloud option's run), or all the demand without one."""

    @property
    def enabled(self) -> bool:
        return self.rate is not None


OFF = ServedElsewhere(None)


@dataclass(frozen=True, slots=True)
class Unserved:
    """An option's served-elsewhere and waiting lines over a horizon, month by month."""

    elsewhere: tuple[float, ...]
    waiting: tuple[float, ...]
    gpu_hours: float
    """GPU-hours bought elsewhere over the horizon."""


def unserved_gpu_hours(run: Hours) -> float:
    """The GPU-hours of `run` (a month) that are bought elsewhere."""
    return sum(run.gpu.get(line, 0.0) for line in ELSEWHERE_LINES)


def owned_unserved(
    prices: ServedElsewhere, unserved: float, waited: float, months: tuple[int, int]
) -> Unserved:
    """An owned option's lines over `months` = (horizon, first month in service):
    `prices.before_delivery_gpu_hours` unserved a month before delivery, `unserved` a month
    from it; `waited` GPU-hours a month in service (the replay's queue; the bridge's cloud
    has none)."""
    horizon, lead = months
    rate = prices.rate or 0.0
    before = prices.before_delivery_gpu_hours
    hours = [before if m < lead else unserved for m in range(horizon)]
    waits = [0.0 if m < lead else waited * prices.wait_rate for m in range(horizon)]
    return Unserved(tuple(h * rate for h in hours), tuple(waits), sum(hours))


def rented_unserved(prices: ServedElsewhere, run: Hours, months: int) -> Unserved:
    """A cloud option's lines: the same month repeated. Its waits are not priced: per job
    the cloud has no queue, and a node pool's waits are shown in its packing figures."""
    hours = unserved_gpu_hours(run)
    return Unserved(((prices.rate or 0.0) * hours,) * months, (0.0,) * months, hours * months)


def with_elsewhere(ledger: Ledger, gpu_hours: float) -> Ledger:
    """`ledger` with the GPU-hours it buys elsewhere (its unserved side, priced)."""
    return replace(ledger, gpu_hours=replace(ledger.gpu_hours, elsewhere=gpu_hours))


def served_share(ledger: Ledger | None) -> float | None:
    """Served GPU-hours (owned + cloud) / demanded GPU-hours (None: nothing demanded)."""
    if ledger is None or not ledger.gpu_hours.demanded:
        return None
    balance = ledger.gpu_hours
    return (balance.owned + sum(balance.cloud.values())) / balance.demanded


def added(pnl: Sequence[float], unserved: Unserved) -> list[float]:
    """`pnl` with both lines added month by month."""
    return [p + e + w for p, e, w in zip(pnl, unserved.elsewhere, unserved.waiting, strict=True)]
