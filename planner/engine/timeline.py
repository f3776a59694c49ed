"""The replay's timeline: piecewise-constant series folded into fixed-width bins.

Allocated GPUs per pool, GPUs held idle, queued jobs and GPUs are time-weighted means per
bin; idle GPUs no waiting job can use and the FGD measure are sampled when a bin opens. The
bins keep their count bounded (`MAX_BINS`) whatever the simulated span.
"""

from typing import TYPE_CHECKING

from planner.core.model import Job
from planner.engine.cluster import MILLI
from planner.engine.result import Timeline

if TYPE_CHECKING:
    from planner.engine.loop import Replay

TIMELINE_BINS = 400
MAX_BINS = 4 * TIMELINE_BINS
"""Past this many bins, pairs merge and the width doubles: memory and time stay bounded by
the number of events, whatever the simulated span (a job of 1e8 s, a far horizon)."""


def new_timeline(
    jobs: list[Job], arrive: list[float], pools: list[str], bin_s: float | None = None
) -> Timeline:
    """An empty timeline of bins `bin_s` wide; by default bins that cover the trace's
    arrivals (`arrive`, ascending, as the replay numbers the jobs) plus a typical run."""
    if bin_s is not None:
        if not bin_s > 0:
            raise ValueError(f"timeline bin width must be > 0 s (got {bin_s:g})")
        return Timeline(bin_s=bin_s, pools=pools)
    span = (arrive[-1] + _median_duration(jobs)) if jobs else 1.0
    return Timeline(bin_s=max(span / TIMELINE_BINS, 1.0), pools=pools)


class TimelineRecorder:
    """Folds piecewise-constant series into the timeline's fixed-width bins.

    Fragmentation is sampled when a bin opens, from the state that holds over the interval
    being integrated.
    """

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.width = timeline.bin_s  # kept here: compiled, an attribute of a Timeline is a lookup
        self.pools = len(timeline.pools)
        self.index = -1
        self.alloc = [0.0] * self.pools
        self.held = self.jobs = self.milli = 0.0

    def add(self, replay: "Replay", t0: float, t1: float) -> None:
        width = self.width
        index = int(t0 // width)
        if (index + 1) * width <= t0:  # float division rounded down past a boundary
            index += 1
        if index == self.index and t1 <= (index + 1) * width:
            # NOTE: the loop below, for the common interval inside the open bin, inlined
            dt = t1 - t0
            alloc = self.alloc
            for p, milli in enumerate(replay.alloc_by_pool):
                alloc[p] += milli * dt
            self.held += replay.held_milli * dt
            self.jobs += replay.queued_jobs * dt
            self.milli += replay.queued_milli * dt
            return
        sample: tuple[float, float] | None = None  # the state holds over [t0, t1)
        while t0 < t1:
            index = int(t0 // width)
            if (index + 1) * width <= t0:  # float division rounded down past a boundary
                index += 1
            if index != self.index:
                self.finish()
                if index >= MAX_BINS:
                    self.timeline.coarsen()
                    width = self.width = self.timeline.bin_s
                    continue
                sample = sample or _sample(replay)
                self._open(index, sample)
            stop = min(t1, (index + 1) * width)
            dt = stop - t0
            for p, milli in enumerate(replay.alloc_by_pool):
                self.alloc[p] += milli * dt
            self.held += replay.held_milli * dt
            self.jobs += replay.queued_jobs * dt
            self.milli += replay.queued_milli * dt
            t0 = stop

    def _open(self, index: int, sample: tuple[float, float]) -> None:
        self.index = index
        self.timeline.unusable_idle_gpus.append(sample[0])
        self.timeline.fgd_fragmented_gpus.append(sample[1])

    def finish(self) -> None:
        """Close the open bin (the last one may be partial; its means use the full width)."""
        if self.index < 0:
            return
        timeline = self.timeline
        scale = 1.0 / (timeline.bin_s * MILLI)
        timeline.allocated_gpus.append([a * scale for a in self.alloc])
        timeline.held_idle_gpus.append(self.held * scale)
        timeline.queued_jobs.append(self.jobs / timeline.bin_s)
        timeline.queued_gpus.append(self.milli * scale)
        self.alloc = [0.0] * self.pools
        self.held = self.jobs = self.milli = 0.0
        self.index = -1


def _sample(replay: "Replay") -> tuple[float, float]:
    """(idle GPUs no waiting job can use, FGD-fragmented GPUs) in the current state."""
    cluster = replay.cluster
    waiting = [(replay.shapes[s][0], replay.shapes[s][2]) for s in replay.queued_shapes]
    frag = cluster.fgd_fragmentation() if cluster.typical else 0
    return cluster.unusable_free_milli(waiting) / MILLI, frag / MILLI


def _median_duration(jobs: list[Job]) -> float:
    durations = sorted(job.duration_s for job in jobs[:: max(1, len(jobs) // 1000)])
    return durations[len(durations) // 2] if durations else 0.0
