"""Colocation: online services hold GPUs by hour of day and evict batch jobs when they grow."""

from pathlib import Path

import pytest

from planner.cli import main
from planner.core.model import Job
from planner.engine import simulate
from planner.engine.colocation import Colocation
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from planner.engine.scenario import Scenario
from planner.engine.waits import REASON_CODES

NODES = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 8, 0.0, 0.0)]
# online services need nothing in hour 0 and 12 GPUs from hour 1 on
CURVE = (0,) + (12,) * 23


def test_online_growth_evicts_the_lowest_priority_most_recent_batch_job() -> None:
    jobs = [
        Job("old", 0, 7200, gpus=8, priority=0),
        Job("new", 600, 7200, gpus=8, priority=0),
        Job("vip", 900, 3600, gpus=8, priority=5),
    ]

    result = simulate(jobs, NODES, Policy(colocation=Colocation(CURVE), horizon_s=4000))

    ix = {j.job_id: i for i, j in enumerate(result.jobs)}
    # at 3600 online needs 12 of 16 GPUs, all 16 held by old and new (vip waits): "new"
    # (lowest priority, started last) goes first, then "old"; vip then takes the 4 left?
    # No: vip needs 8 and only 4 remain, so it keeps waiting.
    assert result.evicted_by_online == 2
    assert [s[:2] for s in result.segments[ix["new"]]] == [(600, 3600)]
    assert [s[:2] for s in result.segments[ix["old"]]] == [(0, 3600)]
    assert ix["vip"] not in result.segments
    waited = result.wait_by_reason[ix["new"]]
    assert waited is not None
    assert waited[REASON_CODES.index("evicted_online")] == 400  # 3600 to the horizon
    summary = summarize(result)
    assert summary.evicted_by_online == 2
    assert summary.preemptions == 2
    assert summary.wasted_gpu_hours == pytest.approx(8 * (3000 + 3600) / 3600)


def test_a_livelock_of_evictions_ends_the_replay_with_the_jobs_unfinished() -> None:
    # online takes the cluster every hour but hour 0; a 2-hour job can never finish
    jobs = [Job("long", 0, 7200, pods=2, gpus=8)]

    result = simulate(jobs, NODES, Policy(colocation=Colocation((0,) + (16,) * 23)))

    assert result.status == ["unfinished"]
    assert result.evicted_by_online >= 7


def test_online_gpus_are_counted_and_batch_never_overlaps_them() -> None:
    jobs = [Job("a", 0, 36000, gpus=4)]

    result = simulate(jobs, NODES, Policy(colocation=Colocation(CURVE)))

    # the job fits beside the 12 online GPUs: never evicted
    assert result.preemptions == 0
    assert result.end_s == [36000]
    # online: 12 GPUs from 3600 to the end at 36000
    assert result.online_gpu_s == pytest.approx(12 * (36000 - 3600))
    assert result.allocated_gpu_s == pytest.approx(4 * 36000)


def test_the_scenario_takes_a_daily_curve_of_24_values() -> None:
    scenario = Scenario.model_validate(
        {"colocation": {"online_gpus_by_hour": list(CURVE), "gpu_types": ["A100"]}}
    )

    assert scenario.to_policy().colocation == Colocation(CURVE, ("A100",))
    with pytest.raises(ValueError, match="24"):
        Scenario.model_validate({"colocation": {"online_gpus_by_hour": [1, 2]}})


def test_the_cli_text_says_when_a_livelock_stopped_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the livelock above, through `planner replay` without --json: it must be said, not only
    # be a key of the JSON
    trace = tmp_path / "one.csv"
    trace.write_text(
        "job_id,submit_time,duration_s,pods,gpus,gpu_type\n"
        "long,2026-01-05T00:00:00Z,7200,2,8,A100\n"
    )
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        f"trace: {trace}\n"
        "cluster:\n  pools: [{name: a, count: 2, gpus_per_node: 8, gpu_type: A100}]\n"
        f"colocation:\n  online_gpus_by_hour: {[0] + [16] * 23}\n"
    )

    code = main(["replay", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb")])

    out = capsys.readouterr().out
    assert code == 0
    assert (
        "LIVELOCK: from 3,600 s preemptions kept undoing all work and nothing completed; the "
        "replay stopped at 612,000 s with 1 jobs waiting and 0 running"
    ) in out
    assert "DEADLOCK" not in out
