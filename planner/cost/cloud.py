"""Renting: each job priced on the cloud SKUs that can run it, from plain values in one currency.

Per job (`../shared/reference/pricing-and-tco.md` 3.3):

    instances = pods packed onto whole instances (a 6-GPU pod on 8-GPU instances pays for 8;
                a pod larger than an instance cannot run there)
    hours     = (run time / speed of the SKU's GPU + start-up) rounded up to the billing
                granularity, at least the billing minimum
    cost      = instances x hours x price per instance-hour, on the cheapest SKU that can run it

On spot, interruptions (rate per hour) each lose the work since the last checkpoint (half an
interval on average; half the run so far without checkpoints) plus a restart, billed too.
CPU-only jobs (no GPUs) run on CPU instances, priced per vCPU-hour and GiB-hour, apart from
the GPU bill: adding them never changes what any GPU job costs.
Committed capacity (GPUs of one SKU, paid every hour whether used or not) serves demand first;
the GPU-hours above it overflow to on-demand. Demand is the jobs as submitted: the cloud has
no queue.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from planner.core.errors import ScenarioError
from planner.core.pricing_model import PricingModel as PricingModel  # noqa: PLC0414 - re-exported

HOUR_S = 3600.0


@dataclass(frozen=True, slots=True)
class Sku:
    name: str
    gpu_model: str
    gpus_per_instance: float
    price_per_hour: float
    """Per instance-hour, reporting currency."""
    granularity_s: float = 1.0
    min_billing_s: float = 60.0

    def __post_init__(self) -> None:
        if self.gpus_per_instance <= 0 or self.price_per_hour < 0:
            raise ScenarioError(
                f"SKU {self.name}: GPUs per instance must be > 0 and the price >= 0"
            )


@dataclass(frozen=True, slots=True)
class CloudJob:
    """A job as the cloud sees it: pods of `gpus` each (fractions take whole GPUs)."""

    job_id: str
    submit_s: float
    run_s: float
    pods: int
    gpus: float
    gpu_model: str = ""
    """The GPU the run time was measured on ('' = the reference GPU)."""
    useful: bool = True
    """Whether its GPU-hours count as useful work (failed and cancelled jobs are paid for
    but are not useful)."""
    cpu: float = 0.0
    mem_gib: float = 0.0
    """Per pod: what a CPU-only job (no GPUs) is billed for on CPU instances."""

    @property
    def is_cpu_only(self) -> bool:
        return self.pods * self.gpus <= 0


@dataclass(frozen=True, slots=True)
class CpuRate:
    """CPU instances, priced per vCPU-hour and per GiB-hour (reporting currency)."""

    per_vcpu_hour: float
    per_gib_hour: float
    granularity_s: float = 1.0
    min_billing_s: float = 60.0


@dataclass(frozen=True, slots=True)
class Spot:
    interruptions_per_hour: float = 0.05
    restart_s: float = 300.0
    checkpoint_interval_s: float | None = 3600.0


@dataclass(frozen=True, slots=True)
class Terms:
    """How jobs run in the cloud: speed by (SKU GPU, job GPU), start-up, spot interruptions."""

    speed: Mapping[tuple[str, str], float] | None = None
    startup_s: float = 0.0
    spot: Spot | None = None
    cpu: CpuRate | None = None
    """CPU-only jobs run on CPU instances at this rate (None: they cannot run)."""


@dataclass(frozen=True, slots=True)
class JobPrice:
    job: int
    sku: int
    instances: int
    billed_hours: float
    cost: float
    spot_overhead: float = 0.0


@dataclass(frozen=True, slots=True)
class CloudBill:
    """The trace's cloud cost; `per_month` scales it to a 730-hour month of the same demand."""

    jobs: list[JobPrice]
    unpriced: dict[int, str]
    """Jobs no SKU can run, with the reason (the message says which price to add)."""
    compute: float
    spot_overhead: float
    commitment: float
    overflow: float
    span_hours: float
    useful_gpu_hours: float
    billed_gpu_hours: float
    cpu_jobs: tuple[JobPrice, ...] = ()
    """CPU-only jobs on CPU instances (`instances` = pods, `sku` = -1)."""

    @property
    def cpu_compute(self) -> float:
        return sum(p.cost for p in self.cpu_jobs)

    @property
    def total(self) -> float:
        gpu = self.compute + self.spot_overhead + self.commitment + self.overflow
        return gpu + self.cpu_compute

    def per_month(self, hours_per_month: float = 730.0) -> float:
        return self.total * hours_per_month / self.span_hours if self.span_hours else 0.0


