"""Volcano queues as Kueue-style ClusterQueues, so the engine runs both with one quota model.

`to_queues` needs the cluster's GPUs per type (deserved shares are parts of it) and maps
(`../shared/reference/scheduler-semantics.md` A2 onto A1):

* one flavor per GPU type of the cluster, or one flavor `gpu` over every node when the
  queues count GPUs of any type (a Volcano Queue's `nvidia.com/gpu`);
* every leaf queue -> a ClusterQueue in cohort `root`: nominal quota = deserved (see
  `planner.engine.volcano`), borrowing limit = capability - deserved (none without a capability),
  lending limit = deserved - guarantee (only with a guarantee), so a queue never uses more
  than its capability and never lends its guarantee;
* capacity plugin with `parent` queues: each parent -> a cohort under its own parent, with
  the deserved its children do not claim as extra quota and the same limits, so a subtree
  never uses more than the parent's capability nor lends the parent's guarantee;
* action `preempt` -> withinClusterQueue LowerPriority (lower-priority jobs of the same
  queue); action `reclaim` -> reclaimWithinCohort Any: victims only from queues above their
  deserved, and a queue reclaims only while the job keeps it within its deserved (Volcano's
  Preemptive check); borrowWithinCohort stays Never;
* CPU and memory capability -> a CPU or memory quota that neither borrows nor lends: a hard
  cap (one flavor only: with a flavor per GPU type a per-queue total cannot be split).

What cannot be expressed this way is returned by `volcano_notes`, never dropped silently.
"""

from collections.abc import Mapping

from planner.core.errors import ScenarioError
from planner.engine.scenario import (
    ClusterQueueSpec,
    CohortSpec,
    FlavorSpec,
    PreemptionSpec,
    QueuesSpec,
    QuotaSpec,
)
from planner.engine.volcano import ROOT, Vector, VolcanoQueueSpec, VolcanoSpec, deserved_gpus

ANY_TYPE_FLAVOR = "gpu"


def gpu_total(spec: VolcanoSpec, gpus_by_type: Mapping[str, float]) -> Vector:
    """The dimensions Volcano divides: all GPUs as one, or GPUs per installed type."""
    installed = {t: float(n) for t, n in gpus_by_type.items() if n > 0}
    if not installed:
        raise ScenarioError("the cluster has no GPUs to divide between Volcano queues").coded(
            "volcano_no_gpus"
        )
    if spec.any_gpu_type:
        return {"": sum(installed.values())}
    if "" in installed:
        raise ScenarioError(
            "the Volcano queues give GPUs per GPU type, but some nodes have GPUs of no known "
            "type; name every node's GPU type, or give the queues' GPUs for any type"
        ).coded("volcano_untyped_gpus")
    return installed


def to_queues(spec: VolcanoSpec, gpus_by_type: Mapping[str, float]) -> QueuesSpec:
    """The ClusterQueues, cohorts and flavors that run the Volcano queues on this cluster."""
    total = gpu_total(spec, gpus_by_type)
    deserved = deserved_gpus(spec, total)
    one_flavor = len(total) == 1
    parents = set(spec.hierarchy.values())
    preemption = PreemptionSpec(
        within_cluster_queue="LowerPriority" if spec.preempt else "Never",
        reclaim_within_cohort="Any" if spec.reclaim else "Never",
    )
    cohorts: list[CohortSpec] = []
    cluster_queues: list[ClusterQueueSpec] = []
    for queue in spec.queues:
        cohort = queue.parent if spec.hierarchy and queue.parent else ROOT
        if queue.name in parents:
            children = [q for q in spec.queues if spec.hierarchy.get(q.name) == queue.name]
            extra = {
                d: max(0.0, v - sum(deserved[c.name][d] for c in children))
                for d, v in deserved[queue.name].items()
            }
            quotas = tuple(_quota(queue, d, (extra[d], deserved[queue.name][d])) for d in total)
            cohorts.append(CohortSpec(name=queue.name, parent=cohort, quotas=quotas))
            continue
        quotas = tuple(
            _quota(queue, d, (v, v), hard_caps=one_flavor) for d, v in deserved[queue.name].items()
        )
        cluster_queues.append(
            ClusterQueueSpec(
                name=queue.name,
                cohort=cohort,
                preemption=preemption,
                quotas=quotas,
                reclaimable=queue.reclaimable,
            )
        )
    leaves = {q.name for q in cluster_queues}
    return QueuesSpec(
        flavors=tuple(FlavorSpec(name=_flavor(d), gpu_type=d) for d in total),
        cohorts=tuple(cohorts),
        cluster_queues=tuple(cluster_queues),
        local_queues=dict(spec.local_queues),
        default_cluster_queue=spec.default_queue if spec.default_queue in leaves else None,
    )


