"""Pod-by-pod admission (default kube-scheduler): pods are placed one at a time as room appears.

Present with `Policy.admission == "pod"`; then it is the replay's queueing. A partly placed
job holds its GPUs idle until its last pod lands. With `pod_timeout_s` (Kueue's
waitForPodsReady) a job not complete in time releases its pods and requeues after an
exponential backoff with jitter; past `backoff_limit` requeues it is deactivated.
"""

from typing import TYPE_CHECKING

from planner.engine.cluster import Allowed, PodShape
from planner.engine.events import REQUEUE, TIMEOUT
from planner.engine.hooks import Plugin
from planner.engine.shapes import never_fits
from planner.engine.states import BACKING_OFF, WAITING
from planner.engine.waits import BACKOFF, PARTIAL_GANG

if TYPE_CHECKING:
    from planner.engine.loop import Replay

Failed = set[tuple[PodShape, Allowed]]


class PodAdmission(Plugin):
    def __init__(self, replay: "Replay") -> None:
        super().__init__()
        self.replay = replay
        self.strict = replay.policy.queueing == "strict-fifo"
        self.attempts = [0] * len(replay.jobs)
        self.events = {TIMEOUT: self._timeout, REQUEUE: self._requeue}

    # --- Queueing --------------------------------------------------------------------------

    def starts_arrivals(self, count: int) -> bool:
        return False  # pods of jobs arriving together interleave

    def never_runs(self, sid: int) -> str:
        return never_fits(self.replay.cluster, self.replay.shapes[sid])

    def try_start(self, i: int, *, queued: bool = True) -> bool:
        """Pods are placed one at a time by `allocate`: a job never starts in one step."""
        del i, queued
        return False

    def allocate(self, arrivals: list[int], full: bool) -> None:
        """kube-scheduler: one pod at a time in queue order; pods of jobs entering the queue
        at the same instant interleave (their creation times do), which is how two jobs can
        each end up holding part of what both need."""
        replay = self.replay
        failed: Failed = set()
        if self.strict:
            while replay.order:
                group = self._head_group()
                if not self._place_round_robin(group, failed, strict=True):
                    return
            return
        if full:
            waiting = sorted(i for sid in replay.queued_shapes for i in replay.queues[sid])
        else:
            waiting = [i for i in arrivals if replay.state[i] == WAITING]
        arrive = replay.arrive
        start = 0
        while start < len(waiting):
            stop = start + 1
            while stop < len(waiting) and arrive[waiting[stop]] == arrive[waiting[start]]:
                stop += 1
            self._place_round_robin(waiting[start:stop], failed, strict=False)
            start = stop

    def _head_group(self) -> list[int]:
        """The strict-FIFO head and the jobs that entered the queue at the same instant."""
        replay = self.replay
        arrive = replay.arrive
        head = arrive[replay.order[0]]
        group: list[int] = []
        for i in replay.order:
            if arrive[i] != head:
                break
            group.append(i)
        return group

    def _place_round_robin(self, group: list[int], failed: Failed, *, strict: bool) -> bool:
        """Place the group's pods round-robin; False if strict FIFO is blocked by a pod."""
        replay = self.replay
        remaining = group
        while remaining:
            again: list[int] = []
            for i in remaining:
                pod, _, allowed = replay.shapes[replay.shape_of[i]]
                if (pod, allowed) in failed or not self._place_pod(i):
                    failed.add((pod, allowed))
                    if strict:
                        return False
                elif replay.state[i] == WAITING:
                    again.append(i)
            remaining = again
        return True

    def _place_pod(self, i: int) -> bool:
        """Place one more pod of `i`; start the job when its last pod lands."""
        replay = self.replay
        pod, _, allowed = replay.shapes[replay.shape_of[i]]
        plan = replay.cluster.plan(pod, 1, allowed)
        if plan is None:
            return False
        if replay.placed[i] == 0:
            replay.allocs[i] = []  # it held nothing: a list of its own, not the shared empty one
            replay.reasons.leave(i)
            replay.reasons.open_override(i)
            timeout = replay.policy.pod_timeout_s
            if timeout is not None:
                replay.push(replay.now + timeout, TIMEOUT, i)
        replay.allocs[i].append(replay.cluster.allocate(plan[0][0], pod, 1))
        replay.placed[i] += 1
        replay.held_milli += pod.milli * pod.gpus
        replay.dirty = True
        if replay.placed[i] == replay.jobs[i].pods:
            replay.held_milli -= pod.milli * pod.gpus * replay.placed[i]
            replay.reasons.close_override(i, PARTIAL_GANG)
            replay.begin_running(i)
        return True

    # --- timeouts and backoff ----------------------------------------------------------------

    def _timeout(self, i: int) -> None:
        replay = self.replay
        if not (replay.state[i] == WAITING and 0 < replay.placed[i] < replay.jobs[i].pods):
            return
        self._drop_partial(i)
        replay.dequeue(i)
        replay.state[i] = BACKING_OFF
        replay.reasons.open_override(i)
        self.attempts[i] += 1
        replay.freed = replay.dirty = True
        policy = replay.policy
        if self.attempts[i] > policy.backoff_limit:
            return  # deactivated, as Kueue's backoffLimitCount does; it stays unfinished
        exponent = min(self.attempts[i] - 1, 30)
        delay = min(policy.backoff_base_s * 2**exponent, policy.backoff_max_s)
        # jitter, as client-go's backoff has: two jobs released together do not collide forever
        delay *= 1.0 + 0.1 * replay.cluster.rng.random()
        replay.push(replay.now + delay, REQUEUE, i)

    def _requeue(self, i: int) -> None:
        replay = self.replay
        if replay.state[i] == BACKING_OFF:
            replay.reasons.close_override(i, BACKOFF)
            replay.enqueue(i, requeue=True)
            replay.freed = True  # a full pass: the requeued job is offered what is free now

    def _drop_partial(self, i: int) -> None:
        """Release the pods a partly placed job holds."""
        replay = self.replay
        pod = replay.shapes[replay.shape_of[i]][0]
        replay.reasons.close_override(i, PARTIAL_GANG)
        for alloc in replay.allocs[i]:
            replay.cluster.release(alloc, pod)
        replay.held_milli -= pod.milli * pod.gpus * replay.placed[i]
        replay.allocs[i] = []
        replay.placed[i] = 0

    def withdrawn(self, i: int) -> None:
        if self.replay.placed[i]:
            self._drop_partial(i)
