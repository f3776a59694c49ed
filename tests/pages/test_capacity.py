"""The capacity page: the sweep's helpers on hand-made rows, and the page through the app's
entrypoint with AppTest on the bundled sample."""

import base64
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from planner.cli_tco import load_tco_scenario
from planner.errors import ScenarioError
from planner.ui import capacity_view as view
from tests.pages.app import APP, open_app_page

PAGE = "pages/capacity.py"
SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"
TIMEOUT_S = 120  # three replays of the sample trace


def row(
    option: str, servers: int | None, total: float, per_hour: float, wait: float | None
) -> dict[str, Any]:
    return {
        "option": option,
        "servers": servers,
        "years": 3.0,
        "total": total,
        "per_useful_gpu_hour": per_hour,
        "p95_wait_h": wait,
    }


ROWS = [
    row("self-hosted", 2, 100.0, 9.0, 5.0),
    row("self-hosted", 4, 150.0, 8.0, 0.9),
    row("self-hosted", 8, 250.0, 10.0, 0.0),
    row("hybrid", 2, 90.0, 7.0, 0.5),
    row("cloud", None, 300.0, 7.5, 0.0),
]


def test_the_smallest_cluster_meeting_the_target_is_the_fewest_servers_within_it() -> None:
    assert view.smallest_meeting(ROWS, 1.0)["servers"] == 4
    assert view.smallest_meeting(ROWS, 5.0)["servers"] == 2  # the bound is inclusive
    assert view.smallest_meeting(ROWS, 0.0)["servers"] == 8
    assert view.smallest_meeting(ROWS, 0.4, option="hybrid") is None
    assert view.smallest_meeting([row("self-hosted", 2, 1.0, 1.0, None)], 10.0) is None


def test_the_cheapest_option_is_by_cost_per_useful_gpu_hour() -> None:
    best = view.cheapest(ROWS)
    assert best is not None
    assert (best["option"], best["servers"]) == ("hybrid", 2)
    assert view.cheapest([r for r in ROWS if r["option"] != "hybrid"])["option"] == "cloud"
    assert view.cheapest([]) is None


def test_the_sentence_names_both_answers() -> None:
    text = view.sentence(ROWS, 1.0, "USD", "en")

    assert text == (
        "The smallest self-hosted cluster meeting a p95 wait of 1 h is 4 servers (cost $150 "
        "over 3 years, $8.00 per useful GPU-hour); the cheapest option overall is hybrid, "
        "2 servers at $7.00 per useful GPU-hour ($90 in total)."
    )
    assert view.sentence(ROWS[:1], 1.0, "USD", "en").startswith(
        "No self-hosted cluster in the sweep"
    )


def test_the_sentence_is_written_in_chinese() -> None:
    text = view.sentence(ROWS, 1.0, "USD", "zh")

    assert text == (
        "满足 p95 等待 1 小时的最小自建集群为 4 台服务器（3 年成本 $150，每有效 GPU 小时 $8.00）；"
        "总体最便宜的方案是 hybrid，2 台服务器，每有效 GPU 小时 $7.00（总计 $90）。"
    )
    assert view.sentence([], 0.5, "USD", "zh") == "扫描中没有任何自建集群能满足 p95 等待 0.5 小时。"


def test_money_in_the_sentence_follows_the_currency() -> None:
    rows = view.convert(ROWS, 0.5)  # e.g. USD -> EUR at 0.5

    text = view.sentence(rows, 0.9, "EUR", "en")

    assert [r["total"] for r in rows[:2]] == [50.0, 75.0]
    assert "a p95 wait of 0,9 h is 4 servers (cost 75 € over 3 years, 4,00 €" in text
    assert "hybrid, 2 servers at 3,50 € per useful GPU-hour (45 € in total)." in text


def test_server_counts_are_parsed_and_bounded() -> None:
    assert view.parse_counts("8, 2 4,4") == [2, 4, 8]
    assert view.default_counts(128) == [1, 2, 4, 8, 16, 32, 64, 128]
    assert view.default_counts(1) == [1]
    for bad in ("", "two", "0, 4", "1 2 3 4 5 6 7 8 9"):
        with pytest.raises(ScenarioError):
            view.parse_counts(bad)


def test_a_point_changes_the_first_pool_and_the_hybrid_it_keeps() -> None:
    scenario = load_tco_scenario(SCENARIOS / "sample-tco.yaml")

    changed = view.with_servers(scenario, 4, burst_after_s=60.0)

    assert [p.servers for p in changed.self_hosted] == [4, 128]
    assert changed.hybrid is not None
    assert changed.hybrid.servers == {"A100": 4, "H800": 16}
    assert changed.hybrid.burst_after_s == 60.0
    assert scenario.self_hosted[0].servers == 128  # the original is untouched


def test_a_sweep_keeps_one_row_per_cloud_option_and_reports_progress() -> None:
    def report(scenario: Any) -> dict[str, Any]:
        n = scenario.self_hosted[0].servers
        option = {"total": 10.0 * n, "cost_per_useful_gpu_hour": 1.0, "wait_p95_s": 3600.0 / n}
        cloud = {"total": 5.0, "cost_per_useful_gpu_hour": 2.0, "wait_p95_s": 0.0}
        return {
            "currency": "USD",
            "horizons": [
                {
                    "years": 3.0,
                    "options": [option | {"name": "self-hosted"}, cloud | {"name": "AWS"}],
                }
            ],
        }

    scenario = load_tco_scenario(SCENARIOS / "sample-tco.yaml")
    seen: list[tuple[int, int]] = []
    rows, currency = view.sweep(
        scenario, [1, 2, 4], on_point=lambda d, t: seen.append((d, t)), run=report
    )

    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert [(r["option"], r["servers"]) for r in rows] == [
        ("self-hosted", 1),
        ("AWS", None),
        ("self-hosted", 2),
        ("self-hosted", 4),
    ]
    assert [r["p95_wait_h"] for r in rows if r["servers"]] == [1.0, 0.5, 0.25]
    assert currency == "USD"