def price_jobs(jobs: Sequence[CloudJob], skus: Sequence[Sku], terms: Terms = Terms()) -> CloudBill:
    """Every job on its cheapest SKU; `terms.speed[(sku GPU, job GPU)]` (default 1.0) divides
    the run time."""
    if not skus:
        raise ScenarioError("no cloud price to rent with: add a price point for the GPU model")
    priced: list[JobPrice] = []
    on_cpu: list[JobPrice] = []
    unpriced: dict[int, str] = {}
    for index, job in enumerate(jobs):
        if job.is_cpu_only:
            if terms.cpu is None:
                unpriced[index] = "a CPU-only job and no CPU instance price"
            else:
                on_cpu.append(_on_cpu(index, job, terms.cpu))
            continue
        found = (_on_sku(index, job, s, sku, terms) for s, sku in enumerate(skus))
        options = [p for p in found if p is not None]
        if options:
            priced.append(min(options, key=lambda p: (p.cost + p.spot_overhead, p.sku)))
        else:
            unpriced[index] = _why_unpriced(job, skus)
    return replace(_bill(jobs, skus, priced, unpriced), cpu_jobs=tuple(on_cpu))


def with_commitment(
    bill: CloudBill,
    jobs: Sequence[CloudJob],
    skus: Sequence[Sku],
    *,
    committed_gpus: float,
    commit_price_per_gpu_hour: float,
) -> CloudBill:
    """Committed GPUs paid every hour of the span; demand above them overflows at the price
    each job was billed (its on-demand or spot SKU), pro rata to the uncovered GPU-hours.

    Committed capacity is not interrupted: on spot, the re-runs are paid on the overflow
    only, at each SKU's re-run share (its jobs' spot overhead over their cost, the share the
    workbook shows) of that SKU's overflow."""
    if committed_gpus < 0 or commit_price_per_gpu_hour < 0:
        raise ScenarioError("committed GPUs and their price must not be negative")
    covered_share = _covered_share(bill, jobs, skus, committed_gpus)
    overflow_by_sku: dict[int, float] = {}
    for i, p in enumerate(bill.jobs):
        overflow_by_sku[p.sku] = overflow_by_sku.get(p.sku, 0.0) + p.cost * (1 - covered_share[i])
    commitment = committed_gpus * commit_price_per_gpu_hour * bill.span_hours
    return CloudBill(
        jobs=bill.jobs,
        unpriced=bill.unpriced,
        compute=0.0,
        spot_overhead=_rerun_on(overflow_by_sku, bill.jobs),
        commitment=commitment,
        # summed in job order, as before the per-SKU split: the same figure to the bit
        overflow=sum(p.cost * (1 - covered_share[i]) for i, p in enumerate(bill.jobs)),
        span_hours=bill.span_hours,
        useful_gpu_hours=bill.useful_gpu_hours,
        billed_gpu_hours=bill.billed_gpu_hours,
        cpu_jobs=bill.cpu_jobs,
    )


def _rerun_on(overflow_by_sku: Mapping[int, float], priced: Sequence[JobPrice]) -> float:
    """The spot re-runs of each SKU's overflow: its jobs' overhead over their cost, times it."""
    overhead: dict[int, float] = {}
    cost: dict[int, float] = {}
    for p in priced:
        if p.spot_overhead:
            overhead[p.sku] = overhead.get(p.sku, 0.0) + p.spot_overhead
        cost[p.sku] = cost.get(p.sku, 0.0) + p.cost
    return sum(overhead[s] / cost[s] * overflow_by_sku.get(s, 0.0) for s in overhead if cost[s] > 0)


def _on_cpu(index: int, job: CloudJob, rate: CpuRate) -> JobPrice:
    """A CPU-only job: each pod on a CPU instance of its vCPUs and memory, for its run."""
    granules = math.ceil(max(job.run_s, rate.min_billing_s) / rate.granularity_s - 1e-9)
    hours = granules * rate.granularity_s / HOUR_S
    per_pod_hour = job.cpu * rate.per_vcpu_hour + job.mem_gib * rate.per_gib_hour
    return JobPrice(index, -1, job.pods, hours, job.pods * hours * per_pod_hour)


