"""EASY backfill over deep queues: the indexed scan decides exactly as the plain scan did.

`ReferenceBackfill` below is the job-by-job scan `planner.engine.backfill` had before the
deep-backlog rework (issue 17), kept verbatim as the oracle: on random traces (deep queues of
alike jobs, tiny `backfill_depth`, overestimates, deadlines, shared GPUs) a replay with it and
one with the engine's `Backfill` must agree on every figure. A deep queue at one instant is
also checked by invariants: every job accounted for, no node over-allocated, and the head of
the queue never starts later than its reservation promised.
"""

import heapq
import random
from bisect import bisect_left, insort
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import ReplayResult, registry, simulate
from planner.engine.gang import start_gang
from planner.engine.hooks import Plugin
from planner.engine.policy import Policy
from planner.engine.shapes import never_fits
from planner.engine.sharing import MigConfig, TimeSlicing
from planner.engine.states import WAITING

if TYPE_CHECKING:
    from planner.engine.loop import Replay


# --- the oracle: the scan as it was before the rework ------------------------------------------


class ReferenceHeadMerge:
    def __init__(self, replay: "Replay") -> None:
        self.queues = replay.queues
        self.skipped: dict[int, int] = {}
        self.heap = [(self.queues[s][0], s) for s in replay.queued_shapes]
        heapq.heapify(self.heap)
        self.pending = -1

    def __iter__(self) -> "ReferenceHeadMerge":
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


class ReferenceBackfill(Plugin):
    def __init__(self, replay: "Replay", stretch_bound: tuple[float, float]) -> None:
        super().__init__()
        self.replay = replay
        self.stretch_bound = stretch_bound
        self.running_by_end: list[tuple[float, int]] = []
        self.est_end: dict[int, float] = {}
        self.pivot = -1
        self.shadow = 0.0
        self.early_finish = False
        self.estimate_factor = replay.policy.estimate_factor

    def starts_arrivals(self, count: int) -> bool:
        return True

    def never_runs(self, sid: int) -> str:
        return never_fits(self.replay.cluster, self.replay.shapes[sid])

    def try_start(self, i: int, *, queued: bool = True) -> bool:
        return start_gang(self.replay, i, queued)

    def allocate(self, arrivals: list[int], full: bool) -> None:
        replay = self.replay
        pivot = self.pivot
        if full or pivot < 0 or replay.state[pivot] != WAITING or self.early_finish:
            self._full()
            return
        for i in arrivals:
            if replay.state[i] == WAITING:
                self._backfill_one(i)

    def _full(self) -> None:
        replay = self.replay
        merge = ReferenceHeadMerge(replay)
        pivot = -1
        tested = 0
        blocked: set[int] = set()
        remember = not replay.cluster.shared
        depth = replay.policy.backfill_depth
        for i in merge:
            if pivot < 0:
                if not self.try_start(i):
                    pivot = i
                    merge.drop()
                continue
            if tested >= depth:
                break
            tested += 1
            shape = replay.shape_of[i]
            if shape in blocked and not self._short(i, pivot):
                merge.skip()
            elif self._backfill_one(i, pivot):
                continue
            elif self._short(i, pivot):
                merge.drop()
            else:
                if remember:
                    blocked.add(shape)
                merge.skip()
        if pivot < 0:
            self.pivot = -1
            replay.cluster.release_reservation()

    def _short(self, i: int, pivot: int) -> bool:
        factor, delay = self.stretch_bound
        replay = self.replay
        run = replay.run_s[i] * replay.policy.estimate_factor * factor + delay
        return replay.now + run <= self.shadow

    def _backfill_one(self, i: int, pivot: int | None = None) -> bool:
        if pivot is None:
            pivot = self.pivot
        if pivot != self.pivot or self.early_finish:
            self._reserve_for(pivot)
        replay = self.replay
        pod, count, allowed = replay.shapes[replay.shape_of[i]]
        plan = replay.cluster.plan(pod, count, allowed, avoid_reserved=not self._short(i, pivot))
        if plan is None:
            return False
        replay.start_on(i, plan)
        return True

    def _reserve_for(self, pivot: int) -> None:
        self.pivot = pivot
        self.early_finish = False
        replay = self.replay
        cluster = replay.cluster
        pod, count, allowed = replay.shapes[replay.shape_of[pivot]]
        need = pod.milli * pod.gpus * count
        released: list[int] = []
        plan = None
        shadow = replay.now
        for est_end, j in self.running_by_end:
            replay.release_job(j)
            released.append(j)
            if cluster.free_milli(allowed) < need:
                continue
            plan = cluster.plan(pod, count, allowed)
            if plan is not None:
                shadow = est_end
                break
        for j in released:
            replay.reapply_job(j)
        self.shadow = shadow
        cluster.reserve(node for node, _ in plan or ())

    def started(self, i: int) -> None:
        replay = self.replay
        factor = self.estimate_factor
        finish_at = replay.finish_at[i]
        self.est_end[i] = (
            finish_at if factor == 1.0 else replay.now + (finish_at - replay.now) * factor
        )
        insort(self.running_by_end, (self.est_end[i], i))

    def finished(self, i: int) -> None:
        est_end = self.est_end.pop(i)
        del self.running_by_end[bisect_left(self.running_by_end, (est_end, i))]
        if est_end > self.replay.now:
            self.early_finish = True

    def evicted(self, i: int) -> None:
        est_end = self.est_end.pop(i)
        del self.running_by_end[bisect_left(self.running_by_end, (est_end, i))]


