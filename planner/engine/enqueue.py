"""Volcano's `enqueue` action with the `overcommit` plugin: which waiting jobs may be allocated.

A job (PodGroup) is Pending until `enqueue` lets it in: it becomes Inqueue when the requests of
the jobs already Inqueue plus its own fit `overcommit factor x cluster - allocated` (default
factor 1.2, `../shared/reference/scheduler-semantics.md` A2). Only Inqueue jobs are allocated.
Being Inqueue is sticky until the job runs. A preempted job's pods are created again, so it
queues for `enqueue` again, behind the jobs already pending. Jobs are offered in the order
they became pending; one that does not fit does not block smaller ones behind it. `enqueue`
runs once per scheduling period (1 s), so a job let in waits for the next allocation.

Allocation looks at Inqueue jobs only, oldest first: `first(shape)` is the oldest Inqueue job
of a shape. It is not always the shape's oldest waiting job: a preempted job goes back to its
place in the shape's queue but to the back of `pending`, and the jobs let in meanwhile may
hold the whole budget. Offering only each shape's oldest job would then offer none, and the
replay would stop with jobs waiting on an idle cluster.
"""

import heapq


class EnqueueGate:
    def __init__(self, factor: float, capacity_milli: int) -> None:
        self.limit = factor * capacity_milli
        self.pending: list[tuple[int, int]] = []
        """(job, milli-GPUs) not yet Inqueue, in submit order."""
        self.inqueue: dict[int, int] = {}
        self.inqueue_milli = 0
        self.shape: dict[int, int] = {}
        self.ready: dict[int, list[int]] = {}
        """Shape -> its Inqueue jobs as a heap (with jobs since started: dropped when seen)."""

    def arrive(self, job: int, milli: int, shape: int) -> None:
        self.pending.append((job, milli))
        self.shape[job] = shape

    def first(self, shape: int) -> int | None:
        """The oldest Inqueue job of `shape`, if any."""
        ready = self.ready.get(shape)
        while ready and ready[0] not in self.inqueue:
            heapq.heappop(ready)
        return ready[0] if ready else None

    def started(self, job: int) -> None:
        self.inqueue_milli -= self.inqueue.pop(job, 0)

    def withdraw(self, job: int) -> None:
        """The job left the queue without running: it is neither Inqueue nor pending."""
        self.started(job)
        self.pending = [p for p in self.pending if p[0] != job]

    def admit(self, allocated_milli: int) -> None:
        """Let in, in submit order, every pending job whose request still fits."""
        budget = self.limit - allocated_milli - self.inqueue_milli
        if not self.pending or budget <= 0:
            return
        kept: list[tuple[int, int]] = []
        for job, milli in self.pending:
            if milli <= budget:
                budget -= milli
                self.inqueue[job] = milli
                self.inqueue_milli += milli
                heapq.heappush(self.ready.setdefault(self.shape[job], []), job)
            else:
                kept.append((job, milli))
        self.pending = kept

    def would_admit(self, allocated_milli: int) -> bool:
        budget = self.limit - allocated_milli - self.inqueue_milli
        return any(milli <= budget for _, milli in self.pending)

    def allows(self, job: int) -> bool:
        return job in self.inqueue
