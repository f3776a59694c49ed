"""Canonical, plain data the replay engine works on: jobs and their statuses.

Frozen slotted dataclasses, no pydantic and no pandas: these are built once per job when a
trace is loaded and then only read. All times are seconds since the trace start.
"""

from dataclasses import dataclass
from typing import Literal

JobStatus = Literal["completed", "failed", "cancelled", "running-at-end", "withdrawn"]
"""A job's observed outcome in the export. `running-at-end`: still running when the history
was exported (censored on the right). `withdrawn`: created, never scheduled, deleted while
it waited (or still waiting at the export); it did no work. docs/status-mapping.md maps
each format's states onto these."""
JOB_STATUSES: tuple[JobStatus, ...] = (
    "completed",
    "failed",
    "cancelled",
    "running-at-end",
    "withdrawn",
)
USEFUL_EXCLUDABLE: tuple[JobStatus, ...] = ("failed", "cancelled")
"""Observed statuses a user may leave out of useful work (`is_useful(exclude_failed=True)`)."""

# GPU-count classes used by reports: (label, lowest, highest) on a job's total GPUs.
GPU_SIZE_CLASSES: tuple[tuple[str, float, float], ...] = (
    ("0", 0.0, 0.0),
    ("<1", 1e-9, 1.0 - 1e-9),
    ("1", 1.0, 1.0),
    ("2-7", 1.0 + 1e-9, 7.0),
    ("8", 7.0 + 1e-9, 8.0),
    ("9-64", 8.0 + 1e-9, 64.0),
    (">64", 64.0 + 1e-9, float("inf")),
)


def gpu_size_class(total_gpus: float) -> str:
    """Label of the size class of a job asking for `total_gpus` GPUs in all."""
    for label, low, high in GPU_SIZE_CLASSES:
        if low <= total_gpus <= high:
            return label
    raise ValueError(f"negative GPU count {total_gpus}")


@dataclass(frozen=True, slots=True)
class Job:
    """One job of a trace; a multi-pod job's pods must start together.

    `gpus`, `cpu` and `mem_gib` are per pod; `gpus` may be fractional (0.46 = 460 milli-GPU
    on one shared GPU). `gpu_types` empty means any GPU type will do.
    """

    job_id: str
    submit_s: float
    duration_s: float
    pods: int = 1
    gpus: float = 1.0
    cpu: float = 0.0
    mem_gib: float = 0.0
    gpu_types: tuple[str, ...] = ()
    queue: str = "default"
    user: str = ""
    priority: int = 0
    status: JobStatus = "completed"
    start_s: float | None = None
    end_s: float | None = None
    withdraw_after_s: float | None = None
    """Observed pending lifetime: the replay withdraws the job if it has not started by
    `submit_s + withdraw_after_s` (None: the job waits as long as it takes)."""
    running_at_start: bool = False
    """Censored on the left: already running when the export's window opened, so its submit
    and start are the window start and its run time is what the window saw."""

    @property
    def total_gpus(self) -> float:
        return self.pods * self.gpus

    @property
    def gpu_hours(self) -> float:
        return self.total_gpus * self.duration_s / 3600.0


def is_useful(job: Job, *, exclude_failed: bool = False) -> bool:
    """Whether the job's work counts as useful: every job that ran (not withdrawn), less
    failed and cancelled ones when `exclude_failed` is on. One definition for the replay's
    completed GPU-hours and the TCO's useful GPU-hours."""
    if job.status == "withdrawn":
        return False
    return not (exclude_failed and job.status in USEFUL_EXCLUDABLE)
