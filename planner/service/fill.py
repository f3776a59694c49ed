"""The fill stress test (the fragmentation study's protocol, `planner.engine.fill`) on the
pods of a stored trace or of a pod list file, for each placement asked: what `planner fill`
prints and the Fill test page draws.

A pod list needs no times here: the protocol places pods in a shuffled order with no
departures, so a list that a job history import refuses (no submit or start column) is
still a workload to fill a cluster with.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from planner.core.config import NodeSpec
from planner.engine.cluster import Placement
from planner.engine.fill import FillResult, PodRequest, fill
from planner.ingest import IngestOptions, IngestReport
from planner.ingest.requests import read_pod_requests
from planner.service.job_rows import load_jobs
from planner.store import Connection
from planner.store.trace_stats import find_trace


@dataclass(frozen=True, slots=True)
class FillComparison:
    """One fill curve per placement, same pods, nodes, seeds and `until`."""

    results: tuple[FillResult, ...]

    @property
    def gpu_capacity(self) -> float:
        return self.results[0].gpu_capacity if self.results else 0.0


def trace_pods(con: Connection, ref: str) -> list[PodRequest]:
    """Every pod of a stored trace (by id or name): each job contributes its pods."""
    jobs = load_jobs(con, find_trace(con, ref))
    return [(j.gpus, j.cpu, j.mem_gib, j.gpu_types) for j in jobs for _ in range(j.pods)]


def file_pods(path: Path, options: IngestOptions) -> tuple[list[PodRequest], IngestReport]:
    """Every pod of a pod or job list file, times not needed; rows that cannot be read are in
    the report, with reasons."""
    return read_pod_requests(path, options)


def compare_placements(
    pods: Sequence[PodRequest],
    nodes: Sequence[NodeSpec],
    placements: Sequence[Placement],
    *,
    seeds: Sequence[int],
    until: float,
    tell: Callable[[float], None] | None = None,
) -> FillComparison:
    """The protocol once per placement; `tell` hears the share of placements done.

    Raises:
        ScenarioError: no pods, no GPUs in the cluster or in the pods, bad seeds or `until`.
    """
    results = []
    for done, placement in enumerate(placements):
        if tell is not None:
            tell(done / len(placements))
        results.append(fill(pods, nodes, placement=placement, seeds=seeds, until=until))
    return FillComparison(tuple(results))
