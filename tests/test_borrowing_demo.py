"""The queue demo of docs/queues.md ("Multi-tenant queues"): hard per-team quotas against the same
quotas lent and borrowed in one cohort, on data/traces/teams.csv (8 teams, 4 weeks).

Both scenarios replay the same trace on the same 512 GPUs over the same 28-day horizon;
the bands below hold its figures (48.6 % and 75.9 %) with room for engine changes.
"""

from pathlib import Path
from typing import Any

import pytest

from planner.core.file_access import LOCAL_FILES
from planner.engine import ReplayResult
from planner.engine.metrics import summarize
from planner.service.replay import load_scenario, run_scenario
from planner.store import open_store

SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"
WINDOW_S = 28 * 86_400
TEAMS = [f"team-{letter}" for letter in "abcdefgh"]

Replay = tuple[ReplayResult, dict[str, Any]]


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Replay]:
    """Both scenarios, replayed once for the module in one database (one import)."""
    con = open_store(tmp_path_factory.mktemp("demo") / "planner.duckdb")
    try:
        runs = {
            name: run_scenario(
                con, load_scenario(SCENARIOS / f"teams-{name}.yaml"), files=LOCAL_FILES
            ).result
            for name in ("quotas", "borrowing")
        }
    finally:
        con.close()
    return {name: (result, summarize(result)) for name, result in runs.items()}


def test_both_replays_account_for_the_same_jobs_over_the_same_four_weeks(
    replays: dict[str, Replay],
) -> None:
    (quotas_run, quotas), (borrowing_run, borrowing) = replays["quotas"], replays["borrowing"]

    assert [job.job_id for job in quotas_run.jobs] == [job.job_id for job in borrowing_run.jobs]
    for summary in (quotas, borrowing):
        assert summary.jobs == 12_320
        assert summary.completed + summary.unfinished == summary.jobs
        assert summary.unschedulable == 0  # no gang is larger than one team's quota
        assert summary.horizon_s == WINDOW_S
        assert summary.gpu_capacity == 512


def test_hard_quotas_leave_about_half_the_cluster_idle(replays: dict[str, Replay]) -> None:
    _, quotas = replays["quotas"]

    assert 0.40 <= quotas.utilization <= 0.55


def test_cohort_borrowing_lifts_utilization_above_70_percent(replays: dict[str, Replay]) -> None:
    _, quotas = replays["quotas"]
    _, borrowing = replays["borrowing"]

    assert borrowing.utilization > 0.70
    assert borrowing.utilization - quotas.utilization > 0.20
    assert borrowing.completed > quotas.completed


def test_borrowing_cuts_the_waits(replays: dict[str, Replay]) -> None:
    _, quotas = replays["quotas"]
    _, borrowing = replays["borrowing"]

    assert borrowing.wait_s.mean < quotas.wait_s.mean / 5
    assert borrowing.wait_s.p95 < quotas.wait_s.p95
    assert borrowing.still_waiting < quotas.still_waiting


def test_with_borrowing_every_job_submitted_in_the_four_weeks_starts(
    replays: dict[str, Replay],
) -> None:
    borrowing_run, borrowing = replays["borrowing"]

    submitted_later = sum(1 for job in borrowing_run.jobs if job.submit_s > WINDOW_S)
    assert submitted_later > 0  # the trace runs a little past four weeks
    assert borrowing.still_waiting == submitted_later


def test_only_the_cohort_borrows_and_what_is_borrowed_is_lent(replays: dict[str, Replay]) -> None:
    _, quotas = replays["quotas"]
    _, borrowing = replays["borrowing"]

    assert sorted(quotas.queues.borrowed_gpu_hours) == TEAMS
    assert set(quotas.queues.borrowed_gpu_hours.values()) == {0.0}
    borrowed = sum(borrowing.queues.borrowed_gpu_hours.values())
    assert borrowed > 0.2 * borrowing.allocated_gpu_hours
    assert sum(borrowing.queues.lent_gpu_hours.values()) == pytest.approx(borrowed)
    busiest = max(borrowing.queues.borrowed_gpu_hours, key=borrowing.queues.borrowed_gpu_hours.get)
    assert busiest == "team-a"  # the team with Earth's biggest VC's share of the demand
