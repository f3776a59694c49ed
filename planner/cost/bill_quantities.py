"""A priced cloud bill as monthly quantities at prices (`CloudBillInputs`), so a spreadsheet
rebuilds every part of it as quantity x price and a reader can change a price, a rate or the
committed GPUs and see the bill move as `planner.cost.cloud` would price it.

    instance-hours by SKU    sum over its jobs of instances x billed hours
    re-run share (spot)      instance-hours the interruptions add / instance-hours billed
    demand levels            for each level D of GPUs held at once, each SKU's instance-hours
                             while the demand is D: committed capacity C covers min(1, C / D)
                             of every running job alike (`cloud.with_commitment`), so the
                             overflow is the sum of instance-hours x max(0, 1 - C / D) x price
    CPU-only jobs            vCPU-hours and GiB-hours (pods x billed hours x vCPUs or GiB)

Every quantity is per month: the trace's amounts times `scale` (months per trace span).
"""

from collections.abc import Sequence

from planner.cost.baremetal import HOURS_PER_MONTH
from planner.cost.cloud import HOUR_S, CpuRate, Sku
from planner.cost.inputs import CloudBillInputs, DemandLevel, PricedQuantity
from planner.cost.ledger import PricedBill
from planner.cost.node_pool_bill import PoolBill, SkuUse

_DIGITS = 9
"""A demand level is a sum of floats: rounded, the same level read twice is one row."""


def bill_quantities(priced: PricedBill, scale: float, *, committed_gpus: float) -> CloudBillInputs:
    """`priced` a month; the commitment (if `committed_gpus`) at the price it was billed."""
    bill = priced.bill
    if priced.pool is not None:
        return _pool_quantities(priced, priced.pool, scale)
    skus = sorted({p.sku for p in bill.jobs})
    lines = tuple(_line(priced, s, scale) for s in skus)
    committed = committed_gpus if bill.commitment else 0.0
    commit_hours = bill.span_hours * scale
    price = bill.commitment / (committed * bill.span_hours) if committed else 0.0
    return CloudBillInputs(
        compute=lines,
        committed_gpus=committed,
        commit_price=price,
        commit_hours=commit_hours if committed else HOURS_PER_MONTH,
        levels=demand_levels(priced, skus, scale) if committed else (),
        cpu=_cpu(priced, scale),
    )


def _pool_quantities(priced: PricedBill, pool: PoolBill, scale: float) -> CloudBillInputs:
    """A node pool's launched instance-hours by SKU; its committed instances' hours (the
    first submit to the last end, used or not) at the committed price, apart."""
    launched = zip(pool.on_demand, priced.skus, strict=False)
    lines = tuple(_instance_hours(use, sku, scale) for use, sku in launched if use.instance_hours)
    return CloudBillInputs(compute=lines, cpu=_cpu(priced, scale), kept=_kept(priced, pool, scale))


def _kept(priced: PricedBill, pool: PoolBill, scale: float) -> tuple[PricedQuantity, ...] | None:
    """The pool's committed instances' hours a month (None without a commitment)."""
    types = priced.skus[len(pool.on_demand) :]
    kept = tuple(
        _instance_hours(use, sku, scale)
        for use, sku in zip(pool.committed, types, strict=True)
        if use.instances
    )
    return kept or None


def _instance_hours(use: SkuUse, sku: Sku, scale: float) -> PricedQuantity:
    """A SKU's instance-hours a month at its price per instance-hour; on spot, the hours its
    re-runs were paid for as the re-run share of the rest (per job's shape)."""
    price = sku.price_per_hour
    rerun = use.spot_overhead / price if price and use.spot_overhead else 0.0
    hours = use.instance_hours - rerun
    return PricedQuantity(
        use.sku,
        "instance-hour",
        hours * scale,
        price,
        sku.gpus_per_instance,
        rerun_share=rerun / hours if hours and rerun else 0.0,
    )


def _line(priced: PricedBill, s: int, scale: float) -> PricedQuantity:
    sku = priced.skus[s]
    mine = [p for p in priced.bill.jobs if p.sku == s]
    hours = sum(p.instances * p.billed_hours for p in mine)
    rerun = sum(p.spot_overhead for p in mine) / sku.price_per_hour if sku.price_per_hour else 0.0
    return PricedQuantity(
        sku.name,
        "instance-hour",
        hours * scale,
        sku.price_per_hour,
        sku.gpus_per_instance,
        rerun_share=rerun / hours if hours else 0.0,
    )


def demand_levels(priced: PricedBill, skus: Sequence[int], scale: float) -> tuple[DemandLevel, ...]:
    """Instance-hours a month of each SKU in `skus` by the GPUs held at once, the levels in
    increasing order (the events of `cloud._covered_share`: ends before starts)."""
    bill, column = priced.bill, {s: k for k, s in enumerate(skus)}
    events: list[tuple[float, int, int]] = []
    for k, p in enumerate(bill.jobs):
        start = priced.jobs[p.job].submit_s
        events += [(start, 1, k), (start + p.billed_hours * HOUR_S, -1, k)]
    events.sort(key=lambda e: (e[0], e[1]))
    running = [0.0] * len(skus)
    by_level: dict[float, list[float]] = {}
    demand, last = 0.0, events[0][0] if events else 0.0
    for t, kind, k in events:
        level = round(demand, _DIGITS)
        if level > 0 and t > last:
            row = by_level.setdefault(level, [0.0] * len(skus))
            for j, instances in enumerate(running):
                row[j] += instances * (t - last) / HOUR_S * scale
        last = t
        p = bill.jobs[k]
        running[column[p.sku]] += kind * p.instances
        demand = max(0.0, demand + kind * p.instances * priced.skus[p.sku].gpus_per_instance)
    return tuple(DemandLevel(level, tuple(by_level[level])) for level in sorted(by_level))


def _cpu(priced: PricedBill, scale: float) -> tuple[PricedQuantity, ...]:
    rate: CpuRate | None = priced.cpu
    if not priced.bill.cpu_jobs or rate is None:
        return ()
    vcpu = gib = 0.0
    for p in priced.bill.cpu_jobs:
        job = priced.jobs[p.job]
        vcpu += p.instances * p.billed_hours * job.cpu
        gib += p.instances * p.billed_hours * job.mem_gib
    return (
        PricedQuantity("vCPU", "vCPU-hour", vcpu * scale, rate.per_vcpu_hour),
        PricedQuantity("memory", "GiB-hour", gib * scale, rate.per_gib_hour),
    )
