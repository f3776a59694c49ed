"""The capacity-stress protocol of the fragmentation study (Weng et al., ATC'23).

The trace's pods, topped up with pods drawn at random (with replacement) from the trace until
their GPU request reaches `until` times the cluster's GPUs, are shuffled and placed one by one
with no departures; a pod that does not fit is skipped. At every whole percent of arrived GPU
demand we record how much of the cluster is allocated and how much of its free GPU capacity
is fragmented: the FGD measure against the trace's own pod mix, CPU-only pods included as in
the study's experiments (see `planner.engine.fragmentation`). Fragmentation is reported both
ways the study plots it: fragmented GPUs over the cluster's GPUs (its "Frag / Total") and
over the idle GPUs (its "frag ratio", `ClusterGpuFragReport` in the authors' simulator). It
answers: how much of this cluster can our workload really fill under each placement policy?
"""

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from planner.core.config import NodeSpec
from planner.core.errors import ScenarioError
from planner.engine.cluster import (
    MILLI,
    Allowed,
    ClusterState,
    Placement,
    PodShape,
    TypicalPod,
    pod_shape,
    typical_pods,
)

PodRequest = tuple[float, float, float, tuple[str, ...]]
"""(GPUs, CPU cores, memory GiB, allowed GPU types) of one pod."""
MAX_SEEDS = 1000
"""Each seed replays the whole protocol; the fragmentation study uses 10."""


@dataclass(frozen=True, slots=True)
class FillPoint:
    arrived_pct: int
    gpu_allocation_pct: float
    frag_gpu_pct: float
    """Fragmented GPUs, % of the cluster's GPUs."""
    frag_ratio: float = 0.0
    """Fragmented GPUs / idle GPUs (0 when nothing is idle), in [0, 1]."""


@dataclass(frozen=True, slots=True)
class FillResult:
    placement: str
    seeds: tuple[int, ...]
    until: float
    pods_in_trace: int
    gpu_capacity: float
    points: tuple[FillPoint, ...]
    """Means over seeds at each whole percent of arrived GPU demand."""
    placed_pods: float
    skipped_pods: float
    """Means over seeds."""

    def as_dict(self) -> dict[str, object]:
        return {
            "placement": self.placement,
            "seeds": list(self.seeds),
            "until": self.until,
            "pods_in_trace": self.pods_in_trace,
            "gpu_capacity": self.gpu_capacity,
            "placed_pods": self.placed_pods,
            "skipped_pods": self.skipped_pods,
            "points": [
                {
                    "arrived_pct": p.arrived_pct,
                    "gpu_allocation_pct": round(p.gpu_allocation_pct, 4),
                    "frag_gpu_pct": round(p.frag_gpu_pct, 4),
                }
                for p in self.points
            ],
            "fragmentation_curve": self.curve(),
        }

    def curve(self) -> list[dict[str, float]]:
        """The points as shares in [0, 1] (arrived demand up to `until`), with the fragmented
        GPUs and the fragmentation ratio (fragmented / idle GPUs), the study's two plots."""
        return [
            {
                "arrived_share": p.arrived_pct / 100,
                "allocated_share": round(p.gpu_allocation_pct / 100, 6),
                "frag_gpus": round(p.frag_gpu_pct / 100 * self.gpu_capacity, 3),
                "frag_share_of_total": round(p.frag_gpu_pct / 100, 6),
                "frag_ratio_of_idle": round(p.frag_ratio, 6),
            }
            for p in self.points
        ]


