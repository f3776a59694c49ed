"""The capacity page: the sweep's helpers on hand-made rows, and the page through the app's
entrypoint with AppTest on the bundled sample."""

import base64
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from planner.cli.main import main
from planner.core.errors import ScenarioError
from planner.core.file_access import BUNDLED_FILES, LOCAL_FILES
from planner.engine.scenario import ClusterSpec
from planner.ingest import IngestOptions
from planner.service import option_forms as forms
from planner.service import scenario_store
from planner.service.importer import import_file
from planner.service.replay import load_jobs, resolve_trace
from planner.service.scenario_store import Prepared
from planner.service.sweep_point import PointOption, PointResult
from planner.service.sweep_run import Sweep, run_sweep
from planner.service.tco_run import run_tco
from planner.store import connect
from planner.ui import capacity_sources as sources
from planner.ui import capacity_store as store
from planner.ui import capacity_view as view
from planner.ui import state
from planner.ui.cost_charts import option_colors
from planner.ui.replay_view import default_scenario
from planner.ui.safe import JOINER
from tests.pages.app import APP, RUN_CEILING_S, open_app_page

PAGE = "pages/capacity.py"
SAMPLE = Path(__file__).resolve().parents[2] / "data" / "traces" / "sample.csv"
TIMEOUT_S = RUN_CEILING_S


def row(
    option: str, servers: int | None, total: float, per_hour: float, wait: float | None
) -> view.Row:
    return view.Row(option, servers, 3.0, total, per_hour, wait)


ROWS = [
    row("self-hosted", 2, 100.0, 9.0, 5.0),
    row("self-hosted", 4, 150.0, 8.0, 0.9),
    row("self-hosted", 8, 250.0, 10.0, 0.0),
    row("hybrid", 2, 90.0, 7.0, 0.5),
    row("cloud", None, 300.0, 7.5, 0.0),
]


def test_the_smallest_cluster_meeting_the_target_is_the_fewest_servers_within_it() -> None:
    assert view.smallest_meeting(ROWS, 1.0).servers == 4
    assert view.smallest_meeting(ROWS, 5.0).servers == 2  # the bound is inclusive
    assert view.smallest_meeting(ROWS, 0.0).servers == 8
    assert view.smallest_meeting(ROWS, 0.4, option="hybrid") is None
    assert view.smallest_meeting([row("self-hosted", 2, 1.0, 1.0, None)], 10.0) is None


def test_the_cheapest_option_is_by_cost_per_useful_gpu_hour() -> None:
    best = view.cheapest(ROWS)
    assert best is not None
    assert (best.option, best.servers) == ("hybrid", 2)
    assert view.cheapest([r for r in ROWS if r.option != "hybrid"]).option == "cloud"
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

    assert [r.total for r in rows[:2]] == [50.0, 75.0]
    assert "a p95 wait of 0,9 h is 4 servers (cost 75 € over 3 years, 4,00 €" in text
    assert "hybrid, 2 servers at 3,50 € per useful GPU-hour (45 € in total)." in text


def test_server_counts_are_parsed_and_bounded() -> None:
    assert view.parse_counts("8, 2 4,4") == [2, 4, 8]
    assert view.default_counts(128) == [1, 2, 4, 8, 16, 32, 64, 128]
    assert view.default_counts(1) == [1]
    for bad in ("", "two", "0, 4", "1 2 3 4 5 6 7 8 9"):
        with pytest.raises(ScenarioError):
            view.parse_counts(bad)


def test_burst_thresholds_are_parsed_in_hours() -> None:
    assert view.parse_thresholds("4, 0.5 1,1") == [0.5, 1.0, 4.0]
    assert view.parse_thresholds("0") == [0.0]
    assert view.parse_thresholds("0.25，2") == [0.25, 2.0]  # a full-width comma too
    assert view.default_thresholds(1.0) == [0.5, 1.0, 4.0]
    assert view.default_thresholds(0.0) == [0.0, 0.5, 1.0]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "give at least one"),
        (" , ", "give at least one"),
        ("one hour", "'one hour' is not a list of numbers of hours"),
        ("1h", "is not a list of numbers of hours"),
        ("0.5, -1", "0 or more"),
        ("nan", "finite number of hours"),
        ("inf", "finite number of hours"),
        ("1 2 3 4 5 6 7 8 9", "at most 8 (9 given)"),
    ],
)
def test_bad_burst_thresholds_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(ScenarioError, match="^Burst thresholds: ") as err:
        view.parse_thresholds(text)

    assert problem in str(err.value)


def test_the_runs_are_counted_and_capped() -> None:
    eight = list(range(1, 9))

    assert view.runs([1, 2], [0.5, 1, 4]) == 6
    assert view.runs([1, 2], []) == 2  # no hybrid: one run per server count
    view.check_runs(eight, [0.5] * 7)  # 56 runs: allowed
    with pytest.raises(ScenarioError, match="would make 64 runs .8 server counts × 8 burst"):
        view.check_runs(eight, [float(h) for h in eight])
    assert view.runs_note([1, 2], [0.5, 1, 4], "en") == (
        "Runs in this sweep: 6 (server counts: 2 × burst thresholds: 3; at most 60)."
    )
    assert view.runs_note([1, 2], [], "en") == "Runs in this sweep: 2, one per server count."
    assert view.runs_note([1, 2], [0.5], "zh").startswith("本次扫描的运行次数：2")


