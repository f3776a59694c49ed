"""The replay: the only code that advances simulated time.

`simulate(jobs, nodes, policy)` applies all events of an instant (finishes, timeouts,
requeues, then arrivals), then offers the free capacity to waiting jobs once, in the
queueing policy's order; `ClusterState` decides where pods go. Waiting jobs are grouped by
shape (pod request, pod count, allowed GPU types): jobs of one shape fit or fail together,
so a pass tries each shape once instead of every job, and why-they-wait is decided per
shape. Deterministic: the only randomness is `random.Random(policy.seed)`.

Withdrawal: a job with `withdraw_after_s` has a deadline, `submit_s + withdraw_after_s`. If it
has not started by then (deadlines apply before the instant's arrivals and scheduling pass)
it leaves the queue, releases any pods it held, and ends `withdrawn`: never started, no wait
booked to a started job, not unschedulable nor unfinished. A job with a deadline that can
never fit the cluster is withdrawn at its deadline too. A job observed as withdrawn (status
`withdrawn`: its user deleted it while it waited, so its run time is unknown) that the
replay does start holds its GPUs until the deadline, when its user deleted it, and ends
`withdrawn-after-start`; any other job, once started, runs its own run time. See
docs/status-mapping.md.
"""

import gc
import heapq
from bisect import bisect_left, insort
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from planner.core.config import NodeSpec
from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.engine.cluster import (
    MILLI,
    Allowed,
    ClusterState,
    NodeAlloc,
    PodShape,
    pod_shape,
    typical_pods,
)
from planner.engine.colocation import HOUR_S
from planner.engine.enqueue import EnqueueGate
from planner.engine.policy import MAX_SIMULATED_S, Policy
from planner.engine.preemption import Candidate, choose_victims, may_preempt_in_queue, may_reclaim
from planner.engine.quota import BUDGET_MONTH_S, Quotas, limits_cpu_or_memory
from planner.engine.shared_gpus import MIG_RELAYOUT
from planner.engine.sharing import MigConfig, TimeSlicing, find_profile, mode_label
from planner.engine.waits import (
    BACKOFF,
    BEHIND_HEAD,
    CLUSTER_FULL,
    CPU_MEM_SHORT,
    EVICTED_ONLINE,
    FRAGMENTED,
    GPU_TYPE_BUSY,
    OVER_BUDGET,
    PARTIAL_GANG,
    PREEMPTED,
    QUOTA,
    REASON_CODES,
)

# Event kinds, in the order they apply at one instant: freed GPUs are visible to arrivals.
_FINISH, _TERMINATED, _TIMEOUT, _REQUEUE, _RETRY, _ONLINE, _BURST, _WITHDRAW = range(8)
_ONLINE_POD: PodShape = (1000, 1, 0, 0)
VOLCANO_SESSION_S = 1.0
"""Volcano runs its actions (enqueue, allocate, ...) once per scheduling period."""
# Job states.
PENDING, WAITING, RUNNING, DONE, UNSCHEDULABLE, BACKING_OFF, TERMINATING, BURST = range(8)
WITHDRAWN, DELETED = 8, 9  # left the queue at its deadline / started, deleted at it
_SETTLED = frozenset((DONE, UNSCHEDULABLE, BURST, WITHDRAWN, DELETED))
_TIMELINE_BINS = 400
_MAX_BINS = 4 * _TIMELINE_BINS
"""Past this many bins, pairs merge and the width doubles: memory and time stay bounded by
the number of events, whatever the simulated span (a job of 1e8 s, a far horizon)."""
_PROGRESS_STEPS = 2048  # loop iterations between progress checks
_PROGRESS_MIN_STEP = 0.01  # report when the fraction done grew by at least this
_NO_REASON = -1
_NO_QUEUE = -2  # the job's queue maps to no ClusterQueue
_GPUS_FIT = -2
_STATUS = (
    "unfinished",
    "unfinished",
    "unfinished",
    "completed",
    "unschedulable",
    "unfinished",
    "unfinished",
    "burst",
    "withdrawn",
    "withdrawn-after-start",
)
Shape = tuple[PodShape, int, Allowed]


@dataclass(slots=True)
class Timeline:
    """Time-weighted averages per fixed-width bin, plus state samples at bin starts."""

    bin_s: float
    pools: list[str]
    allocated_gpus: list[list[float]] = field(default_factory=list)
    """Per bin, mean allocated GPUs of each pool (same order as `pools`)."""
    held_idle_gpus: list[float] = field(default_factory=list)
    queued_jobs: list[float] = field(default_factory=list)
    queued_gpus: list[float] = field(default_factory=list)
    unusable_idle_gpus: list[float] = field(default_factory=list)
    """Sampled at each bin's first instant: idle GPUs that no waiting job's pod can use."""
    fgd_fragmented_gpus: list[float] = field(default_factory=list)
    """Sampled likewise: the FGD measure against the trace's mix of GPU requests."""

    def coarsen(self) -> None:
        """Merge each pair of (complete) bins into one of twice the width: means average,
        samples keep the first instant's."""
        self.bin_s *= 2
        self.allocated_gpus = [
            [(a + b) / 2 for a, b in zip(first, second, strict=True)]
            for first, second in zip(
                self.allocated_gpus[::2], self.allocated_gpus[1::2], strict=True
            )
        ]
        for means in (self.held_idle_gpus, self.queued_jobs, self.queued_gpus):
            means[:] = [(a + b) / 2 for a, b in zip(means[::2], means[1::2], strict=True)]
        for samples in (self.unusable_idle_gpus, self.fgd_fragmented_gpus):
            del samples[1::2]


