"""The cloud as an elastic Kubernetes node pool, replayed in simulated time.

Every pod of a job is pending from the job's submit time. Pending pods go onto instances
with room (best fit, `planner.cost.node_pool_room`); a pod that fits none makes the pool
launch an instance, which is ready `provisioning_s` later. A job with several pods is a gang:
it is placed all or nothing, and starts when every instance its pods are on is ready. When it
ends its GPUs are free again; an on-demand instance that has held no pod for `scale_down_s`
is released. Committed instances are up from the first submit to the last end and never
released. With `max_instances`, no launch goes past the cap (committed included): pods wait
for room, and how long is kept per job.

Which instance type is launched: the cheapest per hour among those large enough for the pod
(ties: the larger one). For a gang, the pods still unplaced are launched for together: the
type whose instances for all of them cost least per hour (the same rule for one pod), among
those whose count still fits under the cap. That is Karpenter's bin-packing of a batch of
pending pods, and it keeps a feasible gang from being split into more instances than the cap
allows.

Simplifications, on purpose: a pod holds whole GPUs (a fraction takes one; MIG and
time-slicing are not modelled); a pod stays on the booting instance it was placed on even if
room frees elsewhere before it is ready; running pods are never moved (no Karpenter
consolidation of under-used instances, only of empty ones); cluster-autoscaler's
`scale-down-delay-after-add` is not modelled. Waiting jobs are offered room in submit order,
but a gang that does not fit is passed over by smaller jobs behind it (kube-scheduler's
behaviour without a queueing controller).

The loop applies all events of an instant (ends, then instances becoming ready, then
submits), offers room to waiting jobs once, then releases the instances whose scale-down
delay ran out (so a pod arriving at that instant reuses the instance), and offers room again
if a release freed a place under the cap. Cost: O((jobs + instances) log events) for the
heap, plus O(largest instance size) per pod placed; waiting jobs are kept in one FIFO per
pod size, and a pass stops trying a size once a single pod of that size found no room, so a
deep backlog under a cap is not rescanned at every event (gangs that do not fit are tried
once per pass).
"""

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from heapq import heapify, heappop, heappush

from planner.cost.cloud import CloudJob, spot_extra_s
from planner.cost.node_pool_plan import (
    InstanceRun,
    PoolPlan,
    PoolRun,
    instance_gpus,
    unrunnable,
    whole_gpus,
)
from planner.cost.node_pool_room import RoomIndex

FINISH, READY, SUBMIT, IDLE = 0, 1, 2, 3
"""Event kinds, in the order they apply within one instant (ends free GPUs first)."""
NEVER_PLACED = "never found room in the node pool (the instance cap)"
_NAN = math.nan


@dataclass(slots=True)
class _Instance:
    type: int
    launched_s: float
    ready_s: float
    committed: bool = False
    pods: int = 0
    idle_s: float = 0.0
    released_s: float | None = None
    void: bool = False
    """Launched for a gang that then did not fit: never existed."""
    waiting: list[int] = field(default_factory=list)
    """Jobs with a pod on it, waiting for it to be ready."""


def simulate_pool(jobs: Sequence[CloudJob], plan: PoolPlan) -> PoolRun:
    """Replay `jobs` on the node pool `plan` describes."""
    return _Pool(jobs, plan).run()


