"""The replay page's glue and figures, without running a page."""

from pathlib import Path

import pandas as pd
import pytest

from planner.config import NodePool
from planner.engine import ReplayResult, simulate
from planner.errors import ScenarioError
from planner.metrics import summarize
from planner.model import Job
from planner.policy import Policy
from planner.replay import load_scenario, schedule_rows, write_schedule
from planner.scenario import ClusterSpec
from planner.ui import charts, replay_view

POLICY = {"admission": "gang", "placement": "best-fit", "queueing": "fifo", "seed": 7}


def small_result() -> ReplayResult:
    """Two 8-GPU jobs on one 8-GPU node: the second waits an hour for the first."""
    jobs = [
        Job("a", 0.0, 3600.0, gpus=8.0, gpu_types=("A100",)),
        Job("b", 0.0, 1800.0, gpus=8.0, gpu_types=("A100",)),
        Job("c", 60.0, 60.0, gpus=16.0, gpu_types=("A100",)),
    ]
    return simulate(jobs, [("n1", "A100", 8, 0.0, 0.0)], Policy())


def test_the_sample_scenario_round_trips_through_the_pool_table() -> None:
    sample = load_scenario(replay_view.SAMPLE_SCENARIO)
    table = replay_view.pool_rows(sample.cluster)

    scenario = replay_view.build_scenario("abc", table, sample.policy.model_dump(), sample)

    assert scenario.trace == "abc"
    assert scenario.policy == sample.policy
    assert sample.cluster is not None
    assert scenario.cluster is not None
    fields = replay_view.POOL_COLUMNS
    assert [p.model_dump(include=set(fields)) for p in scenario.cluster.pools] == [
        p.model_dump(include=set(fields)) for p in sample.cluster.pools
    ]


def test_a_missing_scenario_file_falls_back_to_a_default_cluster(tmp_path: Path) -> None:
    assert replay_view.default_scenario(tmp_path / "absent.yaml").cluster is not None


def test_empty_editor_rows_are_ignored_and_types_trimmed() -> None:
    rows = [
        {
            "gpu_type": " H100 ",
            "gpus_per_node": 8,
            "cpu": float("nan"),
            "mem_gib": None,
            "count": 2,
        },
        {"gpu_type": None, "gpus_per_node": pd.NA, "cpu": None, "mem_gib": None, "count": None},
    ]

    scenario = replay_view.build_scenario("t", rows, POLICY)

    assert scenario.cluster == ClusterSpec(
        pools=(NodePool(gpu_type="H100", gpus_per_node=8, count=2),)
    )
    assert scenario.policy.seed == 7


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([], "the cluster has no node pool"),
        ([{"gpu_type": "A100", "gpus_per_node": 8, "count": 0}], "row 1: count"),
        ([{"gpu_type": "A100", "gpus_per_node": None, "count": 2}], "row 1: gpus_per_node is"),
        ([{"gpu_type": "", "gpus_per_node": 8, "count": 2}], "needs a gpu_type"),
        ([{"gpu_type": "A100", "gpus_per_node": 0, "count": 2}], "the cluster has no GPUs"),
    ],
)
def test_bad_pools_raise_a_scenario_error_naming_the_problem(
    rows: list[dict[str, object]], message: str
) -> None:
    with pytest.raises(ScenarioError, match=message):
        replay_view.build_scenario("t", rows, POLICY)


def test_an_impossible_policy_is_refused_before_the_run() -> None:
    rows = [{"gpu_type": "A100", "gpus_per_node": 8, "count": 1}]
    with pytest.raises(ScenarioError, match="backfill needs gang admission"):
        replay_view.build_scenario("t", rows, POLICY | {"admission": "pod", "queueing": "backfill"})


def test_the_downloaded_schedule_is_what_the_cli_writes(tmp_path: Path) -> None:
    result = small_result()
    path = tmp_path / "schedule.csv"
    write_schedule(result, path)

    text = replay_view.schedule_csv(schedule_rows(result))

    assert text.replace("\r\n", "\n") == path.read_text(encoding="utf-8")
    frame = replay_view.schedule_frame(schedule_rows(result))
    assert frame["wait_s"].tolist()[:2] == [0.0, 3600.0]
    assert frame["status"].tolist() == ["completed", "completed", "unschedulable"]


def test_plot_tables_follow_the_summary() -> None:
    result = small_result()
    summary = summarize(result, timeline=True)

    allocation = replay_view.allocation_frame(summary["timeline"])
    queue = replay_view.queue_frame(summary["timeline"])
    waits = replay_view.wait_by_size_frame(summary)
    reasons = replay_view.waiting_by_reason_frame(summary)

    assert set(allocation["pool"]) == {"A100"}
    assert allocation["hours"].iloc[1] == pytest.approx(summary["timeline"]["bin_s"] / 3600)
    assert len(queue) == len(summary["timeline"]["queued_jobs"])
    assert waits["size"].unique().tolist() == ["8"]
    assert waits.loc[waits["statistic"] == "p95", "minutes"].iloc[0] == pytest.approx(57.0)
    assert reasons["reason"].tolist() == ["cluster_full"]
    assert reasons["gpu_hours"].iloc[0] == pytest.approx(8.0)


def test_every_figure_names_its_units() -> None:
    summary = summarize(small_result(), timeline=True)
    figures = [
        charts.allocated_gpus(
            replay_view.allocation_frame(summary["timeline"]), summary["gpu_capacity_by_pool"]
        ),
        charts.queue_length(replay_view.queue_frame(summary["timeline"])),
        charts.wait_by_size(replay_view.wait_by_size_frame(summary)),
        charts.waiting_by_reason(replay_view.waiting_by_reason_frame(summary)),
    ]

    for fig in figures:
        assert fig.layout.template.layout.hovermode == "x unified"
        assert fig.layout.xaxis.title.text
        assert fig.layout.yaxis.title.text
    assert figures[0].layout.shapes[0].y0 == 8  # the installed GPUs
    assert figures[0].data[0].line.color == charts.GPU_COLORS["A100"]


def test_known_gpu_types_keep_their_colour_and_others_get_one() -> None:
    colors = charts.gpu_colors(["h100", "MI300X", "A100"])

    assert colors["h100"] == charts.GPU_COLORS["H100"]
    assert colors["A100"] == charts.GPU_COLORS["A100"]
    assert colors["MI300X"] not in charts.GPU_COLORS.values()


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(None, "n/a"), (0.0, "0 s"), (90.0, "1.5 min"), (5400.0, "1.5 h"), (172_800.0, "2.0 days")],
)
def test_duration_text(seconds: float | None, text: str) -> None:
    assert replay_view.duration_text(seconds) == text