# --- equivalence on random traces -----------------------------------------------------------

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
# Every figure of the result that a scheduling decision can move.
COMPARED = (
    "status",
    "start_s",
    "end_s",
    "placement",
    "wait_by_reason",
    "unschedulable_reason",
    "horizon_s",
    "allocated_gpu_s",
    "held_idle_gpu_s",
    "deadlock",
    "timeline",
    "distinct_states_max",
    "segments",
    "sharing",
)


def replay_with_reference(jobs: list[Job], nodes: list[NodeSpec], policy: Policy) -> ReplayResult:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "Backfill", ReferenceBackfill)
        return simulate(jobs, nodes, policy)


def assert_same_replay(jobs: list[Job], nodes: list[NodeSpec], policy: Policy) -> None:
    expected = replay_with_reference(jobs, nodes, policy)
    got = simulate(jobs, nodes, policy)
    for name in COMPARED:
        assert getattr(got, name) == getattr(expected, name), name


# Strategies are built once (here, or once per example for the drawn shapes and instants),
# not per job: a strategy built per draw is validated and labelled again each time, which
# cost about as much as the replays.
SHAPES = st.lists(
    st.tuples(st.integers(1, 3), st.sampled_from([0.5, 1.0, 2.0, 4.0, 8.0])),
    min_size=1,
    max_size=4,
)
JOB_COUNTS = st.integers(1, 60)
INSTANTS = st.lists(st.integers(0, 400).map(float), min_size=1, max_size=4)
DURATIONS = st.one_of(st.integers(1, 300).map(float), st.floats(1, 300))
WITHDRAWALS = st.sampled_from([None, None, None, 50.0, 400.0])
JOB_GPU_TYPES = st.sampled_from([(), (), ("A100",), ("V100",)])
NODE_TYPES = st.sampled_from(["A100", "A100", "V100"])
NODE_GPUS = st.integers(1, 8)
NODE_COUNTS = st.integers(1, 4)


@st.composite
def deep_queues(draw: st.DrawFn) -> list[Job]:
    """Bursts of jobs from a few shapes at a few instants, so queues run deep."""
    shapes = st.sampled_from(draw(SHAPES))
    count = draw(JOB_COUNTS)
    instants = st.sampled_from(draw(INSTANTS))
    jobs = []
    for k in range(count):
        pods, gpus = draw(shapes)
        duration = draw(DURATIONS)
        withdraw = draw(WITHDRAWALS)
        jobs.append(
            Job(
                f"j{k}",
                draw(instants),
                duration,
                pods=pods,
                gpus=gpus,
                gpu_types=draw(JOB_GPU_TYPES),
                withdraw_after_s=withdraw,
            )
        )
    return jobs


@st.composite
def clusters(draw: st.DrawFn) -> list[NodeSpec]:
    return [(f"n{k}", draw(NODE_TYPES), draw(NODE_GPUS), 0, 0) for k in range(draw(NODE_COUNTS))]


@st.composite
def backfill_policies(draw: st.DrawFn) -> Policy:
    return Policy(
        queueing="backfill",
        placement=draw(st.sampled_from(["best-fit", "binpack", "spread", "random", "fgd"])),
        seed=draw(st.integers(0, 3)),
        estimate_factor=draw(st.sampled_from([1.0, 1.0, 1.5, 3.0])),
        backfill_depth=draw(st.sampled_from([1, 2, 3, 5, 8, 500])),
    )