class _Pool:
    def __init__(self, jobs: Sequence[CloudJob], plan: PoolPlan) -> None:
        self._jobs, self._plan = jobs, plan
        self._caps = [instance_gpus(t) for t in plan.types]
        self._room = RoomIndex(max(self._caps, default=0))
        self._launch_types = [t for t in range(plan.launchable) if self._caps[t] > 0]
        self._inst: list[_Instance] = []
        self._up = self._peak = 0
        n = len(jobs)
        self._need = [whole_gpus(j.gpus) for j in jobs]
        self._on: list[list[int]] = [[] for _ in range(n)]
        self._reserved, self._start, self._end = [_NAN] * n, [_NAN] * n, [_NAN] * n
        self._rerun = [0.0] * n
        self._left = [0] * n  # booting instances each job still waits for
        self._rank, self._arrived = [0] * n, 0
        self._pending = 0  # jobs in `_waiting`
        self._waiting: dict[int, deque[int]] = {}
        self._unrunnable = unrunnable(jobs, self._need, plan, self._caps)
        self._events: list[tuple[float, int, int, int]] = [
            (j.submit_s, SUBMIT, k, k) for k, j in enumerate(jobs) if k not in self._unrunnable
        ]
        heapify(self._events)
        self._seq = n
        self._first = min((e[0] for e in self._events), default=0.0)
        self._add_committed()

    def run(self) -> PoolRun:
        while self._events:
            now = self._events[0][0]
            idle: list[int] = []
            while self._events and self._events[0][0] == now:
                _, kind, _, ident = heappop(self._events)
                if kind == FINISH:
                    self._finish(ident, now)
                elif kind == READY:
                    self._ready(ident, now)
                elif kind == SUBMIT:
                    self._submit(ident)
                else:
                    idle.append(ident)
            if self._pending:
                self._place(now)
            if self._release_idle(idle, now) and self._pending:
                self._place(now)
        return self._result()

    def _add_committed(self) -> None:
        plan = self._plan
        for k, count in enumerate(plan.committed):
            t = plan.launchable + k
            for _ in range(count):
                self._room.add(self._caps[t], ready=True)
                self._inst.append(_Instance(t, self._first, self._first, committed=True))
        self._up = self._peak = len(self._inst)

    def _submit(self, j: int) -> None:
        self._rank[j] = self._arrived  # waiting jobs are offered room in this order
        self._arrived += 1
        self._pending += 1
        self._waiting.setdefault(self._need[j], deque()).append(j)

    def _push(self, time_s: float, kind: int, ident: int) -> None:
        self._seq += 1
        heappush(self._events, (time_s, kind, self._seq, ident))

    def _place(self, now: float) -> None:
        """Offer room to waiting jobs, oldest first across pod sizes."""
        blocked: list[int] = []
        too_big = math.inf  # pods this size or larger found no room in this pass
        heads = [(self._rank[q[0]], need) for need, q in self._waiting.items() if q]
        heapify(heads)
        while heads:
            _, need = heappop(heads)
            if need >= too_big:
                continue
            queue = self._waiting[need]
            j = queue[0]
            if self._try_place(j, now):
                queue.popleft()
                self._pending -= 1
            elif self._jobs[j].pods == 1:
                too_big = need
                continue
            else:
                blocked.append(queue.popleft())
            if queue:
                heappush(heads, (self._rank[queue[0]], need))
        for j in reversed(blocked):  # back at the head of their queues, in order
            self._waiting[self._need[j]].appendleft(j)

    def _try_place(self, j: int, now: float) -> bool:
        """Place every pod of job `j` (launching instances as needed) or none."""
        need, pods = self._need[j], self._jobs[j].pods
        placed: list[int] = []
        launched: list[int] = []
        for k in range(pods):
            i = self._room.best_fit(need)
            if i is None:
                i = self._launch(need, pods - k, now)
                if i is None:
                    self._undo(need, placed, launched)
                    return False
                launched.append(i)
            self._room.take(i, need)
            self._inst[i].pods += 1
            placed.append(i)
        self._reserve(j, placed, launched, now)
        return True

    def _launch(self, need: int, pods: int, now: float) -> int | None:
        """Launch the type that holds `pods` pods of `need` GPUs for the least per hour."""
        plan = self._plan
        slots = math.inf if plan.max_instances is None else plan.max_instances - self._up
        t = self._cheapest(need, pods, slots)
        if t is None:
            return None
        ready = plan.provisioning_s <= 0
        i = self._room.add(self._caps[t], ready=ready)
        self._inst.append(_Instance(t, now, now + plan.provisioning_s))
        self._up += 1
        return i

    def _cheapest(self, need: int, pods: int, slots: float) -> int | None:
        """The type whose instances for `pods` pods cost least per hour (ties: the larger
        instance, then the first listed), among those needing at most `slots` instances."""
        best: tuple[float, int, int] | None = None
        for t in self._launch_types:
            if self._caps[t] < need:
                continue
            count = math.ceil(pods / (self._caps[t] // need))
            key = (count * self._plan.types[t].price_per_hour, -self._caps[t], t)
            if count <= slots and (best is None or key < best):
                best = key
        return None if best is None else best[2]

    def _undo(self, need: int, placed: list[int], launched: list[int]) -> None:
        for i in placed:
            self._room.give(i, need)
            self._inst[i].pods -= 1
        for i in launched:
            self._room.remove(i)
            self._inst[i].void = True
            self._up -= 1

    def _reserve(self, j: int, placed: list[int], launched: list[int], now: float) -> None:
        self._on[j] = placed
        self._reserved[j] = now
        self._peak = max(self._peak, self._up)
        for i in launched:
            if not self._room.is_ready(i):
                self._push(self._inst[i].ready_s, READY, i)
        booting = {i for i in placed if not self._room.is_ready(i)}
        if not booting:
            self._start_job(j, now)
            return
        self._left[j] = len(booting)
        for i in booting:
            self._inst[i].waiting.append(j)

    def _ready(self, i: int, now: float) -> None:
        self._room.set_ready(i)
        instance = self._inst[i]
        for j in instance.waiting:
            self._left[j] -= 1
            if not self._left[j]:
                self._start_job(j, now)
        instance.waiting = []

    def _start_job(self, j: int, now: float) -> None:
        """Run job `j` from `now`; a gang ends with its slowest pod (SKU speed differs). On
        spot, a job with a pod on a launched instance runs longer by the work interruptions
        lose (`cloud.spot_extra_s`, the per-job rule); committed instances are never
        interrupted."""
        job, plan = self._jobs[j], self._plan
        on = [self._inst[i] for i in self._on[j]]
        run_s = max(
            job.run_s / plan.speed.get((plan.types[t].gpu_model, job.gpu_model), 1.0)
            for t in {s.type for s in on}
        )
        if plan.spot is not None and not all(s.committed for s in on):
            self._rerun[j] = spot_extra_s(run_s + plan.startup_s, plan.spot)
        self._start[j] = now
        self._push(now + run_s + plan.startup_s + self._rerun[j], FINISH, j)

    def _finish(self, j: int, now: float) -> None:
        self._end[j] = now
        need = self._need[j]
        for i in self._on[j]:
            self._room.give(i, need)
            instance = self._inst[i]
            instance.pods -= 1
            if not instance.pods and not instance.committed:
                instance.idle_s = now
                self._push(now + self._plan.scale_down_s, IDLE, i)

    def _release_idle(self, idle: list[int], now: float) -> bool:
        """Release the instances still empty since their scale-down delay began."""
        released = False
        for i in idle:
            instance = self._inst[i]
            empty = instance.released_s is None and not instance.pods
            if empty and now >= instance.idle_s + self._plan.scale_down_s:
                instance.released_s = now
                self._room.remove(i)
                self._up -= 1
                released = True
        return released

    def _result(self) -> PoolRun:
        for queue in self._waiting.values():
            self._unrunnable.update((j, NEVER_PLACED) for j in queue)
        last = max((e for e in self._end if not math.isnan(e)), default=self._first)
        kept = [i for i, s in enumerate(self._inst) if not s.void]
        instances = tuple(
            InstanceRun(
                s.type,
                s.launched_s,
                s.released_s if s.released_s is not None else last,
                s.committed,
            )
            for s in (self._inst[i] for i in kept)
        )
        # pods name instances as `instances` numbers them (a void one, launched for a gang
        # that did not fit after all, is left out)
        number = {i: k for k, i in enumerate(kept)}
        return PoolRun(
            instances,
            tuple(self._need),
            tuple(tuple(number[i] for i in on) for on in self._on),
            tuple(self._reserved),
            tuple(self._start),
            tuple(self._end),
            dict(sorted(self._unrunnable.items())),
            self._peak,
            tuple(self._rerun) if self._plan.spot is not None else (),
        )
