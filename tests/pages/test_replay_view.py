"""The replay page's glue, plot-ready tables and figures, without running a page."""

import io
from pathlib import Path
from typing import Literal

import pandas as pd
import pytest

from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.colocation import Colocation
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from planner.engine.scenario import QueuesSpec
from planner.service.replay import load_scenario, schedule_rows, write_schedule
from planner.ui import charts, replay_view
from planner.ui import replay_frames as frames

ONE_NODE = [("n1", "A100", 8, 0.0, 0.0)]


def small_result() -> ReplayResult:
    """Two 8-GPU jobs on one 8-GPU node: the second waits an hour for the first."""
    jobs = [
        Job("a", 0.0, 3600.0, gpus=8.0, gpu_types=("A100",)),
        Job("b", 0.0, 1800.0, gpus=8.0, gpu_types=("A100",)),
        Job("c", 60.0, 60.0, gpus=16.0, gpu_types=("A100",)),
    ]
    return simulate(jobs, ONE_NODE, Policy())


def two_teams() -> ReplayResult:
    """One 8-GPU node, FIFO: a (team x) runs 0-3600; b (team y, 8 GPUs) waits 3600 s and
    runs to 5400; c (team x, 4 GPUs, submitted at 600) waits for the node until 5400."""
    jobs = [
        Job("a", 0, 3600, gpus=8, queue="x"),
        Job("b", 0, 1800, gpus=8, queue="y"),
        Job("c", 600, 600, gpus=4, queue="x"),
    ]
    return simulate(jobs, ONE_NODE, Policy())


def borrowing() -> ReplayResult:
    """ClusterQueues A and B, 4 GPUs of quota each, one cohort, one 8-GPU node: b1 (B, 8
    GPUs) borrows A's 4 GPUs for its 100 s; a1 (A) and b2 (B) wait for it to end."""
    spec = QueuesSpec.model_validate(
        {
            "flavors": [{"name": "f"}],
            "cluster_queues": [
                {"name": "A", "cohort": "org", "quotas": [{"flavor": "f", "gpus": 4}]},
                {"name": "B", "cohort": "org", "quotas": [{"flavor": "f", "gpus": 4}]},
            ],
        }
    )
    jobs = [
        Job("b1", 0, 100, gpus=8, queue="B"),
        Job("a1", 10, 50, gpus=4, queue="A"),
        Job("b2", 20, 10, gpus=4, queue="B"),
    ]
    return simulate(jobs, ONE_NODE, Policy(queues=spec.to_setup(strict_default=False)))


def test_a_missing_scenario_file_falls_back_to_a_default_cluster(tmp_path: Path) -> None:
    assert replay_view.default_scenario(tmp_path / "absent.yaml").cluster is not None


def test_the_run_replays_the_chosen_trace_with_the_working_scenario() -> None:
    working = load_scenario(replay_view.SAMPLE_SCENARIO)

    scenario = replay_view.scenario_on("abc123", working)

    assert scenario.trace == "abc123"
    assert scenario.model_dump(exclude={"trace"}) == working.model_dump(exclude={"trace"})


def test_the_downloaded_schedule_is_what_the_cli_writes(tmp_path: Path) -> None:
    result = small_result()
    path = tmp_path / "schedule.csv"
    write_schedule(result, path)

    text = replay_view.schedule_csv(schedule_rows(result))

    assert text.replace("\r\n", "\n") == path.read_text(encoding="utf-8")
    frame = replay_view.schedule_frame(schedule_rows(result))
    assert frame["wait_s"].tolist()[:2] == [0.0, 3600.0]
    assert frame["status"].tolist() == ["completed", "completed", "unschedulable"]