def _on_sku(index: int, job: CloudJob, s: int, sku: Sku, terms: Terms) -> JobPrice | None:
    per_pod = max(job.gpus, 0.0)
    if per_pod > sku.gpus_per_instance:
        return None
    whole = math.ceil(per_pod) if per_pod >= 1 else per_pod
    pods_per_instance = math.floor(sku.gpus_per_instance / whole) if whole else job.pods
    if pods_per_instance < 1:
        return None
    instances = math.ceil(job.pods / pods_per_instance)
    factor = (terms.speed or {}).get((sku.gpu_model, job.gpu_model), 1.0)
    run = job.run_s / factor + terms.startup_s
    billed_s = _billed(run, sku)
    cost = instances * billed_s / HOUR_S * sku.price_per_hour
    overhead = 0.0
    if terms.spot is not None:
        extra_s = spot_extra_s(run, terms.spot)
        overhead = instances * _billed(run + extra_s, sku) / HOUR_S * sku.price_per_hour - cost
    return JobPrice(index, s, instances, billed_s / HOUR_S, cost, overhead)


def _billed(run_s: float, sku: Sku) -> float:
    granules = math.ceil(max(run_s, sku.min_billing_s) / sku.granularity_s - 1e-9)
    return granules * sku.granularity_s


def spot_extra_s(run_s: float, spot: Spot) -> float:
    """Expected time added by interruptions: each loses the work since the last checkpoint
    (half an interval, or half the run without checkpoints) and a restart."""
    interruptions = spot.interruptions_per_hour * run_s / HOUR_S
    interval = spot.checkpoint_interval_s
    lost = min(interval, run_s) / 2 if interval else run_s / 2
    return interruptions * (lost + spot.restart_s)


def _bill(
    jobs: Sequence[CloudJob], skus: Sequence[Sku], priced: list[JobPrice], unpriced: dict[int, str]
) -> CloudBill:
    start = min((j.submit_s for j in jobs), default=0.0)
    end = max((j.submit_s + j.run_s for j in jobs), default=0.0)
    return CloudBill(
        jobs=priced,
        unpriced=unpriced,
        compute=sum(p.cost for p in priced),
        spot_overhead=sum(p.spot_overhead for p in priced),
        commitment=0.0,
        overflow=0.0,
        span_hours=(end - start) / HOUR_S,
        useful_gpu_hours=sum(
            jobs[p.job].pods * jobs[p.job].gpus * jobs[p.job].run_s
            for p in priced
            if jobs[p.job].useful
        )
        / HOUR_S,
        billed_gpu_hours=sum(
            p.instances * skus[p.sku].gpus_per_instance * p.billed_hours for p in priced
        ),
    )


def _covered_share(
    bill: CloudBill, jobs: Sequence[CloudJob], skus: Sequence[Sku], committed: float
) -> list[float]:
    """Per priced job, the share of its GPU-hours the commitment covers. At any time the
    committed GPUs cover min(1, committed / demand) of every running job alike, so a job's
    share is the mean of that ratio over its run: a running integral, O(n log n)."""
    events: list[tuple[float, int, int]] = []
    gpus = [p.instances * skus[p.sku].gpus_per_instance for p in bill.jobs]
    for k, p in enumerate(bill.jobs):
        start = jobs[p.job].submit_s
        events += [(start, 1, k), (start + p.billed_hours * HOUR_S, -1, k)]
    events.sort(key=lambda e: (e[0], e[1]))
    integral_at: dict[tuple[int, int], float] = {}
    integral, demand, last = 0.0, 0.0, events[0][0] if events else 0.0
    for t, kind, k in events:
        if demand > 0:
            integral += min(1.0, committed / demand) * (t - last)
        last = t
        demand = max(0.0, demand + kind * gpus[k])
        integral_at[(k, kind)] = integral
    shares = []
    for k, p in enumerate(bill.jobs):
        span = p.billed_hours * HOUR_S
        shares.append((integral_at[(k, -1)] - integral_at[(k, 1)]) / span if span else 0.0)
    return shares


def _why_unpriced(job: CloudJob, skus: Sequence[Sku]) -> str:
    largest = max(s.gpus_per_instance for s in skus)
    if job.gpus > largest:
        return (
            f"a pod needs {job.gpus:g} GPUs; the largest priced instance has {largest:g}: "
            "add a price point for a larger instance"
        )
    return "no priced SKU can run it"
