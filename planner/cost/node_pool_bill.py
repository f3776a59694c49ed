"""A cloud option's bill from its node pool (`planner.cost.node_pool_sim`), or from today's
per-job rule (`planner.cost.cloud.price_jobs`) in the same shape, to set them side by side.

Billed: each on-demand instance from launch to release, rounded up to its SKU's billing
granularity and at least its minimum (the rule `cloud.price_jobs` applies to a job's run);
committed instances for the whole window the pool works (first submit to last end), whether
used or not, not rounded (a commitment is paid by the hour of its term). Held: the GPUs
pods hold while they run, whole GPUs (a fraction takes one). Packing overhead is billed
GPU-hours over held ones; the price floor is the held GPU-hours at the cheapest price per
GPU-hour the option offers, what a perfect packer with no delays would pay.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from planner.cost.cloud import HOUR_S, CloudJob, JobPrice, Sku, Terms, price_jobs
from planner.cost.node_pool_plan import CPU_ONLY, PoolPlan, PoolRun, whole_gpus
from planner.cost.pool_defaults import Packing
from planner.engine.summary import Stats
from planner.engine.wait_arrays import stats


@dataclass(frozen=True, slots=True)
class SkuUse:
    sku: str
    gpus_per_instance: float
    instances: int
    """Instances launched (committed: kept up)."""
    instance_hours: float
    """Billed instance-hours."""
    cost: float
    spot_overhead: float = 0.0
    """The part of `cost` that re-runs work spot interruptions lost."""


@dataclass(frozen=True, slots=True)
class PoolWaits:
    """Waits of the jobs that ran, in seconds, in job order: for room (`cap`: the instance
    cap was reached, or the pod fits only committed instances and they were full), then for
    the instances their pods went to to be ready (`provisioning`)."""

    jobs: Sequence[int]
    cap_s: Sequence[float]
    provisioning_s: Sequence[float]
    """Tuples; a kept bill's (`planner.service.bill_packing`) are its typed arrays."""
    cap: Stats
    provisioning: Stats
    total: Stats


@dataclass(frozen=True, slots=True)
class PoolBill:
    """A cloud option's GPU bill over the trace, in the SKUs' currency."""

    packing: Packing
    cost: float
    """The SKUs' costs summed (per job: `cloud.CloudBill.compute`, summed in job order)."""
    on_demand: tuple[SkuUse, ...]
    """One per SKU the pool could launch, in the order given."""
    committed: tuple[SkuUse, ...]
    held_gpu_hours: float
    billed_gpu_hours: float
    useful_gpu_hours: float
    """As `cloud.CloudBill.useful_gpu_hours`: GPUs asked x run time, useful jobs that ran."""
    price_floor: float
    peak_instances: int
    span_hours: float
    """As `cloud.CloudBill.span_hours`: first submit to the last submit + run time."""
    waits: PoolWaits
    unrunnable: Mapping[int, str]
    """Jobs that never ran (by index), with the reason."""
    interruptions: float = 0.0
    """Spot interruptions expected over the trace: the rate x each job's hours on spot."""

    @property
    def spot_overhead(self) -> float:
        """The part of `cost` that re-runs work spot interruptions lost."""
        return sum(u.spot_overhead for u in self.on_demand)

    @property
    def instance_hours(self) -> dict[str, float]:
        """Billed instance-hours by SKU name (on demand and committed together)."""
        hours: dict[str, float] = {}
        for use in (*self.on_demand, *self.committed):
            hours[use.sku] = hours.get(use.sku, 0.0) + use.instance_hours
        return hours

    @property
    def packing_overhead(self) -> float:
        """Billed GPU-hours per GPU-hour pods held (0 when they held none)."""
        return self.billed_gpu_hours / self.held_gpu_hours if self.held_gpu_hours else 0.0

    @property
    def per_useful_gpu_hour(self) -> float:
        return self.cost / self.useful_gpu_hours if self.useful_gpu_hours else 0.0


def billed_s(run_s: float, sku: Sku) -> float:
    """Seconds billed for `run_s` on `sku` (the rule of `cloud.price_jobs`)."""
    granules = math.ceil(max(run_s, sku.min_billing_s) / sku.granularity_s - 1e-9)
    return granules * sku.granularity_s


