"""The replay page, run headlessly through the app's entrypoint with AppTest."""

import json
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from planner.core.file_access import BUNDLED_FILES
from planner.engine.scenario import Scenario
from planner.service import scenario_store
from planner.service.replay import SCHEDULE_COLUMNS, load_scenario, run_scenario
from planner.ui import cluster_view, replay_view
from planner.ui.cache import cursor
from planner.ui.state import SCENARIO_KEY
from tests.pages.app import RUN_CEILING_S, open_app_page

PAGE = "pages/replay.py"
TIMEOUT_S = RUN_CEILING_S
SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"
RESULT_CHARTS = [
    "replay_allocated",
    "replay_queue",
    "replay_fragmentation",
    "replay_wait_size",
    "replay_wait_team",
    "replay_reasons",
    "replay_reasons_team",
]


def open_page(working: Scenario | None = None, lang: str | None = None) -> AppTest:
    """The page, with `working` as the session's working scenario and `lang` if given."""
    state: dict[str, object] = {}
    if lang is not None:
        state["lang"] = lang  # before the first run, as the sidebar switch does
    if working is not None:
        state[SCENARIO_KEY] = working
    return open_app_page(PAGE, TIMEOUT_S, **state)


def run(at: AppTest) -> AppTest:
    return at.button(key="replay_run").click().run()


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: str(m.value) for m in at.metric}


def charts(at: AppTest) -> dict[str, dict[str, Any]]:
    """The page's plotly figures by widget key."""
    found = {}
    for chart in at.get("plotly_chart"):
        key = chart.proto.id.rsplit("-", 1)[-1]
        found[key] = json.loads(chart.proto.spec)
    return found


def sample() -> Scenario:
    return load_scenario(replay_view.SAMPLE_SCENARIO)


def test_the_page_opens_on_the_sample_trace_and_the_working_scenario(read_db: Path) -> None:
    at = open_page()

    assert not at.exception
    assert at.title[0].value == "Replay"
    select = at.selectbox(key="replay_trace")
    assert "sample" in select.format_func(select.value)
    summary = at.info[0].value
    assert "96 nodes × 8 A100 + 32 nodes × 8 H800 (1,024 GPUs)" in summary
    assert "EASY backfill" in summary
    assert not at.data_editor  # the cluster is edited on the Cluster & policy page
    assert "press **Run**" in at.info[1].value
    assert not at.metric
    assert not at.error


def test_run_shows_the_headline_metrics_and_every_chart(read_db: Path) -> None:
    at = run(open_page())

    assert not at.exception
    assert not at.error
    shown = metrics(at)
    assert list(shown) == ["GPU allocation", "Completed", "Unschedulable", "Mean wait", "p95 wait"]
    assert shown["GPU allocation"].endswith("%")
    jobs = at.dataframe[-1].value
    assert list(jobs.columns) == list(SCHEDULE_COLUMNS)
    assert shown["Completed"] == f"{(jobs['status'] == 'completed').sum():,}"
    assert shown["Unschedulable"] == f"{(jobs['status'] == 'unschedulable').sum():,}"
    figures = charts(at)
    assert list(figures) == RESULT_CHARTS
    for key, chart in figures.items():
        for axis in ("xaxis", "yaxis"):
            assert chart["layout"][axis]["title"]["text"], f"{key} {axis}"
    teams = {team for bar in figures["replay_wait_team"]["data"] for team in bar["x"]}
    assert teams == set(jobs.loc[jobs["start_s"].notna(), "queue"])
    assert "No queues configured" in at.info[-1].value


def test_the_working_scenario_is_what_runs(read_db: Path) -> None:
    working = sample()
    policy = working.policy.model_copy(update={"queueing": "strict-fifo", "placement": "spread"})
    at = open_page(working.model_copy(update={"policy": policy}))
    assert at.info[0].value == cluster_view.scenario_summary(at.session_state[SCENARIO_KEY], "en")
    assert "spread" in at.info[0].value

    at = run(at)

    assert not at.exception
    assert any("spread placement, strict FIFO queueing" in c.value for c in at.caption)


def test_queues_show_preemptions_and_borrowing_per_queue(read_db: Path) -> None:
    borrowing = load_scenario(SCENARIOS / "sample-borrowing.yaml")
    at = run(open_page(borrowing))

    assert not at.exception
    figures = charts(at)
    assert {"replay_preemptions", "replay_borrowing"} <= set(figures)
    bars = figures["replay_borrowing"]["data"]
    assert [bar["name"] for bar in bars] == ["borrowed", "lent"]
    assert len(bars[0]["x"]) == 8  # one per team's ClusterQueue
    assert "ClusterQueues" in at.info[0].value


def test_an_impossible_working_scenario_is_reported_not_raised(read_db: Path) -> None:
    working = sample()
    policy = working.policy.model_copy(update={"admission": "pod", "queueing": "backfill"})

    at = run(open_page(working.model_copy(update={"policy": policy})))

    assert not at.exception
    assert "backfill needs gang admission" in at.error[0].value
    assert not at.metric
    assert not at.download_button


