"""Kueue admission: ClusterQueues with quotas per flavor, cohorts, budgets and preemption.

Present only when the policy has queues (`Policy.queues`); then it is the replay's queueing
(the allocate action) and a plugin that charges and returns quota as jobs start and end.
Admission cycles: one head per ClusterQueue (by priority, then submit order), heads that
would not borrow before those that would, then by priority and age. A StrictFIFO queue
whose head cannot be admitted admits nothing else in the pass; a BestEffortFIFO queue moves
on. Admission is placement-checked (as with topology-aware scheduling). Preemption is in
`planner.engine.kueue_preemption`, borrowing and budget accounting in
`planner.engine.kueue_usage`, Volcano's enqueue gate in `planner.engine.enqueue`.
"""

import heapq
from typing import TYPE_CHECKING, Any

from planner.engine.cluster import MILLI, Allowed, PodShape
from planner.engine.enqueue import EnqueueGate
from planner.engine.hooks import Plugin
from planner.engine.kueue_preemption import Preemption
from planner.engine.kueue_usage import QueueUsage
from planner.engine.quota import QueueSetup, Quotas, limits_cpu_or_memory
from planner.engine.reasons import GPUS_FIT
from planner.engine.shapes import NO_QUEUE, intersect, milli, never_fits, union
from planner.engine.waits import OVER_BUDGET, QUOTA

if TYPE_CHECKING:
    from planner.engine.loop import Replay

VOLCANO_SESSION_S = 1.0
"""Volcano runs its actions (enqueue, allocate, ...) once per scheduling period."""
Heads = list[tuple[int, int, int]]
"""A ClusterQueue's shape heads: (-priority, job, shape)."""


