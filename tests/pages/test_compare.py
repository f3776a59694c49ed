"""The compare page, run headlessly through the app's entrypoint with AppTest."""

import base64
import json
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from planner.cli_tco import load_tco_scenario
from planner.tco_run import run_tco
from planner.ui import compare_view
from tests.pages.app import open_app_page

PAGE = "pages/compare.py"
SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"
TIMEOUT_S = 60  # sample-tco.yaml imports and replays the sample trace


def open_page() -> AppTest:
    return open_app_page(PAGE, TIMEOUT_S)


def charts(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def values(array: Any) -> list[float]:
    """A plotly array from a figure's JSON: a list, or typed binary data (plotly 6+)."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def cli_report(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, Any]:
    """What `planner tco --scenario data/scenarios/NAME` reports."""
    return run_tco(con, load_tco_scenario(SCENARIOS / name))


def test_the_page_opens_on_the_worked_example(db: Path) -> None:
    at = open_page()

    assert not at.exception
    assert not at.error
    assert at.title[0].value == "Compare"
    assert at.selectbox(key="compare_scenario").value == "worked-example-h100.yaml"
    assert "sample-tco.yaml" in at.selectbox(key="compare_scenario").options
    assert "sample.yaml" not in at.selectbox(key="compare_scenario").options  # replay-only
    shown = {m.label: str(m.value) for m in at.metric}
    assert shown["Per installed GPU-hour"] == "2.50 USD"
    assert shown["Per useful GPU-hour"] == "7.13 USD"


def test_the_conclusion_names_the_cheapest_option_and_its_break_even(
    db: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = cli_report(con, "worked-example-h100.yaml")
    options = report["horizons"][0]["options"]
    cheapest = min(options, key=lambda o: o["cost_per_useful_gpu_hour"])["name"]

    at = open_page()

    text = at.info[0].value
    assert cheapest == "RunPod Community H100"  # the scenario's point: the cheapest cloud
    assert f"The cheapest option is {cheapest}" in text
    assert f"above {report['break_even_utilization'][cheapest]:.0%} allocation" in text
    assert "At 35% allocation, owning costs 7.13 USD per useful GPU-hour" in text
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
    assert titles[2].startswith("Sensitivity: NPV of buying vs AWS p5.48xlarge on-demand")
    for figure in figures:
        for axis in ("xaxis", "yaxis"):
            assert figure["layout"][axis]["title"]["text"], f"{figure['layout']['title']} {axis}"
    assert "USD" in figures[0]["layout"]["yaxis"]["title"]["text"]
    markers = next(t for t in figures[1]["data"] if t["name"] == "break-even")
    report = cli_report(con, "worked-example-h100.yaml")
    expected = sorted(report["break_even_utilization"].values())
    assert sorted(values(markers["x"])) == pytest.approx(expected)  # all four below 100%


def test_the_horizon_choice_changes_the_table(db: Path) -> None:
    at = open_page()
    three = at.dataframe[0].value

    at.selectbox(key="compare_horizon").set_value(1).run()

    five = at.dataframe[0].value
    assert not at.exception
    assert "over 5 years" in at.info[0].value
    assert five["Total"].iloc[0] > three["Total"].iloc[0]


def test_an_invalid_upload_is_reported_not_raised(db: Path) -> None:
    at = open_page()
    at.selectbox(key="compare_scenario").set_value("Upload a scenario (YAML)…").run()
    assert not at.metric

    upload = at.file_uploader(key="compare_upload")
    upload.set_value(("mine.yaml", b"name: mine\ncloud: []\n", "application/x-yaml")).run()

    assert not at.exception
    assert "mine.yaml: self_hosted: Field required" in at.error[0].value
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
    assert len(calls) == 1
