"""The real openb pod list: every row accounted, withdrawn pods kept with their deadlines,
GPU-hours as a hand computation from the raw file, and a replay that settles every pod."""

from pathlib import Path

import duckdb
import pandas as pd
import pytest

from planner.engine import simulate
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from planner.service.replay import load_jobs, load_nodes
from tests.conftest import ingest, jobs_of

OPENB = "alibaba-openb-2023"


@pytest.fixture
def openb(shared_traces: Path) -> Path:
    return shared_traces / OPENB


@pytest.fixture
def raw_pods(openb: Path) -> pd.DataFrame:
    return pd.read_csv(openb / "openb_pod_list_default.csv.gz")


def test_every_openb_pod_is_a_job_and_pending_ones_are_withdrawn_with_their_deadline(
    openb: Path, raw_pods: pd.DataFrame, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, openb / "openb_pod_list_default.csv.gz")
    jobs = pd.DataFrame(jobs_of(con, report.trace_id)).set_index("job_id")

    assert (report.rows, report.accepted, report.rejected) == (8152, 8152, 0)
    assert report.rejected_by_reason == {}
    pending = raw_pods[raw_pods["pod_phase"] == "Pending"].set_index("name")
    assert len(pending) == report.withdrawn == 897
    kept = jobs.loc[pending.index]
    assert (kept["status"] == "withdrawn").all()
    assert (kept["duration_s"] == 0).all()
    assert kept["start_s"].isna().all()
    assert (
        kept["withdraw_after_s"].tolist()
        == (pending["deletion_time"] - pending["creation_time"]).astype(float).tolist()
    )
    assert kept["withdraw_after_s"].median() == 94.0
    # Running with a deletion time before the window end ran until deleted; at it: running
    window_end = raw_pods["deletion_time"].max()
    running = raw_pods[raw_pods["pod_phase"] == "Running"]
    at_end = running[running["deletion_time"] == window_end]["name"]
    assert report.running_at_end == len(at_end) == 34
    assert set(jobs.index[jobs["status"] == "running-at-end"]) == set(at_end)
    assert (jobs["status"] == "completed").sum() == 192 + 5193 - 34
    assert report.running_at_start == 0  # every openb pod has its creation time


def test_openb_gpu_hours_equal_a_hand_computation_from_the_raw_file(
    openb: Path, raw_pods: pd.DataFrame, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, openb / "openb_pod_list_default.csv.gz")

    ran = raw_pods[raw_pods["scheduled_time"].notna()]
    gpus = (ran["num_gpu"] * ran["gpu_milli"] / 1000).where(ran["num_gpu"] > 0, 0.0)
    hours = (gpus * (ran["deletion_time"] - ran["scheduled_time"])).sum() / 3600
    assert report.gpu_hours == pytest.approx(hours, rel=1e-12)
    assert report.gpu_hours == pytest.approx(51470.674158, rel=1e-9)  # as before: withdrawn add 0


def test_openb_replay_settles_every_withdrawn_pod_and_the_counts_add_up(
    openb: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, openb / "openb_pod_list_default.csv.gz")
    jobs = load_jobs(con, report.trace_id)
    nodes = load_nodes(openb / "openb_node_list_gpu_node.csv")

    result = simulate(jobs, nodes, Policy())

    summary = summarize(result)
    outcomes = {"withdrawn", "withdrawn-after-start"}
    for job, status in zip(result.jobs, result.status, strict=True):
        if job.status == "withdrawn":
            assert status in outcomes, (job.job_id, status)
        else:
            assert status not in outcomes
    assert summary.withdrawn + summary.withdrawn_after_start == 897
    assert summary.withdrawn_observed == 897
    assert (
        summary.completed
        + summary.unschedulable
        + summary.unfinished
        + summary.withdrawn
        + summary.withdrawn_after_start
        == summary.jobs
        == 8152
    )
    for i, status in enumerate(result.status):
        job = result.jobs[i]
        if status == "withdrawn-after-start":
            assert job.withdraw_after_s is not None
            assert result.end_s[i] == job.submit_s + job.withdraw_after_s
