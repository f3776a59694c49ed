"""Renting as Kubernetes does: a cloud option's jobs on an elastic node pool of its SKUs.

`price_pool(jobs, skus, settings, terms)` replays the jobs `planner.cost.cloud` prices on a
pool that launches the cheapest instance type a pending pod fits when no running instance
has room, waits for it to be ready, and releases an instance once it has stood empty for the
scale-down delay (`planner.cost.node_pool_sim` has the rules and what is simplified), and
bills every instance from launch to release (`planner.cost.node_pool_bill`).
`packing="per-job"` keeps today's rule instead (each job on instances of its own,
`cloud.price_jobs`) in the same `PoolBill`, to compare the two.

The default pricing of cloud options: a TCO prices an option this way unless it says
`packing: per-job` (`planner.service.tco_rent`, through `planner.cost.node_pool_cloud`). On
spot terms the launched instances are spot: a pod on one holds it longer by the work
interruptions lose, as `cloud.price_jobs` bills a job, and that part of the bill is its spot
overhead. MIG and time-slicing are not modelled here: a fractional pod takes a whole GPU.

The defaults (`planner.cost.pool_defaults`) are the rows `pool.provisioning_s` and
`pool.scale_down_s` of `pricing/seeds/assumptions.csv`, with their source and confidence; a
TCO reads them from the scenario's assumption set (`planner.service.tco_rent`), since this
package may not import `pricing`.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from planner.core.errors import ScenarioError
from planner.cost.cloud import CloudJob, Sku, Terms
from planner.cost.node_pool_bill import PoolBill, bill_per_job, bill_run
from planner.cost.node_pool_plan import PoolPlan
from planner.cost.node_pool_sim import simulate_pool
from planner.cost.pool_defaults import POOL_DEFAULTS, PROVISIONING, SCALE_DOWN, Packing

__all__ = [
    "POOL_DEFAULTS",
    "Committed",
    "Packing",
    "PoolBill",
    "PoolSettings",
    "pool_plan",
    "price_pool",
]


RUN_AS_MEASURED = Terms()
"""Run times as the trace has them: speed 1 on every SKU, no start-up."""


@dataclass(frozen=True, slots=True)
class Committed:
    """`instances` instances of `sku` paid every hour whether used or not (a reservation or
    savings plan); `sku.price_per_hour` is the committed price. Up from the first submit to
    the last end, never released."""

    sku: Sku
    instances: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolSettings:
    packing: Packing = "pool"
    provisioning_s: float = PROVISIONING.value
    scale_down_s: float = SCALE_DOWN.value
    max_instances: int | None = None
    """The account's quota as instances up at once, committed included (None: no cap)."""
    committed: tuple[Committed, ...] = ()

    def __post_init__(self) -> None:
        if self.provisioning_s < 0 or self.scale_down_s < 0:
            raise ScenarioError(
                f"node pool: provisioning ({self.provisioning_s:g} s) and scale-down "
                f"({self.scale_down_s:g} s) delays must not be negative"
            )
        kept = sum(c.instances for c in self.committed)
        if any(c.instances < 0 for c in self.committed):
            raise ScenarioError("node pool: committed instances must not be negative")
        if self.max_instances is not None and self.max_instances < max(kept, 1):
            raise ScenarioError(
                f"node pool: the instance cap ({self.max_instances}) must be at least 1 and "
                f"hold the {kept} committed instances"
            )
        if self.packing == "per-job" and (self.committed or self.max_instances is not None):
            raise ScenarioError(
                "per-job packing has no instance cap or committed instances (it is today's "
                "rule: use cloud.with_commitment for a commitment)"
            )


def price_pool(
    jobs: Sequence[CloudJob],
    skus: Sequence[Sku],
    settings: PoolSettings = PoolSettings(),
    terms: Terms = RUN_AS_MEASURED,
) -> PoolBill:
    """The GPU jobs' bill on `skus` (one GPU's sizes, reporting currency); `terms` gives the
    speed of each SKU's GPU and the start-up time as in `cloud.price_jobs`. CPU-only jobs are
    left out (`PoolBill.unrunnable` says so): CPU instances are billed apart."""
    if not skus and not settings.committed:
        raise ScenarioError("no cloud price to rent with: add a price point for the GPU model")
    if settings.packing == "per-job":
        return bill_per_job(jobs, skus, terms)
    plan = pool_plan(skus, settings, terms)
    return bill_run(jobs, plan, simulate_pool(jobs, plan))


def pool_plan(skus: Sequence[Sku], settings: PoolSettings, terms: Terms) -> PoolPlan:
    """What `simulate_pool` replays: `skus` to launch, then one type per commitment."""
    return PoolPlan(
        types=(*skus, *(c.sku for c in settings.committed)),
        launchable=len(skus),
        committed=tuple(c.instances for c in settings.committed),
        provisioning_s=settings.provisioning_s,
        scale_down_s=settings.scale_down_s,
        max_instances=settings.max_instances,
        speed=dict(terms.speed or {}),
        startup_s=terms.startup_s,
        spot=terms.spot,
    )
