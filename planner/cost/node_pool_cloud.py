"""A node pool's bill (`planner.cost.node_pool`) as the `cloud.CloudBill` a TCO prices,
with a `JobPrice` per job for the ledger and the chargeback.

Each instance's cost (launch to release, as `node_pool_bill` bills it) is split over the
pods it held by the GPU-seconds they held (by pod count on an instance no pod held for a
second). A job's `JobPrice` names the SKU its first pod ran on and the instances its pods
ran on, and its `billed_hours` are its cost over instances x that SKU's price, so the
ledger's line (instances x billed hours x price) is its share. On spot, the part of a
job's share its re-runs held (`node_pool_bill.rerun_costs`) is its spot overhead, apart
from that line, as `cloud.price_jobs` bills it. A committed instance no pod ever used is
paid and on nobody's line. CPU-only jobs are priced on CPU instances as
`cloud.price_jobs` prices them.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from planner.cost.cloud import CloudBill, CloudJob, JobPrice, Sku, Terms, price_jobs
from planner.cost.node_pool import PoolBill, PoolSettings, pool_plan
from planner.cost.node_pool_bill import bill_run, held_s, instance_costs
from planner.cost.node_pool_plan import CPU_ONLY, PoolPlan, PoolRun
from planner.cost.node_pool_sim import simulate_pool

NO_CPU_PRICE = "a CPU-only job and no CPU instance price"


@dataclass(frozen=True, slots=True)
class PoolPriced:
    """The bill as a TCO prices it, the pool's own bill, and the SKUs `JobPrice.sku`
    numbers (the launchable ones, then one per commitment)."""

    bill: CloudBill
    pool: PoolBill
    types: tuple[Sku, ...]


@dataclass(frozen=True, slots=True)
class _Shares:
    """Each instance's cost, GPU-seconds held on it and pods placed on it, each job's run
    (placed to end) and re-run seconds."""

    cost: list[float]
    held: list[float]
    pods: list[int]
    ran_s: list[float]
    rerun_s: tuple[float, ...]


def price_on_pool(
    jobs: Sequence[CloudJob], skus: Sequence[Sku], settings: PoolSettings, terms: Terms
) -> PoolPriced:
    """`jobs` on a node pool of `skus` (`node_pool.price_pool`'s rules and refusals)."""
    plan = pool_plan(skus, settings, terms)
    run = simulate_pool(jobs, plan)
    pool = bill_run(jobs, plan, run)
    ran = [e - s for s, e in zip(run.start_s, run.end_s, strict=True)]
    costs = instance_costs(plan, run)
    shares = _Shares(costs, held_s(run, ran), _pods(run), ran, run.rerun_s)
    priced = [_job_price(j, plan, run, shares) for j, on in enumerate(run.placed_on) if on]
    cpu_jobs, unpriced = _cpu_jobs(jobs, skus, terms, pool)
    bill = CloudBill(
        jobs=priced,
        unpriced=unpriced,
        compute=sum(u.cost for u in pool.on_demand) - pool.spot_overhead,
        spot_overhead=pool.spot_overhead,
        commitment=sum(u.cost for u in pool.committed),
        overflow=0.0,
        span_hours=pool.span_hours,
        useful_gpu_hours=pool.useful_gpu_hours,
        billed_gpu_hours=pool.billed_gpu_hours,
        cpu_jobs=cpu_jobs,
    )
    return PoolPriced(bill, pool, plan.types)


def _pods(run: PoolRun) -> list[int]:
    pods = [0] * len(run.instances)
    for on in run.placed_on:
        for i in on:
            pods[i] += 1
    return pods


def _job_price(j: int, plan: PoolPlan, run: PoolRun, costs: _Shares) -> JobPrice:
    """Job `j`'s share of each instance its pods were on, and the part its re-runs held."""
    held_s = run.need[j] * costs.ran_s[j]
    rerun_s = run.need[j] * costs.rerun_s[j] if costs.rerun_s else 0.0
    cost = overhead = 0.0
    for i in run.placed_on[j]:
        if costs.held[i] > 0:
            cost += costs.cost[i] * held_s / costs.held[i]
            if not run.instances[i].committed:
                overhead += costs.cost[i] * rerun_s / costs.held[i]
        else:
            cost += costs.cost[i] / costs.pods[i]
    first = run.instances[run.placed_on[j][0]].type
    instances = len(set(run.placed_on[j]))
    price = plan.types[first].price_per_hour
    cost -= overhead
    hours = cost / (instances * price) if price else 0.0
    return JobPrice(j, first, instances, hours, cost, overhead)


def _cpu_jobs(
    jobs: Sequence[CloudJob], skus: Sequence[Sku], terms: Terms, pool: PoolBill
) -> tuple[tuple[JobPrice, ...], dict[int, str]]:
    """CPU-only jobs on CPU instances, and the jobs nothing prices, with the reason."""
    on_cpu = [j for j, why in pool.unrunnable.items() if why == CPU_ONLY]
    unpriced = {j: why for j, why in pool.unrunnable.items() if why != CPU_ONLY}
    if terms.cpu is None or not skus:
        unpriced.update((j, NO_CPU_PRICE) for j in on_cpu)
        return (), dict(sorted(unpriced.items()))
    bill = price_jobs([jobs[j] for j in on_cpu], skus, replace(terms, spot=None))
    priced = tuple(replace(p, job=on_cpu[p.job]) for p in bill.cpu_jobs)
    return priced, dict(sorted(unpriced.items()))