class Kueue(Plugin):
    """Quota state and the admission cycle; built before the replay groups jobs by shape."""

    def __init__(self, replay: "Replay", setup: QueueSetup) -> None:
        super().__init__()
        self.replay = replay
        self.setup = setup
        self.quotas = Quotas(setup)
        jobs = replay.jobs
        self.cq_of_job = [_cluster_queue(setup.cluster_queue(j.queue, j.user)) for j in jobs]
        self.unmapped: dict[str, int] = {}
        """Jobs per trace queue value that no LocalQueue maps (default or no ClusterQueue)."""
        for job in jobs:
            if not setup.mapped(job.queue, job.user):
                self.unmapped[job.queue] = self.unmapped.get(job.queue, 0) + 1
        self.priority = [j.priority for j in jobs]
        if setup.queue_priority:
            self.priority = [setup.queue_priority.get(j.queue, j.priority) for j in jobs]
        cpu_quota, mem_quota = limits_cpu_or_memory(setup)
        self.resource_quotas: list[tuple[Quotas, int]] = []
        """CPU (pod field 2) and memory (3) quotas, where some queue limits them."""
        if cpu_quota:
            self.resource_quotas.append((Quotas(setup, "cpu"), 2))
        if mem_quota:
            self.resource_quotas.append((Quotas(setup, "mem"), 3))
        cluster = replay.cluster
        self.flavor_classes = [cluster.classes_for([t] if t else []) for _, t in setup.flavors]
        self.cq_allowed: dict[int, Allowed] = {}
        for cq in setup.queue_indices:
            classes = [self.flavor_classes[f] for f in setup.flavor_order.get(cq, ())]
            self.cq_allowed[cq] = union(classes)
        self.job_flavor: dict[int, int] = {}
        self.shape_flavors: dict[int, list[tuple[int, Allowed]]] = {}
        self.running_on_flavor: dict[int, set[int]] = {}
        self.usage = QueueUsage(self)
        self.preemption = Preemption(replay, self)
        factor = replay.policy.enqueue_overcommit
        capacity = sum(cluster.classes[c].gpus for c in cluster.node_class) * MILLI
        self.gate = EnqueueGate(factor, capacity) if factor else None

    def quota_on(self) -> tuple[bool, bool]:
        """Whether CPU and memory count in job shapes (some queue has a quota on them)."""
        return (
            any(r == 2 for _, r in self.resource_quotas),
            any(r == 3 for _, r in self.resource_quotas),
        )

    # --- Queueing --------------------------------------------------------------------------

    def starts_arrivals(self, count: int) -> bool:
        return count == 1  # several: admission order decides

    def never_runs(self, sid: int) -> str:
        """No flavor of the job's GPU type, too big for the nodes, or for the queue's quota."""
        replay = self.replay
        return (
            self._no_flavor(sid)
            or never_fits(replay.cluster, replay.shapes[sid])
            or self._never_admitted(sid)
        )

    def allocate(self, arrivals: list[int], full: bool) -> None:
        """One admission cycle over every ClusterQueue's heads (see the module docstring)."""
        del arrivals, full  # every head is looked at in every pass
        replay = self.replay
        gate = self.gate
        if gate is not None:
            gate.admit(sum(replay.alloc_by_pool))
        if self.preemption.awaiting:
            self.preemption.admit_preemptors()
        heads: dict[int, Heads] = {}
        for sid in replay.queued_shapes:
            head = (-replay.shape_priority[sid], self._head(sid), sid)
            heads.setdefault(replay.shape_cq[sid], []).append(head)
        for heap in heads.values():
            heapq.heapify(heap)
        tried: set[int] = set()  # heads that already preempted in this pass
        while True:
            nominated = [self._nominate(cq, heap, tried) for cq, heap in heads.items()]
            entries = [entry for entry in nominated if entry is not None]
            if not entries:
                if gate is not None and gate.would_admit(sum(replay.alloc_by_pool)):
                    replay.retry_at(replay.now + VOLCANO_SESSION_S)  # the next session enqueues
                return
            entries.sort()
            for _, _, i, cq in entries:
                heap = heads[cq]
                if not heap or heap[0][1] != i:
                    continue
                if self.try_start(i):
                    negative_priority, _, sid = heapq.heappop(heap)
                    if replay.queues[sid]:
                        heapq.heappush(heap, (negative_priority, self._head(sid), sid))
                else:
                    self._head_failed(cq, heap)

    def _head(self, sid: int) -> int:
        """The job a shape offers: its oldest waiting job, or with Volcano's enqueue gate its
        oldest Inqueue one (a preempted job may be older but still Pending)."""
        gate, queue = self.gate, self.replay.queues[sid]
        if gate is None:
            return queue[0]
        inqueue = gate.first(sid)
        return queue[0] if inqueue is None else inqueue

    def _nominate(self, cq: int, heap: Heads, tried: set[int]) -> tuple[bool, int, int, int] | None:
        """(borrows, -priority, job, queue) of the queue's head whose quota fits, preempting
        for it if the queue's policy allows; None when no head of this queue can go now."""
        gate, now, awaiting = self.gate, self.replay.now, self.preemption.awaiting
        while heap:
            head = heap[0][1]
            if gate is not None and not gate.allows(head):
                self._head_failed(cq, heap)  # still Pending in Volcano's enqueue
                continue
            if self.quota_fits(heap[0][2]):
                break
            waiting_for_victims = awaiting.get(head, -1.0) > now
            if head not in tried and not waiting_for_victims and self.preemption.preempt(head):
                tried.add(head)
                waiting_for_victims = awaiting.get(head, -1.0) > now
                if not waiting_for_victims:
                    continue  # victims are gone: it fits now
            if waiting_for_victims:
                # Kueue requeues a preemptor at once: it stays its queue's head while its
                # victims terminate, and nothing behind it is admitted into the quota meanwhile
                heap.clear()
            else:
                self._head_failed(cq, heap)
        if not heap:
            return None
        negative_priority, i, sid = heap[0]
        request = milli(self.replay.shapes[sid])
        # Kueue's default flavor search stops at the first flavor that fits
        first = next(f for f, _ in self.flavors_of(sid) if self.fits_quota(cq, f, sid))
        return self.quotas.borrows(cq, first, request), negative_priority, i, cq

    def _head_failed(self, cq: int, heap: Heads) -> None:
        if self.setup.nodes[cq].strict_fifo:
            heap.clear()
        else:
            heapq.heappop(heap)

    def try_start(self, i: int, *, queued: bool = True) -> bool:
        """Kueue: the first of the ClusterQueue's flavors, in order, whose quota fits; here
        admission is placement-checked (as with topology-aware scheduling), so a flavor whose
        nodes cannot place the job is passed over too."""
        replay = self.replay
        sid = replay.shape_of[i]
        pod, count, _ = replay.shapes[sid]
        cq = replay.shape_cq[sid]
        if self.usage.over_budget(cq):
            return False
        for flavor, where in self.flavors_of(sid):
            if not self.fits_quota(cq, flavor, sid):
                continue
            plan = replay.cluster.plan(pod, count, where)
            if plan is not None:
                self.charge(cq, flavor, sid, 1)
                self.job_flavor[i] = flavor
                self.running_on_flavor.setdefault(flavor, set()).add(i)
                replay.start_on(i, plan, queued=queued)
                return True
        return False

    # --- quota arithmetic ----------------------------------------------------------------

    def quota_fits(self, sid: int) -> bool:
        cq = self.replay.shape_cq[sid]
        if self.usage.over_budget(cq):
            return False
        return any(self.fits_quota(cq, f, sid) for f, _ in self.flavors_of(sid))

    def fits_quota(self, cq: int, flavor: int, sid: int) -> bool:
        """GPUs, and CPU and memory where the queue has quotas for them, fit the flavor."""
        pod, count, _ = self.replay.shapes[sid]
        if not self.quotas.fits(cq, flavor, pod.milli * pod.gpus * count):
            return False
        return all(
            not extra.covered[cq][flavor] or extra.fits(cq, flavor, pod[r] * count)
            for extra, r in self.resource_quotas
        )

    def charge(self, cq: int, flavor: int, sid: int, sign: int) -> None:
        """Add (+1) or return (-1) a job's request to its queue's quotas."""
        pod, count, _ = self.replay.shapes[sid]
        self.quotas.add(cq, flavor, sign * pod.milli * pod.gpus * count)
        for extra, r in self.resource_quotas:
            if extra.covered[cq][flavor]:
                extra.add(cq, flavor, sign * pod[r] * count)

    def flavors_of(self, sid: int) -> list[tuple[int, Allowed]]:
        """The ClusterQueue's flavors, in order, that have nodes of a type the job accepts,
        with the node classes it may use under each."""
        cached = self.shape_flavors.get(sid)
        if cached is None:
            replay = self.replay
            allowed = replay.shapes[sid][2]
            cached = []
            for flavor in self.setup.flavor_order.get(replay.shape_cq[sid], ()):
                where = intersect(allowed, self.flavor_classes[flavor])
                if where is None or where:
                    cached.append((flavor, where))
            self.shape_flavors[sid] = cached
        return cached

    def gpu_reason(self, sid: int, pod: PodShape, count: int) -> int:
        """Quota first, then the hardware of the first flavor whose quota fits."""
        cq = self.replay.shape_cq[sid]
        if self.usage.over_budget(cq):
            return OVER_BUDGET
        reason = QUOTA
        hardware = self.replay.reasons.hardware_reason
        for flavor, where in self.flavors_of(sid):
            if self.fits_quota(cq, flavor, sid):
                found = hardware(pod, count, where)
                if found == GPUS_FIT:
                    return found
                if reason == QUOTA:
                    reason = found
        return reason

    def _no_flavor(self, sid: int) -> str:
        """The job's GPU type is installed, but its ClusterQueue has no flavor of that type."""
        replay = self.replay
        if replay.shape_cq[sid] == NO_QUEUE or self.flavors_of(sid):
            return ""
        own_types = replay.jobs[replay.shape_of.index(sid)].gpu_types  # rare: no flavor fits
        installed = replay.cluster.classes_for(own_types)
        return "no_flavor_for_gpu_type" if installed is None or installed else ""

    def _never_admitted(self, sid: int) -> str:
        """Why the job's ClusterQueue can never admit it, even with the whole cohort idle."""
        if self.replay.shape_cq[sid] == NO_QUEUE:
            return "no_cluster_queue"
        return "" if self.quota_fits(sid) else "more_than_queue_quota"

    # --- plugin hooks ----------------------------------------------------------------------

    def enqueued(self, i: int, requeue: bool) -> None:
        if self.gate is not None:
            sid = self.replay.shape_of[i]
            self.gate.arrive(i, milli(self.replay.shapes[sid]), sid)

    def started(self, i: int) -> None:
        self.preemption.awaiting.pop(i, None)
        if self.gate is not None:
            self.gate.started(i)

    def finished(self, i: int) -> None:
        sid = self.replay.shape_of[i]
        flavor = self.job_flavor.pop(i)
        self.charge(self.replay.shape_cq[sid], flavor, sid, -1)
        self.running_on_flavor[flavor].discard(i)

    def evicted(self, i: int) -> None:
        self.running_on_flavor[self.job_flavor[i]].discard(i)

    def terminated(self, i: int) -> None:
        flavor = self.job_flavor.pop(i)
        self.charge(self.cq_of_job[i], flavor, self.replay.shape_of[i], -1)

    def withdrawn(self, i: int) -> None:
        if self.gate is not None:
            self.gate.withdraw(i)
        self.preemption.awaiting.pop(i, None)

    def bursted(self, i: int) -> None:
        if self.gate is not None:
            self.gate.started(i)

    def advance(self, t0: float, t1: float) -> None:
        self.usage.advance(t0, t1)

    def report(self, end: float) -> dict[str, Any]:
        names = [node.name for node in self.setup.nodes]
        return {
            "cluster_queue": [names[cq] if cq >= 0 else "" for cq in self.cq_of_job],
            **self.usage.report(names),
            "unmapped_queues": dict(self.unmapped),
        }


def _cluster_queue(index: int | None) -> int:
    return NO_QUEUE if index is None else index