def test_running_the_same_scenario_again_uses_the_cached_replay(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[object] = []

    def counted(
        con: Any, scenario: Any, options: Any = None, progress: Any = None, *, files: Any
    ) -> Any:
        calls.append(progress)
        return run_scenario(con, scenario, options, progress, files=files)

    monkeypatch.setattr(replay_view, "run_scenario", counted)
    at = run(open_page())
    at = run(at)

    assert not at.exception
    assert len(calls) == 1
    assert calls[0] is not None  # the first run reported its progress
    assert metrics(at)
    assert not at.get("progress")  # the progress bar is gone once results show


def test_cancel_stops_the_replay_and_shows_no_results(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(
        con: Any, scenario: Any, options: Any = None, progress: Any = None, *, files: Any
    ) -> Any:
        # what Streamlit does when a button is pressed during a run: the script stops at
        # its next st call, here the first progress update
        def stop(fraction: float) -> None:
            progress(fraction)
            st.stop()

        return run_scenario(con, scenario, options, stop, files=files)

    monkeypatch.setattr(replay_view, "run_scenario", interrupted)
    at = run(open_page())
    assert at.get("progress")
    assert "Replaying" in at.get("progress")[0].proto.text

    at = at.button(key="replay_cancel").click().run()

    assert not at.exception
    assert "Replay cancelled" in at.warning[0].value
    assert not at.metric
    assert not at.get("plotly_chart")
    assert not at.download_button
    assert not replay_view.is_cached(replay_view.scenario_on(at.selectbox[0].value, sample()))


def test_filters_reduce_the_table_and_offer_the_filtered_rows(read_db: Path) -> None:
    at = run(open_page())
    everything = at.dataframe[-1].value
    assert at.download_button(key="replay_download").proto.label == (
        "Download the full schedule (CSV)"
    )
    assert len(at.download_button) == 1

    at.multiselect(key="replay_filter_status").set_value(["unschedulable"])
    at = at.run()

    table = at.dataframe[-1].value
    assert 0 < len(table) < len(everything)
    assert set(table["status"]) == {"unschedulable"}
    label = at.download_button(key="replay_download_filtered").proto.label
    assert f"the {len(table)} filtered rows" in label

    at.multiselect(key="replay_filter_status").set_value([])
    at.multiselect(key="replay_filter_queue").set_value(["team-b"])
    at.number_input(key="replay_filter_wait").set_value(10.0)
    at = at.run()

    table = at.dataframe[-1].value
    assert 0 < len(table) < (everything["queue"] == "team-b").sum()
    assert set(table["queue"]) == {"team-b"}
    assert (table["wait_s"] >= 600).all()


def test_a_changed_working_scenario_marks_the_results_as_stale(read_db: Path) -> None:
    at = run(open_page())
    assert not any("changed" in info.value for info in at.info)
    working = sample()

    at.session_state[SCENARIO_KEY] = working.model_copy(
        update={"policy": working.policy.model_copy(update={"seed": 7})}
    )
    at = at.run()

    assert any("changed since this run" in info.value for info in at.info)
    assert metrics(at)  # the last run's results stay until the next Run


def test_the_page_speaks_chinese(read_db: Path) -> None:
    at = run(open_page(lang="zh"))

    assert not at.exception
    assert at.title[0].value == "回放"
    assert "GPU 分配率" in metrics(at)
    assert "个节点" in at.info[0].value
    titles = [chart["layout"]["title"]["text"] for chart in charts(at).values()]
    assert "作业为什么等待" in titles
    assert at.download_button(key="replay_download").proto.label == "下载完整调度表（CSV）"


def test_a_run_is_saved_with_its_results_and_reruns_the_same_on_the_cli(db: Path) -> None:
    at = run(open_page())
    at.text_input(key="replay_save_name").set_value("the sample cluster")
    at.button(key="FormSubmitter:replay_save_save_form-Save").click().run()

    assert not at.exception
    assert any("the sample cluster" in s.value for s in at.success)
    with cursor(str(db)) as con:  # the app's connection: one per process and file
        saved = scenario_store.load(con, "the sample cluster")
        again = scenario_store.run_saved(con, saved, files=BUNDLED_FILES)
    assert saved.kind == "replay"
    assert saved.results is not None
    shown = saved.results
    # the CLI's `planner scenarios run` replays the saved YAML: the same numbers
    assert again["utilization"] == pytest.approx(shown["utilization"])
    assert again["wait_s"] == pytest.approx(shown["wait_s"])
    assert again["completed"] == shown["completed"]


def test_cpu_only_jobs_in_the_replay_are_said_to_differ_from_compare(db: Path) -> None:
    """The Replay page runs CPU-only jobs beside GPU jobs; Compare and Capacity price GPU
    jobs only: the page says what differs, and says nothing when there are none."""
    from planner.ingest import IngestOptions
    from planner.service.importer import import_file
    from planner.store import connect
    from planner.ui import trace_choice

    text = (
        "job_id,submit_time,duration_s,gpus,cpu\n"
        "g1,2026-01-01T00:00:00Z,3600,1,4\n"
        "c1,2026-01-01T00:00:00Z,3600,0,16\n"
        "c2,2026-01-01T00:10:00Z,3600,0,16\n"
    )
    path = db.parent / "mixed.csv"
    path.write_text(text)
    with connect(db) as con:
        trace_id = import_file(con, path, IngestOptions()).trace_id

    at = run(open_page())
    plain = [c.value for c in at.caption if "CPU-only jobs" in c.value]
    at.session_state[trace_choice.CHOSEN_KEY] = trace_id
    at = run(at.run())

    shown = [c.value for c in at.caption if "CPU-only jobs" in c.value]
    assert plain == []
    assert len(shown) == 1
    assert shown[0].startswith("This replay runs 2 CPU-only jobs beside the GPU jobs")