def fill(
    pods: Sequence[PodRequest],
    nodes: Sequence[NodeSpec],
    *,
    placement: Placement,
    seeds: Iterable[int] = range(42, 52),
    until: float = 1.3,
) -> FillResult:
    """Run the protocol once per seed and average the curves point by point."""
    seeds = tuple(itertools.islice(seeds, MAX_SEEDS + 1))  # an endless iterable stops here
    if len(seeds) > MAX_SEEDS:
        raise ScenarioError(f"give at most {MAX_SEEDS} seeds (each replays the whole protocol)")
    if not pods:
        raise ScenarioError("the trace has no pods to fill the cluster with")
    if not seeds:
        raise ScenarioError("give at least one seed")
    if not 0 < until <= 10:
        raise ScenarioError(f"--until must be in (0, 10] (got {until})")
    probe = ClusterState(nodes, placement)
    capacity = sum(probe.classes[c].gpus for c in probe.node_class) * MILLI
    if not capacity:
        raise ScenarioError("the cluster has no GPUs to fill")
    shaped = _shapes(pods, probe)
    if not any(pod.gpus for pod, _ in shaped):
        raise ScenarioError(
            "the trace's pods request no GPUs, so they can never fill the cluster's GPUs"
        )
    workload = _Workload(shaped, typical_pods(shaped), capacity, until)
    steps = int(until * 100)
    totals = [[0.0, 0.0, 0.0] for _ in range(steps + 1)]
    placed = skipped = 0
    for seed in seeds:
        curve, ok, missed = _one_seed(workload, nodes, placement, seed)
        placed += ok
        skipped += missed
        for k, point in enumerate(curve):
            for i, value in enumerate(point):
                totals[k][i] += value
    n = len(seeds)
    return FillResult(
        placement=placement,
        seeds=seeds,
        until=until,
        pods_in_trace=len(pods),
        gpu_capacity=capacity / MILLI,
        points=tuple(FillPoint(k, a / n, f / n, r / n) for k, (a, f, r) in enumerate(totals)),
        placed_pods=placed / n,
        skipped_pods=skipped / n,
    )


def _shapes(pods: Sequence[PodRequest], cluster: ClusterState) -> list[tuple[PodShape, Allowed]]:
    cpu_on, mem_on = cluster.cpu_limited, cluster.mem_limited
    allowed_of: dict[tuple[str, ...], Allowed] = {}
    shaped = []
    for gpus, cpu, mem_gib, types in pods:
        if types not in allowed_of:
            allowed_of[types] = cluster.classes_for(types)
        shaped.append(
            (pod_shape(gpus, cpu, mem_gib, cpu_on=cpu_on, mem_on=mem_on), allowed_of[types])
        )
    return shaped


@dataclass(frozen=True, slots=True)
class _Workload:
    shaped: list[tuple[PodShape, Allowed]]
    typical: list[TypicalPod]
    capacity: int
    until: float


def _one_seed(
    workload: _Workload, nodes: Sequence[NodeSpec], placement: Placement, seed: int
) -> tuple[list[tuple[float, float, float]], int, int]:
    shaped, capacity, until = workload.shaped, workload.capacity, workload.until
    rng = random.Random(seed)
    arrivals = list(shaped)
    target = until * capacity
    demand = sum(pod.gpu_milli for pod, _ in arrivals)
    while demand < target:
        extra = shaped[rng.randrange(len(shaped))]
        arrivals.append(extra)
        demand += extra[0].gpu_milli
    rng.shuffle(arrivals)
    cluster = ClusterState(nodes, placement, seed=seed, typical=workload.typical)
    steps = int(until * 100)
    curve: list[tuple[float, float, float]] = []
    arrived = allocated = placed = skipped = 0
    for pod, allowed in arrivals:
        need = pod.gpu_milli
        # point k is the state once every pod that keeps arrived demand within k% is in
        while len(curve) <= steps and (arrived + need) * 100 > len(curve) * capacity:
            curve.append(_point(cluster, allocated, capacity))
        if len(curve) > steps:
            break
        arrived += need
        plan = cluster.plan(pod, 1, allowed)
        if plan is None:
            skipped += 1
            continue
        cluster.allocate(plan[0][0], pod, 1)
        allocated += need
        placed += 1
    while len(curve) <= steps:
        curve.append(_point(cluster, allocated, capacity))
    return curve, placed, skipped


def _point(cluster: ClusterState, allocated: int, capacity: int) -> tuple[float, float, float]:
    """(allocated % of GPUs, fragmented % of GPUs, fragmented / idle GPUs)."""
    frag = cluster.fgd_fragmentation()
    idle = cluster.free_milli(None)
    return 100.0 * allocated / capacity, 100.0 * frag / capacity, frag / idle if idle else 0.0