def test_filters_keep_the_matching_rows_and_the_filtered_csv_has_exactly_them() -> None:
    rows = list(schedule_rows(two_teams()))
    table = replay_view.schedule_frame(rows)
    text = replay_view.schedule_csv(rows)

    by_team = replay_view.job_mask(table, replay_view.JobFilter(queues=("x",)))
    long_waits = replay_view.job_mask(table, replay_view.JobFilter(min_wait_s=3600))
    nothing = replay_view.JobFilter(statuses=("unschedulable",))

    assert table.loc[by_team, "job_id"].tolist() == ["a", "c"]
    assert table.loc[long_waits, "job_id"].tolist() == ["b", "c"]
    assert not replay_view.job_mask(table, nothing).any()
    assert not replay_view.JobFilter().active
    assert replay_view.job_mask(table, replay_view.JobFilter()).all()
    lines = text.splitlines(keepends=True)
    assert replay_view.filtered_csv(text, long_waits) == "".join([lines[0], lines[2], lines[3]])
    assert replay_view.filtered_csv(text, [True] * 3) == text
    parsed = pd.read_csv(io.StringIO(replay_view.filtered_csv(text, by_team)))
    assert parsed["job_id"].tolist() == ["a", "c"]


def test_waits_by_team_worked_by_hand() -> None:
    summary = summarize(two_teams())

    waits = frames.wait_by_team_frame(summary)

    minutes = {(row.team, row.statistic): row.minutes for row in waits.itertuples()}
    # team x waited 0 s (a) and 4800 s (c): median 2400 s, p95 0.95 * 4800 s
    assert minutes == {
        ("x", "p50"): pytest.approx(40.0),
        ("x", "p95"): pytest.approx(76.0),
        ("y", "p50"): pytest.approx(60.0),
        ("y", "p95"): pytest.approx(60.0),
    }
    assert waits.loc[waits["team"] == "x", "jobs"].tolist() == [2, 2]


def test_waiting_gpu_hours_by_reason_per_team_worked_by_hand() -> None:
    summary = summarize(two_teams())

    table = frames.waiting_by_reason_team_frame(summary)

    # y: 8 GPUs x 1 h; x: 4 GPUs x 4800 s; both because the node was full; most waiting first
    assert table[["team", "reason"]].values.tolist() == [
        ["y", "cluster_full"],
        ["x", "cluster_full"],
    ]
    assert table["gpu_hours"].tolist() == pytest.approx([8.0, 4 * 4800 / 3600])
    assert table["meaning"].iloc[0].startswith("not enough free GPUs")


def test_borrowing_and_preemptions_per_queue_worked_by_hand() -> None:
    summary = summarize(borrowing())

    lent_borrowed = frames.borrowing_frame(summary)
    preempted = frames.preemptions_frame(summary)

    assert frames.has_queues(summary)
    hours = {(row.queue, row.kind): row.gpu_hours for row in lent_borrowed.itertuples()}
    # B held 8 GPUs on a quota of 4 for 100 s: 4 GPUs x 100 s borrowed, all of it A's
    assert hours == {
        ("A", "borrowed"): 0.0,
        ("A", "lent"): pytest.approx(400 / 3600),
        ("B", "borrowed"): pytest.approx(400 / 3600),
        ("B", "lent"): 0.0,
    }
    assert preempted.to_dict("records") == [
        {"queue": "A", "preemptions": 0},
        {"queue": "B", "preemptions": 0},
    ]


def test_without_queues_there_is_nothing_per_queue() -> None:
    summary = summarize(two_teams())

    assert not frames.has_queues(summary)
    assert frames.borrowing_frame(summary).empty
    assert frames.preemptions_frame(summary).empty


