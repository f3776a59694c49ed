"""The replay: the only code that advances simulated time.

`simulate(jobs, nodes, policy)` applies all events of an instant (finishes, timeouts,
requeues, then arrivals), then offers the free capacity to waiting jobs once, in the
queueing policy's order; `ClusterState` decides where pods go. Waiting jobs are grouped by
shape (pod request, pod count, allowed GPU types): jobs of one shape fit or fail together,
so a pass tries each shape once instead of every job, and why-they-wait is decided per
shape. Deterministic: the only randomness is `random.Random(policy.seed)`.

This module keeps the event heap, the job states and the waiting queues. Each scheduling
concern is a module of its own that hooks in through `planner.engine.hooks` (a `Queueing`
that allocates, `Plugin`s that hear of each job's life cycle); `planner.engine.registry`
picks them from the policy. Jobs are numbered in the order they enter the queue, at
`arrive[i]`: their submission, plus `Policy.start_latency` when set (`planner.engine.arrivals`).

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
import math
from collections import deque
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from planner.core.config import NodeSpec
from planner.core.errors import InternalCheckError
from planner.core.model import Job
from planner.engine.arrivals import arrival_order, read_jobs
from planner.engine.burst import Burst
from planner.engine.cluster import MILLI, ClusterState, NodeAlloc
from planner.engine.event_heap import EventHeap
from planner.engine.events import BURST, FINISH, KINDS, RETRY, TERMINATED, held_float, held_time
from planner.engine.evictions import Evictions
from planner.engine.hooks import Plugin, bind
from planner.engine.online import OnlineServices
from planner.engine.outcome import build_result
from planner.engine.overhead import stretched
from planner.engine.placements import NO_ALLOCS, Placement, Placements
from planner.engine.policy import Policy, check_horizon
from planner.engine.reasons import WaitReasons
from planner.engine.registry import plugins, queue_admission
from planner.engine.result import ReplayResult
from planner.engine.shapes import find_shapes, insert_sorted, milli, typical_mix
from planner.engine.slowdown import Slowdowns
from planner.engine.states import (
    DELETED,
    DONE,
    PENDING,
    RUNNING,
    UNSCHEDULABLE,
    WAITING,
    WITHDRAWN,
)
from planner.engine.timeline import TimelineRecorder, new_timeline

_PROGRESS_STEPS: Final = 2048  # loop iterations between progress checks
_PROGRESS_MIN_STEP: Final = 0.01  # report when the fraction done grew by at least this
P = TypeVar("P", bound=Plugin)
__all__ = ["Replay", "ReplayResult", "simulate"]


def simulate(
    jobs: Sequence[Job],
    nodes: Sequence[NodeSpec],
    policy: Policy,
    progress: Callable[[float], None] | None = None,
    *,
    timeline_bin_s: float | None = None,
) -> ReplayResult:
    """Replay `jobs` on `nodes` under `policy`; see the module docstring.

    `progress`, if given, is called now and then with the fraction done (0-1, increasing,
    1.0 last): half arrivals, half jobs settled (neither waiting nor running). It may raise
    to abandon the replay. `timeline_bin_s`: the timeline's bin width (`new_timeline`).
    """
    check_horizon(policy)  # the jobs' times are checked as the replay reads them
    # millions of short-lived tuples, no cycles: the collector's rescans took a third of the run
    collecting = gc.isenabled()
    gc.disable()
    try:
        result = Replay(jobs, nodes, policy, timeline_bin_s=timeline_bin_s).run(progress)
    except AssertionError as err:
        raise InternalCheckError.from_assertion(err) from err
    finally:
        if collecting:
            gc.enable()
    if progress is not None:
        progress(1.0)
    return result


class Replay:
    """State of one replay; `run()` is the event loop, the rest are its steps."""

    def __init__(
        self,
        jobs: Sequence[Job],
        nodes: Sequence[NodeSpec],
        policy: Policy,
        *,
        timeline_bin_s: float | None = None,
    ) -> None:
        self.jobs, self.arrive = arrival_order(jobs, policy)
        self.latency = policy.start_latency is not None
        self.policy = policy
        self.timeline_bin_s = timeline_bin_s
        self.cluster = ClusterState(
            nodes, policy.placement, seed=policy.seed, sharing=policy.sharing
        )
        kueue = queue_admission(self)
        self.priority = kueue.priority if kueue else [job.priority for job in self.jobs]
        found = find_shapes(
            self.jobs,
            self.cluster,
            kueue.cq_of_job if kueue else [],
            kueue.cq_allowed if kueue else {},
            quota_on=kueue.quota_on() if kueue else (False, False),
            priorities=self.priority,
        )
        self.shapes, self.shape_of, self.shape_cq, self.shape_priority, self.rounded_up = found
        self.shape_milli = [milli(shape) for shape in self.shapes]
        # per shape (compiled, a `PodShape` field read by name is a generic attribute look-up)
        self.pod_milli = [pod.milli * pod.gpus for pod, _, _ in self.shapes]
        # the FGD measure is reported for every policy; only `fgd` also places by it
        self.cluster.typical = tuple(typical_mix(self.shapes, self.shape_of))
        self._init_jobs(len(self.jobs))
        self._init_integrals()
        self.reasons = WaitReasons(self, len(self.jobs))
        if kueue is not None:
            self.reasons.quota_reason = kueue.gpu_reason
        self.evictions = Evictions(self)
        self.preempted_waiting = self.evictions.preempted_waiting  # the same dict, bound once
        queueing, self.plugins = plugins(self, kueue)
        self.try_start = queueing.try_start
        self.allocate = queueing.allocate
        self.starts_arrivals = queueing.starts_arrivals
        self.never_runs = queueing.never_runs
        self._bind(self.plugins)

    def _init_jobs(self, n: int) -> None:
        self.deadline, self.observed_withdrawn, run_s = read_jobs(self.jobs)
        self.run_s = stretched(run_s, self.jobs, self.policy.overhead)
        # the run times until an eviction changes one (`Evictions.evict` copies them then):
        # a copy made up front held 8 bytes a job in every replay (issue 33)
        self.remaining_s = self.run_s
        self.finish_at = [0.0] * n
        self.state = [PENDING] * n
        self.start: list[float | None] = [None] * n
        self.end: list[float | None] = [None] * n
        self.allocs: list[list[NodeAlloc]] = [NO_ALLOCS] * n
        self.ran_on = Placements(n)
        self.placed = [0] * n  # pods placed of a job not running yet (pod admission)
        self.running: set[int] = set()
        self.unschedulable: dict[int, str] = {}
        self.queues: list[deque[int]] = [deque() for _ in self.shapes]  # per shape
        self.queued_shapes: set[int] = set()  # shapes with a non-empty queue
        self.order: deque[int] = deque()  # strict FIFO: every waiting job in queue order
        self.strict_order = self.policy.queueing == "strict-fifo"
        self.queued_jobs = 0
        self.queued_milli = 0
        self.events = EventHeap()
        self.seq = 0
        self.now = 0.0
        self.next_arrival = 0
        self.reported = 0.0
        self.dirty = False  # the cluster changed since reasons were last decided
        self.freed = False  # capacity was released since the last full pass
        self.retries: set[float] = set()
        self.deadlock: dict[str, float] | None = None
        self.in_play: list[bool] = []  # with start latency: not rejected before the loop

    def _init_integrals(self) -> None:
        self.pool_of_class = [hw.pool for hw in self.cluster.classes]
        self.pools = sorted(set(self.pool_of_class))
        self.pool_index = [self.pools.index(p) for p in self.pool_of_class]
        self.alloc_by_pool = [0] * len(self.pools)
        self.held_milli = 0  # placed pods of jobs that do not run yet
        self.allocated_milli_s = 0.0
        self.held_milli_s = 0.0
        self.last_t = 0.0
        self.timeline = new_timeline(self.jobs, self.arrive, self.pools, self.timeline_bin_s)
        self.recorder = TimelineRecorder(self.timeline)
        self.distinct_max = self.cluster.distinct_states()
        self.members = self.cluster.index.members  # the same dict, bound once

    def _bind(self, found: list[Plugin]) -> None:
        """Bind every hook once: the loop calls each directly, or skips it if none is set."""
        self.on_begin = bind(found, "begin")
        self.on_enqueued = bind(found, "enqueued")
        self.on_started = bind(found, "started")
        self.on_finished = bind(found, "finished")
        self.on_evicted = bind(found, "evicted")
        self.on_terminated = bind(found, "terminated")
        self.on_withdrawn = bind(found, "withdrawn")
        self.on_bursted = bind(found, "bursted")
        self.on_advance = bind(found, "advance")
        slowdowns = _find(found, Slowdowns)
        self.run_time = slowdowns.run_time if slowdowns else None
        self.work_done = slowdowns.work_done if slowdowns else None
        self.burst = _find(found, Burst)
        self.online = _find(found, OnlineServices)
        self.handlers: list[Callable[[int], None]] = [_no_handler] * KINDS
        self.handlers[TERMINATED] = self.terminated
        self.handlers[RETRY] = self._retry
        self.stale: dict[int, Callable[[int], bool]] = {}
        for plugin in found:
            for kind, handler in plugin.events.items():
                self.handlers[kind] = handler
            self.stale.update(plugin.stale)

    # --- the loop ------------------------------------------------------------------------

    def run(self, progress: Callable[[float], None] | None = None) -> ReplayResult:
        self._reject_unschedulable()
        arrive, events, evictions = self.arrive, self.events, self.evictions
        horizon = self.policy.horizon_s
        next_arrival = self.next_arrival = 0
        n = len(arrive)
        if self.on_begin is not None:
            self.on_begin()
        # one counter and one comparison per instant; -1 is never reached without a callback
        steps, check = 0, _PROGRESS_STEPS if progress else -1
        floor = -math.inf  # an event due before the last instant (a burst deadline passed
        # in a job's start latency) happens at it: time never runs backwards
        while next_arrival < n or events.pending():
            steps += 1
            if steps == check:
                check += _PROGRESS_STEPS
                self._report(progress)
            if events.pending() and events.next_kind() >= BURST:
                events.drop_stale(self.stale)
                if not events.pending() and next_arrival >= n:
                    break
            t = arrive[next_arrival] if next_arrival < n else events.next_time()
            if events.pending() and events.next_time() < t:
                t = events.next_time()
            t = max(t, floor)
            if horizon is not None and t > horizon:
                break
            self.advance(t)
            floor = t
            while events.pending() and events.next_time() <= t:
                kind, i = events.pop()
                self._apply(kind, i)
            arrivals = []
            while next_arrival < n and arrive[next_arrival] == t:
                if self.state[next_arrival] == PENDING:
                    arrivals.append(next_arrival)
                next_arrival += 1
            self.next_arrival = next_arrival
            self._schedule(arrivals)
            if next_arrival >= n and not events.pending() and self.queued_jobs:
                self._stuck()
                break
            if evictions.count and evictions.livelocked():
                evictions.finish_terminations(horizon)
                break
        end = horizon if horizon is not None else self.now
        self.advance(max(end, self.now))
        evictions.clip_terminations(end)
        return build_result(self)

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
        if kind == FINISH:
            if self.state[i] == RUNNING and self.finish_at[i] == self.now:
                self.finish(i)  # otherwise the run this event belonged to was preempted
        else:
            self.handlers[kind](i)

    def _retry(self, _: int) -> None:
        self.retries.discard(self.now)
        self.freed = True

    def _schedule(self, arrivals: list[int]) -> None:
        if arrivals and not self.queued_jobs and self.starts_arrivals(len(arrivals)):
            # nobody waits: arrivals are the queue's head, in order, until one does not fit
            started = 0
            for i in arrivals:
                if not self.try_start(i, queued=False):
                    break
                started += 1
            arrivals = arrivals[started:]
        for i in arrivals:
            self.enqueue(i)
        if self.queued_jobs:
            full = self.freed
            self.freed = False
            self.allocate(arrivals, full)
        reasons = self.reasons
        if (self.dirty or reasons.undecided) and reasons.waiting_shapes:
            reasons.decide()
        self.dirty = reasons.undecided = False
        self.distinct_max = max(self.distinct_max, len(self.members))

    def advance(self, t: float) -> None:
        """Integrate everything that is constant between instants, up to `t`."""
        dt = t - self.last_t
        if dt > 0:
            allocated = 0
            for milli in self.alloc_by_pool:  # compiled: native adds, where sum() is not
                allocated += milli
            self.allocated_milli_s += allocated * dt
            self.held_milli_s += self.held_milli * dt
            if self.on_advance is not None:
                self.on_advance(self.last_t, t)
            self.recorder.add(self, self.last_t, t)
        self.last_t = self.now = t

    def push(self, t: float, kind: int, i: int) -> None:
        self.seq += 1
        self.events.push(t, kind, self.seq, i)

    def retry_at(self, t: float) -> None:
        """Look again at `t` (a job too young to preempt comes of age; no event may be due)."""
        if t not in self.retries:
            self.retries.add(t)
            self.push(t, RETRY, -1)

    # --- job life cycle -----------------------------------------------------------------------

    def start_on(self, i: int, plan: list[tuple[int, int]], *, queued: bool = True) -> None:
        pod = self.shapes[self.shape_of[i]][0]
        self.allocs[i] = [self.cluster.allocate(node, pod, pods) for node, pods in plan]
        if queued:
            self.reasons.leave(i)
        self.begin_running(i, queued=queued)

    def begin_running(self, i: int, *, queued: bool = True) -> None:
        if queued:
            self.dequeue(i)
        self.state[i] = RUNNING
        now = self.now
        self.start[i] = held_time(now, self.arrive, i)
        milli = self.pod_milli[self.shape_of[i]]
        node_class, pool_index = self.cluster.node_class, self.pool_index
        for node, pods, _ in self.allocs[i]:
            self.alloc_by_pool[pool_index[node_class[node]]] += milli * pods
        self.running.add(i)
        preempted = self.preempted_waiting
        if preempted and i in preempted:  # a look-up only while some wait preempted
            self.reasons.close_override(i, preempted.pop(i))
        run = self.remaining_s[i] if self.run_time is None else self.run_time(i)
        self.finish_at[i] = now + run
        # the heap holds the planned end's own float: compiled, `push` would box another
        self.seq += 1
        self.events.push(held_float(self.finish_at, i), FINISH, self.seq, i)
        if self.on_started is not None:
            self.on_started(i)
        self.dirty = True

    def finish(self, i: int) -> None:
        if self.on_finished is not None:
            self.on_finished(i)
        if self.evictions.evicting_since is not None:
            self.evictions.completed()
        self.running.discard(i)
        self.release_job(i)
        self.ran_on.of[i] = self.placement_of(i)
        self.allocs[i] = NO_ALLOCS  # only needed to undo the placement: keep its summary
        # the set, not the job's status: a finish would read a job's object only for this
        withdrawn = self.observed_withdrawn
        self.state[i] = DELETED if withdrawn and i in withdrawn else DONE
        self.end[i] = held_time(self.now, self.finish_at, i)
        self.freed = self.dirty = True

    def terminated(self, j: int) -> None:
        """An evicted job's pods are gone: its GPUs and quota are free, it waits again."""
        if self.on_terminated is not None:
            self.on_terminated(j)
        self.release_job(j)
        self.allocs[j] = []
        self.freed = self.dirty = True
        deadline = self.deadline[j]
        if deadline is not None and deadline <= self.now:  # its user deleted it meanwhile
            self.reasons.close_override(j, self.evictions.preempted_waiting.pop(j))
            self.state[j] = WITHDRAWN
            self.end[j] = self.now
            return
        self.enqueue(j, requeue=True, preempted=True)

    def release_job(self, i: int) -> None:
        sid = self.shape_of[i]
        pod, milli = self.shapes[sid][0], self.pod_milli[sid]
        node_class, pool_index = self.cluster.node_class, self.pool_index
        for alloc in self.allocs[i]:
            self.cluster.release(alloc, pod)
            self.alloc_by_pool[pool_index[node_class[alloc.node]]] -= milli * alloc.pods

    def reapply_job(self, i: int) -> None:
        """Undo `release_job` exactly (same GPUs), after a what-if (backfill, preemption)."""
        sid = self.shape_of[i]
        pod, milli = self.shapes[sid][0], self.pod_milli[sid]
        node_class, pool_index = self.cluster.node_class, self.pool_index
        for alloc in self.allocs[i]:
            self.cluster.reapply(alloc, pod)
            self.alloc_by_pool[pool_index[node_class[alloc.node]]] += milli * alloc.pods

    # --- the waiting queue ---------------------------------------------------------------------

    def enqueue(self, i: int, *, requeue: bool = False, preempted: bool = False) -> None:
        self.state[i] = WAITING
        sid = self.shape_of[i]
        queue = self.queues[sid]
        if requeue and queue and queue[-1] > i:
            insert_sorted(queue, i)
        else:
            queue.append(i)
        self.queued_shapes.add(sid)
        if self.strict_order:
            if requeue and self.order and self.order[-1] > i:
                insert_sorted(self.order, i)
            else:
                self.order.append(i)
        self.queued_jobs += 1
        self.queued_milli += self.shape_milli[sid]
        if self.on_enqueued is not None:
            self.on_enqueued(i, requeue)
        if not preempted:  # a preempted job's wait is booked to `preempted` until it reruns
            self.reasons.join(i)

    def dequeue(self, i: int) -> None:
        """Out of the waiting queue (started, released into backoff, withdrawn, burst)."""
        sid = self.shape_of[i]
        queue = self.queues[sid]
        if queue[0] == i:
            queue.popleft()
        else:
            queue.remove(i)
        if not queue:
            self.queued_shapes.discard(sid)
        if self.strict_order:
            if self.order[0] == i:
                self.order.popleft()
            else:
                self.order.remove(i)
        self.queued_jobs -= 1
        self.queued_milli -= self.shape_milli[sid]

    # --- jobs that never run, the end ----------------------------------------------------------

    def _reject_unschedulable(self) -> None:
        verdicts = [self.never_runs(sid) for sid in range(len(self.shapes))]
        for i, sid in enumerate(self.shape_of):
            if verdicts[sid] and self.burst is not None:
                self.burst.send_away(i)  # hybrid: it goes to the cloud when submitted
            elif verdicts[sid] and self.deadline[i] is not None:
                self.state[i] = WITHDRAWN  # it waits, in vain, until its deadline
                self.end[i] = self.deadline[i]
            elif verdicts[sid]:
                self.state[i] = UNSCHEDULABLE
                self.unschedulable[i] = verdicts[sid]
        if self.latency:
            self.in_play = [state == PENDING for state in self.state]

    def _stuck(self) -> None:
        """Nothing will ever happen again, yet jobs wait: partly placed jobs hold the GPUs."""
        online = len(self.online.online) if self.online else 0
        if self.held_milli == 0 and not online:
            raise AssertionError("the replay left jobs waiting on an idle cluster")
        self.deadlock = {
            "at_s": self.now,
            "jobs_waiting": float(self.queued_jobs),
            "gpus_held_idle": self.held_milli / MILLI,
        }
        if online:
            self.deadlock["gpus_held_by_online_services"] = float(online)

    def placement_of(self, i: int) -> Placement:
        return self.ran_on.placement(self.allocs[i], self.shapes[self.shape_of[i]][0])


def _find(found: list[Plugin], kind: type[P]) -> P | None:
    return next((plugin for plugin in found if isinstance(plugin, kind)), None)


def _no_handler(i: int) -> None:
    raise AssertionError(f"the replay met an event no plugin handles (job {i})")
