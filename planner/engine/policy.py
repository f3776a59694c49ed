"""How the embedded scheduler behaves: admission, placement, queueing and their knobs.

Plain values for the engine; `planner.engine.scenario` validates what users write into this.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.engine.cluster import PLACEMENTS, Placement
from planner.engine.colocation import Colocation
from planner.engine.latency import StartLatency
from planner.engine.overhead import Overhead
from planner.engine.quota import QueueSetup
from planner.engine.sharing import SharingMode

MAX_SIMULATED_S = 100 * 365 * 86_400.0
"""The longest span a replay simulates (100 years). Durations, horizons and delays beyond it
are unit mistakes (milliseconds read as seconds), not plans, and are refused."""

Admission = Literal["gang", "pod"]
Queueing = Literal["strict-fifo", "fifo", "backfill"]
ADMISSIONS: tuple[Admission, ...] = ("gang", "pod")
QUEUEINGS: tuple[Queueing, ...] = ("strict-fifo", "fifo", "backfill")

ADMISSION_HELP = {
    "gang": "all pods of a job start together or none do (Kueue, Volcano, coscheduling)",
    "pod": "pods are placed one at a time as room appears (default kube-scheduler); a partly "
    "placed job holds its GPUs idle until its last pod lands",
}
PLACEMENT_HELP = {
    "best-fit": "the node left with the least free capacity (GPU and CPU shares, equal weights)",
    "binpack": "kube-scheduler MostAllocated over GPU, CPU and memory",
    "spread": "kube-scheduler LeastAllocated over GPU, CPU and memory (the k8s default)",
    "random": "a uniformly random node that fits (seeded)",
    "fgd": "fragmentation gradient descent (ATC'23): the node whose fragmentation, measured "
    "against the trace's mix of pod requests (CPU-only pods included), grows least",
}
QUEUEING_HELP = {
    "strict-fifo": "jobs start in submit order; the head blocks everyone behind it",
    "fifo": "best-effort FIFO: in submit order, skipping jobs that do not fit (Kueue default)",
    "backfill": "EASY backfill: later jobs may start if they do not delay the head's reservation",
}


@dataclass(frozen=True, slots=True)
class Policy:
    """Everything about the scheduler the engine needs; defaults are Kueue-like."""

    admission: Admission = "gang"
    placement: Placement = "best-fit"
    queueing: Queueing = "fifo"
    seed: int = 42
    estimate_factor: float = 1.0
    """Backfill run-time estimate = the trace's run time x this (users over-estimate: >= 1)."""
    backfill_depth: int = 500
    """Jobs tested behind the head per backfill pass (Slurm's bf_max_job_test)."""
    pod_timeout_s: float | None = None
    """Pod admission: release a partly placed job after this long (waitForPodsReady)."""
    backoff_base_s: float = 60.0
    backoff_max_s: float = 3600.0
    backoff_limit: int = 20
    """Requeues after which a job is deactivated (Kueue's backoffLimitCount)."""
    horizon_s: float | None = None
    """Stop the replay here (seconds from trace start); None runs until every job is done."""
    queues: QueueSetup | None = None
    """Kueue ClusterQueues and cohorts; None: one queue for everybody, no quotas."""
    overhead: Overhead | None = None
    """Slowdown of multi-pod jobs by network and storage class; None: run times as traced."""
    checkpoint_interval_s: float | None = None
    """A preempted job keeps the work up to its last checkpoint; None: restarts from zero."""
    restart_overhead_s: float = 0.0
    """Added to a preempted job's remaining run time when it starts again."""
    min_run_s: float = 0.0
    """A job that has run less than this is not preempted."""
    termination_grace_s: float = 0.0
    """Preempted pods take this long to terminate, holding their GPUs and quota; the
    preemptor is admitted after (Kubernetes' terminationGracePeriodSeconds defaults to 30)."""
    colocation: Colocation | None = None
    """Online services holding GPUs by hour of day; batch jobs are evicted when they grow."""
    burst_after_s: float | None = None
    """Hybrid: a job still waiting this long after its submission runs in the cloud."""
    enqueue_overcommit: float | None = None
    """Volcano's enqueue gate: waiting requests may total this x the cluster minus what is
    allocated (needs queues); None: every waiting job may be allocated."""
    sharing: Mapping[str, SharingMode] | None = None
    """GPU type -> MIG or time-slicing on those nodes; None: whole GPUs (and fractions)."""
    start_latency: StartLatency | None = None
    """Each job enters the queue this long after its submission (fitted by `planner twin`);
    None: at its submission."""

    def __post_init__(self) -> None:
        _one_of("admission", self.admission, ADMISSIONS)
        _one_of("placement", self.placement, PLACEMENTS)
        _one_of("queueing", self.queueing, QUEUEINGS)
        if self.admission == "pod" and self.queueing == "backfill":
            raise ScenarioError(
                "backfill needs gang admission: EASY backfill reserves room for a whole job; "
                "use --admission gang, or --queueing fifo/strict-fifo with pod admission"
            )
        if not self.estimate_factor >= 1.0:
            raise ScenarioError(
                f"estimate_factor must be >= 1.0 (got {self.estimate_factor}); "
                "estimates are the run time times this factor"
            )
        if self.pod_timeout_s is not None and not self.pod_timeout_s > 0:
            raise ScenarioError(f"pod_timeout_s must be > 0 (got {self.pod_timeout_s})")
        if self.queues is not None and (self.admission != "gang" or self.queueing == "backfill"):
            raise ScenarioError(
                "ClusterQueues need gang admission and fifo or strict-fifo queueing (Kueue "
                "admits whole workloads and has no backfill)"
            )
        if self.enqueue_overcommit is not None and (
            self.queues is None or self.enqueue_overcommit < 1.0
        ):
            raise ScenarioError(
                "enqueue_overcommit needs queues and a factor >= 1.0 "
                f"(got {self.enqueue_overcommit})"
            )
        if self.burst_after_s is not None and self.burst_after_s < 0:
            raise ScenarioError(f"burst_after_s must be >= 0 (got {self.burst_after_s})")
        if self.termination_grace_s < 0:
            raise ScenarioError(
                f"termination_grace_s must be >= 0 (got {self.termination_grace_s})"
            )
        if self.backfill_depth < 1:
            raise ScenarioError(f"backfill_depth must be >= 1 (got {self.backfill_depth})")