@dataclass(slots=True)
class ReplayResult:
    """Per-job outcomes (lists indexed like `jobs`, which is in submit order) and run totals."""

    jobs: list[Job]
    policy: Policy
    node_ids: list[str]
    capacity_gpus: dict[str, int]
    status: list[str]
    start_s: list[float | None]
    end_s: list[float | None]
    placement: list[tuple[tuple[int, float], ...]]
    """(node index, GPUs) of each node a job ran on (or held when unfinished)."""
    wait_by_reason: list[tuple[float, ...] | None]
    """Seconds waited per reason (order of `REASON_CODES`); None if the job never waited."""
    unschedulable_reason: dict[int, str]
    horizon_s: float
    allocated_gpu_s: float
    held_idle_gpu_s: float
    deadlock: dict[str, float] | None
    timeline: Timeline
    rounded_up_pods: int
    distinct_states_max: int
    segments: dict[int, list[tuple[float, float, tuple[tuple[int, float], ...]]]] = field(
        default_factory=dict
    )
    """Run segments that ended in preemption: (start, end, placement), per job."""
    livelock: dict[str, float] | None = None
    """Set when evictions kept undoing all work and the replay stopped early."""
    preemptions: int = 0
    evicted_by_online: int = 0
    online_gpu_s: float = 0.0
    """GPU-seconds held by online services (colocation)."""
    wasted_gpu_s: float = 0.0
    """GPU-seconds of work lost to preemption (since the last checkpoint) plus restarts."""
    overhead_gpu_s: float = 0.0
    """GPU-seconds completed jobs spent on container overhead (network, storage)."""
    cluster_queue: list[str] | None = None
    """With ClusterQueues: the one each job went through ('' if none)."""
    borrowed_gpu_s: dict[str, float] = field(default_factory=dict)
    lent_gpu_s: dict[str, float] = field(default_factory=dict)
    budget_used_gpu_s: dict[str, list[float]] = field(default_factory=dict)
    """Per ClusterQueue with a budget: GPU-seconds used in each 30-day month."""
    unmapped_queues: dict[str, int] = field(default_factory=dict)
    """Jobs per trace queue value (and user) no LocalQueue names: they went to the default
    ClusterQueue, or are unschedulable without one."""
    sharing: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per MIG or time-sliced pool: what its GPUs were asked for, granted and occupied."""


def simulate(
    jobs: Sequence[Job],
    nodes: Sequence[NodeSpec],
    policy: Policy,
    progress: Callable[[float], None] | None = None,
) -> ReplayResult:
    """Replay `jobs` on `nodes` under `policy`; see the module docstring.

    `progress`, if given, is called now and then with the fraction done (0-1, increasing,
    1.0 last): half arrivals, half jobs settled (neither waiting nor running). It may raise
    to abandon the replay.
    """
    _check_span(jobs, policy)
    # The loop allocates millions of short-lived tuples and creates no cycles; the cyclic
    # collector would rescan every live job object again and again (a third of the run).
    collecting = gc.isenabled()
    gc.disable()
    try:
        result = _Replay(jobs, nodes, policy).run(progress)
    finally:
        if collecting:
            gc.enable()
    if progress is not None:
        progress(1.0)
    return result


def _check_span(jobs: Sequence[Job], policy: Policy) -> None:
    """Refuse times no replay should simulate: not finite, or past `MAX_SIMULATED_S`."""
    horizon = policy.horizon_s
    if horizon is not None and not 0 <= horizon <= MAX_SIMULATED_S:
        raise ScenarioError(
            f"horizon_s {horizon:g}: give a number of seconds from 0 to {MAX_SIMULATED_S:.0f} "
            "(100 years)"
        )
    for job in jobs:
        withdraw = job.withdraw_after_s
        if withdraw is not None and not 0 <= withdraw <= MAX_SIMULATED_S:
            raise ScenarioError(
                f"job {job.job_id!r}: withdraw_after_s {withdraw:g}: give seconds from 0 to "
                f"{MAX_SIMULATED_S:.0f} (100 years)"
            )
        end = job.submit_s + job.duration_s
        if not (
            job.duration_s >= 0 and job.submit_s >= -MAX_SIMULATED_S and end <= MAX_SIMULATED_S
        ):
            raise ScenarioError(
                f"job {job.job_id!r}: submit_s {job.submit_s:g} and duration_s "
                f"{job.duration_s:g} end past the {MAX_SIMULATED_S:.0f} s (100 years) a replay "
                "simulates; was the duration given in milliseconds?"
            )


class _Replay:
    """State of one replay; `run()` is the event loop, the rest are its steps."""

    def __init__(self, jobs: Sequence[Job], nodes: Sequence[NodeSpec], policy: Policy) -> None:
        order = sorted(range(len(jobs)), key=lambda i: jobs[i].submit_s)
        self.jobs = [jobs[i] for i in order]
        self.policy = policy
        self.cluster = ClusterState(
            nodes, policy.placement, seed=policy.seed, sharing=policy.sharing
        )
        self._init_queues()
        force = (
            any(r == 2 for _, r in self.resource_quotas),
            any(r == 3 for _, r in self.resource_quotas),
        )
        found = _shapes(
            self.jobs,
            self.cluster,
            self.cq_of_job,
            self.cq_allowed,
            quota_on=force,
            priorities=self.priority,
        )
        self.shapes, self.shape_of, self.shape_cq, self.shape_priority, self.rounded_up = found
        # the FGD measure is reported for every policy; only `fgd` also places by it
        self.cluster.typical = tuple(
            typical_pods((self.shapes[s][0], self.shapes[s][2]) for s in self.shape_of)
        )
        self._init_jobs(len(self.jobs))
        self._init_shapes(len(self.shapes))
        self._init_integrals()
        # backfill
        self.running_by_end: list[tuple[float, int]] = []
        self.est_end: dict[int, float] = {}
        self.pivot = -1
        self.shadow = 0.0
        self.early_finish = False

    def _init_queues(self) -> None:
        """ClusterQueues: each job's queue, the node classes of each flavor, quota usage."""
        setup = self.policy.queues
        self.quotas = Quotas(setup) if setup else None
        self.cq_of_job: list[int] = []
        self.priority = [job.priority for job in self.jobs]
        self.flavor_classes: list[Allowed] = []
        self.cq_allowed: dict[int, Allowed] = {}
        self.job_flavor: dict[int, int] = {}
        self.shape_flavors: dict[int, list[tuple[int, Allowed]]] = {}
        self.running_on_flavor: dict[int, set[int]] = {}
        self.resource_quotas: list[tuple[Quotas, int]] = []
        self.budgets: dict[int, float] = {}
        self.budget_used: dict[int, list[float]] = {}
        self.unmapped: dict[str, int] = {}
        """Jobs per trace queue value that no LocalQueue maps (default or no ClusterQueue)."""
        if setup is None:
            return
        self.cq_of_job = [
            _cluster_queue(setup.cluster_queue(job.queue, job.user)) for job in self.jobs
        ]
        for job in self.jobs:
            if not setup.mapped(job.queue, job.user):
                self.unmapped[job.queue] = self.unmapped.get(job.queue, 0) + 1
        if setup.queue_priority:
            self.priority = [setup.queue_priority.get(j.queue, j.priority) for j in self.jobs]
        cpu_quota, mem_quota = limits_cpu_or_memory(setup)
        if cpu_quota:
            self.resource_quotas.append((Quotas(setup, "cpu"), 2))
        if mem_quota:
            self.resource_quotas.append((Quotas(setup, "mem"), 3))
        self.flavor_classes = [self.cluster.classes_for([t] if t else []) for _, t in setup.flavors]
        for cq in setup.queue_indices:
            classes = [self.flavor_classes[f] for f in setup.flavor_order.get(cq, ())]
            self.cq_allowed[cq] = _union(classes)
        trees: dict[int, list[int]] = {}
        for cq in setup.queue_indices:
            root = cq
            while setup.nodes[root].parent >= 0:
                root = setup.nodes[root].parent
            trees.setdefault(root, []).append(cq)
        self.cohort_trees = list(trees.values())
        for cq in setup.queue_indices:
            budget = setup.nodes[cq].budget_gpu_s
            if budget is not None:
                self.budgets[cq] = budget * MILLI
                self.budget_used[cq] = []
        self.borrowed_milli_s = dict.fromkeys(setup.queue_indices, 0.0)
        self.lent_milli_s = dict.fromkeys(setup.queue_indices, 0.0)

    def _init_jobs(self, n: int) -> None:
        overhead = self.policy.overhead
        self.deadline = [
            None if job.withdraw_after_s is None else job.submit_s + job.withdraw_after_s
            for job in self.jobs
        ]
        # an observed withdrawal has no run time: once started, it runs until its deadline
        self.run_s = [
            ((job.withdraw_after_s or 0.0) if job.status == "withdrawn" else job.duration_s)
            * (overhead.factor(job.pods) if overhead else 1.0)
            for job in self.jobs
        ]
        self.remaining_s = list(self.run_s)
        self.finish_at = [0.0] * n
        self.segments: dict[int, list[tuple[float, float, tuple[tuple[int, float], ...]]]] = {}
        self.preempted_waiting: dict[int, int] = {}  # job -> reason of its eviction
        self.awaiting: dict[int, float] = {}
        factor = self.policy.enqueue_overcommit
        capacity = sum(self.cluster.classes[c].gpus for c in self.cluster.node_class) * MILLI
        self.gate = EnqueueGate(factor, capacity) if factor and self.quotas else None
        """Preemptors whose victims are terminating -> when the last one is gone."""
        self.running: set[int] = set()
        self.online: list[NodeAlloc] = []
        self.online_milli_s = 0.0
        self.evicted_online = 0
        self.last_completion = 0.0
        self.evicting_since: float | None = None  # first eviction since the last completion
        self.evictions_since_completion = 0
        self.livelock: dict[str, float] | None = None
        longest = max(self.run_s, default=0.0)
        self.livelock_s = max(7 * 24 * HOUR_S, 2 * longest)
        colocation = self.policy.colocation
        self.online_classes = self.cluster.classes_for(colocation.gpu_types) if colocation else None
        self.retries: set[float] = set()
        self.preemptions = 0
        self.wasted_gpu_s = 0.0
        self.state = [PENDING] * n
        self.start: list[float | None] = [None] * n
        self.end: list[float | None] = [None] * n
        self.allocs: list[list[NodeAlloc]] = [[] for _ in range(n)]
        self.placed = [0] * n
        self.attempts = [0] * n
        self.wait: list[list[float] | None] = [None] * n
        self.snapshot: list[list[float] | None] = [None] * n
        self.override_since: list[float] = [0.0] * n
        self.unschedulable: dict[int, str] = {}
        self.order: deque[int] = deque()  # strict FIFO: every waiting job in queue order
        self.events: list[tuple[float, int, int, int]] = []
        self.seq = 0
        self.now = 0.0
        self.dirty = False  # the cluster changed since reasons were last decided
        self.undecided = False  # a shape started waiting and has no reason yet
        self.freed = False  # capacity was released since the last full pass
        self.queued_jobs = 0
        self.queued_milli = 0
        self.deadlock: dict[str, float] | None = None

    def _init_shapes(self, count: int) -> None:
        """Per-shape queues, waiting membership and reason-time accounting."""
        self.queues: list[deque[int]] = [deque() for _ in range(count)]
        self.members = [0] * count
        self.shape_reason = [_NO_REASON] * count
        self.cum = [[0.0] * len(REASON_CODES) for _ in range(count)]
        self.cum_t = [0.0] * count
        self.waiting_shapes: set[int] = set()  # shapes with jobs accruing shape reasons
        # GPU parts: shapes with CPU and memory left out (see _decide_reasons)
        part_ids: dict[tuple[Shape, int], int] = {}
        self.part_of = [
            part_ids.setdefault((((pod[0], pod[1], 0, 0), n, allowed), cq), len(part_ids))
            for (pod, n, allowed), cq in zip(self.shapes, self.shape_cq, strict=True)
        ]
        self.parts = [shape for shape, _ in part_ids]
        self.part_cq = [cq for _, cq in part_ids]
        self.part_sample = [0] * len(self.parts)  # a shape of each part, for its quota request
        self.part_shapes: list[set[int]] = [set() for _ in self.parts]
        self.part_reason = [_NO_REASON] * len(self.parts)
        self.part_headroom: list[tuple[tuple[int, int], ...]] = [()] * len(self.parts)
        self.waiting_parts: set[int] = set()
        self.queued_shapes: set[int] = set()  # shapes with a non-empty queue

    def _init_integrals(self) -> None:
        self.pool_of_class = [hw.pool for hw in self.cluster.classes]
        self.pools = sorted(set(self.pool_of_class))
        self.pool_index = [self.pools.index(p) for p in self.pool_of_class]
        self.alloc_by_pool = [0] * len(self.pools)
        self.held_milli = 0
        self.allocated_milli_s = 0.0
        self.held_milli_s = 0.0
        self.last_t = 0.0
        span = (self.jobs[-1].submit_s + _median_duration(self.jobs)) if self.jobs else 1.0
        self.timeline = Timeline(bin_s=max(span / _TIMELINE_BINS, 1.0), pools=self.pools)
        self.bin_acc = _BinAccumulator(len(self.pools))
        self.distinct_max = self.cluster.distinct_states()
        self.shared_pools = sorted({self.pool_index[c] for c in self.cluster.shared})
        self.shared_s = {p: [0.0, 0.0, 0.0, 0.0, 0.0] for p in self.shared_pools}
        """Per shared pool: requested, granted, occupied GPU-seconds; GPU-seconds lost to
        slowdown and re-layouts; re-layouts."""
        modes = [self.cluster.classes[c].sharing for c in self.cluster.shared]
        self.stretch_bound = (
            max([m.slowdown for m in modes if isinstance(m, TimeSlicing)], default=1.0),
            max(
                [m.relayout_delay_s or 0.0 for m in modes if isinstance(m, MigConfig)], default=0.0
            ),
        )
        self.stretched: dict[int, tuple[float, float, int, float, float]] = {}
        """Running jobs slowed by time-slicing or delayed by a MIG re-layout: (factor, delay,
        pool, seconds at full speed before the slowdown, work to do from the start)."""
        self.tenants: dict[tuple[int, int], set[int]] = {}
        """Running jobs on each time-sliced GPU (node, GPU index)."""

    # --- the loop ------------------------------------------------------------------------

    def run(self, progress: Callable[[float], None] | None = None) -> ReplayResult:
        self._reject_unschedulable()
        jobs, events = self.jobs, self.events
        horizon = self.policy.horizon_s
        next_arrival = self.next_arrival = 0
        n = len(jobs)
        if self.policy.colocation is not None:
            self._push(0.0, _ONLINE, -1)
        self._push_deadlines()
        # one counter and one comparison per instant; -1 is never reached without a callback
        steps, check, self.reported = 0, _PROGRESS_STEPS if progress else -1, 0.0
        while next_arrival < n or events:
            steps += 1
            if steps == check:
                check += _PROGRESS_STEPS
                self._report(progress)
            if events and events[0][1] >= _BURST:
                self._drop_stale_bursts()
                if not events and next_arrival >= n:
                    break
            t = jobs[next_arrival].submit_s if next_arrival < n else events[0][0]
            if events and events[0][0] < t:
                t = events[0][0]
            if horizon is not None and t > horizon:
                break
            self._advance(t)
            while events and events[0][0] == t:
                _, kind, _, i = heapq.heappop(events)
                self._apply(kind, i)
            arrivals = []
            while next_arrival < n and jobs[next_arrival].submit_s == t:
                if self.state[next_arrival] == PENDING:
                    arrivals.append(next_arrival)
                next_arrival += 1
            self.next_arrival = next_arrival
            self._schedule(arrivals)
            if next_arrival >= n and not events and self.queued_jobs:
                self._stuck()
                break
            if self.preemptions and self._livelocked():
                self._finish_terminations(horizon)
                break
        end = horizon if horizon is not None else self.now
        self._advance(max(end, self.now))
        self._clip_terminations(end)
        return self._result()

    def _finish_terminations(self, horizon: float | None) -> None:
        """A replay stopped for a livelock still lets the pods it evicted terminate (up to the
        horizon): their grace, counted as wasted at the eviction, is held and allocated too."""
        limit = float("inf") if horizon is None else horizon
        pending = sorted(
            (t, j) for t, kind, _, j in self.events if kind == _TERMINATED and t <= limit
        )
        self.events = [e for e in self.events if e[1] != _TERMINATED or e[0] > limit]
        heapq.heapify(self.events)
        for t, j in pending:
            self._advance(t)
            self._terminated(j)

    def _clip_terminations(self, end: float) -> None:
        """Pods still terminating at the horizon: the grace after it is outside the replay,
        neither allocated nor wasted."""
        for t, kind, _, j in self.events:
            if kind == _TERMINATED and t > end:
                self.wasted_gpu_s -= self.jobs[j].total_gpus * (t - end)

    def _push_deadlines(self) -> None:
        """One withdrawal event per job with a deadline (after unschedulable ones settled)."""
        for i, deadline in enumerate(self.deadline):
            if deadline is not None and self.state[i] == PENDING:
                self._push(deadline, _WITHDRAW, i)

    def _report(self, progress: Callable[[float], None] | None) -> None:
        """Call `progress` with the fraction done if it grew enough since the last call."""
        n = len(self.jobs)
        arrived = self.next_arrival
        settled = arrived - self.queued_jobs - len(self.running)
        done = min((arrived + max(settled, 0)) / (2 * n), 0.99) if n else 0.0
        if progress is not None and done >= self.reported + _PROGRESS_MIN_STEP:
            self.reported = done
            progress(done)

    def _apply(self, kind: int, i: int) -> None:
        if kind == _FINISH:
            if self.state[i] == RUNNING and self.finish_at[i] == self.now:
                self._finish(i)  # otherwise the run this event belonged to was preempted
        elif kind == _TERMINATED:
            self._terminated(i)
        elif kind == _BURST:
            if self._may_burst(i):
                self._burst(i)
        elif kind == _WITHDRAW:
            self._withdraw(i)
        elif kind == _TIMEOUT:
            if self.state[i] == WAITING and 0 < self.placed[i] < self.jobs[i].pods:
                self._time_out(i)
        elif kind == _ONLINE:
            self._apply_online()
        elif kind == _RETRY:
            self.retries.discard(self.now)
            self.freed = True
        elif kind == _REQUEUE and self.state[i] == BACKING_OFF:
            self._close_override(i, BACKOFF)
            self._enqueue(i, requeue=True)
            self.freed = True  # a full pass: the requeued job is offered what is free now

    def _schedule(self, arrivals: list[int]) -> None:
        fast = self.quotas is None or len(arrivals) == 1  # several: admission order decides
        if fast and not self.queued_jobs and self.policy.admission == "gang":
            # nobody waits: arrivals are the queue's head, in order, until one does not fit
            started = 0
            for i in arrivals:
                if not self._try_start(i, queued=False):
                    break
                started += 1
            arrivals = arrivals[started:]
        for i in arrivals:
            self._enqueue(i)
        if self.queued_jobs:
            full = self.freed
            self.freed = False
            if self.quotas is not None:
                self._pass_queues()
            elif self.policy.admission == "pod":
                self._pass_pods(arrivals, full)
            elif self.policy.queueing == "strict-fifo":
                self._pass_strict()
            elif self.policy.queueing == "fifo":
                self._pass_fifo(arrivals, full)
            else:
                self._pass_backfill(arrivals, full)
        if (self.dirty or self.undecided) and self.waiting_shapes:
            self._decide_reasons()
        self.dirty = self.undecided = False
        self.distinct_max = max(self.distinct_max, self.cluster.distinct_states())

    # --- queueing policies ---------------------------------------------------------------

    def _pass_strict(self) -> None:
        while self.order:
            i = self.order[0]
            if not self._try_start(i):
                return

    def _pass_fifo(self, arrivals: list[int], full: bool) -> None:
        if not full:
            for i in arrivals:
                if self.state[i] == WAITING:
                    self._try_start(i)
            return
        merge = _HeadMerge(self)
        for i in merge:
            if not self._try_start(i):
                merge.drop()

    def _pass_backfill(self, arrivals: list[int], full: bool) -> None:
        if full or self.pivot < 0 or self.state[self.pivot] != WAITING or self.early_finish:
            self._full_backfill()
            return
        for i in arrivals:
            if self.state[i] == WAITING:
                self._backfill_one(i)

    def _full_backfill(self) -> None:
        merge = _HeadMerge(self)
        pivot = -1
        tested = 0
        # Shapes that found no room off the reservation: the pass only allocates whole or
        # fractional GPUs, so they will not find any later in it (a burst of a million alike
        # jobs plans each shape once). MIG and time-slicing keep planning every job.
        blocked: set[int] = set()
        remember = not self.cluster.shared
        for i in merge:
            if pivot < 0:
                if not self._try_start(i):
                    pivot = i
                    merge.drop()
                continue
            if tested >= self.policy.backfill_depth:
                break
            tested += 1
            shape = self.shape_of[i]
            if shape in blocked and not self._short(i, pivot):
                merge.skip()
            elif self._backfill_one(i, pivot):
                continue
            elif self._short(i, pivot):
                merge.drop()  # it does not fit anywhere now; nor do its shape-mates
            else:
                if remember:
                    blocked.add(shape)
                merge.skip()
        if pivot < 0:
            self.pivot = -1
            self.cluster.release_reservation()

    def _short(self, i: int, pivot: int) -> bool:
        # where it lands is not known yet: assume the slowest sharing it could meet
        factor, delay = self.stretch_bound
        run = self.run_s[i] * self.policy.estimate_factor * factor + delay
        return self.now + run <= self.shadow

    def _backfill_one(self, i: int, pivot: int | None = None) -> bool:
        """Start `i` if it ends before the pivot's shadow time or stays off its nodes."""
        if pivot is None:
            pivot = self.pivot
        if pivot != self.pivot or self.early_finish:
            self._reserve_for(pivot)
        pod, count, allowed = self.shapes[self.shape_of[i]]
        plan = self.cluster.plan(pod, count, allowed, avoid_reserved=not self._short(i, pivot))
        if plan is None:
            return False
        self._start(i, plan)
        return True

    def _reserve_for(self, pivot: int) -> None:
        """EASY: the earliest time the pivot fits as running jobs end, and the nodes it needs."""
        self.pivot = pivot
        self.early_finish = False
        pod, count, allowed = self.shapes[self.shape_of[pivot]]
        need = pod[0] * pod[1] * count
        released: list[int] = []
        plan = None
        shadow = self.now
        for est_end, j in self.running_by_end:
            self._release_job(j)
            released.append(j)
            if self.cluster.free_milli(allowed) < need:
                continue
            plan = self.cluster.plan(pod, count, allowed)
            if plan is not None:
                shadow = est_end
                break
        for j in released:
            self._reapply_job(j)
        self.shadow = shadow
        self.cluster.reserve(node for node, _ in plan or ())

    def _pass_queues(self) -> None:
        """Kueue's admission cycles: one head per ClusterQueue (by priority, then submit
        order), heads that would not borrow before those that would, then by priority and
        age. A StrictFIFO queue whose head cannot be admitted admits nothing else in this
        pass; a BestEffortFIFO queue moves on (the head's shape is done for this pass)."""
        quotas = self.quotas
        assert quotas is not None
        if self.gate is not None:
            self.gate.admit(sum(self.alloc_by_pool))
        if self.awaiting:
            self._admit_preemptors()
        heads: dict[int, list[tuple[int, int, int]]] = {}
        for sid in self.queued_shapes:
            head = (-self.shape_priority[sid], self.queues[sid][0], sid)
            heads.setdefault(self.shape_cq[sid], []).append(head)
        for heap in heads.values():
            heapq.heapify(heap)
        tried: set[int] = set()  # heads that already preempted in this pass
        while True:
            nominated = [self._nominate(cq, heap, tried) for cq, heap in heads.items()]
            entries = [entry for entry in nominated if entry is not None]
            if not entries:
                if self.gate is not None and self.gate.would_admit(sum(self.alloc_by_pool)):
                    self._retry_at(self.now + VOLCANO_SESSION_S)  # the next session enqueues
                return
            entries.sort()
            for _, _, i, cq in entries:
                heap = heads[cq]
                if not heap or heap[0][1] != i:
                    continue
                if self._try_start(i):
                    negative_priority, _, sid = heapq.heappop(heap)
                    if self.queues[sid]:
                        heapq.heappush(heap, (negative_priority, self.queues[sid][0], sid))
                else:
                    self._head_failed(cq, heap)

    def _nominate(
        self, cq: int, heap: list[tuple[int, int, int]], tried: set[int]
    ) -> tuple[bool, int, int, int] | None:
        """(borrows, -priority, job, queue) of the queue's head whose quota fits, preempting
        for it if the queue's policy allows; None when no head of this queue can go now."""
        quotas = self.quotas
        assert quotas is not None
        gate = self.gate
        while heap:
            head = heap[0][1]
            if gate is not None and not gate.allows(head):
                self._head_failed(cq, heap)  # still Pending in Volcano's enqueue
                continue
            if self._quota_fits(heap[0][2]):
                break
            waiting_for_victims = self.awaiting.get(head, -1.0) > self.now
            if head not in tried and not waiting_for_victims and self._try_preempt(head):
                tried.add(head)
                waiting_for_victims = self.awaiting.get(head, -1.0) > self.now
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
        request = _milli(self.shapes[sid])
        # Kueue's default flavor search stops at the first flavor that fits
        first = next(f for f, _ in self._flavors_of(sid) if self._fits_quota(cq, f, sid))
        return quotas.borrows(cq, first, request), negative_priority, i, cq

    def _admit_preemptors(self) -> None:
        """Kueue prefers a preemptor once its victims are gone (WaitingForPreemptedWorkloads):
        it gets the quota it reclaimed before any queue head, or an evicted borrower could take
        that quota back and be evicted again, every grace period, forever."""
        due = sorted((-self.priority[i], t, i) for i, t in self.awaiting.items() if t <= self.now)
        for _, _, i in due:
            del self.awaiting[i]
            if self.state[i] == WAITING and (self.gate is None or self.gate.allows(i)):
                self._try_start(i)

    def _try_preempt(self, i: int) -> bool:
        """Evict running jobs so that `i` fits its quota, if its queue's policy allows."""
        quotas = self.quotas
        assert quotas is not None
        sid = self.shape_of[i]
        cq, request = self.shape_cq[sid], _milli(self.shapes[sid])
        policy = quotas.setup.nodes[cq].preemption
        if not policy.enabled or self._over_budget(cq):
            return False
        for flavor, where in self._flavors_of(sid):
            nominal = quotas.nominal[cq][flavor]
            if request > nominal and policy.borrow_within_cohort == "Never":
                continue  # a request beyond nominal quota preempts only with borrowWithinCohort
            borrowing = quotas.usage[cq][flavor] + request > nominal
            candidates = self._candidates(i, flavor, borrowing=borrowing)

            def fits_without(
                victims: list[Candidate], flavor: int = flavor, where: Allowed = where
            ) -> bool:
                return self._fits_without(sid, flavor, where, victims)

            def still_borrowing(
                chosen: list[Candidate], c: Candidate, flavor: int = flavor
            ) -> bool:
                return self._borrows_without(self.cq_of_job[c.job], flavor, chosen)

            victims = (
                choose_victims(candidates, fits_without, still_borrowing) if candidates else None
            )
            if victims:
                grace = self.policy.termination_grace_s
                for victim in victims:
                    self._evict(victim.job, grace_s=grace)
                if grace:
                    # Kueue admits the preemptor in a later cycle, once its victims are gone
                    self.awaiting[i] = self.now + grace
                return True
        return False

    def _candidates(self, i: int, flavor: int, *, borrowing: bool) -> list[Candidate]:
        quotas = self.quotas
        assert quotas is not None
        cq = self.cq_of_job[i]
        policy = quotas.setup.nodes[cq].preemption
        mine = (self.priority[i], i)
        root = self._root_of(cq)
        found: list[Candidate] = []
        for j in self.running_on_flavor.get(flavor, ()):
            start = self.start[j]
            assert start is not None
            if self.now - start < self.policy.min_run_s:
                self._retry_at(start + self.policy.min_run_s)
                continue
            theirs = self.priority[j]
            other = self.cq_of_job[j]
            if other == cq:
                if may_preempt_in_queue(policy, mine, (theirs, j)):
                    found.append(Candidate(j, theirs, start, other_queue=False))
            elif (
                self._root_of(other) == root
                and quotas.setup.nodes[other].reclaimable
                and quotas.usage[other][flavor] > quotas.nominal[other][flavor]
                and may_reclaim(policy, mine[0], theirs, borrowing=borrowing)
            ):
                found.append(Candidate(j, theirs, start, other_queue=True))
        return found

    def _apply_online(self) -> None:
        """Re-apply the online reservation for this hour; evict batch jobs to make room."""
        colocation = self.policy.colocation
        assert colocation is not None
        target = colocation.online_at(self.now)
        while len(self.online) > target:
            self.cluster.release(self.online.pop(), _ONLINE_POD)
            self.freed = self.dirty = True
        while len(self.online) < target:
            plan = self.cluster.plan(_ONLINE_POD, 1, self.online_classes)
            if plan is None:
                victim = self._online_victim()
                if victim < 0:
                    break  # nothing left to evict on those nodes: online runs short
                self._evict(victim, EVICTED_ONLINE)
                self.evicted_online += 1
                continue
            self.online.append(self.cluster.allocate(plan[0][0], _ONLINE_POD, 1))
            self.dirty = True
        # evictions may undo all work forever (a livelock): stop when nothing has completed
        # for a week, or for twice the longest run if that is longer
        if (self.running or self.queued_jobs or self.next_arrival < len(self.jobs)) and not (
            self._livelocked()
        ):
            self._push((self.now // HOUR_S + 1) * HOUR_S, _ONLINE, -1)

    def _livelocked(self) -> bool:
        """Evictions keep undoing all work: jobs have been evicted and nothing has completed
        for a week (or twice the longest run, if longer), or there have been ten evictions per
        job since anything completed. The replay stops there."""
        since = self.evicting_since
        if since is None:
            return False
        churn = self.evictions_since_completion > 10 * len(self.jobs) + 100
        if self.now - since <= self.livelock_s and not churn:
            return False
        if self.livelock is None:
            self.livelock = {
                "since_s": since,
                "at_s": self.now,
                "jobs_waiting": float(self.queued_jobs),
                "jobs_running": float(len(self.running)),
            }
        return True

    def _online_victim(self) -> int:
        """The running batch job to evict: lowest priority, then the most recently started,
        among jobs holding GPUs on nodes that host online services."""
        allowed, node_class = self.online_classes, self.cluster.node_class
        best, best_key = -1, (0, 0.0)
        for j in self.running:
            if not any(
                slices and (allowed is None or node_class[node] in allowed)
                for node, _, slices in self.allocs[j]
            ):
                continue
            key = (self.priority[j], -(self.start[j] or 0.0))
            if best < 0 or key < best_key:
                best, best_key = j, key
        return best

    def _retry_at(self, t: float) -> None:
        """Look again when a job too young to preempt comes of age (no event may be due)."""
        if t not in self.retries:
            self.retries.add(t)
            self._push(t, _RETRY, -1)

    def _root_of(self, node: int) -> int:
        quotas = self.quotas
        assert quotas is not None
        while quotas.parent[node] >= 0:
            node = quotas.parent[node]
        return node

    def _fits_without(
        self, sid: int, flavor: int, where: Allowed, victims: list[Candidate]
    ) -> bool:
        """Whether a job of shape `sid` would be admitted on `flavor` once `victims` are gone:
        its queue's quotas (GPUs, and CPU and memory where limited: nominal plus what it may
        borrow) and the flavor's nodes. Kueue evicts no victim set that leaves it pending."""
        for victim in victims:
            self._charge(self.cq_of_job[victim.job], flavor, self.shape_of[victim.job], -1)
        fits = self._fits_quota(self.shape_cq[sid], flavor, sid)
        for victim in victims:
            self._charge(self.cq_of_job[victim.job], flavor, self.shape_of[victim.job], 1)
        return fits and self._places_without(sid, where, victims)

    def _borrows_without(self, cq: int, flavor: int, victims: list[Candidate]) -> bool:
        """Whether the ClusterQueue still uses more than its nominal quota once `victims`
        are gone."""
        quotas = self.quotas
        assert quotas is not None
        gone = sum(
            _milli(self.shapes[self.shape_of[v.job]])
            for v in victims
            if self.cq_of_job[v.job] == cq
        )
        return quotas.usage[cq][flavor] - gone > quotas.nominal[cq][flavor]

    def _places_without(self, sid: int, where: Allowed, victims: list[Candidate]) -> bool:
        """A what-if on the nodes, undone exactly (the placement's random draws too)."""
        pod, count, _ = self.shapes[sid]
        cluster = self.cluster
        draws = cluster.rng.getstate()
        for victim in victims:
            self._release_job(victim.job)
        plan = cluster.plan(pod, count, where)
        for victim in victims:
            self._reapply_job(victim.job)
        cluster.rng.setstate(draws)
        return plan is not None

    def _evict(self, j: int, reason: int = PREEMPTED, *, grace_s: float = 0.0) -> None:
        """Preempt a running job: it loses the work since its last checkpoint and requeues
        once its pods have terminated, `grace_s` later (they hold GPUs and quota till then)."""
        if self.quotas is not None:
            self.running_on_flavor[self.job_flavor[j]].discard(j)
        if self.policy.queueing == "backfill":
            est_end = self.est_end.pop(j)
            del self.running_by_end[bisect_left(self.running_by_end, (est_end, j))]
        self.running.discard(j)
        self.placed[j] = 0
        start = self.start[j]
        assert start is not None
        ran = self._unstretch(j, self.now - start)
        interval = self.policy.checkpoint_interval_s
        kept = (ran // interval) * interval if interval else 0.0
        restart = self.policy.restart_overhead_s
        self.remaining_s[j] += restart - kept
        self.wasted_gpu_s += self.jobs[j].total_gpus * (ran - kept + restart + grace_s)
        self.segments.setdefault(j, []).append((start, self.now, self._placement_of(j)))
        self.preemptions += 1
        self.evictions_since_completion += 1
        if self.evicting_since is None:
            self.evicting_since = self.now
        self.start[j] = None
        self.preempted_waiting[j] = reason
        self.override_since[j] = self.now
        if grace_s:
            self.state[j] = TERMINATING
            self._push(self.now + grace_s, _TERMINATED, j)
        else:
            self._terminated(j)

    def _may_burst(self, i: int) -> bool:
        return self.state[i] == WAITING and not self.placed[i] and i not in self.preempted_waiting

    def _drop_stale_bursts(self) -> None:
        """Burst and withdrawal deadlines of jobs that started or ended meanwhile must not
        move the clock."""
        events = self.events
        while events and events[0][1] >= _BURST and self._stale(events[0][1], events[0][3]):
            heapq.heappop(events)

    def _stale(self, kind: int, i: int) -> bool:
        if kind == _BURST:
            return not self._may_burst(i)
        state = self.state[i]
        return state in _SETTLED or (state == RUNNING and self.jobs[i].status != "withdrawn")

    def _withdraw(self, i: int) -> None:
        """The job's deadline: if it has not started, it leaves the queue (see the module
        docstring); an observed withdrawal that runs is deleted now."""
        state = self.state[i]
        if state == RUNNING:
            if self.jobs[i].status == "withdrawn":
                self._finish(i)
            return
        if state == WAITING:
            if self.placed[i]:
                self._drop_partial(i)
            self._leave_shape(i)
            if i in self.preempted_waiting:
                self._close_override(i, self.preempted_waiting.pop(i))
            self._dequeue(i)
            if self.gate is not None:
                self.gate.started(i)
                self.gate.pending = [p for p in self.gate.pending if p[0] != i]
        elif state == BACKING_OFF:
            self._close_override(i, BACKOFF)
        elif state != PENDING:
            return  # settled, or terminating: `_terminated` withdraws it
        self.awaiting.pop(i, None)
        self.state[i] = WITHDRAWN
        self.end[i] = self.now
        self.freed = self.dirty = True

    def _drop_partial(self, i: int) -> None:
        """Release the pods a partly placed job holds (pod-by-pod admission)."""
        pod = self.shapes[self.shape_of[i]][0]
        self._close_override(i, PARTIAL_GANG)
        for alloc in self.allocs[i]:
            self.cluster.release(alloc, pod)
        self.held_milli -= pod[0] * pod[1] * self.placed[i]
        self.allocs[i] = []
        self.placed[i] = 0

    def _burst(self, i: int) -> None:
        """Hybrid: it waited longer than the burst threshold, so it runs in the cloud now."""
        self._leave_shape(i)
        self._dequeue(i)
        if self.gate is not None:
            self.gate.started(i)
        self.state[i] = BURST
        self.start[i] = self.now
        end = self.now + self.remaining_s[i]
        deadline = self.deadline[i]
        if deadline is not None and self.jobs[i].status == "withdrawn":
            end = min(end, max(deadline, self.now))  # deleted by its user at the deadline
        self.end[i] = end
        self.freed = self.dirty = True  # the queue changed: backfill re-plans its pivot

    def _terminated(self, j: int) -> None:
        """An evicted job's pods are gone: its GPUs and quota are free, it waits again."""
        if self.quotas is not None:
            flavor = self.job_flavor.pop(j)
            self._charge(self.cq_of_job[j], flavor, self.shape_of[j], -1)
        self._release_job(j)
        self.allocs[j] = []
        self.freed = self.dirty = True
        deadline = self.deadline[j]
        if deadline is not None and deadline <= self.now:  # its user deleted it meanwhile
            self._close_override(j, self.preempted_waiting.pop(j))
            self.state[j] = WITHDRAWN
            self.end[j] = self.now
            return
        self._enqueue(j, requeue=True, preempted=True)

    def _head_failed(self, cq: int, heap: list[tuple[int, int, int]]) -> None:
        quotas = self.quotas
        assert quotas is not None
        if quotas.setup.nodes[cq].strict_fifo:
            heap.clear()
        else:
            heapq.heappop(heap)

    # --- pod-by-pod admission -------------------------------------------------------------

    def _pass_pods(self, arrivals: list[int], full: bool) -> None:
        """kube-scheduler: one pod at a time in queue order; pods of jobs submitted at the
        same instant interleave (their creation times do), which is how two jobs can each
        end up holding part of what both need."""
        failed: set[tuple[PodShape, Allowed]] = set()
        if self.policy.queueing == "strict-fifo":
            while self.order:
                group = self._head_group()
                if not self._place_round_robin(group, failed, strict=True):
                    return
            return
        if full:
            waiting = sorted(i for sid in self.queued_shapes for i in self.queues[sid])
        else:
            waiting = [i for i in arrivals if self.state[i] == WAITING]
        start = 0
        while start < len(waiting):
            stop = start + 1
            while (
                stop < len(waiting)
                and self.jobs[waiting[stop]].submit_s == self.jobs[waiting[start]].submit_s
            ):
                stop += 1
            self._place_round_robin(waiting[start:stop], failed, strict=False)
            start = stop

    def _head_group(self) -> list[int]:
        """The strict-FIFO head and the jobs submitted at the same instant as it."""
        submit = self.jobs[self.order[0]].submit_s
        group: list[int] = []
        for i in self.order:
            if self.jobs[i].submit_s != submit:
                break
            group.append(i)
        return group

    def _place_round_robin(
        self, group: list[int], failed: set[tuple[PodShape, Allowed]], *, strict: bool
    ) -> bool:
        """Place the group's pods round-robin; False if strict FIFO is blocked by a pod."""
        remaining = group
        while remaining:
            again: list[int] = []
            for i in remaining:
                pod, _, allowed = self.shapes[self.shape_of[i]]
                if (pod, allowed) in failed or not self._place_pod(i):
                    failed.add((pod, allowed))
                    if strict:
                        return False
                elif self.state[i] == WAITING:
                    again.append(i)
            remaining = again
        return True

    def _place_pod(self, i: int) -> bool:
        """Place one more pod of `i`; start the job when its last pod lands."""
        pod, _, allowed = self.shapes[self.shape_of[i]]
        plan = self.cluster.plan(pod, 1, allowed)
        if plan is None:
            return False
        if self.placed[i] == 0:
            self._leave_shape(i)
            self._open_override(i)
            if self.policy.pod_timeout_s is not None:
                self._push(self.now + self.policy.pod_timeout_s, _TIMEOUT, i)
        self.allocs[i].append(self.cluster.allocate(plan[0][0], pod, 1))
        self.placed[i] += 1
        self.held_milli += pod[0] * pod[1]
        self.dirty = True
        if self.placed[i] == self.jobs[i].pods:
            self.held_milli -= pod[0] * pod[1] * self.placed[i]
            self._close_override(i, PARTIAL_GANG)
            self._begin_running(i)
        return True

    def _time_out(self, i: int) -> None:
        self._drop_partial(i)
        self._dequeue(i)
        self.state[i] = BACKING_OFF
        self.override_since[i] = self.now
        self.attempts[i] += 1
        self.freed = self.dirty = True
        if self.attempts[i] > self.policy.backoff_limit:
            return  # deactivated, as Kueue's backoffLimitCount does; it stays unfinished
        exponent = min(self.attempts[i] - 1, 30)
        delay = min(self.policy.backoff_base_s * 2**exponent, self.policy.backoff_max_s)
        # jitter, as client-go's backoff has: two jobs released together do not collide forever
        delay *= 1.0 + 0.1 * self.cluster.rng.random()
        self._push(self.now + delay, _REQUEUE, i)

    def _stuck(self) -> None:
        """Nothing will ever happen again, yet jobs wait: partly placed jobs hold the GPUs."""
        if self.held_milli == 0 and not self.online:
            raise AssertionError("jobs wait on an idle cluster: an engine bug, please report")
        self.deadlock = {
            "at_s": self.now,
            "jobs_waiting": float(self.queued_jobs),
            "gpus_held_idle": self.held_milli / MILLI,
        }
        if self.online:
            self.deadlock["gpus_held_by_online_services"] = float(len(self.online))

    # --- job life cycle -----------------------------------------------------------------------

    def _try_start(self, i: int, *, queued: bool = True) -> bool:
        sid = self.shape_of[i]
        pod, count, allowed = self.shapes[sid]
        if self.quotas is not None:
            return self._try_admit(i, queued=queued)
        plan = self.cluster.plan(pod, count, allowed)
        if plan is None:
            return False
        self._start(i, plan, queued=queued)
        return True

    def _try_admit(self, i: int, *, queued: bool) -> bool:
        """Kueue: the first of the ClusterQueue's flavors, in order, whose quota fits; here
        admission is placement-checked (as with topology-aware scheduling), so a flavor whose
        nodes cannot place the job is passed over too."""
        sid = self.shape_of[i]
        pod, count, _ = self.shapes[sid]
        cq = self.shape_cq[sid]
        if self._over_budget(cq):
            return False
        for flavor, where in self._flavors_of(sid):
            if not self._fits_quota(cq, flavor, sid):
                continue
            plan = self.cluster.plan(pod, count, where)
            if plan is not None:
                self._charge(cq, flavor, sid, 1)
                self.job_flavor[i] = flavor
                self.running_on_flavor.setdefault(flavor, set()).add(i)
                self._start(i, plan, queued=queued)
                return True
        return False

    def _over_budget(self, cq: int) -> bool:
        """The queue used its month's budget; look again when the next month starts."""
        budget = self.budgets.get(cq)
        if budget is None:
            return False
        month = int(self.now // BUDGET_MONTH_S)
        used = self.budget_used[cq]
        if month < len(used) and used[month] >= budget:
            self._retry_at((month + 1) * BUDGET_MONTH_S)
            return True
        return False

    def _integrate_budgets(self, t0: float, t1: float) -> None:
        quotas = self.quotas
        assert quotas is not None
        while t0 < t1:
            month = int(t0 // BUDGET_MONTH_S)
            stop = min(t1, (month + 1) * BUDGET_MONTH_S)
            for cq, used in self.budget_used.items():
                while len(used) <= month:
                    used.append(0.0)
                used[month] += sum(quotas.usage[cq]) * (stop - t0)
            t0 = stop

    def _quota_fits(self, sid: int) -> bool:
        cq = self.shape_cq[sid]
        if self._over_budget(cq):
            return False
        return any(self._fits_quota(cq, f, sid) for f, _ in self._flavors_of(sid))

    def _fits_quota(self, cq: int, flavor: int, sid: int) -> bool:
        """GPUs, and CPU and memory where the queue has quotas for them, fit the flavor."""
        quotas = self.quotas
        assert quotas is not None
        pod, count, _ = self.shapes[sid]
        if not quotas.fits(cq, flavor, pod[0] * pod[1] * count):
            return False
        return all(
            not extra.covered[cq][flavor] or extra.fits(cq, flavor, pod[r] * count)
            for extra, r in self.resource_quotas
        )

    def _charge(self, cq: int, flavor: int, sid: int, sign: int) -> None:
        """Add (+1) or return (-1) a job's request to its queue's quotas."""
        quotas = self.quotas
        assert quotas is not None
        pod, count, _ = self.shapes[sid]
        quotas.add(cq, flavor, sign * pod[0] * pod[1] * count)
        for extra, r in self.resource_quotas:
            if extra.covered[cq][flavor]:
                extra.add(cq, flavor, sign * pod[r] * count)

    def _flavors_of(self, sid: int) -> list[tuple[int, Allowed]]:
        """The ClusterQueue's flavors, in order, that have nodes of a type the job accepts,
        with the node classes it may use under each."""
        cached = self.shape_flavors.get(sid)
        if cached is None:
            assert self.quotas is not None
            allowed = self.shapes[sid][2]
            cached = []
            for flavor in self.quotas.setup.flavor_order.get(self.shape_cq[sid], ()):
                where = _intersect(allowed, self.flavor_classes[flavor])
                if where is None or where:
                    cached.append((flavor, where))
            self.shape_flavors[sid] = cached
        return cached

    def _start(self, i: int, plan: list[tuple[int, int]], *, queued: bool = True) -> None:
        pod = self.shapes[self.shape_of[i]][0]
        self.allocs[i] = [self.cluster.allocate(node, pod, pods) for node, pods in plan]
        if queued:
            self._leave_shape(i)
        self._begin_running(i, queued=queued)

    def _begin_running(self, i: int, *, queued: bool = True) -> None:
        if queued:
            self._dequeue(i)
        self.state[i] = RUNNING
        self.start[i] = self.now
        self.awaiting.pop(i, None)
        if self.gate is not None:
            self.gate.started(i)
        pod = self.shapes[self.shape_of[i]][0]
        milli = pod[0] * pod[1]
        for node, pods, _ in self.allocs[i]:
            self.alloc_by_pool[self.pool_index[self.cluster.node_class[node]]] += milli * pods
        self.running.add(i)
        if i in self.preempted_waiting:
            self._close_override(i, self.preempted_waiting.pop(i))
        self.finish_at[i] = self.now + self._stretch(i)
        self._push(self.finish_at[i], _FINISH, i)
        if self.policy.queueing == "backfill":
            # the estimate covers the run as placed (time-sliced slowdown, MIG re-layout)
            factor = self.policy.estimate_factor
            run = self.finish_at[i] - self.now
            self.est_end[i] = self.finish_at[i] if factor == 1.0 else self.now + run * factor
            insort(self.running_by_end, (self.est_end[i], i))
        self.dirty = True

    def _stretch(self, i: int) -> float:
        """Wall time the job's remaining work takes where it was placed: a time-sliced GPU
        it shares slows it down (and slows down a lone tenant it joins, from now on), a MIG
        re-layout of its GPU delays it."""
        work = self.remaining_s[i]
        if not self.cluster.shared:
            return work
        factor, delay, pool = 1.0, 0.0, -1
        for node, _, slices in self.allocs[i]:
            cls = self.cluster.node_class[node]
            mode = self.cluster.classes[cls].sharing
            if isinstance(mode, TimeSlicing):
                if self._join_time_sliced(i, node, slices, mode) and mode.slowdown > factor:
                    factor, pool = mode.slowdown, self.pool_index[cls]
            elif isinstance(mode, MigConfig):
                relayouts = sum(1 for _, a in slices if a & MIG_RELAYOUT)
                if relayouts:
                    pool = self.pool_index[cls]
                    self.shared_s[pool][4] += relayouts
                    delay = max(delay, mode.relayout_delay_s or 0.0)
        if pool < 0:
            return work
        self.stretched[i] = (factor, delay, pool, 0.0, work)
        return work * factor + delay

    def _join_time_sliced(
        self, i: int, node: int, slices: tuple[tuple[int, int], ...], mode: TimeSlicing
    ) -> bool:
        """Record `i` on its time-sliced GPUs; whether it shares one (with another job, or
        with itself: two replicas of one GPU). Lone tenants it joins slow down from now."""
        shared = False
        for gpu, _ in slices:
            tenants = self.tenants.setdefault((node, gpu), set())
            for j in tenants - {i}:
                self._slow_down(j, mode.slowdown, self.pool_index[self.cluster.node_class[node]])
            tenants.add(i)
            shared = shared or self.cluster.gpu_free[node][gpu] < mode.replicas - 1
        return shared

    def _slow_down(self, j: int, factor: float, pool: int) -> None:
        """A running job that had its GPU alone gets company: the rest of its work runs
        `factor` slower (it does not speed up again when the company leaves)."""
        if j in self.stretched:
            return
        start = self.start[j]
        assert start is not None
        ran = self.now - start
        work = self.remaining_s[j]
        self.stretched[j] = (factor, 0.0, pool, ran, work)
        self.finish_at[j] = self.now + (work - ran) * factor
        self._push(self.finish_at[j], _FINISH, j)

    def _leave_time_sliced(self, i: int) -> None:
        for node, _, slices in self.allocs[i]:
            for gpu, _ in slices:
                self.tenants.get((node, gpu), set()).discard(i)

    def _unstretch(self, i: int, ran: float) -> float:
        """Work done in `ran` wall seconds; the wall time beyond it goes to `stretch_gpu_s`."""
        if self.tenants:
            self._leave_time_sliced(i)
        found = self.stretched.pop(i, None)
        if found is None:
            return ran
        factor, delay, pool, full_speed, work_total = found
        # full speed for `full_speed` s (after any delay), then `factor` slower
        fast = min(max(0.0, ran - delay), full_speed)
        work = min(work_total, fast + max(0.0, ran - delay - full_speed) / factor)
        self.shared_s[pool][3] += (ran - work) * self.jobs[i].total_gpus
        return work

    def _finish(self, i: int) -> None:
        if i in self.stretched or self.tenants:
            self._unstretch(i, self.now - self.start[i])  # type: ignore[operator]
        self.running.discard(i)
        self.last_completion = self.now
        self.evicting_since = None
        self.evictions_since_completion = 0
        self._release_job(i)
        if self.quotas is not None:
            sid = self.shape_of[i]
            flavor = self.job_flavor.pop(i)
            self._charge(self.shape_cq[sid], flavor, sid, -1)
            self.running_on_flavor[flavor].discard(i)
        self.state[i] = DELETED if self.jobs[i].status == "withdrawn" else DONE
        self.end[i] = self.now
        if self.policy.queueing == "backfill":
            est_end = self.est_end.pop(i)
            del self.running_by_end[bisect_left(self.running_by_end, (est_end, i))]
            if est_end > self.now:
                self.early_finish = True
        self.freed = self.dirty = True

    def _release_job(self, i: int) -> None:
        pod = self.shapes[self.shape_of[i]][0]
        milli = pod[0] * pod[1]
        for alloc in self.allocs[i]:
            self.cluster.release(alloc, pod)
            self.alloc_by_pool[self.pool_index[self.cluster.node_class[alloc[0]]]] -= (
                milli * alloc[1]
            )

    def _reapply_job(self, i: int) -> None:
        """Undo `_release_job` exactly (same GPUs), after a what-if for the backfill shadow."""
        pod = self.shapes[self.shape_of[i]][0]
        milli = pod[0] * pod[1]
        for alloc in self.allocs[i]:
            self.cluster.reapply(alloc, pod)
            self.alloc_by_pool[self.pool_index[self.cluster.node_class[alloc[0]]]] += (
                milli * alloc[1]
            )

    def _push(self, t: float, kind: int, i: int) -> None:
        self.seq += 1
        heapq.heappush(self.events, (t, kind, self.seq, i))

    # --- the waiting queue and why jobs wait -------------------------------------------------

    def _enqueue(self, i: int, *, requeue: bool = False, preempted: bool = False) -> None:
        self.state[i] = WAITING
        sid = self.shape_of[i]
        queue = self.queues[sid]
        if requeue and queue and queue[-1] > i:
            _insert_sorted(queue, i)
        else:
            queue.append(i)
        self.queued_shapes.add(sid)
        if self.policy.queueing == "strict-fifo":
            if requeue and self.order and self.order[-1] > i:
                _insert_sorted(self.order, i)
            else:
                self.order.append(i)
        self.queued_jobs += 1
        self.queued_milli += _milli(self.shapes[sid])
        if self.gate is not None:
            self.gate.arrive(i, _milli(self.shapes[sid]))
        burst = self.policy.burst_after_s
        if burst is not None and not requeue:
            self._push(self.jobs[i].submit_s + burst, _BURST, i)
        if not preempted:  # a preempted job's wait is booked to `preempted` until it reruns
            self._join_shape(i)

    def _dequeue(self, i: int) -> None:
        """Out of the waiting queue (started, or released into backoff)."""
        sid = self.shape_of[i]
        queue = self.queues[sid]
        if queue[0] == i:
            queue.popleft()
        else:
            queue.remove(i)
        if not queue:
            self.queued_shapes.discard(sid)
        if self.policy.queueing == "strict-fifo":
            if self.order[0] == i:
                self.order.popleft()
            else:
                self.order.remove(i)
        self.queued_jobs -= 1
        self.queued_milli -= _milli(self.shapes[sid])

    def _join_shape(self, i: int) -> None:
        sid = self.shape_of[i]
        self._touch(sid)
        self.snapshot[i] = self.cum[sid].copy()
        self.members[sid] += 1
        if self.members[sid] == 1:
            # decided at the end of the instant (most arrivals start at once and never wait)
            self.waiting_shapes.add(sid)
            part = self.part_of[sid]
            self.part_sample[part] = sid
            if not self.part_shapes[part]:
                self.waiting_parts.add(part)
            self.part_shapes[part].add(sid)
            self.part_reason[part] = _NO_REASON
            self.undecided = True

    def _leave_shape(self, i: int) -> None:
        """Stop accruing the shape's reasons for `i`; fold what it accrued into its total."""
        snap = self.snapshot[i]
        if snap is None:
            return
        sid = self.shape_of[i]
        self._touch(sid)
        cum = self.cum[sid]
        waited = self._wait_of(i)
        for r, value in enumerate(cum):
            waited[r] += value - snap[r]
        self.snapshot[i] = None
        self.members[sid] -= 1
        if not self.members[sid]:
            self.waiting_shapes.discard(sid)
            self.shape_reason[sid] = _NO_REASON
            part = self.part_of[sid]
            self.part_shapes[part].discard(sid)
            if not self.part_shapes[part]:
                self.waiting_parts.discard(part)

    def _open_override(self, i: int) -> None:
        self.override_since[i] = self.now

    def _close_override(self, i: int, reason: int) -> None:
        self._wait_of(i)[reason] += self.now - self.override_since[i]
        self.override_since[i] = self.now

    def _wait_of(self, i: int) -> list[float]:
        waited = self.wait[i]
        if waited is None:
            waited = self.wait[i] = [0.0] * len(REASON_CODES)
        return waited

    def _touch(self, sid: int) -> None:
        reason = self.shape_reason[sid]
        if reason != _NO_REASON:
            self.cum[sid][reason] += self.now - self.cum_t[sid]
        self.cum_t[sid] = self.now

    def _decide_reasons(self) -> None:
        """Decide each waiting shape's reason, GPU part first.

        Shapes that differ only in CPU and memory share a GPU part; when the GPUs are
        short the whole part has one reason and, if it did not change, nothing is touched.
        Only shapes whose GPUs fit are checked one by one.
        """
        cluster = self.cluster
        for part in self.waiting_parts:
            reason = self._gpu_reason(part)
            shapes = self.part_shapes[part]
            if reason != _GPUS_FIT:
                if reason != self.part_reason[part]:
                    for sid in shapes:
                        self._set_reason(sid, reason)
            elif self.parts[part][1] == 1:
                self._decide_single_pods(part)
            else:
                for sid in shapes:
                    pod, count, allowed = self.shapes[sid]
                    fits = cluster.fits(pod, count, allowed)
                    self._set_reason(sid, BEHIND_HEAD if fits else CPU_MEM_SHORT)
            self.part_reason[part] = reason

    def _decide_single_pods(self, part: int) -> None:
        """One-pod shapes whose GPUs fit: compare CPU and memory with the free headroom."""
        gpu_pod, _, allowed = self.parts[part]
        headroom = self.cluster.headroom(gpu_pod, allowed)
        if self.part_reason[part] == _GPUS_FIT and headroom == self.part_headroom[part]:
            return  # nothing these shapes could see has changed
        self.part_headroom[part] = headroom
        for sid in self.part_shapes[part]:
            _, _, cpu, mem = self.shapes[sid][0]
            fits = any(c >= cpu and m >= mem for c, m in headroom)
            self._set_reason(sid, BEHIND_HEAD if fits else CPU_MEM_SHORT)

    def _gpu_reason(self, part: int) -> int:
        """The part's reason if its GPUs are short, else _GPUS_FIT. With ClusterQueues: quota
        first, then the hardware of the first flavor whose quota fits."""
        pod, count, allowed = self.parts[part]
        quotas = self.quotas
        if quotas is None:
            return self._hardware_reason(pod, count, allowed)
        sid = self.part_sample[part]
        cq = self.shape_cq[sid]
        if self._over_budget(cq):
            return OVER_BUDGET
        reason = QUOTA
        for flavor, where in self._flavors_of(sid):
            if self._fits_quota(cq, flavor, sid):
                found = self._hardware_reason(pod, count, where)
                if found == _GPUS_FIT:
                    return found
                if reason == QUOTA:
                    reason = found
        return reason

    def _hardware_reason(self, pod: PodShape, count: int, allowed: Allowed) -> int:
        need = pod[0] * pod[1] * count
        if not need:
            return _GPUS_FIT
        cluster = self.cluster
        if cluster.free_milli(allowed) < need:
            if allowed is not None and cluster.free_milli(None) >= need:
                return GPU_TYPE_BUSY
            return CLUSTER_FULL
        return _GPUS_FIT if cluster.fits(pod, count, allowed) else FRAGMENTED

    def _set_reason(self, sid: int, reason: int) -> None:
        if reason != self.shape_reason[sid]:
            self._touch(sid)
            self.shape_reason[sid] = reason

    # --- unschedulable jobs, integration, result -----------------------------------------------

    def _reject_unschedulable(self) -> None:
        verdicts = [
            self._no_flavor(sid) or _never_fits(self.cluster, shape) or self._never_admitted(sid)
            for sid, shape in enumerate(self.shapes)
        ]
        bursting = self.policy.burst_after_s is not None
        for i, sid in enumerate(self.shape_of):
            if verdicts[sid] and bursting:
                # hybrid: what can never run on prem goes to the cloud when submitted
                job = self.jobs[i]
                self.state[i] = BURST
                run = job.withdraw_after_s if job.status == "withdrawn" else None
                self.start[i] = job.submit_s
                self.end[i] = job.submit_s + (job.duration_s if run is None else run)
            elif verdicts[sid] and self.deadline[i] is not None:
                self.state[i] = WITHDRAWN  # it waits, in vain, until its deadline
                self.end[i] = self.deadline[i]
            elif verdicts[sid]:
                self.state[i] = UNSCHEDULABLE
                self.unschedulable[i] = verdicts[sid]

    def _no_flavor(self, sid: int) -> str:
        """The job's GPU type is installed, but its ClusterQueue has no flavor of that type."""
        if self.quotas is None or self.shape_cq[sid] == _NO_QUEUE or self._flavors_of(sid):
            return ""
        own_types = self.jobs[self.shape_of.index(sid)].gpu_types  # rare: no flavor fits
        installed = self.cluster.classes_for(own_types)
        return "no_flavor_for_gpu_type" if installed is None or installed else ""

    def _never_admitted(self, sid: int) -> str:
        """Why the job's ClusterQueue can never admit it, even with the whole cohort idle."""
        if self.quotas is None:
            return ""
        cq = self.shape_cq[sid]
        if cq == _NO_QUEUE:
            return "no_cluster_queue"
        return "" if self._quota_fits(sid) else "more_than_queue_quota"

    def _advance(self, t: float) -> None:
        """Integrate everything that is constant between instants, up to `t`."""
        dt = t - self.last_t
        if dt > 0:
            allocated = sum(self.alloc_by_pool)
            self.allocated_milli_s += allocated * dt
            self.held_milli_s += self.held_milli * dt
            self.online_milli_s += len(self.online) * MILLI * dt
            if self.shared_pools:
                self._integrate_sharing(dt)
            if self.quotas is not None:
                self._integrate_borrowing(dt)
                if self.budgets:
                    self._integrate_budgets(self.last_t, t)
            self.bin_acc.add(self, self.last_t, t)
        self.last_t = self.now = t

    def _integrate_sharing(self, dt: float) -> None:
        cluster = self.cluster
        for p in self.shared_pools:
            self.shared_s[p][0] += self.alloc_by_pool[p] / MILLI * dt
        for c in cluster.shared:
            totals = self.shared_s[self.pool_index[c]]
            totals[1] += cluster.shared_granted[c] * dt
            totals[2] += cluster.shared_occupied[c] * dt

    def _integrate_borrowing(self, dt: float) -> None:
        """Borrowed: use above nominal quota. Lent: each ClusterQueue's unused nominal quota
        lends, pro rata, what its cohort tree's members borrow."""
        quotas = self.quotas
        assert quotas is not None
        if not quotas.total_borrowed:
            return
        flavors = range(len(quotas.setup.flavors))
        for members in self.cohort_trees:
            for cq in members:
                self.borrowed_milli_s[cq] += quotas.borrowed(cq) * dt
            for f in flavors:
                usage = [(cq, quotas.usage[cq][f], quotas.nominal[cq][f]) for cq in members]
                total = sum(max(0, used - nominal) for _, used, nominal in usage)
                spare = sum(max(0, nominal - used) for _, used, nominal in usage)
                if not total or not spare:
                    continue
                lent = min(total, spare) * dt / spare
                for cq, used, nominal in usage:
                    if nominal > used:
                        self.lent_milli_s[cq] += (nominal - used) * lent

    def _result(self) -> ReplayResult:
        end = self.now
        for i in range(len(self.jobs)):
            if self.snapshot[i] is not None:
                self._leave_shape(i)
            state = self.state[i]
            if state == WAITING and self.placed[i]:
                self._close_override(i, PARTIAL_GANG)
            elif state == BACKING_OFF:
                self._close_override(i, BACKOFF)
            if i in self.preempted_waiting:
                self._close_override(i, self.preempted_waiting.pop(i))
            elif state == RUNNING:
                self.end[i] = end
        self.bin_acc.finish(self)
        capacity: dict[str, int] = {}
        for c in self.cluster.node_class:
            pool = self.pool_of_class[c]
            capacity[pool] = capacity.get(pool, 0) + self.cluster.classes[c].gpus
        return ReplayResult(
            jobs=self.jobs,
            policy=self.policy,
            node_ids=self.cluster.node_ids,
            capacity_gpus=capacity,
            status=[_STATUS[s] for s in self.state],
            start_s=self.start,
            end_s=self.end,
            placement=[self._placement_of(i) for i in range(len(self.jobs))],
            wait_by_reason=[tuple(w) if w is not None and any(w) else None for w in self.wait],
            unschedulable_reason=self.unschedulable,
            horizon_s=end,
            allocated_gpu_s=self.allocated_milli_s / MILLI,
            held_idle_gpu_s=self.held_milli_s / MILLI,
            deadlock=self.deadlock,
            timeline=self.timeline,
            rounded_up_pods=self.rounded_up,
            distinct_states_max=self.distinct_max,
            segments=self.segments,
            livelock=self.livelock,
            preemptions=self.preemptions,
            evicted_by_online=self.evicted_online,
            online_gpu_s=self.online_milli_s / MILLI,
            wasted_gpu_s=self.wasted_gpu_s,
            sharing=self._sharing_results(end),
            overhead_gpu_s=sum(
                (self.run_s[i] - job.duration_s) * job.total_gpus
                for i, job in enumerate(self.jobs)
                if self.state[i] == DONE
            ),
            **self._queue_results(),
        )

    def _sharing_results(self, end: float) -> dict[str, dict[str, Any]]:
        report: dict[str, dict[str, Any]] = {}
        cluster = self.cluster
        for c, shared in cluster.shared.items():
            pool = self.pool_of_class[c]
            nodes = cluster.node_class.count(c)
            entry = report.setdefault(
                pool,
                {"mode": mode_label(shared.mode), "gpus": 0, "advertised": 0},
            )
            entry["gpus"] += shared.gpus * nodes
            entry["advertised"] += shared.advertised() * nodes
        for pool, entry in report.items():
            requested, granted, occupied, lost, relayouts = self.shared_s[self.pools.index(pool)]
            capacity = entry["gpus"] * end
            entry.update(
                requested_gpu_hours=requested / 3600.0,
                granted_gpu_hours=granted / 3600.0,
                occupied_gpu_hours=occupied / 3600.0,
                capacity_gpu_hours=capacity / 3600.0,
                requested_share=requested / capacity if capacity else 0.0,
                occupied_share=occupied / capacity if capacity else 0.0,
                slowdown_gpu_hours=lost / 3600.0,
                relayouts=int(relayouts),
            )
        return report

    def _queue_results(self) -> dict[str, Any]:
        if self.quotas is None:
            return {}
        names = [node.name for node in self.quotas.setup.nodes]
        return {
            "cluster_queue": [names[cq] if cq >= 0 else "" for cq in self.cq_of_job],
            "borrowed_gpu_s": {names[c]: v / MILLI for c, v in self.borrowed_milli_s.items()},
            "lent_gpu_s": {names[c]: v / MILLI for c, v in self.lent_milli_s.items()},
            "budget_used_gpu_s": {
                names[c]: [v / MILLI for v in used] for c, used in self.budget_used.items()
            },
            "unmapped_queues": dict(self.unmapped),
        }

    def _placement_of(self, i: int) -> tuple[tuple[int, float], ...]:
        pod = self.shapes[self.shape_of[i]][0]
        per_node: dict[int, int] = {}
        for node, pods, _ in self.allocs[i]:
            per_node[node] = per_node.get(node, 0) + pod[0] * pod[1] * pods
        return tuple((node, milli / MILLI) for node, milli in per_node.items())


class _HeadMerge:
    """Waiting jobs in queue order across the per-shape queues, one candidate per shape.

    After a yielded job: `drop()` ends its shape for this pass (free capacity only shrinks
    during a pass, so shape-mates cannot fit either); `skip()` moves on to the next job of
    the same shape (backfill: this one was too long); otherwise the shape's new head (the
    job started and left its queue) is offered next.
    """

    def __init__(self, replay: "_Replay") -> None:
        self.queues = replay.queues
        self.skipped: dict[int, int] = {}
        self.heap = [(self.queues[s][0], s) for s in replay.queued_shapes]
        heapq.heapify(self.heap)
        self.pending = -1

    def __iter__(self) -> "_HeadMerge":
        return self

    def __next__(self) -> int:
        if self.pending >= 0:
            queue = self.queues[self.pending]
            k = self.skipped.get(self.pending, 0)
            if k < len(queue):
                heapq.heappush(self.heap, (queue[k], self.pending))
        if not self.heap:
            raise StopIteration
        i, self.pending = heapq.heappop(self.heap)
        return i

    def drop(self) -> None:
        self.pending = -1

    def skip(self) -> None:
        self.skipped[self.pending] = self.skipped.get(self.pending, 0) + 1


class _BinAccumulator:
    """Folds piecewise-constant series into the timeline's fixed-width bins.

    Fragmentation is sampled when a bin opens, from the state that holds over the interval
    being integrated.
    """

    def __init__(self, pools: int) -> None:
        self.pools = pools
        self.index = -1
        self.alloc = [0.0] * pools
        self.held = self.jobs = self.milli = 0.0

    def add(self, replay: "_Replay", t0: float, t1: float) -> None:
        timeline = replay.timeline
        width = timeline.bin_s
        sample: tuple[float, float] | None = None  # the state holds over [t0, t1)
        while t0 < t1:
            index = int(t0 // width)
            if (index + 1) * width <= t0:  # float division rounded down past a boundary
                index += 1
            if index != self.index:
                self.finish(replay)
                if index >= _MAX_BINS:
                    timeline.coarsen()
                    width = timeline.bin_s
                    continue
                sample = sample or self._sample(replay)
                self._open(index, timeline, sample)
            stop = min(t1, (index + 1) * width)
            dt = stop - t0
            for p, milli in enumerate(replay.alloc_by_pool):
                self.alloc[p] += milli * dt
            self.held += replay.held_milli * dt
            self.jobs += replay.queued_jobs * dt
            self.milli += replay.queued_milli * dt
            t0 = stop

    @staticmethod
    def _sample(replay: "_Replay") -> tuple[float, float]:
        """(idle GPUs no waiting job can use, FGD-fragmented GPUs) in the current state."""
        cluster = replay.cluster
        waiting = [(replay.shapes[s][0], replay.shapes[s][2]) for s in replay.queued_shapes]
        frag = cluster.fgd_fragmentation() if cluster.typical else 0
        return cluster.unusable_free_milli(waiting) / MILLI, frag / MILLI

    def _open(self, index: int, timeline: Timeline, sample: tuple[float, float]) -> None:
        self.index = index
        timeline.unusable_idle_gpus.append(sample[0])
        timeline.fgd_fragmented_gpus.append(sample[1])

    def finish(self, replay: "_Replay") -> None:
        """Close the open bin (the last one may be partial; its means use the full width)."""
        if self.index < 0:
            return
        timeline = replay.timeline
        scale = 1.0 / (timeline.bin_s * MILLI)
        timeline.allocated_gpus.append([a * scale for a in self.alloc])
        timeline.held_idle_gpus.append(self.held * scale)
        timeline.queued_jobs.append(self.jobs / timeline.bin_s)
        timeline.queued_gpus.append(self.milli * scale)
        self.alloc = [0.0] * self.pools
        self.held = self.jobs = self.milli = 0.0
        self.index = -1


def _shapes(
    jobs: list[Job],
    cluster: ClusterState,
    cq_of_job: list[int],
    cq_allowed: dict[int, Allowed],
    *,
    quota_on: tuple[bool, bool] = (False, False),
    priorities: list[int] | None = None,
) -> tuple[list[Shape], list[int], list[int], list[int], int]:
    """Distinct shapes (pod, pods, allowed classes; with queues also ClusterQueue and
    priority), each job's shape id, each shape's queue and priority, pods rounded up.
    CPU and memory count when nodes limit them or queues have quotas on them."""
    cpu_on, mem_on = cluster.cpu_limited or quota_on[0], cluster.mem_limited or quota_on[1]
    keys: dict[tuple[Shape, int, int], int] = {}
    allowed_of: dict[tuple[tuple[str, ...], int], Allowed] = {}
    shape_of: list[int] = []
    rounded_up = 0
    for index, job in enumerate(jobs):
        pod = pod_shape(job.gpus, job.cpu, job.mem_gib, cpu_on=cpu_on, mem_on=mem_on)
        pod = _mig_request(pod, job.gpu_types)
        if job.gpus > 1 and job.gpus != int(job.gpus):
            rounded_up += job.pods
        priority = priorities[index] if priorities is not None else job.priority
        cq, priority = (cq_of_job[index], priority) if cq_of_job else (-1, 0)
        where = (job.gpu_types, cq)
        if where not in allowed_of:
            allowed_of[where] = _intersect(cluster.classes_for(job.gpu_types), cq_allowed.get(cq))
        key = ((pod, job.pods, allowed_of[where]), cq, priority)
        shape_of.append(keys.setdefault(key, len(keys)))
    shapes = [shape for shape, _, _ in keys]
    return (
        shapes,
        shape_of,
        [cq for _, cq, _ in keys],
        [priority for _, _, priority in keys],
        rounded_up,
    )


def _mig_request(pod: PodShape, gpu_types: tuple[str, ...]) -> PodShape:
    """A pod asking for a MIG profile (`gpu_type` 3g.40gb) asks for its code, per instance."""
    for name in gpu_types:
        prof = find_profile(name)
        if prof is not None and pod[1]:
            return (prof.code, pod[1], pod[2], pod[3])
    return pod


def _cluster_queue(index: int | None) -> int:
    return _NO_QUEUE if index is None else index


def _intersect(a: Allowed, b: Allowed) -> Allowed:
    if a is None:
        return b
    return a if b is None else a & b


def _union(sets: list[Allowed]) -> Allowed:
    if any(classes is None for classes in sets):
        return None
    return frozenset().union(*[classes for classes in sets if classes is not None])


def _milli(shape: Shape) -> int:
    pod, count, _ = shape
    return pod[0] * pod[1] * count


def _median_duration(jobs: list[Job]) -> float:
    durations = sorted(job.duration_s for job in jobs[:: max(1, len(jobs) // 1000)])
    return durations[len(durations) // 2] if durations else 0.0


def _insert_sorted(queue: deque[int], i: int) -> None:
    for pos, j in enumerate(queue):
        if j > i:
            queue.insert(pos, i)
            return
    queue.append(i)


def _never_fits(cluster: ClusterState, shape: Shape) -> str:
    """Why a job of this shape cannot run even on the empty cluster ('' if it can)."""
    pod, count, allowed = shape
    if cluster.fits(pod, count, allowed):
        return ""
    if allowed is not None and not allowed:
        return "gpu_type_not_installed"
    if pod[0] * pod[1] * count > cluster.free_milli(allowed):
        return "more_gpus_than_installed"
    if cluster.capacity(pod, allowed) == 0 and cluster.refused_by_sharing(pod, allowed):
        return "no_such_shared_device"
    if cluster.capacity(pod, allowed) == 0:
        return "pod_larger_than_any_node"
    return "gang_does_not_fit_nodes"
