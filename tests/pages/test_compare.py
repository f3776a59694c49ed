"""The compare page, run headlessly through the app's entrypoint with AppTest."""

import base64
import json
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from planner.cli import main
from planner.core.file_access import LOCAL_FILES
from planner.cost.results import TcoReport
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import scenarios
from planner.ui import compare_view, downloads, scenario_box
from planner.ui.cache import cursor
from tests.pages.app import RUN_CEILING_S, open_app_page

PAGE = "pages/compare.py"
SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"
TIMEOUT_S = RUN_CEILING_S


def open_page() -> AppTest:
    return open_app_page(PAGE, TIMEOUT_S)


def charts(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def values(array: Any) -> list[float]:
    """A plotly array from a figure's JSON: a list, or typed binary data (plotly 6+)."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def cli_report(con: duckdb.DuckDBPyConnection, name: str) -> TcoReport:
    """What `planner tco --scenario data/scenarios/NAME` reports."""
    return run_tco(con, load_tco_scenario(SCENARIOS / name), files=LOCAL_FILES)


def test_the_page_opens_on_the_worked_example(db: Path) -> None:
    at = open_page()

    assert not at.exception
    assert not at.error
    assert at.title[0].value == "Compare"
    assert at.selectbox(key="compare_scenario").value == "worked-example-h100.yaml"
    assert "sample-tco.yaml" in at.selectbox(key="compare_scenario").options
    assert "sample.yaml" not in at.selectbox(key="compare_scenario").options  # replay-only
    shown = {m.label: str(m.value) for m in at.metric}
    assert shown["Per installed GPU-hour"] == "$2.50"
    assert shown["Per useful GPU-hour"] == "$7.13"
    assert at.radio(key="compare_mode").value == "file"  # nothing saved yet
    last = at.session_state["compare_last_report"]
    assert last.horizon == 0
    assert last.report.scenario == "worked example, one 8xH100 server"


def test_the_conclusion_names_the_cheapest_option_and_its_break_even(
    db: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = cli_report(con, "worked-example-h100.yaml")
    options = report.horizons[0].options
    cheapest = min(options, key=lambda o: o.cost_per_useful_gpu_hour or 0.0).name

    at = open_page()

    text = at.info[0].value
    assert cheapest == "RunPod Community H100"  # the scenario's point: the cheapest cloud
    assert f"The cheapest option is {cheapest}" in text
    assert f"above {report.break_even_utilization[cheapest]:.0%} allocation" in text
    assert "At 35% allocation, owning costs $7.13 per useful GPU-hour" in text
    assert str(at.metric[-1].value) == cheapest


def test_the_three_charts_appear_with_units_on_their_axes(
    db: Path, con: duckdb.DuckDBPyConnection
) -> None:
    at = open_page()

    figures = charts(at)
    titles = [f["layout"]["title"]["text"] for f in figures]
    assert titles[:2] == [
        "Cumulative cash out, by option",
        "Break-even: cost per GPU-hour against allocation",
    ]
    # the tornado is the headline pair's: against the cheapest cloud option
    assert titles[2].startswith("Sensitivity: NPV of buying vs RunPod Community H100")
    for figure in figures:
        for axis in ("xaxis", "yaxis"):
            assert figure["layout"][axis]["title"]["text"], f"{figure['layout']['title']} {axis}"
    assert "USD" in figures[0]["layout"]["yaxis"]["title"]["text"]
    markers = next(t for t in figures[1]["data"] if t["name"] == "break-even")
    report = cli_report(con, "worked-example-h100.yaml")
    expected = sorted(v for v in report.break_even_utilization.values() if v is not None)
    assert sorted(values(markers["x"])) == pytest.approx(expected)  # all four below 100%


def test_the_horizon_choice_changes_the_table(db: Path) -> None:
    at = open_page()
    three = at.dataframe[0].value

    at.selectbox(key="compare_horizon").set_value(1).run()

    five = at.dataframe[0].value
    assert not at.exception
    assert "over 5 years" in at.info[0].value
    assert five["Total (USD)"].iloc[0] > three["Total (USD)"].iloc[0]
    assert at.session_state["compare_last_report"].horizon == 1


def test_an_invalid_upload_is_reported_not_raised(db: Path) -> None:
    at = open_page()
    at.selectbox(key="compare_scenario").set_value("Upload a scenario (YAML)…").run()
    assert not at.metric

    upload = at.file_uploader(key="compare_upload")
    upload.set_value(("mine.yaml", b"name: mine\ncloud: []\n", "application/x-yaml")).run()

    assert not at.exception
    assert "mine.yaml: scenario: give servers to own" in at.error[0].value
    assert not at.metric
    assert not at.get("plotly_chart")


def test_a_valid_upload_is_priced(db: Path) -> None:
    text = (SCENARIOS / "worked-example-h100.yaml").read_bytes().replace(b"0.35", b"0.7")
    at = open_page()
    at.selectbox(key="compare_scenario").set_value("Upload a scenario (YAML)…").run()

    at.file_uploader(key="compare_upload").set_value(("busy.yaml", text, "text/yaml")).run()

    assert not at.exception
    assert not at.error
    assert at.info[0].value.startswith("At 70% allocation")


def test_the_sample_scenario_shows_the_hybrid(db: Path) -> None:
    at = open_page()

    at.selectbox(key="compare_scenario").set_value("sample-tco.yaml").run()

    assert not at.exception
    assert not at.error
    table = at.dataframe[0].value
    assert table["Option"].tolist() == ["self-hosted", "hybrid", "AWS H100 on-demand"]
    assert table["p95 wait (h)"].notna().all()  # replayed: every option has its waits
    assert any("stale" in w.value for w in at.warning)
    # equal service: the owned cluster leaves 298 GPU-hours a month carried, bought at AWS
    # p5.48xlarge on demand (55.04 / 8 = 6.88 a GPU-hour); the cloud serves all of it
    served = dict(zip(table["Option"], table["Served share"], strict=True))
    assert served["AWS H100 on-demand"] == pytest.approx(1.0)
    assert 0.99 < served["self-hosted"] < 1.0
    bought = dict(zip(table["Option"], table["Served elsewhere (USD)"], strict=True))
    assert bought["self-hosted"] > 0.0
    assert bought["AWS H100 on-demand"] == 0.0
    overhead = dict(zip(table["Option"], table["Packing overhead"], strict=True))
    assert overhead["AWS H100 on-demand"] >= 1.0
    captions = " ".join(c.value for c in at.caption).replace("\\", "")  # markdown escapes
    assert "Unserved demand: served elsewhere at: AWS p5.48xlarge (on_demand), $6.880" in captions
    assert "bills" in captions  # the cloud option's packing line


def test_running_the_same_scenario_again_uses_the_cached_report(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def counted(con: Any, scenario: Any, **kwargs: Any) -> Any:
        calls.append(scenario.name)
        return run_tco(con, scenario, **kwargs)

    monkeypatch.setattr(compare_view, "run_tco", counted)
    at = open_page()
    at.selectbox(key="compare_horizon").set_value(1).run()

    assert not at.exception
    # (the Overview, opened first, prices the bundled sample for its headline)
    assert calls.count("worked example, one 8xH100 server") == 1


# --- several saved scenarios -----------------------------------------------------------------


def save_bundled(name: str, file: str) -> None:
    """Save a bundled scenario the way the page's forms do. sample.yaml keeps its A100 pool
    only: the price book has no H800 server price (its H800 jobs stay unschedulable)."""
    text = (SCENARIOS / file).read_text(encoding="utf-8")
    if file == "sample.yaml":
        text = "\n".join(line for line in text.splitlines() if "gpu_type: H800" not in line)
    assert scenario_box.upload_scenario(name, text, file) is None


def test_a_bundled_file_is_saved_from_the_page_and_compared(db: Path) -> None:
    at = open_page()
    at.radio(key="compare_mode").set_value("saved").run()
    assert "No saved scenario yet" in at.info[0].value

    at.selectbox(key="compare_add_source").set_value("cloud-on-demand.yaml").run()
    at.button(key="FormSubmitter:compare_add_form-Save").click().run()

    assert not at.exception
    assert not at.error
    assert at.success[0].value == "Saved 'cloud-on-demand'."
    assert at.multiselect(key="compare_saved").value == ["cloud-on-demand"]
    table = at.dataframe[0].value
    assert table["Option"].tolist() == ["AWS H100 on-demand", "AWS H100 1-year reserved"]
    assert "None of these scenarios owns servers" in " ".join(c.value for c in at.caption)


def test_saving_a_taken_name_from_the_page_is_an_error(db: Path) -> None:
    save_bundled("cloud-on-demand", "sample-tco.yaml")  # another scenario under that name
    at = open_page()
    at.radio(key="compare_mode").set_value("saved").run()

    at.selectbox(key="compare_add_source").set_value("cloud-on-demand.yaml").run()
    at.button(key="FormSubmitter:compare_add_form-Save").click().run()

    assert not at.exception
    assert "'cloud-on-demand' is saved already" in at.error[0].value


def test_owning_the_replay_cluster_against_renting_side_by_side(db: Path) -> None:
    """A replay scenario (owned servers) and a cloud-only scenario, on one trace: one table,
    cash for every option, break-even and tornado of the owned servers, a conclusion that
    agrees with the table, and the combined report left for the Overview page."""
    save_bundled("own 128 nodes", "sample.yaml")
    save_bundled("rent", "cloud-on-demand.yaml")

    at = open_page()

    assert at.radio(key="compare_mode").value == "saved"  # something is saved
    assert not at.exception
    assert not at.error
    assert at.multiselect(key="compare_saved").value == ["rent", "own 128 nodes"]
    table = at.dataframe[0].value
    rows = list(zip(table["Scenario"], table["Option"], strict=True))
    assert rows == [
        ("rent", "AWS H100 on-demand"),
        ("rent", "AWS H100 1-year reserved"),
        ("own 128 nodes", "self-hosted"),
    ]
    owned = table[table["Option"] == "self-hosted"].iloc[0]
    assert 0 < owned["GPU allocation"] < 1
    assert owned["p95 wait (h)"] >= 0
    cheapest = table.loc[table["Per useful GPU-hour (USD)"].idxmin()]
    assert at.info[0].value.startswith(
        f"Over 3 years the cheapest is {cheapest['Option']} ({cheapest['Scenario']})"
    )
    assert "Owning the servers of own 128 nodes" in at.info[0].value
    figures = charts(at)
    cash = figures[0]
    assert {t["name"] for t in cash["data"]} == {
        "rent · AWS H100 on-demand",
        "rent · AWS H100 1-year reserved",
        "own 128 nodes · self-hosted",
    }
    assert figures[1]["layout"]["title"]["text"].startswith("Break-even")
    assert figures[2]["layout"]["title"]["text"].startswith(
        "Sensitivity: NPV of buying vs AWS H100 on-demand"
    )
    last = at.session_state["compare_last_report"]
    assert len(last.report.horizons[0].options) == 3
    assert {o.scenario for o in last.report.horizons[0].options} == {
        "rent",
        "own 128 nodes",
    }


def test_the_horizon_of_saved_scenarios_scales_their_totals(db: Path) -> None:
    save_bundled("rent", "cloud-on-demand.yaml")
    at = open_page()
    three = at.dataframe[0].value["Total (USD)"].iloc[0]

    at.selectbox(key="compare_years").set_value(5).run()

    five = at.dataframe[0].value["Total (USD)"].iloc[0]
    assert five == pytest.approx(three * 5 / 3)
    assert at.info[0].value.startswith("Over 5 years")


RENT_OURS = """name: rent
currency: USD
trace: ../traces/sample.csv
horizons_years: [3]
cloud:
  - {provider: AWS, gpu: H100}
  - {provider: AWS, gpu: H100, pricing_model: spot, packing: per-job}
  - {name: AWS H100 reserved 36m, provider: AWS, gpu: H100, pricing_model: reserved,
     term_months: 36, committed_gpus: 16}
  - {name: AWS H100 1-year reserved, provider: AWS, gpu: H100, pricing_model: reserved,
     term_months: 12, committed_gpus: 16}
"""
"""Options named by our code (no name; the option form's 'AWS H100 reserved 36m') and one
the user named, which keeps its name in every language."""
CODES = ("self-hosted", "hybrid", "on_demand", "reserved", "spot", "savings_plan", "cud")


def shown_texts(at: AppTest) -> list[str]:
    """Every conclusion, caption and table cell or header the page shows."""
    texts = [e.value for kind in ("info", "caption", "markdown") for e in at.get(kind)]
    for frame in at.dataframe:
        texts += [str(c) for c in frame.value.columns]
        texts += [str(v) for v in frame.value.to_numpy().ravel()]
    return texts


def test_the_saved_comparison_speaks_chinese(db: Path) -> None:
    save_bundled("own", "sample.yaml")
    assert scenario_box.upload_scenario("rent", RENT_OURS, "rent.yaml") is None
    at = open_app_page(PAGE, TIMEOUT_S, lang="zh")

    assert not at.exception
    assert at.title[0].value == "比较"
    assert "年内最便宜的是" in at.info[0].value
    assert "场景" in at.dataframe[0].value.columns
    options = set(at.dataframe[0].value["方案"])
    assert options == {
        "自建",
        "AWS H100 按需",
        "AWS H100 竞价",
        "AWS H100 预留 36 个月",
        "AWS H100 1-year reserved",  # the user's name, as given
    }
    user_named = "AWS H100 1-year reserved"
    for text in shown_texts(at):
        left = text.replace(user_named, "")
        assert not [code for code in CODES if code in left], text


def test_the_library_loads_a_replay_scenario_into_the_working_scenario(db: Path) -> None:
    save_bundled("own", "sample.yaml")
    at = open_page()

    at.selectbox(key="compare_library_pick").set_value("own").run()
    at.button(key="compare_library_load").click().run()

    assert not at.exception
    assert at.session_state["working_scenario_name"] == "own"
    assert at.session_state["working_scenario"].policy.queueing == "backfill"
    assert any("Loaded 'own'" in s.value for s in at.success)


def test_the_library_refuses_an_invalid_upload_with_the_reason(db: Path) -> None:
    save_bundled("own", "sample.yaml")
    at = open_page()

    at.file_uploader(key="compare_library_upload").set_value(
        ("bad.yaml", b"cluster: {pools: [{gpu_type: A100, count: 1}]}\n", "text/yaml")
    ).run()
    at.button(
        key="FormSubmitter:compare_library_upload_form-Save the uploaded scenario"
    ).click().run()

    assert not at.exception
    assert "bad.yaml: cluster.pools.0.gpus_per_node: Field required" in at.error[0].value
    assert [s.name for s in scenario_box.saved_scenarios()] == ["own"]


def test_the_library_deletes_only_after_confirmation(db: Path) -> None:
    save_bundled("own", "sample.yaml")
    at = open_page()
    assert at.button(key="compare_library_delete").disabled

    at.checkbox(key="compare_library_sure").check().run()
    at.button(key="compare_library_delete").click().run()

    assert not at.exception
    assert scenario_box.saved_scenarios() == []


def save_form_app(count: int = 2) -> None:
    """What another page does with the save form: a replay scenario and its results."""
    from planner.ui import scenario_box

    text = (
        f"name: two\ntrace: t0\ncluster: {{pools: [{{gpu_type: A100, gpus_per_node: 8, "
        f"count: {count}}}]}}\n"
    )
    scenario_box.save_form("replay", text, {"utilization": 0.5}, "t0", "box")


def test_the_save_form_saves_refuses_a_taken_name_and_replaces_when_asked(db: Path) -> None:
    at = AppTest.from_function(save_form_app, default_timeout=TIMEOUT_S).run()
    submit = "FormSubmitter:box_save_form-Save"

    at.text_input(key="box_name").set_value("mine")  # form fields are sent with the submit
    at.button(key=submit).click().run()
    assert at.success[0].value == "Saved 'mine'."

    # saving the same scenario again (Enter in the name box, then Save) is no conflict
    at.button(key=submit).click().run()
    assert not at.error
    assert at.success[0].value == "Saved 'mine'."

    other = AppTest.from_function(save_form_app, args=(3,), default_timeout=TIMEOUT_S).run()
    other.text_input(key="box_name").set_value("mine")
    other.button(key=submit).click().run()
    assert "A scenario named 'mine' is saved already" in other.error[0].value

    at = other
    at.checkbox(key="box_replace").check()
    at.button(key=submit).click().run()
    assert not at.error
    (saved,) = scenario_box.saved_scenarios()
    assert (saved.name, saved.kind, saved.trace_id) == ("mine", "replay", "t0")
    assert saved.results == {"utilization": 0.5}
    assert not saved.is_stale

    at.text_input(key="box_name").set_value("   ")
    at.button(key=submit).click().run()
    assert at.error[0].value == "Give the scenario a name."
    assert not at.exception


def test_the_report_downloads_follow_the_shown_comparison(db: Path) -> None:
    at = open_page()
    shown = [b for b in at.get("download_button") if "compare_file_report" in b.proto.id]

    assert not at.exception
    labels = [b.proto.label for b in shown]
    assert labels == [
        "Download Excel (xlsx)",
        "Download PDF",
        "Download CSV",
        "Download FOCUS (CSV)",
    ]


def test_the_focus_download_is_the_clis_file(db: Path, tmp_path: Path) -> None:
    """The FOCUS button gives what `planner report --out FILE.focus.csv` writes for the same
    scenario: both call `planner.report.render.render`, month 1 being next month."""
    at = open_page()
    (focus,) = [b for b in at.get("download_button") if b.proto.id.endswith("compare_file_report_focus")]  # fmt: skip
    last = at.session_state["compare_last_report"]
    named = [(last.report.scenario, last.report)]
    # what the button's callable returns (Streamlit builds it when the button is pressed)
    where = (last.horizon, "en", "focus", "use")
    shown = downloads.report_files(downloads._digest(named), named, where)[""]

    out = tmp_path / "plan.focus.csv"
    args = ["report", "--scenario", str(SCENARIOS / "worked-example-h100.yaml"), "--out", str(out)]
    assert main([*args, "--db", str(tmp_path / "cli.duckdb")]) == 0

    assert not at.exception
    assert focus.proto.label == "Download FOCUS (CSV)"
    assert shown == out.read_bytes()
    assert shown.startswith(b"AvailabilityZone,BilledCost,")


def test_the_comparison_outlasts_the_page_and_the_session(db: Path) -> None:
    """Picked scenarios, trace and horizon survive a visit to another page (Streamlit drops a
    widget's state then) and a new browser session (kept in the database)."""
    save_bundled("rent", "cloud-on-demand.yaml")
    save_bundled("own 128 nodes", "sample.yaml")
    save_bundled("worked", "worked-example-h100.yaml")
    at = open_page()
    at.multiselect(key="compare_saved").set_value(["worked", "rent", "own 128 nodes"]).run()
    at.selectbox(key="compare_years").set_value(5).run()
    built = at.dataframe[0].value["Scenario"].tolist()

    at = at.switch_page("pages/history.py").run()
    at = at.switch_page(PAGE).run()

    assert at.multiselect(key="compare_saved").value == ["worked", "rent", "own 128 nodes"]
    assert at.selectbox(key="compare_years").value == 5
    assert at.dataframe[0].value["Scenario"].tolist() == built
    assert at.info[0].value.startswith("Over 5 years")

    again = open_page()  # a new session on the same database
    assert again.multiselect(key="compare_saved").value == ["worked", "rent", "own 128 nodes"]
    assert again.selectbox(key="compare_years").value == 5


def overview_answer(at: AppTest) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """What the Overview shows as its answer: metrics, sentences and captions."""
    metrics = [(m.label, str(m.value)) for m in at.metric]
    return metrics, [s.value for s in at.success], [c.value for c in at.caption]


def test_a_new_session_opens_on_the_overview_with_the_kept_comparisons_answer(db: Path) -> None:
    """A new session opens on the Overview: its headline is the kept comparison's (5 years,
    the scenarios picked), as in the session that built it, before Compare is opened (it
    said "no answer yet" there until then)."""
    save_bundled("rent", "cloud-on-demand.yaml")
    save_bundled("worked", "worked-example-h100.yaml")
    at = open_page()
    at.multiselect(key="compare_saved").set_value(["worked", "rent"]).run()
    at.selectbox(key="compare_years").set_value(5).run()
    built = overview_answer(at.switch_page("pages/overview.py").run())

    fresh = open_app_page("pages/overview.py", TIMEOUT_S)  # Compare never opened in it

    assert not fresh.exception
    assert overview_answer(fresh) == built
    metrics, sentences, captions = built
    assert ("Answer", "Rent") in metrics or ("Answer", "Buy") in metrics, metrics
    assert "over 5 years" in sentences[0], sentences
    assert "From your comparison on the Compare page: worked, rent." in captions
    assert not any(i.value.startswith("No answer for your own data yet.") for i in fresh.info)


def test_a_kept_comparison_whose_scenario_is_gone_is_no_answer_on_the_overview(
    db: Path,
) -> None:
    """Compare would draw another comparison then: the Overview does not guess its answer."""
    save_bundled("rent", "cloud-on-demand.yaml")
    save_bundled("worked", "worked-example-h100.yaml")
    at = open_page()
    at.multiselect(key="compare_saved").set_value(["worked", "rent"]).run()
    with cursor() as cur:
        scenarios.delete(cur, "rent")

    fresh = open_app_page("pages/overview.py", TIMEOUT_S)

    assert not fresh.exception
    assert not any(m.label == "Answer" for m in fresh.metric)
    assert fresh.info[0].value.startswith("No answer for your own data yet.")
