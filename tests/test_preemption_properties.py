"""Invariants of replays with Kueue preemption on, over random traces and queue set-ups."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.policy import Policy
from planner.engine.scenario import QueuesSpec

NODES = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 8, 0.0, 0.0), ("n3", "A100", 4, 0.0, 0.0)]
QUEUES = ("A", "B", "C")

jobs_strategy = st.lists(
    st.tuples(
        st.integers(0, 300),  # submit
        st.integers(1, 200),  # duration
        st.sampled_from([1, 2, 4, 8]),  # gpus
        st.sampled_from(QUEUES),
        st.integers(0, 3),  # priority
    ),
    min_size=1,
    max_size=25,
)
preemption_strategy = st.fixed_dictionaries(
    {
        "within_cluster_queue": st.sampled_from(
            ["Never", "LowerPriority", "LowerOrNewerEqualPriority"]
        ),
        "reclaim_within_cohort": st.sampled_from(["Never", "LowerPriority", "Any"]),
        "borrow_within_cohort": st.sampled_from(["Never", "LowerPriority"]),
    }
)


def queues(
    nominal: list[int], limits: list[int | None], preemption: list[dict[str, str]]
) -> QueuesSpec:
    return QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f", "gpu_type": "A100"}],
            "cluster_queues": [
                {
                    "name": name,
                    "cohort": "org",
                    "quotas": [{"flavor": "f", "gpus": gpus, "borrowing_limit": limit}],
                    "preemption": rules,
                }
                for name, gpus, limit, rules in zip(
                    QUEUES, nominal, limits, preemption, strict=True
                )
            ],
        }
    )


def runs(
    result: ReplayResult, grace: float = 0.0
) -> list[tuple[int, float, float, tuple[tuple[int, float], ...]]]:
    """(job, start, end, placement) of every run, preempted (holding its GPUs `grace` past
    the eviction while its pods terminate) or final."""
    out = []
    for i, segments in result.segments.items():
        out.extend((i, start, end + grace, placed) for start, end, placed in segments)
    for i, start in enumerate(result.start_s):
        end = result.end_s[i]
        if start is not None and end is not None:
            out.append((i, start, end, result.placement[i]))
    return out


def peak(intervals: list[tuple[float, float, float]]) -> float:
    """Highest sum of amounts over time, ends before starts at one instant."""
    events = sorted([(s, 1, a) for s, _, a in intervals] + [(e, 0, -a) for _, e, a in intervals])
    level = top = 0.0
    for _, _, amount in events:
        level += amount
        top = max(top, level)
    return top


@settings(max_examples=250, deadline=None)
@given(
    raw=jobs_strategy,
    nominal=st.lists(st.integers(0, 12), min_size=3, max_size=3),
    limits=st.lists(st.one_of(st.none(), st.integers(0, 8)), min_size=3, max_size=3),
    preemption=st.lists(preemption_strategy, min_size=3, max_size=3),
    checkpoint=st.one_of(st.none(), st.sampled_from([10.0, 50.0])),
    restart=st.sampled_from([0.0, 7.0]),
    min_run=st.sampled_from([0.0, 30.0]),
    grace=st.sampled_from([0.0, 0.0, 20.0]),
)
def test_preemption_keeps_capacity_quota_and_work_accounts(
    *,
    raw: list[tuple[int, int, int, str, int]],
    nominal: list[int],
    limits: list[int | None],
    preemption: list[dict[str, str]],
    checkpoint: float | None,
    restart: float,
    min_run: float,
    grace: float,
) -> None:
    jobs = [
        Job(f"j{n}", s, d, gpus=g, queue=q, priority=p) for n, (s, d, g, q, p) in enumerate(raw)
    ]
    spec = queues(nominal, limits, preemption)
    policy = Policy(
        queues=spec.to_setup(strict_default=False),
        checkpoint_interval_s=checkpoint,
        restart_overhead_s=restart,
        min_run_s=min_run,
        termination_grace_s=grace,
    )

    result = simulate(jobs, NODES, policy)
    again = simulate(jobs, NODES, policy)

    assert (result.start_s, result.end_s, result.segments) == (
        again.start_s,
        again.end_s,
        again.segments,
    )
    assert set(result.status) <= {"completed", "unschedulable", "unfinished"}
    if result.livelock is None:  # no horizon: everything admissible finishes...
        assert "unfinished" not in result.status
    else:  # ...unless evictions kept undoing all work, and the replay says so
        assert result.preemptions > 10 * len(jobs) or (
            result.livelock["at_s"] - result.livelock["since_s"] > 7 * 86400
        )
    assert result.preemptions == sum(len(s) for s in result.segments.values())
    all_runs = runs(result, grace)
    # hardware: no node over its GPUs, counting evicted runs
    for node, (_, _, gpus, _, _) in enumerate(NODES):
        on_node = [(s, e, g) for _, s, e, placed in all_runs for n, g in placed if n == node]
        assert peak(on_node) <= gpus + 1e-9
    # quota: no queue beyond nominal + borrowing limit, the cohort never beyond the total
    total_nominal = sum(nominal)
    by_queue = {
        q: [
            (s, e, result.jobs[i].total_gpus)
            for i, s, e, _ in all_runs
            if result.cluster_queue and result.cluster_queue[i] == q
        ]
        for q in QUEUES
    }
    assert peak([x for q in QUEUES for x in by_queue[q]]) <= total_nominal + 1e-9
    for q, gpus, limit in zip(QUEUES, nominal, limits, strict=True):
        if limit is not None:
            assert peak(by_queue[q]) <= gpus + limit + 1e-9
    # work: every completed job ran exactly what its evictions left it, plus restarts
    wasted = 0.0
    for i, job in enumerate(result.jobs):
        remaining = job.duration_s
        for start, end, _ in result.segments.get(i, ()):
            ran = end - start
            assert ran >= min_run - 1e-9  # nobody evicted before the minimum run time
            kept = math.floor(ran / checkpoint) * checkpoint if checkpoint else 0.0
            remaining += restart - kept
            wasted += job.total_gpus * (ran - kept + restart + grace)
        if result.status[i] == "completed":
            assert result.end_s[i] - result.start_s[i] == pytest.approx(remaining)  # type: ignore[operator]
    assert result.wasted_gpu_s == pytest.approx(wasted)
    allocated = sum(result.jobs[i].total_gpus * (e - s) for i, s, e, _ in all_runs)
    assert result.allocated_gpu_s == pytest.approx(allocated)
