"""The twin check's tries run in worker processes (`planner.twin.trials`) give the same report,
to the bit, as one at a time, and count the same replays; the score of a try, taken from the
waits alone, is the comparison's."""

import itertools
import math

import pytest

from planner.core.model import Job
from planner.engine.policy import Policy
from planner.twin.calibrate import TwinInput, TwinRun, run_twin
from planner.twin.compare import Outcome
from planner.twin.latency_fit import Draws, fit_latency, twin_jobs
from planner.twin.progress import TwinProgress
from planner.twin.trials import PARALLEL_FROM_JOBS, default_workers, score_window
from tests.test_twin import NODES, _history, _nodes


def _check(workers: int) -> tuple[TwinRun, list[TwinProgress]]:
    heard: list[TwinProgress] = []
    spec = TwinInput("synthetic", "10 nodes", _history(), _nodes(NODES), Policy(), workers=workers)
    return run_twin(spec, heard.append), heard


@pytest.fixture(scope="module")
def both() -> tuple[tuple[TwinRun, list[TwinProgress]], tuple[TwinRun, list[TwinProgress]]]:
    return _check(1), _check(2)


def test_two_workers_give_the_same_report_as_one(both) -> None:
    (alone, _), (pooled, _) = both

    assert len(alone.report.calibration.capacity_scores) > 3  # the capacity search ran
    assert pooled.report == alone.report
    assert pooled.rows == alone.rows
    assert pooled.policy == alone.policy
    assert pooled.latency == alone.latency


def test_two_workers_count_the_same_replays_rising_to_the_total(both) -> None:
    (_, alone), (_, pooled) = both

    assert pooled[-1].done == pooled[-1].total == alone[-1].done == alone[-1].total
    assert all(b.done - a.done in (0, 1) for a, b in itertools.pairwise(pooled))
    assert all(b.total <= a.total for a, b in itertools.pairwise(pooled))
    assert all(p.done <= p.total for p in pooled)


def test_the_score_of_a_window_from_its_waits_by_hand() -> None:
    """Three jobs in the window [0, 100): observed waits all 9 s, replayed all 99 s, and one of
    them withdrawn in the replay only (it has no start, so two waits of 99 s): each quantile
    adds |ln((99 + 1) / (9 + 1))| = ln 10, the withdrawn count |ln((1 + 1) / (0 + 1))| = ln 2.
    A job submitted at 100 s is outside the window and counts nowhere."""
    jobs = [Job(f"j{k}", float(k), 60.0) for k in (0, 1, 2, 100)]
    observed = {j.job_id: Outcome(j.submit_s + 9.0, j.submit_s + 69.0, False) for j in jobs}
    replayed = {j.job_id: Outcome(j.submit_s + 99.0, j.submit_s + 159.0, False) for j in jobs}
    replayed["j2"] = Outcome(None, None, True)
    replayed["j100"] = Outcome(None, None, True)

    score = score_window(jobs, observed, replayed, (0.0, 100.0))

    assert score == pytest.approx(3 * math.log(10) + math.log(2))


def test_short_histories_run_their_tries_in_this_process() -> None:
    assert default_workers(PARALLEL_FROM_JOBS - 1) == 1
    assert default_workers(PARALLEL_FROM_JOBS) >= 1


def test_jobs_drawn_once_get_the_latency_the_engine_would_draw() -> None:
    """`Draws` (each job's numbers, drawn once a check) hand the engine every job's latency
    per job: the same seconds, and the same never-placed jobs, as drawing in each replay."""
    history = _history(jobs=400)
    fit_jobs = [j for j in history if j.submit_s < history[240].submit_s]
    uncontended = {j.job_id for j in fit_jobs[::2]}  # any set: the tables only need waits
    fit = fit_latency(fit_jobs, uncontended, seed=3)

    plain_jobs, plain = twin_jobs(history, fit)
    drawn_jobs, drawn = twin_jobs(history, fit, Draws.of(history, 3))

    assert drawn_jobs == plain_jobs
    assert [drawn.latency_s(j) for j in drawn_jobs] == [plain.latency_s(j) for j in plain_jobs]
    assert len(drawn.per_job) == len(history) > len(plain.per_job)