def fake_point(n: int, burst_h: float | None = None, *, hybrid: bool = True) -> PointResult:
    """A stored point whose numbers can be checked by hand: self-hosted costs 10 per server
    and waits 1/n h; the hybrid costs 5 per server plus 1 per hour of threshold and waits at
    most its threshold; the cloud costs 7 and never waits."""
    options = [("self-hosted", 10.0 * n, 3.0, 3600.0 / n), ("AWS", 7.0, 2.0, 0.0)]
    point: tuple[tuple[str, object], ...] = (("servers", n),)
    if hybrid:
        hours = 1.0 if burst_h is None else burst_h
        options.insert(1, ("hybrid", 5.0 * n + hours, 1.0, min(hours, 1.0 / n) * 3600))
        if burst_h is not None:
            point = (*point, ("burst_after_h", burst_h))
    priced = tuple(
        PointOption(name, 3.0, total, per, None, wait, None, wait, None, None)
        for name, total, per, wait in options
    )
    return PointResult(point, "USD", priced)  # type: ignore[arg-type]


def test_a_two_by_two_sweep_keeps_the_hybrid_at_every_threshold() -> None:
    results = [fake_point(n, h) for n in (1, 4) for h in (0.25, 2.0)]

    rows = view.rows_of(results, 1.0)

    assert [(r.option, r.servers, r.burst_after_h) for r in rows] == [
        ("self-hosted", 1, None),
        ("hybrid", 1, 0.25),
        ("AWS", None, None),
        ("hybrid", 1, 2.0),
        ("self-hosted", 4, None),
        ("hybrid", 4, 0.25),
        ("hybrid", 4, 2.0),
    ]
    hybrid = {(r.servers, r.burst_after_h): r for r in rows if r.option == "hybrid"}
    assert hybrid[1, 2.0].total == 7.0
    assert hybrid[1, 2.0].p95_wait_h == 1.0
    assert hybrid[4, 0.25].p95_wait_h == 0.25

    table = view.table(rows, 3.0, "USD", "en")

    assert list(table.columns) == [
        "Option",
        "Servers",
        "Burst after (h)",
        "Total over 3 years",
        "Per useful GPU-hour",
        "Per useful GPU-hour, twin error bar",
        "p95 wait (h)",
        "p95 wait (h), twin error bar",
        "Utilization in the window",
        "Served in the window (GPU-h)",
        "Never run (GPU-h over the horizon)",
        "Carried past the window (GPU-h)",
        "Demanded (GPU-h)",
    ]
    shown = table[["Option", "Servers", "Burst after (h)", "Total over 3 years"]]
    assert shown.values.tolist()[:4] == [
        ["self-hosted", 1, "", "$10"],
        ["self-hosted", 4, "", "$40"],
        ["hybrid", 1, "0.25", "$5"],
        ["hybrid", 4, "0.25", "$20"],
    ]
    assert table["p95 wait (h)"].tolist()[:4] == ["1.00", "0.25", "0.25", "0.25"]
    assert table["Per useful GPU-hour, twin error bar"].tolist()[:2] == ["not calibrated"] * 2
    assert table["Per useful GPU-hour, twin error bar"].tolist()[-1] == ""  # cloud: no replay
    assert table["Burst after (h)"].tolist()[4:] == ["2", "2", ""]
    assert view.table(rows, 3.0, "EUR", "en")["Burst after (h)"][2] == "0,25"


def test_the_twin_error_bar_is_shown_so_it_can_be_redone_by_hand() -> None:
    barred = replace(
        row("self-hosted", 4, 150.0, 70.0, 2.0),
        twin_error=0.25,
        per_hour_bar=(52.5, 87.5),
        p95_wait_bar_h=(2.0, 5.0),  # p95 2.0 h x 1 and x 2.5 (p90 wait ratio 0.4)
        served_gpu_h=1000.0,
        left_out_gpu_h=200.0,
        carried_gpu_h=50.0,
        demanded_gpu_h=1250.0,
        utilization=0.5,
    )

    table = view.table([barred], 3.0, "USD", "en")
    zh = view.table(view.convert([barred], 0.5), 3.0, "EUR", "zh")

    assert table["Per useful GPU-hour, twin error bar"][0] == "$52.50 to $87.50 (±25.0%)"
    assert table["p95 wait (h), twin error bar"][0] == "2.00 to 5.00 (x1.00 to x2.50)"
    assert table["Utilization in the window"][0] == "50.0%"
    assert [table[c][0] for c in table.columns[-4:]] == ["1,000", "200", "50", "1,250"]
    assert view.balances(barred)
    assert zh["每有效 GPU 小时，孪生误差范围"][0] == "26,25 € 至 43,75 €（±25,0 %）"


