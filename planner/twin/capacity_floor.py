"""The least capacity a twin may fit: what the history itself held at once, per pool.

A cluster that ran N GPUs of jobs at one moment had at least N GPUs for them, so an
effective capacity below the history's peak concurrent use contradicts the history (and a
replay on it queues where nothing queued). The peak is taken over the whole history, the
held-back window included: it is a bound the history proves, not a fitted figure.

A pool is a GPU type (the engine's `NodeClass.pool`): jobs that name exactly one GPU type
count towards its pool's peak; every GPU job counts towards the whole cluster's.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.twin.compare import Outcome

ALL = ""
"""The key of the whole cluster's peak in `Peaks.gpus`."""
_BISECTIONS = 40


@dataclass(frozen=True, slots=True)
class Peaks:
    gpus: dict[str, float]
    """Pool (upper-case GPU type, or `ALL`) -> the most GPUs its jobs held at once."""

    def met_by(self, nodes: Iterable[NodeSpec]) -> bool:
        """Whether `nodes` hold every pool's peak and the whole peak."""
        held: dict[str, float] = {ALL: 0.0}
        for node in nodes:
            held[ALL] += node.gpus
            pool = node.gpu_type.upper()
            held[pool] = held.get(pool, 0.0) + node.gpus
        return all(held.get(pool, 0.0) >= peak for pool, peak in self.gpus.items())


def observed_peaks(jobs: Sequence[Job], observed: Mapping[str, Outcome]) -> Peaks:
    """The most GPUs the history's jobs held at once, by pool and in all (starts and ends
    at one instant: ends first)."""
    events: dict[str, list[tuple[float, float]]] = {ALL: []}
    for job in jobs:
        out = observed[job.job_id]
        if out.start_s is None or out.end_s is None or not job.total_gpus:
            continue
        pools = [ALL]
        if len(job.gpu_types) == 1:
            pools.append(job.gpu_types[0].upper())
        for pool in pools:
            events.setdefault(pool, []).extend(
                ((out.start_s, job.total_gpus), (out.end_s, -job.total_gpus))
            )
    return Peaks({pool: _peak(changes) for pool, changes in events.items()})


def _peak(changes: list[tuple[float, float]]) -> float:
    level = peak = 0.0
    for _, change in sorted(changes):
        level += change
        peak = max(peak, level)
    return peak


def floor_share(
    nodes: Sequence[NodeSpec],
    peaks: Peaks,
    cut: Callable[[Sequence[NodeSpec], float], list[NodeSpec]],
) -> float:
    """The least share of the node list whose cut (`cut(nodes, share)`, the same for every
    trial) holds the peaks of the pools it has; 1.0 when even the whole list does not (a node
    list smaller than what the history ran: the whole list is all there is)."""
    installed = {node.gpu_type.upper() for node in nodes}
    peaks = Peaks({p: g for p, g in peaks.gpus.items() if p == ALL or p in installed})
    if not peaks.met_by(cut(nodes, 1.0)):
        return 1.0
    low, high = 0.0, 1.0  # a cut grows with the share, so bisect for its least good value
    for _ in range(_BISECTIONS):
        middle = (low + high) / 2
        if peaks.met_by(cut(nodes, middle)):
            high = middle
        else:
            low = middle
    return high
