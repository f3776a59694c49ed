"""What packing costs a cloud option, beside its bill: every option has these figures, per
job as well as on a node pool, so two packings of the same jobs can be set side by side.

    held GPU-hours   GPUs the pods hold while they run (a fraction takes a whole GPU), for
                     their run on the SKU they ran on (its speed, the start-up included)
    overhead         billed GPU-hours / held GPU-hours (1: every GPU paid for was held)
    price floor      held GPU-hours x the cheapest price per GPU-hour the option offers
                     (what a perfect packer with no delays would pay)
    waits            a pod's wait for room under the instance cap and for its instance to
                     be ready (per job: none; the cloud has no queue)
    interruptions    on spot: the rate per instance-hour assumed and the interruptions it
                     gives over the jobs' hours on spot (their re-runs are the bill's spot
                     overhead)

A month of each (the trace's amounts x `scale`, months per trace span). Per job, the billed
GPU-hours are the on-demand bill's, a commitment aside.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from planner.cost.cloud import HOUR_S, CloudBill, CloudJob, Sku, Terms
from planner.cost.node_pool_plan import whole_gpus
from planner.cost.pool_defaults import Packing

if TYPE_CHECKING:  # the pool's bill needs numpy; these facts are read where `--help` must be fast
    from planner.cost.node_pool_bill import PoolBill, PoolWaits


@dataclass(frozen=True, slots=True)
class PackingFacts:
    """A cloud option's packing a month (`planner tco --json`: `inputs.clouds[].packing`)."""

    packing: Packing
    billed_gpu_hours: float
    held_gpu_hours: float
    overhead: float | None
    """Billed GPU-hours per GPU-hour held (None when the pods held none)."""
    price_floor: float
    """Held GPU-hours at the option's cheapest price per GPU-hour, a month."""
    provisioning_wait_mean_s: float | None
    provisioning_wait_p95_s: float | None
    cap_wait_mean_s: float | None
    cap_wait_p95_s: float | None
    interruptions_per_hour: float | None = None
    """On spot: the interruption rate assumed (None: not spot)."""
    interruptions: float = 0.0
    """On spot: interruptions expected, a month."""
    provisioning_s: float | None = None
    """A node pool's launch-to-ready delay (None: per job, instances are ready at once)."""
    scale_down_s: float | None = None
    """How long a node pool's instance stands empty before it is released (None: per job)."""


def per_job_facts(
    jobs: Sequence[CloudJob], bill: CloudBill, skus: Sequence[Sku], terms: Terms
) -> PackingFacts:
    """Today's rule: every priced job on instances of its own, ready at once (a month:
    multiply by the scale with `scaled`)."""
    held = sum(_held_s(jobs[p.job], skus[p.sku], terms) for p in bill.jobs) / HOUR_S
    waits = 0.0 if bill.jobs else None
    return PackingFacts(
        "per-job",
        bill.billed_gpu_hours,
        held,
        bill.billed_gpu_hours / held if held else None,
        held * _cheapest_per_gpu(skus),
        waits,
        waits,
        waits,
        waits,
        terms.spot.interruptions_per_hour if terms.spot else None,
        _per_job_interruptions(jobs, bill, skus, terms),
    )


def pool_facts(
    pool: "PoolBill", delays: tuple[float, float], rate: float | None = None
) -> PackingFacts:
    """A node pool's figures over the trace (a month: `scaled`); `delays`: its provisioning
    and scale-down delays; `rate`: its spot interruptions per hour (None: not spot)."""
    held = pool.held_gpu_hours
    waits: PoolWaits = pool.waits
    return PackingFacts(
        "pool",
        pool.billed_gpu_hours,
        held,
        pool.billed_gpu_hours / held if held else None,
        pool.price_floor,
        waits.provisioning.mean,
        waits.provisioning.p95,
        waits.cap.mean,
        waits.cap.p95,
        rate,
        pool.interruptions,
        *delays,
    )


def scaled(facts: PackingFacts, scale: float) -> PackingFacts:
    """The trace's amounts a month (`scale`: months per trace span); ratios and waits stay."""
    return PackingFacts(
        facts.packing,
        facts.billed_gpu_hours * scale,
        facts.held_gpu_hours * scale,
        facts.overhead,
        facts.price_floor * scale,
        facts.provisioning_wait_mean_s,
        facts.provisioning_wait_p95_s,
        facts.cap_wait_mean_s,
        facts.cap_wait_p95_s,
        facts.interruptions_per_hour,
        facts.interruptions * scale,
        facts.provisioning_s,
        facts.scale_down_s,
    )


def _held_s(job: CloudJob, sku: Sku, terms: Terms) -> float:
    return job.pods * whole_gpus(job.gpus) * _run_s(job, sku, terms)


def _run_s(job: CloudJob, sku: Sku, terms: Terms) -> float:
    factor = (terms.speed or {}).get((sku.gpu_model, job.gpu_model), 1.0)
    return job.run_s / factor + terms.startup_s


def _per_job_interruptions(
    jobs: Sequence[CloudJob], bill: CloudBill, skus: Sequence[Sku], terms: Terms
) -> float:
    """The rate x each priced job's run (`cloud.spot_extra_s`'s count), over the trace."""
    if terms.spot is None:
        return 0.0
    hours = sum(_run_s(jobs[p.job], skus[p.sku], terms) for p in bill.jobs) / HOUR_S
    return terms.spot.interruptions_per_hour * hours


def _cheapest_per_gpu(skus: Sequence[Sku]) -> float:
    return min((s.price_per_hour / s.gpus_per_instance for s in skus), default=0.0)