def test_without_a_hybrid_the_rows_and_table_are_by_server_count_only() -> None:
    rows = view.rows_of([fake_point(n, hybrid=False) for n in (1, 4)])

    assert [(r.option, r.servers) for r in rows] == [
        ("self-hosted", 1),
        ("AWS", None),
        ("self-hosted", 4),
    ]
    assert "Burst after (h)" not in view.table(rows, 3.0, "USD", "en").columns


def test_the_chart_draws_one_hybrid_series_per_threshold_in_shades() -> None:
    rows = view.rows_of([fake_point(n, h) for n in (1, 4) for h in (2.0, 0.25)], 1.0)

    figure = view.chart(rows, 0.5, "USD", 3.0, "en")

    data = [
        d for d in figure.data if d.name not in ("smallest meeting the target", "cheapest option")
    ]
    assert [d.name for d in data] == [
        "self-hosted",
        "hybrid, burst after 0.25 h",
        "hybrid, burst after 2 h",
        "AWS",
    ]
    colors = [d.marker.color for d in data]
    assert len(set(colors)) == 4
    assert colors[1] == option_colors(["hybrid"])["hybrid"]
    assert data[1].marker.symbol != data[2].marker.symbol
    assert list(data[2].text) == ["1", "4"]
    assert view.series_name("hybrid", 0.5, "USD", "zh") == "hybrid，等待 0.5 小时后溢出"


BURST_ROWS = [
    row("self-hosted", 4, 150.0, 8.0, 0.9),
    replace(row("hybrid", 8, 120.0, 6.5, 0.5), burst_after_h=4.0),
    replace(row("hybrid", 8, 110.0, 6.0, 0.5), burst_after_h=1.0),
    row("cloud", None, 300.0, 7.5, 0.0),
]


def test_the_sentence_names_the_cheapest_hybrid_threshold() -> None:
    assert view.sentence(BURST_ROWS, 1.0, "USD", "en") == (
        "The smallest self-hosted cluster meeting a p95 wait of 1 h is 4 servers (cost $150 "
        "over 3 years, $8.00 per useful GPU-hour); the cheapest option overall is hybrid with "
        "8 servers bursting after 1 h at $6.00 per useful GPU-hour ($110 in total)."
    )
    assert view.sentence(BURST_ROWS, 1.0, "USD", "zh") == (
        "满足 p95 等待 1 小时的最小自建集群为 4 台服务器（3 年成本 $150，每有效 GPU 小时 $8.00）；"
        "总体最便宜的方案是 hybrid，8 台服务器，等待 1 小时后溢出到云端，每有效 GPU 小时 $6.00"
        "（总计 $110）。"
    )
    half = [BURST_ROWS[0], replace(BURST_ROWS[2], burst_after_h=0.5)]
    assert "bursting after 0,5 h at 3,00 €" in view.sentence(
        view.convert(half, 0.5), 1.0, "EUR", "en"
    )


def test_on_the_sample_a_shorter_threshold_never_waits_longer(shared_db: Path) -> None:
    # Not a law of the replay (preemption or backoff can reorder a queue), but it holds on the
    # bundled sample, and there every job waits at most its threshold before it bursts.
    scenario = view.compare_view.load_bundled("sample-tco.yaml")
    thresholds = [0.0, 0.25, 1.0, 4.0]
    # on the page tests' database: the two-by-two sweep below reads these points back
    points = store.grid_points(scenario, 0, [1, 4], thresholds)
    with connect(shared_db) as con:
        trace_id = resolve_trace(con, str(SAMPLE), files=LOCAL_FILES)
        sweep = Sweep(scenario, load_jobs(con, trace_id), trace_id, date.today())
        results = run_sweep(con, sweep, points).results

    rows = view.rows_of(results)

    hybrid = [r for r in view.for_horizon(rows, 3.0) if r.option == "hybrid"]
    assert len(hybrid) == 8
    for servers in (1, 4):
        waits = [r.p95_wait_h for r in hybrid if r.servers == servers]
        assert waits == sorted(waits), (servers, waits)
        assert all(w <= h + 1e-9 for w, h in zip(waits, thresholds, strict=True))
    one = [r.p95_wait_h for r in hybrid if r.servers == 1]
    assert one[0] == 0.0 < one[-1]  # the threshold matters: the property is not vacuous
    assert all(view.balances(r) for r in rows)  # every row's ledger adds up


def test_a_point_changes_the_first_pool_and_the_hybrid_it_keeps() -> None:
    scenario = view.compare_view.load_bundled("sample-tco.yaml")

    changed = view.with_servers(scenario, 4, burst_after_s=60.0)

    assert [p.servers for p in changed.self_hosted] == [4, 128]
    assert changed.hybrid is not None
    assert changed.hybrid.servers == {"A100": 4, "H800": 16}
    assert changed.hybrid.burst_after_s == 60.0
    assert scenario.self_hosted[0].servers == 128  # the original is untouched