def bill_run(jobs: Sequence[CloudJob], plan: PoolPlan, run: PoolRun) -> PoolBill:
    """The node pool's bill for the replay `run` of `jobs` on `plan`."""
    reruns = rerun_costs(plan, run)
    on_demand = tuple(_use(plan.types[t], run, t, reruns) for t in range(plan.launchable))
    committed = tuple(
        _use(plan.types[t], run, t, reruns) for t in range(plan.launchable, len(plan.types))
    )
    ran = [j for j, start in enumerate(run.start_s) if not math.isnan(start)]
    held = sum(jobs[j].pods * run.need[j] * (run.end_s[j] - run.start_s[j]) for j in ran) / HOUR_S
    cap = [run.reserved_s[j] - jobs[j].submit_s for j in ran]
    provisioning = [run.start_s[j] - run.reserved_s[j] for j in ran]
    return PoolBill(
        packing="pool",
        cost=sum(u.cost for u in on_demand + committed),
        on_demand=on_demand,
        committed=committed,
        held_gpu_hours=held,
        billed_gpu_hours=sum(u.instance_hours * u.gpus_per_instance for u in on_demand + committed),
        useful_gpu_hours=_useful(jobs, ran),
        price_floor=held * _cheapest_per_gpu(plan.types),
        peak_instances=run.peak_instances,
        span_hours=_span_hours(jobs),
        waits=_waits(ran, cap, provisioning),
        unrunnable=run.unrunnable,
        interruptions=_interruptions(plan, run),
    )


def instance_costs(plan: PoolPlan, run: PoolRun) -> list[float]:
    """Each instance's cost: launch to release at its SKU's billing rule, a committed one
    for its whole life."""
    costs = []
    for instance in run.instances:
        sku = plan.types[instance.type]
        life = instance.released_s - instance.launched_s
        seconds = life if instance.committed else billed_s(life, sku)
        costs.append(seconds / HOUR_S * sku.price_per_hour)
    return costs


def held_s(run: PoolRun, seconds: Sequence[float]) -> list[float]:
    """GPU-seconds pods held on each instance, a job's pods each `seconds[job]` long."""
    held = [0.0] * len(run.instances)
    for j, on in enumerate(run.placed_on):
        for i in on:
            held[i] += run.need[j] * seconds[j]
    return held


def rerun_costs(plan: PoolPlan, run: PoolRun) -> list[float]:
    """The part of each instance's cost that re-runs work spot interruptions lost (its
    cost x the share of GPU-seconds held on it that were re-runs; 0 when committed)."""
    if not run.rerun_s:
        return [0.0] * len(run.instances)
    ran = [0.0 if math.isnan(e) else e - s for s, e in zip(run.start_s, run.end_s, strict=True)]
    held, rerun = held_s(run, ran), held_s(run, run.rerun_s)
    return [
        0.0 if instance.committed or not held[i] else cost * rerun[i] / held[i]
        for i, (instance, cost) in enumerate(
            zip(run.instances, instance_costs(plan, run), strict=True)
        )
    ]


def _interruptions(plan: PoolPlan, run: PoolRun) -> float:
    """The rate x the hours each job ran on spot before its re-runs (`cloud.spot_extra_s`)."""
    if plan.spot is None:
        return 0.0
    hours = sum(
        (end - start - rerun) / HOUR_S
        for start, end, rerun in zip(run.start_s, run.end_s, run.rerun_s, strict=True)
        if rerun > 0
    )
    return plan.spot.interruptions_per_hour * hours


def bill_per_job(jobs: Sequence[CloudJob], skus: Sequence[Sku], terms: Terms) -> PoolBill:
    """Today's rule (`cloud.price_jobs`: every job on its own instances, no delays, no
    queue) in the node pool's shape; its cost is that bill's compute (and spot overhead),
    to the bit."""
    bill = price_jobs(jobs, skus, replace(terms, cpu=None))
    held = sum(_held_s(jobs[p.job], skus[p.sku], terms) for p in bill.jobs) / HOUR_S
    uses = tuple(_per_job_use(s, sku, bill.jobs) for s, sku in enumerate(skus))
    unpriced = {j: CPU_ONLY if jobs[j].is_cpu_only else why for j, why in bill.unpriced.items()}
    ran = [p.job for p in bill.jobs]
    zeros = [0.0] * len(ran)
    return PoolBill(
        packing="per-job",
        cost=bill.compute + bill.spot_overhead,
        on_demand=uses,
        committed=(),
        held_gpu_hours=held,
        billed_gpu_hours=bill.billed_gpu_hours,
        useful_gpu_hours=bill.useful_gpu_hours,
        price_floor=held * _cheapest_per_gpu(skus),
        peak_instances=_peak(jobs, bill.jobs),
        span_hours=bill.span_hours,
        waits=_waits(ran, zeros, zeros),
        unrunnable=unpriced,
        interruptions=_per_job_interruptions(jobs, bill.jobs, skus, terms),
    )