# --- the page --------------------------------------------------------------------------------


def open_page() -> AppTest:
    return open_app_page(PAGE, TIMEOUT_S)


def values(array: Any) -> list[float]:
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def test_the_page_waits_for_the_run_button(db: Path) -> None:
    at = open_page()

    assert not at.exception
    assert at.title[0].value == "Capacity"
    assert at.text_input(key="capacity_range").label == "A100 servers to try (the scenario has 128)"
    assert at.selectbox(key="capacity_scenario").value == "sample-tco.yaml"
    assert at.text_input(key="capacity_range").value == "1, 2, 4, 8, 16, 32, 64, 128"
    assert not at.get("plotly_chart")


def sweep(at: AppTest) -> AppTest:
    at.text_input(key="capacity_range").set_value("1, 4, 16")
    at.number_input(key="capacity_target").set_value(0.5)
    return at.button(key="capacity_run").click().run()


def test_a_three_point_sweep_shows_the_chart_the_table_and_the_answer(db: Path) -> None:
    at = sweep(open_page())

    assert not at.exception
    assert not at.error
    text = at.info[0].value
    assert text.startswith("The smallest self-hosted cluster meeting a p95 wait of 0.5 h is ")
    assert "$" in text
    assert "the cheapest option overall is " in text
    table = at.dataframe[0].value
    owned = table[table["Servers"].notna()]
    assert sorted(owned["Option"].unique()) == ["hybrid", "self-hosted"]
    assert owned.groupby("Option")["Servers"].apply(list).to_dict()["self-hosted"] == [1, 4, 16]
    assert len(table) == 7  # 3 sizes x 2 owned options + the cloud option
    own_rows = owned[owned["Option"] == "self-hosted"]
    waits = {
        n: float(w) for n, w in zip(own_rows["Servers"], own_rows["p95 wait (h)"], strict=True)
    }
    assert all(total.startswith("$") for total in table["Total over 3 years"])
    assert waits[1] > 0.5 >= waits[4]
    assert "p95 wait of 0.5 h is 4 servers" in text

    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert figure["layout"]["xaxis"]["title"]["text"] == "p95 wait (hours)"
    assert "USD" in figure["layout"]["yaxis"]["title"]["text"]
    assert figure["layout"]["separators"] == ".,"
    names = [t["name"] for t in figure["data"]]
    assert names[:3] == ["self-hosted", "hybrid", "AWS H100 on-demand"]
    assert "smallest meeting the target" in names
    assert "cheapest option" in names
    own = figure["data"][0]
    assert list(own["text"]) == ["1", "4", "16"]
    assert values(figure["data"][2]["x"]) == [0.0]
    assert figure["layout"]["shapes"][0]["x0"] == 0.5  # the target line

    # a new target re-marks the answer without a new sweep
    at.number_input(key="capacity_target").set_value(1000.0).run()
    assert "meeting a p95 wait of 1000 h is 1 server " in at.info[0].value


def test_the_page_and_its_conclusion_are_in_chinese(db: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.session_state["lang"] = "zh"
    at = sweep(at.run().switch_page(PAGE).run())

    assert not at.exception
    assert at.title[0].value == "容量"
    assert at.button(key="capacity_run").label == "运行扫描"
    assert at.info[0].value.startswith("满足 p95 等待 0.5 小时的最小自建集群为 ")
    assert "总体最便宜的方案是 " in at.info[0].value
    assert list(at.dataframe[0].value.columns) == [
        "方案",
        "服务器数",
        "3 年总成本",
        "每有效 GPU 小时",
        "p95 等待（小时）",
    ]
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert figure["layout"]["xaxis"]["title"]["text"] == "p95 等待（小时）"
    assert "满足目标的最小规模" in [t["name"] for t in figure["data"]]


def test_money_follows_the_reporting_currency_of_the_prices_page(db: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.session_state["reporting_currency"] = "EUR"
    at = sweep(at.run().switch_page(PAGE).run())

    assert not at.exception
    text = at.info[0].value
    assert " €" in text
    assert "$" not in text
    assert at.caption[-1].value == "Amounts converted from USD to EUR at the stored FX rate."
    table = at.dataframe[0].value
    totals = table["Total over 3 years"].tolist()
    assert all(total.endswith(" €") for total in totals)
    assert any("." in total for total in totals)  # thousands marked with "." in euros
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert figure["layout"]["separators"] == ",."
    assert "EUR" in figure["layout"]["yaxis"]["title"]["text"]


def test_bad_server_counts_are_an_error_not_a_traceback(db: Path) -> None:
    at = open_page()
    at.text_input(key="capacity_range").set_value("four").run()

    assert not at.exception
    assert "not a list of whole numbers" in at.error[0].value
    assert not at.get("plotly_chart")


def test_a_scenario_without_a_trace_explains_why_there_is_nothing_to_sweep(db: Path) -> None:
    at = open_page()
    at.selectbox(key="capacity_scenario").set_value("worked-example-h100.yaml").run()

    assert not at.exception
    assert "has no trace" in at.info[0].value
    assert not at.get("button")