def test_plot_tables_follow_the_summary() -> None:
    result = small_result()
    summary = summarize(result, timeline=True)
    timeline = summary.timeline

    allocation = frames.allocation_frame(timeline)
    queue = frames.queue_frame(timeline)
    waits = frames.wait_by_size_frame(summary)
    reasons = frames.waiting_by_reason_frame(summary)
    fragmentation = frames.fragmentation_frame(timeline)

    assert set(allocation["pool"]) == {"A100"}
    assert allocation["hours"].iloc[1] == pytest.approx(timeline.bin_s / 3600)
    assert len(queue) == len(timeline.queued_jobs)
    assert waits["size"].unique().tolist() == ["8"]
    assert waits.loc[waits["statistic"] == "p95", "minutes"].iloc[0] == pytest.approx(57.0)
    assert reasons["reason"].tolist() == ["cluster_full"]
    assert reasons["gpu_hours"].iloc[0] == pytest.approx(8.0)
    assert fragmentation["measure"].unique().tolist() == ["unusable", "fgd"]
    unusable = fragmentation.loc[fragmentation["measure"] == "unusable", "gpus"]
    assert unusable.tolist() == list(timeline.unusable_idle_gpus)


def test_every_figure_names_its_units() -> None:
    summary = summarize(borrowing(), timeline=True)
    timeline = summary.timeline
    figures = [
        charts.allocated_gpus(frames.allocation_frame(timeline), summary.gpu_capacity_by_pool),
        charts.queue_length(frames.queue_frame(timeline)),
        charts.fragmentation(frames.fragmentation_frame(timeline)),
        charts.wait_by_size(frames.wait_by_size_frame(summary)),
        charts.wait_by_team(frames.wait_by_team_frame(summary)),
        charts.waiting_by_reason(frames.waiting_by_reason_frame(summary)),
        charts.waiting_by_reason_per_team(frames.waiting_by_reason_team_frame(summary)),
        charts.preemptions_by_queue(frames.preemptions_frame(summary)),
        charts.borrowing_by_queue(frames.borrowing_frame(summary)),
    ]

    for fig in figures:
        assert fig.layout.template.layout.hovermode == "x unified"
        assert fig.layout.title.text
        assert fig.layout.xaxis.title.text
        assert fig.layout.yaxis.title.text
    assert figures[0].layout.shapes[0].y0 == 8  # the installed GPUs
    assert figures[0].data[0].line.color == charts.GPU_COLORS["A100"]
    assert "hours" in figures[2].layout.xaxis.title.text


def test_a_reason_has_one_colour_on_both_reason_charts() -> None:
    summary = summarize(two_teams())

    overall = charts.waiting_by_reason(frames.waiting_by_reason_frame(summary))
    per_team = charts.waiting_by_reason_per_team(frames.waiting_by_reason_team_frame(summary))

    expected = charts.REASON_COLORS["cluster_full"]
    assert [bar.marker.color for bar in overall.data] == [expected]
    assert [bar.marker.color for bar in per_team.data] == [expected]


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


@pytest.mark.parametrize(
    ("lang", "livelock", "deadlock"), [("en", "Livelock", "Deadlock"), ("zh", "活锁", "死锁")]
)
def test_the_page_says_why_a_replay_stopped_early(
    lang: Literal["en", "zh"], livelock: str, deadlock: str
) -> None:
    # online services take both nodes every hour but the first: the 2-hour job never finishes

    nodes = [("n1", "A100", 8, 0.0, 0.0), ("n2", "A100", 8, 0.0, 0.0)]
    looping = simulate(
        [Job("long", 0, 7200, pods=2, gpus=8)],
        nodes,
        Policy(colocation=Colocation((0,) + (16,) * 23)),
    )
    # pod admission, no timeout: two 2-pod jobs each hold one node and wait for ever
    stuck = simulate(
        [Job("a", 0, 60, pods=2, gpus=8), Job("b", 0, 60, pods=2, gpus=8)],
        nodes,
        Policy(admission="pod", placement="spread"),
    )
    live = replay_view.stop_alerts(summarize(looping), lang)
    dead = replay_view.stop_alerts(summarize(stuck), lang)

    assert replay_view.stop_alerts(summarize(small_result()), lang) == []
    # the livelock also leaves its job stuck: the alert names the cause, once
    assert len(live) == 1
    assert live[0].startswith(livelock)
    assert len(dead) == 1
    assert dead[0].startswith(deadlock)
    assert "16" in dead[0]  # GPUs held idle by the two half-placed jobs
