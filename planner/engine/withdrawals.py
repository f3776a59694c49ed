"""Withdrawals: a job with `withdraw_after_s` leaves the queue at its deadline if it has not
started by then; an observed withdrawal that did start is deleted at it.

See the `planner.engine.loop` docstring and docs/status-mapping.md for the semantics.
"""

from typing import TYPE_CHECKING

from planner.engine.events import WITHDRAW
from planner.engine.hooks import Plugin
from planner.engine.states import BACKING_OFF, PENDING, RUNNING, SETTLED, WAITING, WITHDRAWN
from planner.engine.waits import BACKOFF

if TYPE_CHECKING:
    from planner.engine.loop import Replay


class Withdrawals(Plugin):
    def __init__(self, replay: "Replay") -> None:
        super().__init__()
        self.replay = replay
        self.events = {WITHDRAW: self._due}
        self.stale = {WITHDRAW: self._stale}

    def begin(self) -> None:
        """One withdrawal event per job with a deadline (after unschedulable ones settled)."""
        replay = self.replay
        for i, deadline in enumerate(replay.deadline):
            if deadline is not None and replay.state[i] == PENDING:
                replay.push(deadline, WITHDRAW, i)

    def _stale(self, i: int) -> bool:
        replay = self.replay
        state = replay.state[i]
        return state in SETTLED or (state == RUNNING and replay.jobs[i].status != "withdrawn")

    def _due(self, i: int) -> None:
        """The job's deadline: if it has not started, it leaves the queue; an observed
        withdrawal that runs is deleted now."""
        replay = self.replay
        state = replay.state[i]
        if state == RUNNING:
            if replay.jobs[i].status == "withdrawn":
                replay.finish(i)
            return
        if state == WAITING:
            if replay.on_withdrawn is not None:
                replay.on_withdrawn(i)  # partial gangs release their pods, gates forget it
            replay.reasons.leave(i)
            preempted = replay.evictions.preempted_waiting
            if i in preempted:
                replay.reasons.close_override(i, preempted.pop(i))
            replay.dequeue(i)
        elif state == BACKING_OFF:
            replay.reasons.close_override(i, BACKOFF)
        elif state != PENDING:
            return  # settled, or terminating: `terminated` withdraws it
        replay.state[i] = WITHDRAWN
        replay.end[i] = replay.now
        replay.freed = replay.dirty = True
