"""Kept cloud bills in a compact form, for `planner.service.tco_rent.bills_kept`.

A sweep keeps one bill per cloud option for its whole life, beside every point's replay. As
objects its per-job parts cost about 290 bytes a job (a `JobPrice` of six fields and three
floats; a node pool's waits as tuples of ints and floats): 290 MB at 1,000,000 jobs in every
sweep worker. Packed, they are typed arrays, about 64 bytes a job. A point unpacks them into
the same objects, equal to the bit (arrays of doubles and 64-bit integers hold the values
exactly), uses them while it rents and drops them before its replay (issue 33).
"""

from array import array
from dataclasses import dataclass, replace

from planner.cost.cloud import CloudBill, JobPrice
from planner.cost.node_pool_cloud import PoolPriced


@dataclass(frozen=True, slots=True)
class PackedBill:
    """A bill whose per-job prices are columns; `bill.jobs` is empty."""

    bill: CloudBill
    job: array  # type: ignore[type-arg]  # array is generic only in the stubs
    sku: array  # type: ignore[type-arg]
    instances: array  # type: ignore[type-arg]
    billed_hours: array  # type: ignore[type-arg]
    cost: array  # type: ignore[type-arg]
    spot_overhead: array  # type: ignore[type-arg]


def pack_bill(bill: CloudBill) -> PackedBill:
    prices = bill.jobs
    return PackedBill(
        replace(bill, jobs=[]),
        array("q", [p.job for p in prices]),
        array("q", [p.sku for p in prices]),
        array("q", [p.instances for p in prices]),
        array("d", [p.billed_hours for p in prices]),
        array("d", [p.cost for p in prices]),
        array("d", [p.spot_overhead for p in prices]),
    )


def unpack_bill(packed: PackedBill) -> CloudBill:
    """The bill `pack_bill` packed, equal to it."""
    rows = zip(
        packed.job,
        packed.sku,
        packed.instances,
        packed.billed_hours,
        packed.cost,
        packed.spot_overhead,
        strict=True,
    )
    return replace(packed.bill, jobs=[JobPrice(*row) for row in rows])


@dataclass(frozen=True, slots=True)
class PackedPool:
    """A node pool's bill with its per-job prices and waits as columns."""

    priced: PoolPriced
    """With an empty `bill` (see `bill`) and empty per-job waits."""
    bill: PackedBill
    jobs: array  # type: ignore[type-arg]
    cap_s: array  # type: ignore[type-arg]
    provisioning_s: array  # type: ignore[type-arg]


def pack_pool(priced: PoolPriced) -> PackedPool:
    waits = priced.pool.waits
    bare = replace(waits, jobs=(), cap_s=(), provisioning_s=())
    bill = pack_bill(priced.bill)
    return PackedPool(
        replace(priced, bill=bill.bill, pool=replace(priced.pool, waits=bare)),
        bill,
        array("q", waits.jobs),
        array("d", waits.cap_s),
        array("d", waits.provisioning_s),
    )


def unpack_pool(packed: PackedPool) -> PoolPriced:
    """The pool's bill `pack_pool` packed, equal to it but for the per-job waits, which are
    the packed arrays themselves (the same values): no point reads them one by one, and as
    tuples they were about 100 bytes a job at each point's peak (issue 33)."""
    pool = packed.priced.pool
    waits = replace(
        pool.waits, jobs=packed.jobs, cap_s=packed.cap_s, provisioning_s=packed.provisioning_s
    )
    bill = unpack_bill(packed.bill)
    return replace(packed.priced, bill=bill, pool=replace(pool, waits=waits))
