"""Colocation (Koordinator model): online services reserve GPUs by hour of day.

Batch training uses what online services leave. At every hour the online reservation is
re-applied: when it grows and no GPU is free, batch jobs are evicted (lowest priority, most
recently started first), which counts as a preemption; when it shrinks, GPUs return to
batch. A simplification of Koordinator's overcommit rules: the online demand is a fixed
daily curve of whole GPUs (a services trace can be reduced to one), not live usage.
"""

from dataclasses import dataclass

HOUR_S = 3600.0


@dataclass(frozen=True, slots=True)
class Colocation:
    online_gpus_by_hour: tuple[int, ...]
    """24 values: GPUs online services hold during each hour of the day (trace hours)."""
    gpu_types: tuple[str, ...] = ()
    """GPU types whose nodes host online services; empty: any."""

    def __post_init__(self) -> None:
        if len(self.online_gpus_by_hour) != 24 or min(self.online_gpus_by_hour) < 0:
            raise ValueError("online_gpus_by_hour needs 24 values >= 0, one per hour of the day")

    def online_at(self, t_s: float) -> int:
        return self.online_gpus_by_hour[int(t_s // HOUR_S) % 24]
