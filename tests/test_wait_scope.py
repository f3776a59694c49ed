"""Headline waits are GPU jobs' by default: CPU-only jobs that start at once must not hide
how long GPU jobs wait (issue 12, defect 7). Worked by hand on one 8-GPU node."""

import json
from dataclasses import replace
from datetime import date
from pathlib import Path

import duckdb
import pytest
from pydantic import ValidationError

from planner.cli import main
from planner.core.model import Job
from planner.cost.scenario import TcoScenario
from planner.engine import simulate
from planner.engine.metrics import summarize, useful_gpu_hours
from planner.engine.policy import Policy
from planner.engine.wait_scope import check_wait_scope
from planner.service.tco_run import tco_of_jobs
from planner.ui.replay_view import scoped_waits, wait_scopes
from tests.conftest import write

ONE_NODE = [("n1", "A100", 8, 0.0, 0.0)]
# g1 holds the node 0-100; g2 and g3 wait for it (100 s and 190 s); six CPU-only jobs
# start at once, so all jobs' p50 wait is 0 while GPU jobs' is 100.
JOBS = [
    Job("g1", 0, 100, gpus=8, queue="vision"),
    Job("g2", 0, 100, gpus=8, queue="vision"),
    Job("g3", 10, 100, gpus=8, queue="nlp"),
    *(Job(f"c{k}", 0, 50, gpus=0, queue="etl") for k in range(6)),
]


def test_headline_waits_are_gpu_jobs_and_all_jobs_are_given_beside_them() -> None:
    s = summarize(simulate(JOBS, ONE_NODE, Policy()))

    assert s.wait_scope == "gpu-jobs"
    assert s.wait_s.jobs == 3
    assert s.wait_s.max == 190  # g3: submitted at 10, starts at 200
    assert s.wait_s.p50 == 100  # waits 0, 100, 190
    assert s.wait_s.mean == pytest.approx(290 / 3)
    every = s.wait_s_by_scope["all-jobs"]
    assert every.jobs == 9
    assert every.p50 == 0  # six CPU-only jobs and g1 never waited
    assert s.wait_s_by_scope["gpu-jobs"] == s.wait_s


def test_a_team_scope_counts_that_queues_jobs_only() -> None:
    s = summarize(simulate(JOBS, ONE_NODE, Policy()), wait_scope="team:nlp")

    assert s.wait_s.jobs == 1
    assert s.wait_s.max == 190
    assert scoped_waits(s, "team:nlp") == s.wait_s
    assert wait_scopes(s) == ["gpu-jobs", "all-jobs", "team:etl", "team:nlp", "team:vision"]


@pytest.mark.parametrize("bad", ["gpu", "team:", "everyone"])
def test_an_unknown_scope_is_refused_with_the_choices(bad: str) -> None:
    with pytest.raises(ValueError, match="gpu-jobs.*all-jobs.*team:NAME"):
        check_wait_scope(bad)


def test_cli_prints_gpu_jobs_waits_and_all_jobs_waits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = "\n".join(f"{j.job_id},{j.submit_s},{j.duration_s},{j.gpus},{j.queue}" for j in JOBS)
    trace = write(tmp_path, "t.csv", "job_id,submit_time,duration,gpus,queue\n" + rows + "\n")
    db = str(tmp_path / "p.duckdb")
    args = ["replay", str(trace), "--nodes", "1", "--db", db]

    assert main(args) == 0
    text = capsys.readouterr().out
    assert "wait (s) of GPU jobs (3 started): mean 97  p50 100" in text
    assert "wait (s) of all jobs (9 started): mean 32  p50 0" in text

    assert main([*args, "--json", "--waits", "all-jobs"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["wait_scope"], out["wait_s"]["jobs"], out["wait_s"]["p50"]) == ("all-jobs", 9, 0)


def test_useful_gpu_hours_are_every_job_that_ran_less_failed_only_when_asked() -> None:
    jobs = [
        Job("ok", 0, 3600, gpus=2, status="completed"),
        Job("bad", 0, 1800, gpus=4, status="failed"),
        Job("stop", 0, 7200, gpus=1, status="cancelled"),
        Job("late", 0, 3600, gpus=1, status="running-at-end"),
    ]
    result = simulate(jobs, ONE_NODE, Policy())

    # 2 x 1 h + 4 x 0.5 h + 1 x 2 h + 1 x 1 h: everything ran on the 8-GPU node
    assert useful_gpu_hours(result) == pytest.approx(7.0)
    assert summarize(result).useful_gpu_hours == pytest.approx(7.0)
    assert useful_gpu_hours(result, exclude_failed=True) == pytest.approx(3.0)


def test_the_tco_reports_gpu_jobs_waits_unless_the_scenario_picks_another_scope(
    con: duckdb.DuckDBPyConnection,
) -> None:
    jobs = [replace(j, cpu=1.0, mem_gib=1.0) for j in JOBS]
    server = {"gpu": "A100", "servers": 1, "price": 100_000, "cpu": 64, "mem_gib": 512}
    server |= {"idle_kw": 1, "load_kw": 5, "max_kw": 6}
    base = {"horizons_years": [1], "scope": "all-jobs", "self_hosted": [server]}

    def p95(**fields: str) -> float:
        scenario = TcoScenario.model_validate(base | fields)
        report = tco_of_jobs(con, scenario, jobs, today=date(2026, 6, 1))
        return float(report.horizons[0].options[0].wait_p95_s)

    # GPU jobs waited 0, 100 and 190 s; with the six CPU-only jobs (0 s) p95 is lower
    assert p95() == pytest.approx(181.0)  # 100 + 0.9 x (190 - 100)
    assert p95(wait_scope="all-jobs") == pytest.approx(190 - 0.4 * 90)  # 9 waits: p95 at 7.6
    assert p95(wait_scope="team:nlp") == pytest.approx(190.0)
    with pytest.raises(ValidationError, match="wait_scope"):
        TcoScenario.model_validate(base | {"wait_scope": "everyone"})
