"""Hybrid burst: a job still waiting `Policy.burst_after_s` after its submission runs in the
cloud instead, and a job that can never run on premises goes there when submitted.

Present only with `burst_after_s`. A burst job ends `burst`; its run time is its own (an
observed withdrawal's ends at its deadline, when its user deleted it).
"""

from typing import TYPE_CHECKING

from planner.engine.events import BURST
from planner.engine.hooks import Plugin
from planner.engine.states import WAITING, State

if TYPE_CHECKING:
    from planner.engine.loop import Replay


class Burst(Plugin):
    def __init__(self, replay: "Replay", after_s: float) -> None:
        super().__init__()
        self.replay = replay
        self.after_s = after_s
        self.events = {BURST: self._due}
        self.stale = {BURST: self._stale}

    def enqueued(self, i: int, requeue: bool) -> None:
        if not requeue:
            self.replay.push(self.replay.jobs[i].submit_s + self.after_s, BURST, i)

    def may_burst(self, i: int) -> bool:
        replay = self.replay
        return (
            replay.state[i] == WAITING
            and not replay.placed[i]
            and i not in replay.evictions.preempted_waiting
        )

    def _stale(self, i: int) -> bool:
        return not self.may_burst(i)

    def _due(self, i: int) -> None:
        """It waited longer than the burst threshold, so it runs in the cloud now."""
        if not self.may_burst(i):
            return
        replay = self.replay
        replay.reasons.leave(i)
        replay.dequeue(i)
        if replay.on_bursted is not None:
            replay.on_bursted(i)
        replay.state[i] = State.BURST
        now = replay.start[i] = replay.now
        end = now + replay.remaining_s[i]
        deadline = replay.deadline[i]
        if deadline is not None and replay.jobs[i].status == "withdrawn":
            end = min(end, max(deadline, now))  # deleted by its user at the deadline
        replay.end[i] = end
        replay.freed = replay.dirty = True  # the queue changed: backfill re-plans its pivot

    def send_away(self, i: int) -> None:
        """A job that can never run on premises goes to the cloud when submitted."""
        replay = self.replay
        job = replay.jobs[i]
        replay.state[i] = State.BURST
        run = job.withdraw_after_s if job.status == "withdrawn" else None
        replay.start[i] = job.submit_s
        replay.end[i] = job.submit_s + (job.duration_s if run is None else run)
