"""What a replay returns: per-job outcomes, run totals and the timeline, as plain data.

Built once, at the end of a replay (`planner.engine.loop`); read by metrics, cost and the
pages. No behaviour beyond the timeline's coarsening lives here.
"""

from dataclasses import dataclass, field
from typing import Any

from planner.core.model import Job
from planner.engine.job_waits import Waits
from planner.engine.policy import Policy


@dataclass(slots=True)
class Timeline:
    """Time-weighted averages per fixed-width bin, plus state samples at bin starts."""

    bin_s: float
    pools: list[str]
    allocated_gpus: list[list[float]] = field(default_factory=list)
    """Per bin, mean allocated GPUs of each pool (same order as `pools`)."""
    held_idle_gpus: list[float] = field(default_factory=list)
    queued_jobs: list[float] = field(default_factory=list)
    queued_gpus: list[float] = field(default_factory=list)
    unusable_idle_gpus: list[float] = field(default_factory=list)
    """Sampled at each bin's first instant: idle GPUs that no waiting job's pod can use."""
    fgd_fragmented_gpus: list[float] = field(default_factory=list)
    """Sampled likewise: the FGD measure against the trace's mix of GPU requests."""

    def coarsen(self) -> None:
        """Merge each pair of (complete) bins into one of twice the width: means average,
        samples keep the first instant's."""
        self.bin_s *= 2
        self.allocated_gpus = [
            [(a + b) / 2 for a, b in zip(first, second, strict=True)]
            for first, second in zip(
                self.allocated_gpus[::2], self.allocated_gpus[1::2], strict=True
            )
        ]
        for means in (self.held_idle_gpus, self.queued_jobs, self.queued_gpus):
            means[:] = [(a + b) / 2 for a, b in zip(means[::2], means[1::2], strict=True)]
        for samples in (self.unusable_idle_gpus, self.fgd_fragmented_gpus):
            del samples[1::2]


@dataclass(slots=True)
class ReplayResult:
    """Per-job outcomes (lists indexed like `jobs`, in the order jobs entered the queue:
    submission plus start latency, ties by submission; without latency, submit order) and
    run totals."""

    jobs: list[Job]
    policy: Policy
    node_ids: list[str]
    capacity_gpus: dict[str, int]
    status: list[str]
    """One `JobStatus` value per job (plain strings: `planner.engine.states`)."""
    start_s: list[float | None]
    end_s: list[float | None]
    placement: list[tuple[tuple[int, float], ...]]
    """(node index, GPUs) of each node a job ran on (or held when unfinished)."""
    wait_by_reason: Waits
    """Seconds waited per reason (a tuple in the order of `REASON_CODES`) per job; None if the
    job never waited. Packed (`planner.engine.job_waits`); it equals the list of tuples."""
    unschedulable_reason: dict[int, str]
    horizon_s: float
    allocated_gpu_s: float
    held_idle_gpu_s: float
    deadlock: dict[str, float] | None
    timeline: Timeline
    rounded_up_pods: int
    distinct_states_max: int
    segments: dict[int, list[tuple[float, float, tuple[tuple[int, float], ...]]]] = field(
        default_factory=dict
    )
    """Run segments that ended in preemption: (start, end, placement), per job."""
    livelock: dict[str, float] | None = None
    """Set when evictions kept undoing all work and the replay stopped early."""
    preemptions: int = 0
    evicted_by_online: int = 0
    online_gpu_s: float = 0.0
    """GPU-seconds held by online services (colocation)."""
    wasted_gpu_s: float = 0.0
    """GPU-seconds of work lost to preemption (since the last checkpoint) plus restarts."""
    overhead_gpu_s: float = 0.0
    """GPU-seconds completed jobs spent on container overhead (network, storage)."""
    cluster_queue: list[str] | None = None
    """With ClusterQueues: the one each job went through ('' if none)."""
    borrowed_gpu_s: dict[str, float] = field(default_factory=dict)
    lent_gpu_s: dict[str, float] = field(default_factory=dict)
    budget_used_gpu_s: dict[str, list[float]] = field(default_factory=dict)
    """Per ClusterQueue with a budget: GPU-seconds used in each 30-day month."""
    unmapped_queues: dict[str, int] = field(default_factory=dict)
    """Jobs per trace queue value (and user) no LocalQueue names: they went to the default
    ClusterQueue, or are unschedulable without one."""
    sharing: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per MIG or time-sliced pool: what its GPUs were asked for, granted and occupied."""