def _flavor(gpu_type: str) -> str:
    return gpu_type or ANY_TYPE_FLAVOR


def _quota(
    queue: VolcanoQueueSpec,
    dim: str,
    nominal_and_deserved: tuple[float, float],
    *,
    hard_caps: bool = False,
) -> QuotaSpec:
    """One flavor's quota: nominal (for a cohort, only what its children leave), the limits
    from deserved, capability and guarantee, and CPU and memory caps if asked for."""
    nominal, deserved = nominal_and_deserved
    borrowing: float | None = None
    if dim in queue.capability:
        borrowing = max(0.0, queue.capability[dim] - deserved)
    guarantee = queue.guarantee.get(dim, 0.0)
    lending = max(0.0, deserved - guarantee) if guarantee > 0 else None
    caps: dict[str, float] = {}
    if hard_caps:
        for field, value in (("cpu", queue.cpu_capability), ("mem_gib", queue.mem_gib_capability)):
            if value is not None:
                caps |= {field: value, f"{field}_borrowing_limit": 0, f"{field}_lending_limit": 0}
    return QuotaSpec(
        flavor=_flavor(dim),
        gpus=nominal,
        borrowing_limit=borrowing,
        lending_limit=lending,
        **caps,
    )


def volcano_notes(spec: VolcanoSpec, gpus_by_type: Mapping[str, float]) -> list[str]:
    """What of the Volcano set-up the replay does not model, or models differently."""
    notes: list[str] = []
    total = gpu_total(spec, gpus_by_type)
    leaves = [q for q in spec.queues if q.name not in set(spec.hierarchy.values())]
    top = [q for q in spec.queues if spec.hierarchy.get(q.name, ROOT) == ROOT]
    deserved = deserved_gpus(spec, total)
    for dim, gpus in total.items():
        what = f"{dim} GPUs" if dim else "GPUs"
        guaranteed = sum(q.guarantee.get(dim, 0.0) for q in top)
        shared = sum(deserved[q.name][dim] for q in top)
        if guaranteed > gpus:
            notes.append(f"Volcano guarantees {guaranteed:g} {what} but the cluster has {gpus:g}")
        elif shared > gpus + 0.001 * len(top):
            notes.append(
                f"Volcano deserved shares add up to {shared:g} {what}, more than the cluster's "
                f"{gpus:g} (guarantees above weighted shares): quotas promise more than exists"
            )
    for queue in spec.queues:
        notes.extend(_queue_notes(spec, queue, total))
    if spec.default_queue and spec.default_queue not in {q.name for q in leaves}:
        notes.append(
            f"Volcano default queue '{spec.default_queue}' is not declared: jobs whose queue "
            "names no Volcano queue are unschedulable"
        )
    return notes


def _queue_notes(spec: VolcanoSpec, queue: VolcanoQueueSpec, total: Vector) -> list[str]:
    where = f"Volcano queue {queue.name}"
    notes = []
    if queue.priority:
        notes.append(
            f"{where}: priority {queue.priority} not modelled (Volcano orders queues by it; the "
            "replay orders jobs by their own priority)"
        )
    if spec.plugin == "proportion" and queue.parent:
        notes.append(f"{where}: parent ignored (the proportion plugin has no hierarchy)")
    if spec.plugin == "proportion" and queue.deserved:
        notes.append(f"{where}: deserved ignored (the proportion plugin water-fills by weight)")
    if queue.cpu_capability is not None or queue.mem_gib_capability is not None:
        if len(total) > 1:
            notes.append(
                f"{where}: CPU and memory capability not modelled with a flavor per GPU type"
            )
        elif queue.name in set(spec.hierarchy.values()):
            notes.append(f"{where}: CPU and memory capability of a parent queue not modelled")
    missing = sorted(queue.mentions() - set(total))
    if missing:
        notes.append(f"{where}: GPU types {', '.join(missing)} are not installed, ignored")
    return notes
