"""The replay page, run headlessly through the app's entrypoint with AppTest."""

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from planner.replay import SCHEDULE_COLUMNS, load_scenario, run_scenario
from planner.ui import replay_view
from tests.pages.app import open_app_page

PAGE = "pages/replay.py"
TIMEOUT_S = 60  # the first run imports the sample trace


def open_page() -> AppTest:
    return open_app_page(PAGE, TIMEOUT_S)


def run(at: AppTest) -> AppTest:
    return at.button(key="replay_run").click().run()


def edit_pools(at: AppTest, edited_rows: dict[int, dict[str, Any]]) -> None:
    """Seed the pool editor's edit state, as a user's cell edits would."""
    edits = {"edited_rows": edited_rows, "added_rows": [], "deleted_rows": []}
    at.session_state["replay_pools"] = edits


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: str(m.value) for m in at.metric}


def charts(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def test_the_page_opens_on_the_sample_with_its_scenario_as_defaults(db: Path) -> None:
    sample = load_scenario(replay_view.SAMPLE_SCENARIO)
    assert sample.cluster is not None

    at = open_page()

    assert not at.exception
    assert at.title[0].value == "Replay"
    assert "sample" in at.selectbox(key="replay_trace").format_func(
        at.selectbox(key="replay_trace").value
    )
    pools = at.data_editor[0].value
    assert pools["count"].tolist() == [pool.count for pool in sample.cluster.pools]
    assert pools["gpu_type"].tolist() == [pool.gpu_type for pool in sample.cluster.pools]
    assert at.selectbox(key="replay_admission").value == sample.policy.admission
    assert at.selectbox(key="replay_placement").value == sample.policy.placement
    assert at.selectbox(key="replay_queueing").value == sample.policy.queueing
    assert at.number_input(key="replay_seed").value == sample.policy.seed
    assert "press **Run**" in at.info[0].value
    assert not at.metric
    assert not at.error


def test_run_shows_the_headline_metrics_and_the_four_charts(db: Path) -> None:
    at = run(open_page())

    assert not at.exception
    assert not at.error
    shown = metrics(at)
    assert list(shown) == ["Utilization", "Completed", "Unschedulable", "Mean wait", "p95 wait"]
    assert shown["Utilization"].endswith("%")
    jobs = at.dataframe[-1].value  # the per-job table, below the pool editor
    assert list(jobs.columns) == list(SCHEDULE_COLUMNS)
    assert shown["Completed"] == f"{(jobs['status'] == 'completed').sum():,}"
    assert shown["Unschedulable"] == f"{(jobs['status'] == 'unschedulable').sum():,}"
    titles = [chart["layout"]["title"]["text"] for chart in charts(at)]
    assert titles == [
        "Allocated GPUs over time, by pool",
        "Queue length over time",
        "Wait by job size (median and 95th percentile)",
        "Why jobs waited",
    ]
    for chart in charts(at):
        for axis in ("xaxis", "yaxis"):
            assert chart["layout"][axis]["title"]["text"], f"{chart['layout']['title']} {axis}"


def test_the_schedule_is_downloadable_after_a_run_only(db: Path) -> None:
    at = open_page()
    assert not at.download_button

    at = run(at)

    assert not at.exception
    assert at.download_button(key="replay_download").proto.label == "Download the schedule (CSV)"


def test_running_the_same_scenario_again_uses_the_cached_replay(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def counted(con: Any, scenario: Any) -> Any:
        calls.append(scenario.trace)
        return run_scenario(con, scenario)

    monkeypatch.setattr(replay_view, "run_scenario", counted)
    at = run(open_page())
    at = run(at)

    assert not at.exception
    assert len(calls) == 1
    assert metrics(at)


def test_policy_choices_reach_the_replay(db: Path) -> None:
    at = open_page()
    at.selectbox(key="replay_queueing").set_value("strict-fifo")
    at.selectbox(key="replay_placement").set_value("spread")

    at = run(at)

    assert not at.exception
    assert "spread placement, strict-fifo queueing" in at.caption[-1].value


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        ({0: {"count": 0}, 1: {"count": 0}}, "count: Input should be greater than 0"),
        ({0: {"gpus_per_node": 0}, 1: {"gpus_per_node": 0}}, "the cluster has no GPUs"),
        ({0: {"count": None}}, "node pool row 1: count is empty"),
    ],
)
def test_an_invalid_cluster_is_reported_not_raised(
    db: Path, edits: dict[int, dict[str, Any]], message: str
) -> None:
    at = open_page()
    edit_pools(at, edits)

    at = run(at)

    assert not at.exception
    assert message in at.error[0].value
    assert not at.metric
    assert not at.download_button


def test_pod_admission_with_backfill_is_reported_not_raised(db: Path) -> None:
    at = open_page()
    at.selectbox(key="replay_admission").set_value("pod")
    at.selectbox(key="replay_queueing").set_value("backfill")

    at = run(at)

    assert not at.exception
    assert "backfill needs gang admission" in at.error[0].value


def test_a_fixed_cluster_replaces_the_error_with_results(db: Path) -> None:
    at = open_page()
    edit_pools(at, {0: {"count": 0}})
    at = run(at)
    assert at.error

    edit_pools(at, {})
    at = run(at)

    assert not at.exception
    assert not at.error
    assert "Completed" in metrics(at)