def test_sweeping_the_second_pool_holds_the_first_and_says_so() -> None:
    scenario = view.compare_view.load_bundled("sample-tco.yaml")

    changed = view.with_servers(scenario, 2, pool=1)

    assert [(p.gpu, p.servers) for p in changed.self_hosted] == [("A100", 128), ("H800", 2)]
    assert changed.hybrid is not None
    assert changed.hybrid.servers["H800"] == 2
    assert view.held_fixed(scenario, 1, "en") == "128 A100 servers"
    assert view.held_fixed(scenario, 0, "zh") == "128 台 H800 服务器"
    assert view.pool_label(scenario, 1, "en") == "H800: 128 servers of 8 GPUs"


def test_with_several_pools_the_sentence_names_the_pool_sized_and_the_ones_held() -> None:
    text = view.sentence(ROWS, 1.0, "USD", "en", swept="A100", fixed="128 H800 servers")

    assert text.startswith("The smallest self-hosted cluster meeting a p95 wait of 1 h is 4 A100 ")
    assert text.endswith(
        "($90 in total). Only the A100 pool was sized; held fixed in every point: 128 H800 servers."
    )
    zh = view.sentence(ROWS, 1.0, "USD", "zh", swept="A100", fixed="128 台 H800 服务器")
    assert "最小自建集群为 4 台 A100 服务器" in zh
    assert zh.endswith("只测算了 A100 池；每个点都保持不变的是：128 台 H800 服务器。")


def test_a_sweep_keeps_one_row_per_cloud_option() -> None:
    rows = view.rows_of([fake_point(n, hybrid=False) for n in (1, 2, 4)])

    assert [(r.option, r.servers) for r in rows] == [
        ("self-hosted", 1),
        ("AWS", None),
        ("self-hosted", 2),
        ("self-hosted", 4),
    ]
    assert [r.p95_wait_h for r in rows if r.servers] == [1.0, 0.5, 0.25]


# --- the page --------------------------------------------------------------------------------


def open_page() -> AppTest:
    return open_app_page(PAGE, TIMEOUT_S)


def values(array: Any) -> list[float]:
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def captions(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption]


def runs_note(at: AppTest) -> str:
    return next(c for c in captions(at) if c.startswith(("Runs in this sweep", "本次扫描")))


def test_the_page_waits_for_the_run_button(shared_db: Path) -> None:
    at = open_page()

    assert not at.exception
    assert at.title[0].value == "Capacity"
    assert at.text_input(key="capacity_range").label == "A100 servers to try (the scenario has 128)"
    assert at.selectbox(key="capacity_scenario").value == "sample-tco.yaml"
    assert at.text_input(key="capacity_range").value == "1, 2, 4, 8, 16, 32, 64, 128"
    assert at.text_input(key="capacity_thresholds").value == "0.5, 1, 4"  # the hybrid's 1 h
    assert at.selectbox(key="capacity_trace").value == at.session_state["trace_chosen"]
    assert at.selectbox(key="capacity_pool").value == 0
    assert "Held as they are in every point: 128 H800 servers." in captions(at)
    assert "Runs in this sweep: 24 (server counts: 8 × burst thresholds: 3" in runs_note(at)
    assert not at.get("plotly_chart")
    # the Monte Carlo tab's empty state: nothing drawn until it runs
    assert "Press **Run Monte Carlo** to see each option's NPV as a distribution." in [
        str(i.value) for i in at.info
    ]


def test_a_two_by_two_sweep_shows_a_hybrid_series_per_threshold(shared_db: Path) -> None:
    at = open_page()
    at.text_input(key="capacity_range").set_value("1, 4")
    at.text_input(key="capacity_thresholds").set_value("1, 0.25").run()
    assert runs_note(at).startswith("Runs in this sweep: 4 (server counts: 2 × burst")

    at = at.button(key="capacity_run").click().run()

    assert not at.exception
    assert not at.error
    table = at.dataframe[0].value
    hybrid = table[table["Option"] == "hybrid"]
    assert list(zip(hybrid["Servers"], hybrid["Burst after (h)"], strict=True)) == [
        (1, "0.25"),
        (4, "0.25"),
        (1, "1"),
        (4, "1"),
    ]
    assert table["Option"].tolist().count("self-hosted") == 2
    assert len(table) == 7  # 4 hybrid + 2 self-hosted + 1 cloud
    assert set(table.loc[table["Option"] != "hybrid", "Burst after (h)"]) == {""}
    one_server = [float(w) for w in hybrid.loc[hybrid["Servers"] == 1, "p95 wait (h)"]]
    assert one_server == sorted(one_server)  # 0.25 h, then 1 h
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    names = [t["name"] for t in figure["data"]]
    assert names[:4] == [
        "self-hosted",
        "hybrid, burst after 0.25 h",
        "hybrid, burst after 1 h",
        "AWS H100 on-demand",
    ]
    assert figure["data"][1]["marker"]["color"] != figure["data"][2]["marker"]["color"]


def test_bad_thresholds_and_too_many_runs_are_errors_before_run(shared_db: Path) -> None:
    at = open_page()
    at.text_input(key="capacity_thresholds").set_value("1, soon").run()

    assert not at.exception
    assert "'1, soon' is not a list of numbers of hours" in at.error[0].value
    assert "capacity_run" not in [b.key for b in at.button]

    at.text_input(key="capacity_thresholds").set_value("0.25 0.5 1 2 3 4 8 24").run()

    assert not at.exception
    assert "would make 64 runs (8 server counts × 8 burst thresholds), more than 60" in (
        at.error[0].value
    )
    assert "capacity_run" not in [b.key for b in at.button]


