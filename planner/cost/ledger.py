"""The ledger: where each option serves the demand, in GPU-hours (and CPU-hours of CPU-only
jobs under scope all-jobs), so that every option is seen to price the same demand.

    demanded = owned + cloud (bridge, burst, rented) + unserved (lead_time, unschedulable,
               unpriced, withdrawn, unfinished, carried)
    elsewhere = the unserved lead_time + unschedulable + unfinished + carried GPU-hours,
               bought elsewhere at the served-elsewhere rate (`planner.cost.elsewhere`)

Each job in scope is counted once per run (owned replay, hybrid replay, cloud bill): its GPUs
x run time. A replay's job is split at the end of the trace's window (the span every option
is priced over): the share of its runs done within the window is served, the rest `carried`
past the window (a backlog an overloaded cluster works off after the trace ends, which no
month of the window pays for). A run's hours over the trace's span are scaled to a month
like its costs, then to the horizon: an owned option's lead-time months come from the bridge's run
(the first cloud option) or are unserved `lead_time`, the months in service from its replay.
Pure: plain numbers in, frozen `Ledger`s out (`planner.core.serialize` makes them JSON).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from planner.core.model import Job
from planner.core.serialize import OMIT
from planner.cost.cloud import CloudBill, CpuRate, Sku
from planner.cost.scope import cpu_hours, is_cpu_only
from planner.engine import ReplayResult

if TYPE_CHECKING:  # the pool's bill needs numpy; a ledger is read where `--help` must be fast
    from planner.cost.node_pool_bill import PoolBill
    from planner.cost.packing_facts import PackingFacts

SERVED = ("owned", "bridge", "burst", "rented")
UNSERVED = ("lead_time", "unschedulable", "unpriced", "withdrawn", "unfinished", "carried")
_BY_STATUS = {
    "completed": "owned",
    "unschedulable": "unschedulable",
    "withdrawn": "withdrawn",
    "withdrawn-after-start": "withdrawn",
}


@dataclass(frozen=True, slots=True)
class Balance:
    """One unit's ledger (GPU-hours or CPU-hours): demanded = owned + cloud + unserved, and
    what is left over (0 when every job is accounted for)."""

    demanded: float
    owned: float
    cloud: Mapping[str, float]
    """By SERVED line but `owned`: bridge, burst, rented."""
    unserved: Mapping[str, float]
    """By UNSERVED line."""
    imbalance: float
    elsewhere: float = 0.0
    """Of the unserved: GPU-hours bought elsewhere (`planner.cost.elsewhere`: the
    served-elsewhere line's hours; 0 when the line is off or for CPU-hours)."""


@dataclass(frozen=True, slots=True)
class Ledger:
    """Where an option serves the demand over a horizon."""

    gpu_hours: Balance
    cpu_hours: Balance | None = field(default=None, metadata=OMIT)
    """CPU-only jobs' CPU-hours (scope all-jobs); None when there are none."""
    cloud_per_job_sum: float = 0.0
    """The cloud part's cost as the sum over jobs of instances x billed hours x price."""


@dataclass(frozen=True, slots=True)
class BillLine:
    """One priced job: instances x billed hours x price = cost."""

    job_id: str
    sku: str
    instances: int
    billed_hours: float
    price_per_instance_hour: float
    cost: float


@dataclass
class Hours:
    """GPU-hours and CPU-hours by line (a SERVED or UNSERVED name); `cloud_usd` is what the
    cloud part costs as the sum over jobs of instances x billed hours x price."""

    gpu: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    per_job_cost: float = 0.0

    def add(self, line: str, job: Job, share: float = 1.0) -> None:
        """`share` of `job`'s hours on `line` (x * 1.0 == x: a whole job's hours bit for bit)."""
        units, hours = (self.cpu, cpu_hours(job)) if is_cpu_only(job) else (self.gpu, job.gpu_hours)
        units[line] = units.get(line, 0.0) + hours * share

    def scaled(self, factor: float) -> "Hours":
        return Hours(
            {k: v * factor for k, v in self.gpu.items()},
            {k: v * factor for k, v in self.cpu.items()},
            self.per_job_cost * factor,
        )

    def plus(self, other: "Hours") -> "Hours":
        gpu, cpu = dict(self.gpu), dict(self.cpu)
        for mine, theirs in ((gpu, other.gpu), (cpu, other.cpu)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0.0) + v
        return Hours(gpu, cpu, self.per_job_cost + other.per_job_cost)


@dataclass(frozen=True, slots=True)
class PricedBill:
    """A cloud bill with the prices it was made from (for the per-job reconciliation)."""

    bill: CloudBill
    skus: Sequence[Sku]
    cpu: CpuRate | None
    jobs: Sequence[Job]
    withdrawn: Sequence[Job] = ()
    """Jobs observed withdrawn (deleted while they waited, no run time): not billed."""
    pool: "PoolBill | None" = None
    """The node pool's own bill (`packing: pool`; `skus` then has the committed types
    after the launchable ones); None: each job on instances of its own."""
    facts: "PackingFacts | None" = None
    """What its packing costs over the trace (None: not worked out)."""

    def lines(self) -> list[BillLine]:
        """One line per priced job: instances x billed hours x price = cost."""
        out: list[BillLine] = []
        for p in self.bill.jobs:
            sku = self.skus[p.sku]
            out.append(
                _line(self.jobs[p.job], sku.name, p.instances, p.billed_hours, sku.price_per_hour)
            )
        for p in self.bill.cpu_jobs:
            job, rate = self.jobs[p.job], self.cpu
            assert rate is not None  # CPU lines exist only with a CPU rate
            price = job.cpu * rate.per_vcpu_hour + job.mem_gib * rate.per_gib_hour
            out.append(_line(job, "cpu instance", p.instances, p.billed_hours, price))
        return out

    def outcome(self, served_as: str) -> Hours:
        """The bill's jobs: priced ones served `served_as`, the others unpriced."""
        hours = Hours()
        for p in (*self.bill.jobs, *self.bill.cpu_jobs):
            hours.add(served_as, self.jobs[p.job])
        for index in self.bill.unpriced:
            hours.add("unpriced", self.jobs[index])
        for job in self.withdrawn:
            hours.add("withdrawn", job)
        hours.per_job_cost = sum(line.cost for line in self.lines())
        hours.per_job_cost += self.bill.spot_overhead
        return hours


def _line(job: Job, sku: str, instances: int, hours: float, price: float) -> BillLine:
    return BillLine(job.job_id, sku, instances, hours, price, instances * hours * price)


def demanded(jobs: Sequence[Job]) -> Hours:
    hours = Hours()
    for job in jobs:
        hours.add("demanded", job)
    return hours


def replay_outcome(
    result: ReplayResult, burst: PricedBill | None = None, within: Sequence[float] | None = None
) -> Hours:
    """A replay's jobs by where they ran: on the owned servers, burst to the cloud (priced
    there or not), or why they did not run. With `within` (per job, the share of its runs
    inside the trace's window: `planner.engine.metrics.run_share_in_window`), a completed
    job's hours after the window are `carried`, not owned."""
    hours = Hours()
    for i, job in enumerate(result.jobs):
        status = result.status[i]
        if status == "burst":
            continue
        line = _BY_STATUS.get(status, "unfinished")
        share = 1.0 if within is None or line != "owned" else within[i]
        hours.add(line, job, share)
        if share < 1.0:
            hours.add("carried", job, 1.0 - share)
    return hours if burst is None else hours.plus(burst.outcome("burst"))


def owned_ledger(
    demand: Hours, after: Hours, bridge: Hours | None, months: int, lead: int
) -> Ledger:
    """An owned option's ledger over `months`: `after` (per month) from delivery on, the
    bridge's run (per month) or nothing during the `lead` months before."""
    served = before_delivery(demand, bridge).scaled(lead).plus(after.scaled(months - lead))
    return _ledger(demand.scaled(months), served)


def before_delivery(demand: Hours, bridge: Hours | None) -> Hours:
    """What serves an owned option's demand a month while its servers are on order: the
    bridge's run (its `rented` hours as `bridge`), or nothing (all of it `lead_time`)."""
    if bridge is None:
        return Hours(
            {"lead_time": demand.gpu.get("demanded", 0.0)},
            {"lead_time": demand.cpu.get("demanded", 0.0)},
        )
    return Hours(
        {("bridge" if k == "rented" else k): v for k, v in bridge.gpu.items()},
        {("bridge" if k == "rented" else k): v for k, v in bridge.cpu.items()},
        bridge.per_job_cost,
    )


def rented_ledger(demand: Hours, run: Hours, months: int) -> Ledger:
    return _ledger(demand.scaled(months), run.scaled(months))


def _ledger(demand: Hours, served: Hours) -> Ledger:
    cpu = _balance(demand.cpu, served.cpu) if demand.cpu.get("demanded") else None
    return Ledger(_balance(demand.gpu, served.gpu), cpu, served.per_job_cost)


def _balance(demand: dict[str, float], served: dict[str, float]) -> Balance:
    wanted = demand.get("demanded", 0.0)
    accounted = sum(v for k, v in served.items() if k in SERVED or k in UNSERVED)
    return Balance(
        demanded=wanted,
        owned=served.get("owned", 0.0),
        cloud={k: served.get(k, 0.0) for k in SERVED[1:]},
        unserved={k: served.get(k, 0.0) for k in UNSERVED},
        imbalance=wanted - accounted,
    )