@SETTINGS
@given(jobs=deep_queues(), nodes=clusters(), policy=backfill_policies())
def test_indexed_backfill_decides_as_the_job_by_job_scan(
    jobs: list[Job], nodes: list[NodeSpec], policy: Policy
) -> None:
    assert_same_replay(jobs, nodes, policy)


@SETTINGS
@given(
    jobs=deep_queues(),
    nodes=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(
        lambda sizes: [(f"n{k}", "A100", gpus, 0.0, 0.0) for k, gpus in enumerate(sizes)]
    ),
    mode=st.sampled_from(
        [TimeSlicing(replicas=2), TimeSlicing(replicas=4, slowdown=1.5), MigConfig()]
    ),
    depth=st.sampled_from([1, 3, 500]),
)
def test_indexed_backfill_decides_as_the_job_by_job_scan_on_shared_gpus(
    jobs: list[Job], nodes: list[NodeSpec], mode: TimeSlicing | MigConfig, depth: int
) -> None:
    policy = Policy(queueing="backfill", sharing={"A100": mode}, backfill_depth=depth)

    assert_same_replay(jobs, nodes, policy)


def burst(n: int, seed: int, instants: int = 1) -> list[Job]:
    """`n` jobs at a few instants, sized and timed like a busy training cluster's mix."""
    rng = random.Random(seed)
    sizes = [(1, 1.0), (1, 1.0), (1, 2.0), (1, 4.0), (1, 8.0), (2, 8.0), (4, 8.0)]
    jobs = []
    for k in range(n):
        pods, gpus = rng.choice(sizes)
        duration = float(rng.choice([rng.randint(10, 300), rng.randint(300, 30_000)]))
        jobs.append(Job(f"j{k}", 600.0 * rng.randrange(instants), duration, pods, gpus))
    return jobs


EIGHT_BY_8 = [(f"n{k}", "A100", 8, 0.0, 0.0) for k in range(8)]


@pytest.mark.parametrize(
    ("seed", "depth", "estimate_factor", "placement"),
    [
        (1, 500, 1.0, "best-fit"),
        (2, 40, 1.0, "best-fit"),
        (3, 7, 2.0, "spread"),
        (4, 500, 1.5, "random"),
    ],
)
def test_indexed_backfill_decides_as_the_job_by_job_scan_on_a_deep_queue(
    seed: int, depth: int, estimate_factor: float, placement: str
) -> None:
    policy = Policy(
        queueing="backfill",
        placement=placement,  # type: ignore[arg-type]
        backfill_depth=depth,
        estimate_factor=estimate_factor,
        seed=seed,
    )

    assert_same_replay(burst(1_500, seed, instants=3), EIGHT_BY_8, policy)


# --- invariants on a deep queue ---------------------------------------------------------------


def gpus_in_use_peak_by_node(result: ReplayResult) -> list[float]:
    changes: list[tuple[float, float, int]] = []
    for i, start in enumerate(result.start_s):
        end = result.end_s[i]
        assert start is not None
        assert end is not None
        for node, gpus in result.placement[i]:
            changes += [(end, -gpus, node), (start, gpus, node)]
    in_use = [0.0] * len(result.node_ids)
    peak = [0.0] * len(result.node_ids)
    for _, gpus, node in sorted(changes):  # at one instant, ends free GPUs before starts
        in_use[node] += gpus
        peak[node] = max(peak[node], in_use[node])
    return peak


def test_a_deep_queue_at_one_instant_runs_every_job_once_within_the_gpus() -> None:
    jobs = burst(4_000, seed=7)

    result = simulate(jobs, EIGHT_BY_8, Policy(queueing="backfill"))

    assert result.status == ["completed"] * len(jobs)
    for job, start, end in zip(result.jobs, result.start_s, result.end_s, strict=True):
        assert start is not None
        assert end == start + job.duration_s
    assert max(gpus_in_use_peak_by_node(result)) <= 8


def test_a_deep_queue_never_delays_the_first_blocked_job_behind_backfilled_ones() -> None:
    jobs = burst(4_000, seed=8)
    strict = simulate(jobs, EIGHT_BY_8, Policy(queueing="strict-fifo"))
    first = next(i for i, start in enumerate(strict.start_s) if start)

    backfill = simulate(jobs, EIGHT_BY_8, Policy(queueing="backfill", estimate_factor=1.0))

    assert backfill.start_s[first] == strict.start_s[first]
    assert backfill.start_s.count(0.0) > strict.start_s.count(0.0)  # backfill did happen
