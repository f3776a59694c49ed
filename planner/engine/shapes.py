"""Job shapes: jobs grouped by what they ask of the cluster, and the set algebra on node classes.

Jobs of one shape (pod request, pod count, allowed node classes; with ClusterQueues also
the queue and priority) fit or fail together, so a scheduling pass tries each shape once
and why-they-wait is decided per shape. Pure functions; no replay state.
"""

from collections import deque

from planner.core.model import Job
from planner.engine.cluster import Allowed, ClusterState, PodShape, TypicalPod, pod_shape
from planner.engine.fragmentation import typical_of_counts
from planner.engine.sharing import find_profile

Shape = tuple[PodShape, int, Allowed]
NO_QUEUE = -2
"""The job's queue maps to no ClusterQueue."""


def find_shapes(
    jobs: list[Job],
    cluster: ClusterState,
    cq_of_job: list[int],
    cq_allowed: dict[int, Allowed],
    *,
    quota_on: tuple[bool, bool] = (False, False),
    priorities: list[int] | None = None,
) -> tuple[list[Shape], list[int], list[int], list[int], int]:
    """Distinct shapes (pod, pods, allowed classes; with queues also ClusterQueue and
    priority), each job's shape id, each shape's queue and priority, pods rounded up.
    CPU and memory count when nodes limit them or queues have quotas on them."""
    cpu_on, mem_on = cluster.cpu_limited or quota_on[0], cluster.mem_limited or quota_on[1]
    keys: dict[tuple[Shape, int, int], int] = {}
    allowed_of: dict[tuple[tuple[str, ...], int], Allowed] = {}
    shape_of: list[int] = []
    rounded_up = 0
    # (what the shape is made of, as the job gives it) -> shape id: most jobs repeat one;
    # GPUs, types and pods alone when nothing else counts (a shorter key to build and hash)
    seen: dict[tuple[object, ...], int] = {}
    short = not (cpu_on or mem_on or cq_of_job)
    for index, job in enumerate(jobs):
        gpus = job.gpus
        if gpus > 1 and gpus != int(gpus):
            rounded_up += job.pods
        if short:
            cq, priority = -1, 0
            raw: tuple[object, ...] = (gpus, job.gpu_types, job.pods)
        else:
            priority = priorities[index] if priorities is not None else job.priority
            cq, priority = (cq_of_job[index], priority) if cq_of_job else (-1, 0)
            raw = (
                gpus,
                job.cpu if cpu_on else 0.0,
                job.mem_gib if mem_on else 0.0,
                job.gpu_types,
                job.pods,
                cq,
                priority,
            )
        sid = seen.get(raw)
        if sid is None:
            pod = pod_shape(gpus, job.cpu, job.mem_gib, cpu_on=cpu_on, mem_on=mem_on)
            pod = mig_request(pod, job.gpu_types)
            where = (job.gpu_types, cq)
            if where not in allowed_of:
                allowed = intersect(cluster.classes_for(job.gpu_types), cq_allowed.get(cq))
                allowed_of[where] = allowed
            key = ((pod, job.pods, allowed_of[where]), cq, priority)
            sid = seen[raw] = keys.setdefault(key, len(keys))
        shape_of.append(sid)
    shapes = [shape for shape, _, _ in keys]
    return (
        shapes,
        shape_of,
        [cq for _, cq, _ in keys],
        [priority for _, _, priority in keys],
        rounded_up,
    )


def typical_mix(shapes: list[Shape], shape_of: list[int]) -> list[TypicalPod]:
    """The workload mix (`typical_pods`) of jobs of these shapes, counted by shape."""
    jobs = [0] * len(shapes)
    for sid in shape_of:
        jobs[sid] += 1
    # shape ids are given in the order of each shape's first job, as `typical_pods` counts
    return typical_of_counts(
        (pod, allowed, n) for (pod, _, allowed), n in zip(shapes, jobs, strict=True)
    )


def mig_request(pod: PodShape, gpu_types: tuple[str, ...]) -> PodShape:
    """A pod asking for a MIG profile (`gpu_type` 3g.40gb) asks for its code, per instance."""
    for name in gpu_types:
        prof = find_profile(name)
        if prof is not None and pod.gpus:
            return PodShape(prof.code, pod.gpus, pod.cpu, pod.mem)
    return pod


def intersect(a: Allowed, b: Allowed) -> Allowed:
    if a is None:
        return b
    return a if b is None else a & b


def union(sets: list[Allowed]) -> Allowed:
    if any(classes is None for classes in sets):
        return None
    return frozenset().union(*[classes for classes in sets if classes is not None])


def milli(shape: Shape) -> int:
    """Milli-GPUs a job of this shape asks for in all."""
    pod, count, _ = shape
    return pod.milli * pod.gpus * count


def insert_sorted(queue: deque[int], i: int) -> None:
    """Put `i` into an ascending queue where it belongs (a requeued job keeps its place)."""
    for pos, j in enumerate(queue):
        if j > i:
            queue.insert(pos, i)
            return
    queue.append(i)


def never_fits(cluster: ClusterState, shape: Shape) -> str:
    """Why a job of this shape cannot run even on the empty cluster ('' if it can)."""
    pod, count, allowed = shape
    if cluster.fits(pod, count, allowed):
        return ""
    if allowed is not None and not allowed:
        return "gpu_type_not_installed"
    if pod.milli * pod.gpus * count > cluster.free_milli(allowed):
        return "more_gpus_than_installed"
    if cluster.capacity(pod, allowed) == 0 and cluster.refused_by_sharing(pod, allowed):
        return "no_such_shared_device"
    if cluster.capacity(pod, allowed) == 0:
        return "pod_larger_than_any_node"
    return "gang_does_not_fit_nodes"
