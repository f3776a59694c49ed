"""Start latency: the time a job spends between its submission and entering the scheduler's
queue (admission, the scheduling cycle and its retries while the rest of the cluster is busy).

A real cluster starts even an uncontended pod seconds to minutes after it was created; an
idle replay starts it at once. `planner.twin` fits this latency from a history's observed
starts, per pod-size class (a busy cluster has room for small pods sooner than for big
ones), as an empirical distribution: `quantiles[label]` holds the latency at equally spaced
probabilities from 0 to 1. Each job draws its own probability from a hash of its id and the
seed, so a replay stays deterministic and a job keeps its latency in every what-if.
"""

import hashlib
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from planner.core.model import Job

_HASH_SPAN = float(1 << 64)


@dataclass(frozen=True, slots=True)
class SizeClasses:
    """Pod-size classes: GPUs per pod (CPU-only, shares of one GPU split at
    `share_split`, one GPU, more) crossed with memory bands split at `mem_edges_gib`."""

    share_split: float = 0.5
    mem_edges_gib: tuple[float, ...] = ()

    def gpu_band(self, gpus: float) -> str:
        if gpus <= 0:
            return "cpu"
        if gpus < 1:
            return "share-small" if gpus < self.share_split else "share-large"
        return "gpu1" if gpus == 1 else "gpus>1"

    def mem_band(self, mem_gib: float) -> int:
        return bisect_right(self.mem_edges_gib, mem_gib)

    def label(self, job: Job) -> str:
        return f"{self.gpu_band(job.gpus)}/mem{self.mem_band(job.mem_gib)}"

    def describe(self, label: str) -> str:
        """`share-small/mem1` -> words a manager reads."""
        gpu, _, mem = label.partition("/")
        gpu_words = {
            "cpu": "CPU-only",
            "share-small": f"under {self.share_split:g} of a GPU",
            "share-large": f"{self.share_split:g} to 1 of a GPU",
            "gpu1": "1 GPU",
            "gpus>1": "more than 1 GPU",
        }.get(gpu, gpu)
        if not mem:
            return f"{gpu_words} per pod"
        band = int(mem.removeprefix("mem"))
        edges = self.mem_edges_gib
        if not edges:
            return f"{gpu_words} per pod"
        if band == 0:
            return f"{gpu_words} per pod, memory under {edges[0]:g} GiB"
        if band >= len(edges):
            return f"{gpu_words} per pod, memory {edges[-1]:g} GiB and more"
        return f"{gpu_words} per pod, memory {edges[band - 1]:g}-{edges[band]:g} GiB"


@dataclass(frozen=True, slots=True)
class StartLatency:
    """Fitted start latency; `latency_s(job)` is what the replay adds before queueing."""

    classes: SizeClasses
    quantiles: Mapping[str, tuple[float, ...]]
    """Class label (or a GPU band alone, for small classes) -> latency in seconds at
    probabilities 0, 1/(k-1), ..., 1."""
    fallback: tuple[float, ...]
    """Every job's latency distribution, for a class the fit did not see."""
    seed: int = 0
    fixed_s: float | None = None
    """A single latency for every job (a floor given by hand), instead of the tables."""
    per_job: Mapping[str, float] = field(default_factory=dict)
    """Job id -> latency, ahead of the tables: the twin check's draws of jobs that never
    got room on the history's cluster (never written to scenario files)."""

    def __post_init__(self) -> None:
        for name, table in {"fallback": self.fallback, **self.quantiles}.items():
            if not table or any(b < a for a, b in pairwise(table)):
                raise ValueError(f"start latency {name}: quantiles must be non-empty, ascending")
            if table[0] < 0:
                raise ValueError(f"start latency {name}: latencies must be >= 0 s")

    def table_for(self, job: Job) -> tuple[float, ...]:
        label = self.classes.label(job)
        table = self.quantiles.get(label)
        if table is None:
            table = self.quantiles.get(label.partition("/")[0], self.fallback)
        return table

    def latency_s(self, job: Job) -> float:
        if self.per_job:
            own = self.per_job.get(job.job_id)
            if own is not None:
                return own
        if self.fixed_s is not None:
            return self.fixed_s
        return quantile_at(self.table_for(job), draw(job.job_id, self.seed))


def draw(job_id: str, seed: int, salt: str = "latency") -> float:
    """A job's own uniform number in [0, 1): the same for the same id, seed and salt."""
    digest = hashlib.blake2b(f"{seed}:{salt}:{job_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / _HASH_SPAN


def quantile_at(table: tuple[float, ...], u: float) -> float:
    """Linear interpolation in equally spaced quantiles (0..1) at probability `u`."""
    if len(table) == 1:
        return table[0]
    pos = u * (len(table) - 1)
    low = int(pos)
    if low >= len(table) - 1:
        return table[-1]
    return table[low] + (table[low + 1] - table[low]) * (pos - low)
