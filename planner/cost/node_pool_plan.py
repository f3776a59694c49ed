"""The node pool's simulation, in and out: the plan it replays (instance types, committed
instances, delays, cap, run-time terms), what it returns (each instance's life and each
job's times), and the jobs it can never run, found before the replay.

Plain frozen values, no logic beyond the feasibility check: the loop is
`planner.cost.node_pool_sim`, the money `planner.cost.node_pool_bill`.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from planner.cost.cloud import CloudJob, Sku, Spot

CPU_ONLY = "a CPU-only job: CPU instances are billed apart from the GPU node pool"


@dataclass(frozen=True, slots=True)
class PoolPlan:
    """What the simulation needs: instance types (the launchable ones first, then one per
    committed entry), how many of each committed type, the delays, the cap and the run-time
    terms of `planner.cost.cloud.Terms`."""

    types: tuple[Sku, ...]
    launchable: int
    committed: tuple[int, ...] = ()
    """Instances of each committed type (`types[launchable:]`)."""
    provisioning_s: float = 0.0
    scale_down_s: float = 0.0
    max_instances: int | None = None
    speed: Mapping[tuple[str, str], float] = field(default_factory=dict)
    startup_s: float = 0.0
    spot: Spot | None = None
    """Launched instances are spot: a pod on one re-runs the work interruptions lose."""


@dataclass(frozen=True, slots=True)
class InstanceRun:
    type: int
    launched_s: float
    released_s: float
    committed: bool = False


@dataclass(frozen=True, slots=True)
class PoolRun:
    """Each instance's life and each job's times (NaN for a job that never ran)."""

    instances: tuple[InstanceRun, ...]
    need: tuple[int, ...]
    """Whole GPUs per pod of each job."""
    placed_on: tuple[tuple[int, ...], ...]
    """The instance of each pod of each job (empty for a job that never ran)."""
    reserved_s: tuple[float, ...]
    """When the job's pods were placed (its wait for the cap ends)."""
    start_s: tuple[float, ...]
    end_s: tuple[float, ...]
    unrunnable: dict[int, str]
    peak_instances: int
    rerun_s: tuple[float, ...] = ()
    """Seconds of each job's run spent re-running work spot interruptions lost (empty:
    no spot)."""


def whole_gpus(gpus: float) -> int:
    """GPUs a pod holds: a fraction takes a whole GPU (no MIG or time-slicing)."""
    return max(1, math.ceil(gpus - 1e-9))


def instance_gpus(sku: Sku) -> int:
    """Whole GPUs of an instance (a fractional vGPU SKU has none a pod could hold)."""
    return math.floor(sku.gpus_per_instance + 1e-9)


def unrunnable(
    jobs: Sequence[CloudJob], need: Sequence[int], plan: PoolPlan, caps: Sequence[int]
) -> dict[int, str]:
    """Jobs the pool can never run, with the reason: checked once, before the replay."""
    committed = [caps[plan.launchable + k] for k, n in enumerate(plan.committed) for _ in range(n)]
    launchable = [caps[t] for t in range(plan.launchable)]
    largest = max([*committed, *launchable], default=0)
    found: dict[int, str] = {}
    for k, job in enumerate(jobs):
        if job.is_cpu_only:
            found[k] = CPU_ONLY
        elif need[k] > largest:
            found[k] = (
                f"a pod needs {need[k]} whole GPUs; the largest instance has {largest}: "
                "add a price point for a larger instance"
            )
        elif job.pods > _most_pods(need[k], committed, launchable, plan.max_instances):
            found[k] = (
                f"a gang of {job.pods} pods of {need[k]} GPUs needs more instances than "
                f"the cap of {plan.max_instances} allows"
            )
    return found


def _most_pods(
    need: int, committed: Sequence[int], launchable: Sequence[int], cap: int | None
) -> float:
    """Pods of `need` GPUs an empty pool can hold at once (infinite without a cap)."""
    fits = [c for c in launchable if c >= need]
    if cap is None and fits:
        return math.inf
    on_committed = sum(c // need for c in committed)
    launched = max(0, (cap or 0) - len(committed)) * (max(fits) // need if fits else 0)
    return on_committed + launched
