"""Invariants of replays through Kueue ClusterQueues on random queues, traces and clusters.

Usage over time is rebuilt from the result alone (start, end, placement and the ClusterQueue
of each job) and checked against an independent reading of the reference's quota formulas
(`../shared/reference/scheduler-semantics.md` A1, "Numeric rules, hierarchical"), written
below on plain dicts in whole GPUs: `planner.engine.quota` is not used to check itself.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.cluster import PLACEMENTS
from planner.engine.policy import Policy
from planner.engine.scenario import QueuesSpec
from planner.engine.waits import UNSCHEDULABLE_REASONS

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
HARDWARE_REASONS = {
    "more_gpus_than_installed",
    "pod_larger_than_any_node",
    "gang_does_not_fit_nodes",
}
STRANGER = "nobody-maps-this"


# --- the reference's quota rules, independently ---------------------------------------------


@dataclass(frozen=True)
class Tree:
    """Cohorts and ClusterQueues by name, in whole GPUs (one flavor)."""

    parent: dict[str, str | None]
    nominal: dict[str, int]
    borrowing: dict[str, int | None]
    lending: dict[str, int | None]
    queues: frozenset[str]
    strict: frozenset[str]

    @classmethod
    def of(cls, spec: dict[str, Any]) -> "Tree":
        parent: dict[str, str | None] = {}
        nominal: dict[str, int] = {}
        borrowing: dict[str, int | None] = {}
        lending: dict[str, int | None] = {}
        for cohort in spec.get("cohorts", []):
            parent[cohort["name"]] = cohort.get("parent")
            quota = cohort.get("quotas", [{}])[0]
            nominal[cohort["name"]] = quota.get("gpus", 0)
            borrowing[cohort["name"]] = quota.get("borrowing_limit")
            lending[cohort["name"]] = quota.get("lending_limit")
        for queue in spec["cluster_queues"]:
            parent[queue["name"]] = queue.get("cohort")
            quota = queue["quotas"][0]
            nominal[queue["name"]] = quota["gpus"]
            borrowing[queue["name"]] = quota.get("borrowing_limit")
            lending[queue["name"]] = quota.get("lending_limit")
        for name in list(parent.values()):  # implicit cohorts: named, not declared
            if name is not None and name not in parent:
                parent[name], nominal[name] = None, 0
                borrowing[name] = lending[name] = None
        queues = frozenset(q["name"] for q in spec["cluster_queues"])
        strict = frozenset(
            q["name"] for q in spec["cluster_queues"] if q.get("strategy") == "StrictFIFO"
        )
        return cls(parent, nominal, borrowing, lending, queues, strict)

    def children(self, name: str) -> list[str]:
        return [n for n, p in self.parent.items() if p == name]

    def root(self, name: str) -> str:
        while (parent := self.parent[name]) is not None:
            name = parent
        return name

    def below(self, name: str) -> list[str]:
        """The node and all its descendants."""
        out = [name]
        for child in self.children(name):
            out += self.below(child)
        return out

    @cached_property
    def subtree(self) -> dict[str, int]:
        def quota(name: str) -> int:
            if name in self.queues:
                return self.nominal[name]
            return self.nominal[name] + sum(
                quota(c) - self.local_of(c, quota(c)) for c in self.children(name)
            )

        return {name: quota(name) for name in self.parent}

    def local_of(self, name: str, subtree: int) -> int:
        limit = self.lending[name]
        return 0 if limit is None else max(0, subtree - limit)

    def local(self, name: str) -> int:
        return self.local_of(name, self.subtree[name])

    def usage(self, name: str, used: dict[str, int]) -> int:
        if name in self.queues:
            return used.get(name, 0)
        return sum(max(0, self.usage(c, used) - self.local(c)) for c in self.children(name))

    def available(self, name: str, used: dict[str, int]) -> int:
        usage, local = self.usage(name, used), self.local(name)
        parent = self.parent[name]
        if parent is None:
            return self.subtree[name] - usage
        from_parent = self.available(parent, used)
        limit = self.borrowing[name]
        if limit is not None:
            cap = (self.subtree[name] - local) - max(0, usage - local) + limit
            from_parent = min(from_parent, cap)
        return max(0, local - usage) + from_parent


# --- strategies ------------------------------------------------------------------------------

# Strategies are built once here, not inside the composites: a strategy built per draw is
# validated and labelled again each time, which cost more than the replays themselves.
limits = st.none() | st.integers(0, 6)
LAYOUTS = st.sampled_from(["none", "one", "siblings", "nested"])
COHORT_GPUS = st.integers(0, 4)
QUEUE_COUNTS = st.integers(2, 4)
QUEUE_GPUS = st.integers(0, 12)
STRATEGIES = st.sampled_from(["BestEffortFIFO", "StrictFIFO"])
GPU_TYPES = st.sampled_from(["", "A100"])
JOB_COUNTS = st.integers(1, 30)
ONE_IN_FIVE = st.integers(0, 4)
INSTANTS = st.integers(0, 20)
LENGTHS = st.integers(1, 12)
GANG_GPUS = st.sampled_from([1, 2, 4])
POD_GPUS = st.sampled_from([1, 1, 2, 2, 4, 8])
PRIORITIES = st.integers(0, 2)
NODE_GPUS = st.sampled_from([4, 8])
NODE_COUNTS = st.integers(1, 4)
PLACEMENT_NAMES = st.sampled_from(PLACEMENTS)
SEEDS = st.integers(0, 3)


@st.composite
def queue_specs(draw: st.DrawFn, *, open_cohort: bool = False) -> dict[str, Any]:
    """2-4 ClusterQueues in no, one, two sibling or two nested cohorts; with `open_cohort`
    all of them in one cohort with no limits and no cohort quota, BestEffortFIFO."""
    layout = "one" if open_cohort else draw(LAYOUTS)
    cohort_names = {"none": [], "one": ["c0"], "siblings": ["c0", "c1"], "nested": ["c0", "c1"]}[
        layout
    ]
    cohorts = []
    for name in cohort_names:
        spec: dict[str, Any] = {"name": name}
        nested = layout == "nested" and name == "c1"
        if nested:
            spec["parent"] = "c0"
        if not open_cohort and draw(st.booleans()):
            quota: dict[str, Any] = {"flavor": "gpu", "gpus": draw(COHORT_GPUS)}
            if nested:  # limits mean something below a root only
                quota |= {"borrowing_limit": draw(limits), "lending_limit": draw(limits)}
            spec["quotas"] = [quota]
        if nested or "quotas" in spec or draw(st.booleans()):
            cohorts.append(spec)  # else implicit: named only by its ClusterQueues
    names = [f"cq{k}" for k in range(draw(QUEUE_COUNTS))]
    cluster_queues = []
    cohorts_of = st.sampled_from([None, *cohort_names])
    for name in names:
        quota = {"flavor": "gpu", "gpus": draw(QUEUE_GPUS)}
        if not open_cohort:
            quota |= {"borrowing_limit": draw(limits), "lending_limit": draw(limits)}
        cohort = "c0" if open_cohort else draw(cohorts_of)
        strategy = "BestEffortFIFO" if open_cohort else draw(STRATEGIES)
        cluster_queues.append(
            {"name": name, "cohort": cohort, "strategy": strategy, "quotas": [quota]}
        )
    return {
        "flavors": [{"name": "gpu", "gpu_type": draw(GPU_TYPES)}],
        "cohorts": cohorts,
        "cluster_queues": cluster_queues,
        "local_queues": {"lq0": draw(st.sampled_from(names)), "lq1": draw(st.sampled_from(names))},
        "default_cluster_queue": draw(st.sampled_from([None, *names])),
    }


@st.composite
def job_lists(draw: st.DrawFn, queue_names: list[str]) -> list[Job]:
    jobs = []
    queues = st.sampled_from(queue_names)
    for k in range(draw(JOB_COUNTS)):
        gang = draw(ONE_IN_FIVE) == 0
        jobs.append(
            Job(
                f"j{k}",
                draw(INSTANTS) * 10.0,  # coarse: many jobs share an instant
                draw(LENGTHS) * 10.0,
                pods=2 if gang else 1,
                gpus=draw(GANG_GPUS if gang else POD_GPUS),
                queue=draw(queues),
                priority=draw(PRIORITIES),
            )
        )
    return jobs


@st.composite
def worlds(
    draw: st.DrawFn, *, open_cohort: bool = False
) -> tuple[list[Job], list[NodeSpec], dict[str, Any], Policy]:
    spec = draw(queue_specs(open_cohort=open_cohort))
    names = [q["name"] for q in spec["cluster_queues"]]
    jobs = draw(job_lists([*names, "lq0", "lq1", STRANGER]))
    nodes: list[NodeSpec] = [
        (f"n{k}", "A100", draw(NODE_GPUS), 0.0, 0.0) for k in range(draw(NODE_COUNTS))
    ]
    setup = QueuesSpec.model_validate(spec).to_setup(strict_default=False)
    policy = Policy(placement=draw(PLACEMENT_NAMES), seed=draw(SEEDS), queues=setup)
    return jobs, nodes, spec, policy


# --- rebuilding the replay from its result --------------------------------------------------


def expected_queue(spec: dict[str, Any], queue: str) -> str | None:
    if queue in spec["local_queues"]:
        return str(spec["local_queues"][queue])
    if queue in {q["name"] for q in spec["cluster_queues"]}:
        return queue
    return spec["default_cluster_queue"]


def fits_free(job: Job, free: list[float]) -> bool:
    """Whether the job's pods (GPUs only) fit nodes with these free GPUs."""
    return sum(int(f // job.gpus) for f in free) >= job.pods


def instants(result: ReplayResult) -> list[float]:
    times = {job.submit_s for job in result.jobs}
    times |= {t for t in result.start_s if t is not None}
    times |= {t for t in result.end_s if t is not None}
    return sorted(times)


def running(result: ReplayResult, t: float) -> Iterator[int]:
    """Jobs holding GPUs over [t, next instant): ends free before starts at an instant."""
    for i, (begin, end) in enumerate(zip(result.start_s, result.end_s, strict=True)):
        if begin is not None and end is not None and begin <= t < end:
            yield i


def usage_at(result: ReplayResult, t: float) -> tuple[dict[str, int], list[float]]:
    """GPUs in use per ClusterQueue and per node."""
    assert result.cluster_queue is not None
    per_queue: dict[str, int] = {}
    per_node = [0.0] * len(result.node_ids)
    for i in running(result, t):
        queue = result.cluster_queue[i]
        per_queue[queue] = per_queue.get(queue, 0) + int(result.jobs[i].total_gpus)
        for n, gpus in result.placement[i]:
            per_node[n] += gpus
    return per_queue, per_node


def outcome(result: ReplayResult) -> tuple[object, ...]:
    return (
        [job.job_id for job in result.jobs],
        result.status,
        result.start_s,
        result.end_s,
        result.placement,
        result.wait_by_reason,
        result.unschedulable_reason,
        result.cluster_queue,
        result.borrowed_gpu_s,
        result.lent_gpu_s,
        result.allocated_gpu_s,
    )


# --- properties ------------------------------------------------------------------------------


@SETTINGS
@given(world=worlds())
def test_quota_and_hardware_are_never_exceeded(world: Any) -> None:
    jobs, nodes, spec, policy = world
    tree = Tree.of(spec)
    capacity = [float(gpus) for _, _, gpus, _, _ in nodes]

    result = simulate(jobs, nodes, policy)

    for t in instants(result):
        used, per_node = usage_at(result, t)
        for n, gpus in enumerate(per_node):
            assert gpus <= capacity[n], f"node {n} over capacity at {t}"
        for name in tree.parent:
            assert tree.available(name, used) >= 0, f"{name} over-admitted at {t}: {used}"
        for queue in tree.queues:
            limit = tree.borrowing[queue]
            ceiling = sum(tree.nominal[n] for n in tree.below(tree.root(queue)))
            assert used.get(queue, 0) <= ceiling
            if limit is not None:
                assert used.get(queue, 0) <= tree.nominal[queue] + limit
        for cohort in tree.parent.keys() - tree.queues:
            in_cohort = sum(used.get(q, 0) for q in tree.below(cohort) if q in tree.queues)
            own = sum(tree.nominal[n] for n in tree.below(cohort))
            if tree.parent[cohort] is None:
                assert in_cohort <= own, f"cohort {cohort} over its quota at {t}"
            elif tree.borrowing[cohort] is not None:
                assert in_cohort <= own + tree.borrowing[cohort]


@SETTINGS
@given(world=worlds())
def test_every_job_ends_exactly_once_in_the_right_cluster_queue(world: Any) -> None:
    jobs, nodes, spec, policy = world
    tree = Tree.of(spec)
    capacity = [float(gpus) for _, _, gpus, _, _ in nodes]

    result = simulate(jobs, nodes, policy)

    assert sorted(job.job_id for job in result.jobs) == sorted(job.job_id for job in jobs)
    assert result.cluster_queue is not None
    assert result.deadlock is None
    for i, job in enumerate(result.jobs):
        queue = expected_queue(spec, job.queue)
        assert result.cluster_queue[i] == (queue or "")
        if not fits_free(job, capacity):
            expected = "hardware"
        elif queue is None:
            expected = "no_cluster_queue"
        elif job.total_gpus > tree.available(queue, {}):
            expected = "more_than_queue_quota"
        else:
            expected = "completed"
        if expected == "completed":
            assert result.status[i] == "completed", job
            begin, end = result.start_s[i], result.end_s[i]
            assert begin is not None
            assert begin >= job.submit_s
            assert end == begin + job.duration_s
            assert sum(gpus for _, gpus in result.placement[i]) == job.total_gpus
            waited = result.wait_by_reason[i]
            assert sum(waited or ()) == pytest.approx(begin - job.submit_s)
        else:
            assert result.status[i] == "unschedulable", job
            assert result.start_s[i] is None
            reason = result.unschedulable_reason[i]
            assert reason in UNSCHEDULABLE_REASONS
            if expected == "hardware":
                assert reason in HARDWARE_REASONS
            else:
                assert reason == expected
    assert len(result.unschedulable_reason) == result.status.count("unschedulable")


@SETTINGS
@given(world=worlds())
def test_best_effort_queues_never_leave_a_job_waiting_that_quota_and_nodes_admit(
    world: Any,
) -> None:
    # Within a pass usage only grows, so availability and free GPUs only shrink: a job that
    # fits after the pass fitted whenever its shape was tried. Only StrictFIFO may hold it.
    jobs, nodes, spec, policy = world
    tree = Tree.of(spec)
    capacity = [float(gpus) for _, _, gpus, _, _ in nodes]

    result = simulate(jobs, nodes, policy)

    assert result.cluster_queue is not None
    for t in instants(result):
        used, per_node = usage_at(result, t)
        free = [c - u for c, u in zip(capacity, per_node, strict=True)]
        for i, job in enumerate(result.jobs):
            begin, queue = result.start_s[i], result.cluster_queue[i]
            if begin is None or not job.submit_s <= t < begin or queue in tree.strict:
                continue
            admissible = job.total_gpus <= tree.available(queue, used)
            assert not (admissible and fits_free(job, free)), (
                f"{job.job_id} ({queue}) waits at {t} though quota and nodes admit it"
            )


@SETTINGS
@given(world=worlds())
def test_a_strict_fifo_queue_never_starts_a_job_while_one_ahead_of_it_waits(world: Any) -> None:
    # Ahead = higher priority, or equal priority and submitted earlier. Left out: a higher
    # priority job that arrived at the very instant the later one started (the known bug of
    # same-instant arrivals on an empty queue; see test_queues.py).
    jobs, nodes, spec, policy = world
    tree = Tree.of(spec)

    result = simulate(jobs, nodes, policy)

    assert result.cluster_queue is not None
    for j, later in enumerate(result.jobs):
        t, queue = result.start_s[j], result.cluster_queue[j]
        if t is None or queue not in tree.strict:
            continue
        for k, ahead in enumerate(result.jobs):
            if result.cluster_queue[k] != queue or result.start_s[k] is None:
                continue
            if ahead.priority == later.priority:
                if k > j:
                    continue
            elif ahead.priority < later.priority or ahead.submit_s == t:
                continue
            if ahead.submit_s <= t:
                assert result.start_s[k] <= t, (
                    f"{later.job_id} started at {t} while {ahead.job_id} waited in {queue}"
                )


@SETTINGS
@given(world=worlds(open_cohort=True))
def test_one_open_cohort_never_leaves_a_job_waiting_that_the_cluster_and_cohort_have_room_for(
    world: Any,
) -> None:
    jobs, nodes, spec, policy = world
    capacity = [float(gpus) for _, _, gpus, _, _ in nodes]
    pool = sum(q["quotas"][0]["gpus"] for q in spec["cluster_queues"])

    result = simulate(jobs, nodes, policy)

    for t in instants(result):
        used, per_node = usage_at(result, t)
        free = [c - u for c, u in zip(capacity, per_node, strict=True)]
        in_use = sum(used.values())
        for i, job in enumerate(result.jobs):
            begin = result.start_s[i]
            if begin is None or not job.submit_s <= t < begin:
                continue
            assert not (in_use + job.total_gpus <= pool and fits_free(job, free)), (
                f"{job.job_id} waits at {t} with {in_use} of {pool} GPUs of quota in use"
            )


@SETTINGS
@given(world=worlds())
def test_borrowed_and_lent_gpu_seconds_match_the_usage_over_time(world: Any) -> None:
    # borrowed(q) = integral of max(0, usage - nominal); per cohort tree the members' total
    # borrowing is lent pro rata to their unused nominal quota (never more than that).
    jobs, nodes, spec, policy = world
    tree = Tree.of(spec)

    result = simulate(jobs, nodes, policy)

    borrowed = dict.fromkeys(tree.queues, 0.0)
    lent = dict.fromkeys(tree.queues, 0.0)
    times = instants(result)
    for t, following in pairwise(times):
        used, _ = usage_at(result, t)
        dt = following - t
        trees: dict[str, list[str]] = {}
        for queue in tree.queues:
            trees.setdefault(tree.root(queue), []).append(queue)
        for members in trees.values():
            over = {q: max(0, used.get(q, 0) - tree.nominal[q]) for q in members}
            unused = {q: max(0, tree.nominal[q] - used.get(q, 0)) for q in members}
            total, spare = sum(over.values()), sum(unused.values())
            for q in members:
                borrowed[q] += over[q] * dt
                if total and spare:
                    lent[q] += min(total, spare) * unused[q] / spare * dt

    assert result.borrowed_gpu_s == pytest.approx(borrowed)
    assert result.lent_gpu_s == pytest.approx(lent)
    total_borrowed, total_lent = sum(borrowed.values()), sum(lent.values())
    assert total_lent <= total_borrowed + 1e-6
    if not any(tree.nominal[c] for c in tree.parent.keys() - tree.queues):
        assert total_lent == pytest.approx(total_borrowed)


@settings(SETTINGS, max_examples=80)
@given(world=worlds())
def test_same_inputs_and_seed_give_the_same_replay(world: Any) -> None:
    jobs, nodes, _, policy = world

    first, second = simulate(jobs, nodes, policy), simulate(list(jobs), list(nodes), policy)

    assert outcome(first) == outcome(second)
