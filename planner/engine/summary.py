"""The replay summary's types: what `planner.engine.metrics.summarize` returns and pages, the
CLI, the TCO and reports read by attribute.

Frozen, slotted and plain: the field names and their order are the keys of `planner replay
--json` (written by `planner.core.serialize.to_json`, never by hand here). Nothing here
computes anything.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from planner.core.serialize import FLATTEN, OMIT


@dataclass(frozen=True, slots=True)
class Stats:
    """Count, mean, median, 90th, 95th and 99th percentiles and maximum of some seconds
    (None with no jobs)."""

    jobs: int
    mean: float | None = None
    p50: float | None = None
    p90: float | None = None
    p95: float | None = None
    p99: float | None = None
    max: float | None = None


@dataclass(frozen=True, slots=True)
class Fragmentation:
    mean_unusable_idle_gpus: float | None
    mean_unusable_idle_pct: float | None
    mean_fgd_fragmented_gpus: float | None


@dataclass(frozen=True, slots=True)
class PolicyUsed:
    admission: str
    placement: str
    queueing: str
    seed: int


@dataclass(frozen=True, slots=True)
class Deadlock:
    """Nothing could ever happen again while jobs waited: partly placed jobs held GPUs."""

    at_s: float
    jobs_waiting: float
    gpus_held_idle: float
    gpus_held_by_online_services: float | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True, slots=True)
class Livelock:
    """Preemptions kept undoing all work: the replay stopped at `at_s`."""

    since_s: float
    at_s: float
    jobs_waiting: float
    jobs_running: float


@dataclass(frozen=True, slots=True)
class PoolSharing:
    """One pool's shared GPUs (MIG or time-slicing): devices and GPU-hours."""

    mode: str
    gpus: int
    advertised: int
    requested_gpu_hours: float
    granted_gpu_hours: float
    occupied_gpu_hours: float
    capacity_gpu_hours: float
    requested_share: float
    occupied_share: float
    slowdown_gpu_hours: float
    relayouts: int


@dataclass(frozen=True, slots=True)
class QueueSummary:
    """Kueue's part, present when ClusterQueues are configured."""

    borrowed_gpu_hours: Mapping[str, float]
    lent_gpu_hours: Mapping[str, float]
    unmapped_queues: Mapping[str, int]
    budget_used_gpu_hours_by_month: Mapping[str, tuple[float, ...]]


@dataclass(frozen=True, slots=True)
class TimelineSeries:
    """Per-bin series (see `planner.engine.ReplayResult.timeline`)."""

    bin_s: float
    pools: tuple[str, ...]
    allocated_gpus: tuple[tuple[float, ...], ...]
    held_idle_gpus: tuple[float, ...]
    queued_jobs: tuple[float, ...]
    queued_gpus: tuple[float, ...]
    unusable_idle_gpus: tuple[float, ...]
    fgd_fragmented_gpus: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class ReplaySummary:
    """A replay's headline figures; docs/replay.md says what each one means."""

    jobs: int
    completed: int
    unschedulable: int
    unfinished: int
    withdrawn: int
    withdrawn_after_start: int
    withdrawn_observed: int
    still_waiting: int
    gpu_capacity: int
    gpu_capacity_by_pool: Mapping[str, int]
    horizon_s: float
    allocated_gpu_hours: float
    useful_gpu_hours: float
    utilization: float | None
    wait_scope: str
    wait_s: Stats
    """Waits of `wait_scope`'s jobs."""
    wait_s_by_scope: Mapping[str, Stats]
    """GPU jobs' and all jobs' waits (keys `GPU_JOBS`, `ALL_JOBS` of `metrics`)."""
    wait_s_by_gpu_size: Mapping[str, Stats]
    wait_s_by_queue: Mapping[str, Stats]
    completion_time_s: Stats
    makespan_s: float | None
    waiting_gpu_hours_by_reason: Mapping[str, float]
    waiting_gpu_hours_by_queue: Mapping[str, Mapping[str, float]]
    idle_gpu_hours_held_by_partial_gangs: float
    deadlock: Deadlock | None
    livelock: Livelock | None
    unschedulable_by_reason: Mapping[str, int]
    fragmentation: Fragmentation
    policy: PolicyUsed
    rounded_up_pods: int
    overhead_gpu_hours: float
    preemptions: int
    preempted_jobs: int
    preemptions_by_queue: Mapping[str, int]
    wasted_gpu_hours: float
    evicted_by_online: int
    online_gpu_hours: float
    burst: int
    burst_gpu_hours: float
    sharing: Mapping[str, PoolSharing] | None = field(default=None, metadata=OMIT)
    """Per pool with shared GPUs; None when no GPU is shared."""
    queues: QueueSummary | None = field(default=None, metadata=FLATTEN)
    timeline: TimelineSeries | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True, slots=True)
class ValidationRatios:
    """Replayed / observed on a calibration's held-back validation window (None where the
    observed value was 0), and the twin check's one-line verdict."""

    p50_ratio: float | None
    p90_ratio: float | None
    p99_ratio: float | None
    withdrawn_ratio: float | None
    verdict: str


@dataclass(frozen=True, slots=True)
class CalibrationNote:
    """The error bar a replay of a calibrated scenario carries: where the calibration was
    fitted and how well it reproduced the validation window."""

    fitted_on: str
    fit_until_s: float | None
    validation_window_s: tuple[float, float] | None
    effective_gpu_share: float
    """Share of the history's node list its jobs effectively had (reported, not applied)."""
    validation: ValidationRatios


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """What `planner replay --json` prints and the scenario store keeps: the trace and
    cluster replayed, then the summary's keys, then the calibration's error bar if the
    scenario was calibrated."""

    trace_id: str
    cluster: str
    summary: ReplaySummary = field(metadata=FLATTEN)
    calibration: CalibrationNote | None = field(default=None, metadata=OMIT)
