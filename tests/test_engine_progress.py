"""The replay's progress callback, and the per-queue preemption counts of the summary."""

import pytest

from planner.core.model import Job
from planner.engine import simulate
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from planner.engine.scenario import QueuesSpec
from planner.synth import generate

NODES = [(f"n{i}", "A100", 8, 0.0, 0.0) for i in range(4)]
TWO_NODES = NODES[:2]


def synthetic_jobs(n: int) -> list[Job]:
    """A busy synthetic trace (sizes capped to fit 4 x 8 GPUs) with waits and a long tail."""
    jobs = []
    for k, row in enumerate(generate("philly", n, 3)):
        pods = min(row.pods, 4)
        gpus = min(row.gpus / row.pods, 8)
        jobs.append(Job(row.job_id, k * 30.0, float(row.duration_s), pods=pods, gpus=gpus))
    return jobs


def test_progress_rises_to_one_and_does_not_change_the_result() -> None:
    jobs = synthetic_jobs(12_000)
    seen: list[float] = []

    with_progress = simulate(jobs, NODES, Policy(queueing="backfill"), seen.append)
    without = simulate(jobs, NODES, Policy(queueing="backfill"))

    assert len(seen) >= 10  # reported along the way, not only at the end
    assert seen == sorted(seen)
    assert len(set(seen)) == len(seen)
    assert 0 < seen[0] < 0.5
    assert seen[-1] == 1.0
    assert all(0 < f < 1 for f in seen[:-1])
    assert summarize(with_progress, timeline=True) == summarize(without, timeline=True)
    assert with_progress.start_s == without.start_s


def test_a_raising_callback_abandons_the_replay() -> None:
    class CancelledError(Exception):
        pass

    def cancel(fraction: float) -> None:
        raise CancelledError

    with pytest.raises(CancelledError):
        simulate(synthetic_jobs(12_000), NODES, Policy(), cancel)


def test_an_empty_trace_reports_done() -> None:
    seen: list[float] = []

    simulate([], NODES, Policy(), seen.append)

    assert seen == [1.0]


def two_queues() -> Policy:
    spec = QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f"}],
            "cluster_queues": [
                {
                    "name": "A",
                    "cohort": "org",
                    "quotas": [{"flavor": "f", "gpus": 8}],
                    "preemption": {"reclaim_within_cohort": "Any"},
                },
                {"name": "B", "cohort": "org", "quotas": [{"flavor": "f", "gpus": 8}]},
            ],
        }
    )
    return Policy(queues=spec.to_setup(strict_default=False))


def test_preemptions_and_borrowing_are_counted_per_queue() -> None:
    # B borrows A's idle quota for b2 from 0; a1 reclaims it at 30 by evicting b1, which
    # restarts at 80 (a1 done) beside b2, so B borrows 8 GPUs again until b2 ends at 100.
    jobs = [
        Job("b1", 0, 100, gpus=8, queue="B"),
        Job("b2", 0, 100, gpus=8, queue="B"),
        Job("a1", 30, 50, gpus=8, queue="A"),
    ]

    summary = summarize(simulate(jobs, TWO_NODES, two_queues()))

    assert summary.preemptions_by_queue == {"B": 1}
    assert summary.queues.borrowed_gpu_hours["B"] == pytest.approx(8 * (30 + 20) / 3600)
    assert summary.queues.borrowed_gpu_hours["A"] == 0
    assert summary.queues.lent_gpu_hours["A"] == pytest.approx(8 * (30 + 20) / 3600)


def test_no_preemption_means_no_queue_counts() -> None:
    jobs = [Job("a", 0, 10, gpus=8), Job("b", 0, 10, gpus=8)]

    assert summarize(simulate(jobs, TWO_NODES, Policy())).preemptions_by_queue == {}
