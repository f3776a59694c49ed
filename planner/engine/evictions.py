"""Evictions: a running job loses its pods, its work since the last checkpoint, and requeues.

Used by Kueue preemption and by online services taking their GPUs back. Evicted pods hold
their GPUs for the termination grace; the job then waits again (booked to the eviction's
reason until it reruns). Evictions can undo all work forever (a livelock): the replay stops
when nothing has completed for a week (or twice the longest run) since the first eviction,
or after ten evictions per job.
"""

from typing import TYPE_CHECKING, Any

from planner.engine.colocation import HOUR_S
from planner.engine.events import TERMINATED
from planner.engine.hooks import Plugin
from planner.engine.states import TERMINATING
from planner.engine.waits import PREEMPTED

if TYPE_CHECKING:
    from planner.engine.loop import Replay

Segment = tuple[float, float, tuple[tuple[int, float], ...]]


class Evictions(Plugin):
    def __init__(self, replay: "Replay") -> None:
        super().__init__()
        self.replay = replay
        self.segments: dict[int, list[Segment]] = {}
        self.preempted_waiting: dict[int, int] = {}  # job -> reason of its eviction
        self.count = 0
        self.wasted_gpu_s = 0.0
        self.evicting_since: float | None = None  # first eviction since the last completion
        self.since_completion = 0
        self.livelock: dict[str, float] | None = None
        self.livelock_s = -1.0  # a week or twice the longest run: found at the first eviction

    def evict(self, j: int, reason: int = PREEMPTED, *, grace_s: float = 0.0) -> None:
        """Preempt a running job: it loses the work since its last checkpoint and requeues
        once its pods have terminated, `grace_s` later (they hold GPUs and quota till then)."""
        replay = self.replay
        if replay.on_evicted is not None:
            replay.on_evicted(j)
        replay.running.discard(j)
        replay.placed[j] = 0
        start = replay.start[j]
        assert start is not None
        now = replay.now
        ran = now - start
        if replay.work_done is not None:
            ran = replay.work_done(j, ran)
        policy = replay.policy
        interval = policy.checkpoint_interval_s
        kept = (ran // interval) * interval if interval else 0.0
        restart = policy.restart_overhead_s
        if replay.remaining_s is replay.run_s:
            replay.remaining_s = list(replay.run_s)
        replay.remaining_s[j] += restart - kept
        self.wasted_gpu_s += replay.jobs[j].total_gpus * (ran - kept + restart + grace_s)
        self.segments.setdefault(j, []).append((start, now, replay.placement_of(j)))
        self.count += 1
        self.since_completion += 1
        if self.evicting_since is None:
            self.evicting_since = now
        if self.livelock_s < 0:  # a pass over every job's run time, only once one is evicted
            self.livelock_s = max(7 * 24 * HOUR_S, 2 * max(replay.run_s, default=0.0))
        replay.start[j] = None
        self.preempted_waiting[j] = reason
        replay.reasons.open_override(j)
        if grace_s:
            replay.state[j] = TERMINATING
            replay.push(now + grace_s, TERMINATED, j)
        else:
            replay.terminated(j)

    def completed(self) -> None:
        """A job completed: evictions are no longer undoing all work. Called by the loop
        itself only while evictions are counted (not a `finished` hook: that was a Python
        call per job of every replay, issue 33)."""
        self.evicting_since = None
        self.since_completion = 0

    def livelocked(self) -> bool:
        """Evictions keep undoing all work: jobs have been evicted and nothing has completed
        for a week (or twice the longest run, if longer), or there have been ten evictions per
        job since anything completed. The replay stops there."""
        since = self.evicting_since
        if since is None:
            return False
        replay = self.replay
        churn = self.since_completion > 10 * len(replay.jobs) + 100
        if replay.now - since <= self.livelock_s and not churn:
            return False
        if self.livelock is None:
            self.livelock = {
                "since_s": since,
                "at_s": replay.now,
                "jobs_waiting": float(replay.queued_jobs),
                "jobs_running": float(len(replay.running)),
            }
        return True

    def finish_terminations(self, horizon: float | None) -> None:
        """A replay stopped for a livelock still lets the pods it evicted terminate (up to the
        horizon): their grace, counted as wasted at the eviction, is held and allocated too."""
        replay = self.replay
        limit = float("inf") if horizon is None else horizon
        events = replay.events.entries()
        pending = sorted((t, j) for t, kind, _, j in events if kind == TERMINATED and t <= limit)
        replay.events.replace([e for e in events if e[1] != TERMINATED or e[0] > limit])
        for t, j in pending:
            replay.advance(t)
            replay.terminated(j)

    def clip_terminations(self, end: float) -> None:
        """Pods still terminating at the horizon: the grace after it is outside the replay,
        neither allocated nor wasted."""
        replay = self.replay
        for t, kind, _, j in replay.events.entries():
            if kind == TERMINATED and t > end:
                self.wasted_gpu_s -= replay.jobs[j].total_gpus * (t - end)

    def report(self, end: float) -> dict[str, Any]:
        return {
            "segments": self.segments,
            "livelock": self.livelock,
            "preemptions": self.count,
            "wasted_gpu_s": self.wasted_gpu_s,
        }