def check_horizon(policy: Policy) -> None:
    """Refuse a horizon no replay should simulate: not finite, or past `MAX_SIMULATED_S`.
    The jobs' own times are checked as the replay first reads them (`span_error`)."""
    horizon = policy.horizon_s
    if horizon is not None and not 0 <= horizon <= MAX_SIMULATED_S:
        raise ScenarioError(
            f"horizon_s {horizon:g}: give a number of seconds from 0 to {MAX_SIMULATED_S:.0f} "
            "(100 years)"
        )


def span_error(job: Job) -> ScenarioError:
    """Why a replay refuses `job`, whose withdrawal is not within [0, `MAX_SIMULATED_S`] or
    whose duration is negative, or submit or end out of +-`MAX_SIMULATED_S` (or not finite)."""
    withdraw = job.withdraw_after_s
    if withdraw is not None and not 0 <= withdraw <= MAX_SIMULATED_S:
        return ScenarioError(
            f"job {job.job_id!r}: withdraw_after_s {withdraw:g}: give seconds from 0 to "
            f"{MAX_SIMULATED_S:.0f} (100 years)"
        )
    return ScenarioError(
        f"job {job.job_id!r}: submit_s {job.submit_s:g} and duration_s "
        f"{job.duration_s:g} end past the {MAX_SIMULATED_S:.0f} s (100 years) a replay "
        f"simulates; {_likely_cause(job)}"
    )


def _likely_cause(job: Job) -> str:
    """Which of the job's times is out of range, as a question the user can check."""
    if job.duration_s > MAX_SIMULATED_S / 2:
        return "was the duration given in milliseconds?"
    years = job.submit_s / (365 * 86_400.0)
    return (
        f"it is submitted {years:,.0f} years from the trace's first job: is its submit date "
        "mistyped (a year such as 9999 or 1900)?"
    )


def _one_of(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ScenarioError(f"unknown {name} '{value}'; choose one of {', '.join(allowed)}")