def sweep(at: AppTest) -> AppTest:
    at.text_input(key="capacity_range").set_value("1, 4, 16")
    at.text_input(key="capacity_thresholds").set_value("1")
    at.number_input(key="capacity_target").set_value(0.5)
    return at.button(key="capacity_run").click().run()


@pytest.fixture(scope="module")
def shared_db(sample_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One database for the page's tests on the bundled sample: points one test stores,
    another reads back (the page's sweeps are stored as `planner sweep` stores them)."""
    path = tmp_path_factory.mktemp("capacity") / "planner.duckdb"
    shutil.copyfile(sample_db, path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLANNER_DB", str(path))
        yield path


@pytest.fixture(scope="module")
def swept(shared_db: Path) -> AppTest:
    """The page after a sweep of 1, 4 and 16 A100 servers bursting after 1 h."""
    return sweep(open_page())


def test_a_three_point_sweep_shows_the_chart_the_table_and_the_answer(swept: AppTest) -> None:
    at = swept

    assert not at.exception
    assert not at.error
    text = at.info[0].value
    assert text.startswith("The smallest self-hosted cluster meeting a p95 wait of 0.5 h is ")
    assert "$" in text
    assert "the cheapest option overall is " in text
    trace_id = at.session_state["trace_chosen"]
    assert (
        f"Swept: sample-tco.yaml (bundled example), replaying sample · {trace_id} (4,000 jobs)."
        in (captions(at))
    )
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
    # 4 servers wait less than the target, but never run the gangs too large for them
    never_run = own_rows["Never run (GPU-h over the horizon)"]
    left_out = dict(zip(own_rows["Servers"], never_run, strict=True))
    assert float(left_out[4].replace(",", "")) > float(left_out[16].replace(",", "")) > 0
    assert "p95 wait of 0.5 h is 16 A100 servers" in text
    assert text.endswith(
        "Only the A100 pool was sized; held fixed in every point: 128 H800 servers."
    )

    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert figure["layout"]["xaxis"]["title"]["text"] == "p95 wait (hours)"
    assert "USD" in figure["layout"]["yaxis"]["title"]["text"]
    assert figure["layout"]["separators"] == ".,"
    names = [t["name"] for t in figure["data"]]
    assert names[:3] == ["self-hosted", "hybrid, burst after 1 h", "AWS H100 on-demand"]
    assert "smallest meeting the target" in names
    assert "cheapest option" in names
    own = figure["data"][0]
    assert list(own["text"]) == ["1", "4", "16"]
    # the cloud's p95 wait: a pod waits for its node pool instance, 300 s = 1/12 h
    assert values(figure["data"][2]["x"]) == pytest.approx([300 / 3600])
    assert figure["layout"]["shapes"][0]["x0"] == 0.5  # the target line

    assert any(c.startswith("Each owned row's GPU-hours add up") for c in captions(at))

    # a new target re-marks the answer without a new sweep
    at.number_input(key="capacity_target").set_value(1000.0).run()
    assert "meeting a p95 wait of 1000 h is 16 A100 servers " in at.info[0].value


def test_the_command_prints_the_numbers_the_page_shows(
    swept: AppTest, shared_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace_id = swept.session_state["trace_chosen"]
    table = swept.dataframe[0].value
    scenario = str(Path(__file__).resolve().parents[2] / "data" / "scenarios" / "sample-tco.yaml")

    code = main(
        ["sweep", "--scenario", scenario, "--trace", trace_id, "--db", str(shared_db),
         "--vary", "servers=1,4,16", "--vary", "burst_after_h=1", "--json", "--workers", "1"]
    )  # fmt: skip

    captured = capsys.readouterr()
    assert code == 0
    assert "3 points: 0 computed, 3 stored already" in captured.err  # the page's points
    printed = json.loads(captured.out)
    for point in printed:
        n = point["point"]["servers"]
        for option in point["options"]:
            if option["years"] != 3.0 or option["option"] not in ("self-hosted", "hybrid"):
                continue
            row = table[(table["Option"] == option["option"]) & (table["Servers"] == n)]
            wait = f"{option['wait_p95_s'] / 3600:.2f}"
            shown = row[["Total over 3 years", "Per useful GPU-hour", "p95 wait (h)"]]
            assert shown.values.tolist() == [
                [f"${option['total']:,.0f}", f"${option['per_useful_gpu_hour']:,.2f}", wait]
            ]
            assert row["Utilization in the window"].item() == f"{option['utilization']:.1%}"
            carried = f"{option['carried_gpu_h']:,.0f}"
            assert row["Carried past the window (GPU-h)"].item() == carried


def test_a_stored_sweep_is_listed_and_reopened_without_pricing_again(swept: AppTest) -> None:
    at = open_page()
    listed = next(c for c in captions(at) if c.startswith("Stored today for this scenario"))
    # the sweep's points (the two-by-two test's too, when it ran first on this database)
    assert listed.startswith(
        "Stored today for this scenario on this trace: servers 1, 4, 16; burst after "
    )

    at = at.button(key="capacity_reopen").click().run()

    assert at.text_input(key="capacity_range").value == "1, 4, 16"
    hours = view.parse_thresholds(at.text_input(key="capacity_thresholds").value)
    assert 1.0 in hours
    at = at.button(key="capacity_run").click().run()
    assert not at.exception
    counted = next(c for c in captions(at) if c.startswith("Points priced now: "))
    computed, read = (int(n) for n in re.findall(r": (\d+)", counted)[:2])
    assert computed + read == 3 * len(hours)
    assert read >= 3  # the sweep's three points at 1 h are read back, not priced again
    table = at.dataframe[0].value
    before = swept.dataframe[0].value
    same = table["Burst after (h)"].isin(["", "1"])
    assert table[same].reset_index(drop=True).equals(before.reset_index(drop=True))


def test_the_page_and_its_conclusion_are_in_chinese(shared_db: Path) -> None:
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
        "溢出阈值（小时）",
        "3 年总成本",
        "每有效 GPU 小时",
        "每有效 GPU 小时，孪生误差范围",
        "p95 等待（小时）",
        "p95 等待（小时），孪生误差范围",
        "窗口内利用率",
        "窗口内完成（GPU 小时）",
        "从未运行（期限内 GPU 小时）",
        "结转到窗口之后（GPU 小时）",
        "需求（GPU 小时）",
    ]
    assert set(at.dataframe[0].value["每有效 GPU 小时，孪生误差范围"]) == {"未校准", ""}
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert figure["layout"]["xaxis"]["title"]["text"] == "p95 等待（小时）"
    assert "满足目标的最小规模" in [t["name"] for t in figure["data"]]
    assert "hybrid，等待 1 小时后溢出" in [t["name"] for t in figure["data"]]
    assert "本次扫描的运行次数：3" in runs_note(at)
    assert any(
        c.startswith("扫描来源：sample-tco.yaml（内置示例），重放 sample · ") for c in captions(at)
    )


def test_money_follows_the_reporting_currency_of_the_prices_page(shared_db: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.session_state["reporting_currency"] = "EUR"
    at = sweep(at.run().switch_page(PAGE).run())

    assert not at.exception
    text = at.info[0].value
    assert " €" in text
    assert "$" not in text
    assert "Amounts converted from USD to EUR at the stored FX rate." in captions(at)
    table = at.dataframe[0].value
    totals = table["Total over 3 years"].tolist()
    assert all(total.endswith(" €") for total in totals)
    assert any("." in total for total in totals)  # thousands marked with "." in euros
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert figure["layout"]["separators"] == ",."
    assert "EUR" in figure["layout"]["yaxis"]["title"]["text"]


def test_bad_server_counts_are_an_error_not_a_traceback(shared_db: Path) -> None:
    at = open_page()
    at.text_input(key="capacity_range").set_value("four").run()

    assert not at.exception
    assert "not a list of whole numbers" in at.error[0].value
    assert not at.get("plotly_chart")


# --- the user's own scenario and trace ------------------------------------------------------

MINE = "**mine** [x](http://evil.example)"  # a saved scenario's name, markdown in it
CLOUD_ONLY = "cloud only"
SWEPT_H800 = (1, 2, 4)
# `PlannerError`-free inputs the seed price book can price: A100 servers from the book, H800
# servers at the sample scenario's price and power (the book has none).
H800 = {"price": 300_000.0, "currency": "USD", "power_kw": (2.5, 8.0, 10.2)}


def own_trace(folder: Path) -> Path:
    """120 jobs of at most 8 GPUs of the sample, two minutes apart: busy enough that one H800
    server makes jobs wait and four do not."""
    jobs = pd.read_csv(SAMPLE)
    jobs = jobs[(jobs["gpus"] <= 8) & (jobs["duration_s"] >= 600)].head(120)
    submit = (
        pd.Timestamp("2026-03-02T09:00:00+08:00")
        + pd.to_timedelta(range(len(jobs)), unit="min") * 2
    )
    end = submit + pd.to_timedelta(jobs["duration_s"].to_numpy(), unit="s")
    jobs = jobs.assign(
        submit_time=[t.isoformat() for t in submit],
        start_time=[t.isoformat() for t in submit],
        end_time=[t.isoformat() for t in end],
    )
    path = folder / "**ours** [a](b).csv"
    jobs.to_csv(path, index=False)
    return path


def hybrid_form(trace_id: str | None, h800: int) -> forms.OptionForm:
    """4 A100 and `h800` H800 servers, AWS H100 on demand, a hybrid keeping 2 A100 and every
    H800 that bursts after an hour: what a sweep of the H800 pool prices at `h800`."""
    own = forms.OwnForm((forms.PoolForm("A100", 4), forms.PoolForm("H800", h800, **H800)), 3, 5.0)
    return forms.OptionForm(
        MINE,
        "hybrid",
        trace_id,
        own,
        forms.CloudForm("AWS", "H100"),
        forms.HybridForm({"A100": 2, "H800": h800}, 1.0),
    )


def expected_table(con: Any, trace_id: str) -> dict[tuple[str, int | None], tuple[str, str, str]]:
    """(option, servers) -> (total over 3 years, per useful GPU-hour, p95 wait) as `planner
    tco` prices each point, built from the form (not from the page's own scenario edits)."""
    rows = {}
    for n in SWEPT_H800:
        report = run_tco(con, forms.build(hybrid_form(trace_id, n)), files=BUNDLED_FILES)
        horizon = next(h for h in report.horizons if h.years == 3.0)
        for o in horizon.options:
            servers = n if o.name in ("self-hosted", "hybrid") else None
            wait = (o.wait_p95_s or 0.0) / 3600
            per_hour = o.cost_per_useful_gpu_hour or 0.0
            rows[o.name, servers] = (f"${o.total:,.0f}", f"${per_hour:,.2f}", f"{wait:.2f}")
    return rows


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A database with the user's trace, a CPU-only trace, a hybrid saved from the option
    form, a cloud-only option saved beside it, and what the service prices for the hybrid."""
    folder = tmp_path_factory.mktemp("own")
    cpu = folder / "cpu only.csv"
    pd.read_csv(SAMPLE).head(20).assign(gpus=0, gpu_type="").to_csv(cpu, index=False)
    with pytest.MonkeyPatch.context() as patch:
        db = folder / "planner.duckdb"
        patch.setenv("PLANNER_DB", str(db))
        with connect(db) as con:
            trace_id = import_file(con, own_trace(folder), IngestOptions()).trace_id
            cpu_id = import_file(con, cpu, IngestOptions()).trace_id
            assert trace_id is not None
            assert cpu_id is not None
            for name, cluster in REPLAYS.items():
                text = f"name: {name}\ntrace: {trace_id}\ncluster: {cluster}\n"
                scenario_store.save(con, name, Prepared("replay", text, trace_id))
            mine = scenario_store.to_yaml(forms.build(hybrid_form(trace_id, 3)))
            scenario_store.save(con, MINE, Prepared("tco", mine, trace_id))
            cloud = forms.OptionForm(
                CLOUD_ONLY, "cloud", trace_id, cloud=forms.CloudForm("AWS", "H100")
            )
            text = scenario_store.to_yaml(forms.build(cloud))
            scenario_store.save(con, CLOUD_ONLY, Prepared("tco", text, trace_id))
            expected = expected_table(con, trace_id)
        yield {"trace": trace_id, "cpu": cpu_id, "expected": expected}


REPLAYS = {  # saved on Cluster & policy: priced as owning their cluster
    "two A100 nodes": "{pools: [{gpu_type: A100, gpus_per_node: 8, count: 2}]}",
    "moved node list": "{node_list: /nonexistent/planner-test/nodes.csv}",
}


def open_with_trace(
    trace_id: str, lang: str = "en", *, via_overview: bool = False, **state: object
) -> AppTest:
    """The Capacity page with `trace_id` the session's chosen trace: picked on the Overview
    page (`via_overview`), or put in the session as a pick there leaves it (one run, not
    three); `state` holds more of the session (widgets' values by key) for that run."""
    if not via_overview:
        return open_app_page(PAGE, TIMEOUT_S, lang=lang, trace_chosen=trace_id, **state)
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.session_state["lang"] = lang
    at = at.run()
    at.selectbox(key="trace_select").set_value(trace_id).run()
    return at.switch_page(PAGE).run()


def test_a_saved_scenario_on_the_users_trace_sweeps_to_what_the_service_prices(
    own: dict[str, Any],
) -> None:
    at = open_with_trace(own["trace"], via_overview=True)

    assert not at.exception
    assert at.selectbox(key="capacity_trace").value == own["trace"]  # chosen on Overview
    options = at.selectbox(key="capacity_scenario").options
    assert options[0] == f"{MINE} (saved)"
    assert f"{CLOUD_ONLY} (saved)" not in options  # no servers to sweep
    assert "sample-tco.yaml (bundled example)" in options
    at.selectbox(key="capacity_scenario").set_value(f"saved:{MINE}").run()
    at.selectbox(key="capacity_pool").set_value(1).run()  # H800, A100 held
    assert "Held as they are in every point: 4 A100 servers." in captions(at)
    assert at.text_input(key="capacity_range").label == "H800 servers to try (the scenario has 3)"
    assert at.text_input(key="capacity_range").value == "1, 3"  # started afresh for the pool
    at.text_input(key="capacity_range").set_value(", ".join(map(str, SWEPT_H800)))
    at.text_input(key="capacity_thresholds").set_value("1")
    at.number_input(key="capacity_target").set_value(0.5)
    at = at.button(key="capacity_run").click().run()

    assert not at.exception
    assert not at.error
    table = at.dataframe[0].value
    shown = {
        (o, None if pd.isna(n) else int(n)): (total, per_hour, wait)
        for o, n, total, per_hour, wait in zip(
            table["Option"],
            table["Servers"],
            table["Total over 3 years"],
            table["Per useful GPU-hour"],
            table["p95 wait (h)"],
            strict=True,
        )
    }
    assert shown == own["expected"]
    waits = [float(own["expected"]["self-hosted", n][2]) for n in SWEPT_H800]
    assert waits[0] > 0.5 >= waits[-1]  # the H800 count matters on this trace
    smallest = next(n for n, w in zip(SWEPT_H800, waits, strict=True) if w <= 0.5)
    text = at.info[0].value
    assert f"p95 wait of 0.5 h is {smallest} H800 server" in text
    assert text.endswith("held fixed in every point: 4 A100 servers.")
    origin = next(c for c in captions(at) if c.startswith("Swept: "))
    assert origin == (
        r"Swept: \*\*mine\*\* \[x\](http:" + JOINER + r"//evil.example) (saved), replaying "
        rf"\*\*ours\*\* \[a\](b) · {own['trace']} (120 jobs)."
    )


def test_a_saved_cluster_is_swept_as_owned_servers_and_a_broken_one_says_why(
    own: dict[str, Any],
) -> None:
    at = open_with_trace(own["trace"])
    assert at.selectbox(key="capacity_scenario").options[:3] == [
        f"{MINE} (saved)",
        "moved node list (saved)",
        "two A100 nodes (saved)",
    ]

    at.selectbox(key="capacity_scenario").set_value("saved:two A100 nodes").run()

    assert not at.exception
    assert not at.error
    assert at.text_input(key="capacity_range").label == "A100 servers to try (the scenario has 2)"
    assert at.text_input(key="capacity_range").value == "1, 2"
    assert "capacity_pool" not in [b.key for b in at.selectbox]  # one pool: nothing to pick
    assert runs_note(at) == "Runs in this sweep: 2, one per server count."

    at.selectbox(key="capacity_scenario").set_value("saved:moved node list").run()

    assert not at.exception
    assert at.error[0].value.startswith("The scenario moved node list (saved) cannot be swept: ")
    assert "/nonexistent/planner-test/nodes.csv" in at.error[0].value
    assert not at.get("button")


def test_the_working_cluster_once_changed_is_offered_and_swept(own: dict[str, Any]) -> None:
    at = open_with_trace(own["trace"])
    assert not any(o.startswith("working:") for o in at.selectbox(key="capacity_scenario").options)
    cluster = {"pools": [{"gpu_type": "A100", "gpus_per_node": 8, "count": 3}]}
    at.session_state[state.SCENARIO_KEY] = default_scenario().model_copy(
        update={"cluster": ClusterSpec.model_validate(cluster)}
    )  # as the Cluster & policy page leaves it
    at.run()

    at.selectbox(key="capacity_scenario").set_value(sources.WORKING).run()
    at.text_input(key="capacity_range").set_value("1, 3")
    at = at.button(key="capacity_run").click().run()

    assert not at.exception
    assert not at.error
    label = at.selectbox(key="capacity_scenario").format_func(sources.WORKING)
    assert label.endswith(" on 3 nodes (working scenario, Cluster & policy)")
    assert at.text_input(key="capacity_range").label == "A100 servers to try (the scenario has 3)"
    table = at.dataframe[0].value
    assert table["Option"].tolist() == ["self-hosted", "self-hosted"]  # no cloud option in it
    assert table["Servers"].tolist() == [1, 3]
    totals = [float(v.strip("$").replace(",", "")) for v in table["Total over 3 years"]]
    assert totals[0] < totals[1]


def test_a_trace_without_gpu_jobs_says_there_is_nothing_to_size(own: dict[str, Any]) -> None:
    at = open_with_trace(own["cpu"])

    assert not at.exception
    assert not at.error
    assert at.info[0].value.startswith(
        f"The job history cpu only · {own['cpu']} holds no GPU jobs (no job asks for a GPU)"
    )
    assert not at.get("button")


def test_the_users_scenario_and_trace_are_named_in_chinese(own: dict[str, Any]) -> None:
    at = open_with_trace(own["trace"], "zh")
    at.selectbox(key="capacity_pool").set_value(1).run()  # its counts start afresh
    at.text_input(key="capacity_range").set_value("1")
    at.text_input(key="capacity_thresholds").set_value("1")
    at = at.button(key="capacity_run").click().run()

    assert not at.exception
    assert not at.error
    assert at.selectbox(key="capacity_scenario").label == "场景"
    assert at.selectbox(key="capacity_trace").label == "要重放的作业历史"
    assert at.selectbox(key="capacity_scenario").options[0] == f"{MINE}（已保存）"
    assert "每个点都保持不变：4 台 A100 服务器。" in captions(at)
    origin = next(c for c in captions(at) if c.startswith("扫描来源："))
    assert origin.endswith(
        f"（已保存），重放 \\*\\*ours\\*\\* \\[a\\](b) · {own['trace']}（120 个作业）。"
    )
    assert list(at.dataframe[0].value["服务器数"].dropna()) == [1, 1]
    assert at.info[0].value.startswith("扫描中没有任何自建集群能满足 p95 等待 1 小时")  # 2.3 h

    at = open_with_trace(own["cpu"], "zh")
    assert at.info[0].value.startswith(f"作业历史 cpu only · {own['cpu']} 中没有 GPU 作业")
