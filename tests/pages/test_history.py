"""The job-history page, run headlessly through the app's entrypoint with AppTest."""

import base64
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from planner.ui import history_view
from tests.pages.app import RUN_CEILING_S, mapping_key, open_app_page

PAGE = "pages/history.py"
TIMEOUT_S = RUN_CEILING_S

GOOD = (
    "job_id,submit_time,duration_s,gpus,queue\n"
    "a1,2026-01-01T00:00:00Z,3600,1,team-x\n"
    "a2,2026-01-02T06:00:00Z,7200,8,team-y\n"
)
ONE_BAD = (
    "job_id,submit_time,duration_s,gpus,queue\n"
    "b1,2026-01-01T00:00:00Z,600,2,team-x\n"
    "b2,2026-01-01T01:00:00Z,soon,4,team-x\n"
)


def open_page() -> AppTest:
    return open_app_page(PAGE, TIMEOUT_S)


def upload(at: AppTest, name: str, text: str | bytes) -> AppTest:
    data = text.encode() if isinstance(text, str) else text
    return at.file_uploader(key="history_upload").set_value((name, data, "text/csv")).run()


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: str(m.value) for m in at.metric}  # later metrics of a label win


def report_metrics(at: AppTest) -> list[tuple[str, str]]:
    return [(m.label, str(m.value)) for m in at.metric][:4]