def _use(sku: Sku, run: PoolRun, t: int, reruns: Sequence[float]) -> SkuUse:
    """Type `t`'s instances, billed as `instance_costs` bills each."""
    mine = [i for i in run.instances if i.type == t]
    lives = [i.released_s - i.launched_s for i in mine]
    committed = any(i.committed for i in mine)
    seconds = sum(lives) if committed else sum(billed_s(life, sku) for life in lives)
    hours = seconds / HOUR_S
    overhead = sum(r for i, r in zip(run.instances, reruns, strict=True) if i.type == t)
    return SkuUse(
        sku.name, sku.gpus_per_instance, len(lives), hours, hours * sku.price_per_hour, overhead
    )


def _per_job_use(s: int, sku: Sku, priced: Sequence[JobPrice]) -> SkuUse:
    mine = [p for p in priced if p.sku == s]
    hours = sum(p.instances * p.billed_hours for p in mine)
    cost = sum(p.cost + p.spot_overhead for p in mine)
    overhead = sum(p.spot_overhead for p in mine)
    return SkuUse(
        sku.name, sku.gpus_per_instance, sum(p.instances for p in mine), hours, cost, overhead
    )


def _per_job_interruptions(
    jobs: Sequence[CloudJob], priced: Sequence[JobPrice], skus: Sequence[Sku], terms: Terms
) -> float:
    if terms.spot is None:
        return 0.0
    hours = sum(_run_s(jobs[p.job], skus[p.sku], terms) for p in priced) / HOUR_S
    return terms.spot.interruptions_per_hour * hours


def _held_s(job: CloudJob, sku: Sku, terms: Terms) -> float:
    return job.pods * whole_gpus(job.gpus) * _run_s(job, sku, terms)


def _run_s(job: CloudJob, sku: Sku, terms: Terms) -> float:
    """A job's run on `sku` before spot re-runs (its GPU's speed, the start-up included)."""
    factor = (terms.speed or {}).get((sku.gpu_model, job.gpu_model), 1.0)
    return job.run_s / factor + terms.startup_s


def _peak(jobs: Sequence[CloudJob], priced: Sequence[JobPrice]) -> int:
    """Most instances up at once when each job's instances live from its submit for its
    billed time (ends before starts at one instant)."""
    changes = sorted(
        change
        for p in priced
        for change in (
            (jobs[p.job].submit_s, p.instances),
            (jobs[p.job].submit_s + p.billed_hours * HOUR_S, -p.instances),
        )
    )
    up = peak = 0
    for _, delta in changes:
        up += delta
        peak = max(peak, up)
    return peak


def _useful(jobs: Sequence[CloudJob], ran: Sequence[int]) -> float:
    return sum(jobs[j].pods * jobs[j].gpus * jobs[j].run_s for j in ran if jobs[j].useful) / HOUR_S


def _cheapest_per_gpu(types: Sequence[Sku]) -> float:
    return min((t.price_per_hour / t.gpus_per_instance for t in types), default=0.0)


def _span_hours(jobs: Sequence[CloudJob]) -> float:
    start = min((j.submit_s for j in jobs), default=0.0)
    end = max((j.submit_s + j.run_s for j in jobs), default=0.0)
    return (end - start) / HOUR_S


def _waits(ran: Sequence[int], cap: Sequence[float], provisioning: Sequence[float]) -> PoolWaits:
    cap_s = np.asarray(cap, dtype=np.float64)
    provisioning_s = np.asarray(provisioning, dtype=np.float64)
    return PoolWaits(
        tuple(ran),
        tuple(cap),
        tuple(provisioning),
        stats(cap_s),
        stats(provisioning_s),
        stats(cap_s + provisioning_s),
    )