def charts(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def values(array: Any) -> list[Any]:
    """A plotly JSON array: a list, or numbers packed as {"dtype", "bdata"}."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def trace_label(at: AppTest) -> str:
    box = at.selectbox(key="history_trace")
    return str(box.format_func(box.value))


def test_the_page_opens_on_the_sample_with_its_statistics_and_charts(db: Path) -> None:
    at = open_page()

    assert not at.exception
    assert not at.error
    assert at.title[0].value == "Job history"
    assert trace_label(at).startswith("sample · 4,000 jobs")
    shown = metrics(at)
    assert shown["Jobs"] == "4,000"
    assert shown["Span"].endswith("days")
    assert float(shown["GPU-hours"].replace(",", "")) > 0
    titles = [chart["layout"]["title"]["text"] for chart in charts(at)]
    assert titles == [
        "Arrivals over time",
        "GPU-count mix",
        "Job duration (percentiles)",
        "Demand by team / queue",
    ]
    for chart in charts(at):
        for axis in ("xaxis", "yaxis"):
            assert chart["layout"][axis]["title"]["text"], f"{chart['layout']['title']} {axis}"
    arrivals = charts(at)[0]["data"][0]
    assert sum(values(arrivals["y"])) == 4000  # jobs per day add up to the trace


def test_a_valid_upload_shows_its_mapping_imports_and_becomes_selectable(db: Path) -> None:
    at = upload(open_page(), "my_jobs.csv", GOOD)

    assert not at.exception
    assert "`generic`" in at.markdown[0].value
    mapping = at.data_editor(key=mapping_key(at)).value
    by_field = mapping.set_index("field")
    assert by_field.loc["submit", "column"] == "submit_time"
    assert by_field.loc["submit", "preview"] == "2026-01-01T00:00:00Z"
    assert by_field.loc["queue", "column"] == "queue"

    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert not at.error
    assert report_metrics(at)[:3] == [("Rows", "2"), ("Accepted", "2"), ("Rejected", "0")]
    box = at.selectbox(key="history_trace")
    assert any(option.startswith("my_jobs · 2 jobs") for option in box.options)
    assert trace_label(at).startswith("my_jobs · 2 jobs")  # the new trace is shown
    assert metrics(at)["Jobs"] == "2"
    assert metrics(at)["GPU-hours"] == "17"  # 1 GPU x 1 h + 8 GPUs x 2 h


def test_a_mapping_belongs_to_its_file(db: Path) -> None:
    """The last file's edits do not reach the next upload (they named its columns)."""
    text = "job_id,submit_time,duration_s,gpus,team_name\nc1,2026-01-01T00:00:00Z,60,1,red\n"
    at = upload(open_page(), "teams.csv", text)
    row = list(at.data_editor(key=mapping_key(at)).value["field"]).index("queue")
    edits = {"edited_rows": {row: {"column": "team_name"}}, "added_rows": [], "deleted_rows": []}
    at.session_state[mapping_key(at)] = edits
    at = at.run()

    at = upload(at, "other.csv", GOOD)
    shown = [c.value for c in at.caption if c.value.startswith("Changed:")]
    at = at.button(key="history_import").click().run()

    assert shown == []
    assert not at.exception
    assert not at.error  # before: "--map queue=team_name: the file has no column 'team_name'"
    assert report_metrics(at)[:3] == [("Rows", "2"), ("Accepted", "2"), ("Rejected", "0")]


def test_an_edited_mapping_reaches_the_import(db: Path) -> None:
    text = "job_id,submit_time,duration_s,gpus,team_name\nc1,2026-01-01T00:00:00Z,60,1,red\n"
    at = upload(open_page(), "teams.csv", text)
    row = list(at.data_editor(key=mapping_key(at)).value["field"]).index("queue")
    edits = {"edited_rows": {row: {"column": "team_name"}}, "added_rows": [], "deleted_rows": []}
    at.session_state[mapping_key(at)] = edits
    at = at.run()
    shown = [c.value for c in at.caption if c.value.startswith("Changed:")]

    at = at.button(key="history_import").click().run()

    assert shown == ["Changed: **queue** from column `team_name`, first row: `red`"]
    assert not at.exception
    assert not at.error
    demand = charts(at)[3]["data"][0]
    assert values(demand["y"]) == ["red"]


def test_a_bad_row_is_rejected_with_its_row_number_and_downloadable(db: Path) -> None:
    at = upload(open_page(), "one_bad.csv", ONE_BAD)
    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert not at.error
    assert report_metrics(at)[:3] == [("Rows", "2"), ("Accepted", "1"), ("Rejected", "1")]
    reasons = at.dataframe[-2].value  # after the mapping editor: reasons, examples
    assert reasons.to_dict("records")[0]["reason"] == "bad_duration"
    examples = at.dataframe[-1].value
    assert examples["row"].tolist() == [3]  # header is row 1, b2 is row 3
    assert examples["value"].tolist() == ["soon"]
    download = at.download_button(key="history_rejected_download")
    assert download.proto.label == "Download the rejected rows (CSV)"
    rejected = history_view.import_upload(
        history_view.stage(ONE_BAD.encode(), "one_bad.csv"), {}, "UTC"
    ).rejected
    assert rejected["row_number"].tolist() == [3]
    assert "soon" in pd.read_csv(io.StringIO(rejected.to_csv(index=False)))["value"].tolist()


def test_the_ingest_reports_warnings_are_shown(db: Path) -> None:
    # two columns that spell one name differently: the first is used, and the page says so
    text = "job_id,Submit Time,submit_time,duration_s,gpus\nw1,2026-01-01T00:00:00Z,x,60,1\n"
    at = upload(open_page(), "twice.csv", text)
    at = at.button(key="history_import").click().run()

    assert not at.exception
    shown = [w.value for w in at.warning]
    assert any("Submit Time" in w and "submit_time" in w for w in shown), shown


def test_an_unknown_format_is_an_error_naming_the_file(db: Path) -> None:
    at = upload(open_page(), "notes.txt", "colour,flavour\nred,sweet\nblue,sour\n")

    assert not at.exception
    assert at.error
    assert "notes.txt" in at.error[0].value
    assert "history_import" not in [button.key for button in at.button]
    assert metrics(at)["Jobs"] == "4,000"  # the stored traces still show


def test_an_oversized_upload_is_refused_with_its_size(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history_view, "MAX_UPLOAD_MB", 1)
    big = GOOD.encode() * (1024 * 1024 // len(GOOD) + 1)

    at = upload(open_page(), "big.csv", big)

    assert not at.exception
    assert "big.csv is 1.0 MB; the page imports files up to 1 MB" in at.error[0].value


def test_the_page_is_in_chinese(db: Path) -> None:
    at = open_app_page(PAGE, TIMEOUT_S, lang="zh")

    assert not at.exception
    assert at.title[0].value == "作业历史"
    assert trace_label(at).startswith("sample · 4,000 个作业")
    shown = metrics(at)
    assert shown["作业数"] == "4,000"
    assert shown["时间跨度"].endswith(" 天")
    titles = [chart["layout"]["title"]["text"] for chart in charts(at)]
    assert titles == [
        "作业到达随时间变化",
        "GPU 数量分布",
        "作业时长（百分位）",
        "按团队 / 队列的需求",
    ]
    assert charts(at)[1]["layout"]["xaxis"]["title"]["text"] == "每作业 GPU 数"

    at = upload(at, "one_bad.csv", ONE_BAD).button(key="history_import").click().run()

    assert report_metrics(at)[:3] == [("行数", "2"), ("已接受", "1"), ("已拒绝", "1")]
    assert (
        at.download_button(key="history_rejected_download").proto.label == "下载被拒绝的行（CSV）"
    )


def test_numbers_follow_the_reporting_currency(db: Path) -> None:
    at = open_app_page(PAGE, TIMEOUT_S, reporting_currency="EUR")

    assert not at.exception
    assert metrics(at)["Jobs"] == "4.000"
    assert all(chart["layout"]["separators"] == ",." for chart in charts(at))


def test_the_trace_chosen_on_one_page_stays_chosen_on_the_others(db: Path) -> None:
    at = upload(open_page(), "kept.csv", GOOD)
    at = at.button(key="history_import").click().run()
    assert trace_label(at).startswith("kept · 2 jobs")

    at = at.switch_page("pages/overview.py").run()

    assert not at.exception
    box = at.selectbox(key="trace_select")
    assert str(box.format_func(box.value)).startswith("kept · 2 jobs")
    assert {m.label: str(m.value) for m in at.metric}["Jobs"] == "2"
    sample = next(option for option in box.options if not option.startswith("kept"))
    at = box.select(sample).run()

    at = at.switch_page("pages/history.py").run()

    assert trace_label(at) == sample
