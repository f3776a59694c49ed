"""The Capacity page's sizing search, demand growth and Monte Carlo, on the user's own trace
(120 jobs) and a hybrid saved from the option form: each figure the page shows is checked
against the service the command line runs (`planner sweep --target`, `planner tco` with
`growth:`, `planner montecarlo --sweep`), called directly on the same database."""

import json
from collections.abc import Iterator
from datetime import date
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from planner.core.file_access import BUNDLED_FILES
from planner.cost.montecarlo import McHorizon, OwningWins, Spread
from planner.cost.montecarlo_paths import PathSpec
from planner.cost.scenario import GrowthSpec, TcoScenario
from planner.ingest import IngestOptions
from planner.service import option_forms as forms
from planner.service import scenario_store
from planner.service.importer import import_file
from planner.service.montecarlo import McReport, McSettings, sweep_montecarlo
from planner.service.replay import load_jobs
from planner.service.scenario_store import Prepared
from planner.service.sweep_mix import cheapest_mix
from planner.service.sweep_run import Sweep, run_sweep
from planner.service.sweep_search import Target
from planner.service.tco_run import run_tco
from planner.store import connect
from planner.ui import capacity_mc, capacity_mc_view, capacity_mix, capacity_search
from planner.ui import capacity_sources as sources
from planner.ui.capacity_growth import with_growth
from planner.ui.i18n import Language, fmt_money
from tests.pages.test_capacity import MINE, hybrid_form, open_with_trace, own_trace, values

SAVED = f"saved:{MINE}"
TARGET_H = 0.5


@pytest.fixture(scope="module")
def mine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A database with the user's trace and the hybrid saved from the option form (4 A100,
    3 H800, AWS H100 on demand); the scenario the page sweeps from it."""
    folder = tmp_path_factory.mktemp("plan")
    with pytest.MonkeyPatch.context() as patch:
        db = folder / "planner.duckdb"
        patch.setenv("PLANNER_DB", str(db))
        with connect(db) as con:
            trace_id = import_file(con, own_trace(folder), IngestOptions()).trace_id
            assert trace_id is not None
            text = scenario_store.to_yaml(forms.build(hybrid_form(trace_id, 3)))
            scenario_store.save(con, MINE, Prepared("tco", text, trace_id))
            scenario = sources.load(SAVED, scenario_store.list_saved(con), trace_id)
        yield {"db": db, "trace": trace_id, "scenario": scenario}


def opened(mine: dict[str, Any], lang: str = "en") -> AppTest:
    """The page on the user's trace and saved hybrid, its H800 pool picked."""
    at = open_with_trace(mine["trace"], lang, capacity_scenario=SAVED, capacity_pool=1)
    assert at.selectbox(key="capacity_scenario").value == SAVED
    assert at.selectbox(key="capacity_pool").value == 1
    return at


def said(at: AppTest, start: str) -> str:
    """The info box that starts with `start` (the grid's prompt comes first)."""
    return next(str(i.value) for i in at.info if str(i.value).startswith(start))


def captions(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption]


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    """The table with a `column` (the page's tables are told apart by their columns)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def stored(mine: dict[str, Any], scenario: TcoScenario, points: list[Any]) -> Any:
    """`planner sweep --vary` over `points` on the same database: (results, points computed)."""
    with connect(mine["db"]) as con:
        sweep = Sweep(scenario, load_jobs(con, mine["trace"]), mine["trace"], date.today())
        outcome = run_sweep(con, sweep, points)
    return outcome.results, outcome.computed


@pytest.fixture(scope="module")
def searched(mine: dict[str, Any]) -> AppTest:
    at = opened(mine)
    at.selectbox(key="capacity_search_stat").set_value("p95_wait")
    at.number_input(key="capacity_search_value").set_value(30.0)
    at.selectbox(key="capacity_search_unit").set_value("m")
    return at.button(key="capacity_search_run").click().run()


def test_the_search_finds_the_fewest_servers_a_grid_of_every_count_finds(
    mine: dict[str, Any], searched: AppTest
) -> None:
    at = searched
    assert not at.exception
    assert not at.error
    _, found = at.session_state[capacity_search.RESULT]
    tried = [n for n, _ in found.steps]
    assert tried[0] == 3  # the scenario's own count first, then bisecting below it
    assert sorted(tried) == [1, 2, 3]

    # every count up to the scenario's, priced as `planner sweep --vary servers.H800=1,2,3`:
    # the search stored each point it tried, so the grid prices none again
    results, computed = stored(mine, mine["scenario"], [(("servers.H800", n),) for n in (1, 2, 3)])
    assert computed == 0
    own = [r.option("self-hosted") for r in results]
    most = own[-1].never_ran
    meeting = [
        n
        for n, o in zip((1, 2, 3), own, strict=True)
        if o.wait_p95_s is not None and o.wait_p95_s <= TARGET_H * 3600 and o.never_ran <= most
    ]
    assert meeting, "3 H800 servers meet 30 min on this trace"
    assert 1 not in meeting  # one server makes jobs wait: the search is not vacuous
    answer = found.search.answer.point[0][1]
    assert answer == min(meeting)

    text = said(at, "The fewest ")
    assert text.startswith(
        f"The fewest H800 servers giving self-hosted a p95 wait of at most 30 min for GPU "
        f"jobs: {answer}. 3 points priced, from the scenario's 3"
    )
    assert text.endswith("Other pools held as the scenario has them: 4 A100 servers.")

    table = frame_with(at, "Step")
    assert table["Step"].tolist() == [1, 2, 3]
    assert table["H800 servers"].tolist() == tried
    waits = dict(zip(table["H800 servers"], table["p95 wait (h)"], strict=True))
    assert waits == {n: f"{o.wait_p95_s / 3600:.2f}" for n, o in zip((1, 2, 3), own, strict=True)}
    verdicts = dict(zip(table["H800 servers"], table["Meets the target"], strict=True))
    assert verdicts == {n: "yes" if n in meeting else "no" for n in (1, 2, 3)}
    totals = dict(zip(table["H800 servers"], table["Total over 3 years"], strict=True))
    assert totals == {n: f"${o.total:,.0f}" for n, o in zip((1, 2, 3), own, strict=True)}


def test_the_search_chart_marks_the_target_and_each_verdict(searched: AppTest) -> None:
    figure = searched.get("plotly_chart")
    drawn = json.loads(figure[-1].proto.spec)
    names = [d["name"] for d in drawn["data"]]
    assert names == ["meets", "misses"]  # 1 misses, 2 and 3 meet (tested above)
    assert sorted(len(d["text"]) for d in drawn["data"]) == [1, 2]  # the 3 points, numbered
    assert drawn["layout"]["shapes"][0]["y0"] == TARGET_H
    assert drawn["layout"]["xaxis"]["title"]["text"] == "H800 servers"


def test_a_team_target_searches_that_teams_waits(mine: dict[str, Any]) -> None:
    at = opened(mine)
    teams = at.selectbox(key="capacity_search_team").options
    assert teams[0] == "overall (GPU jobs)"
    team = teams[1]
    at.selectbox(key="capacity_search_team").set_value(team)
    at.number_input(key="capacity_search_value").set_value(30.0)
    at = at.selectbox(key="capacity_search_unit").set_value("m").run()
    at = at.button(key="capacity_search_run").click().run()

    assert not at.exception
    assert not at.error
    asked, found = at.session_state[capacity_search.RESULT]
    assert asked.scenario.wait_scope == f"team:{team}"
    assert f"for team {team}'s jobs:" in said(at, "The fewest ")
    scoped = mine["scenario"].model_copy(update={"wait_scope": f"team:{team}"})
    counts = sorted(n for n, _ in found.steps)
    results, computed = stored(mine, scoped, [(("servers.H800", n),) for n in counts])
    assert computed == 0  # the same points, under the team's scope
    waits = {n: r.option("self-hosted").wait_p95_s for n, r in zip(counts, results, strict=True)}
    meeting = [n for n in counts if waits[n] is not None and waits[n] <= TARGET_H * 3600]
    assert found.search.answer.point[0][1] == min(meeting)
    # the scope matters: the team waits longer at 3 servers than GPU jobs overall do
    (overall,), _ = stored(mine, mine["scenario"], [(("servers.H800", 3),)])
    assert overall.option("self-hosted").wait_p95_s <= TARGET_H * 3600 < waits[3]


def mc_settings(at: AppTest, draws: int, seed: int, flat: bool = False) -> AppTest:
    at.number_input(key="capacity_mc_draws").set_value(draws)
    at.number_input(key="capacity_mc_seed").set_value(seed)
    if flat:
        for name in ("cloud_trend", "cloud_vol", "electricity_trend", "electricity_vol"):
            at.number_input(key=f"capacity_mc_{name}").set_value(0.0)
        for name in ("server_sd", "demand_sd"):
            at.number_input(key=f"capacity_mc_{name}").set_value(0.0)
    return at


@pytest.fixture(scope="module")
def monte_carlo(mine: dict[str, Any], searched: AppTest) -> AppTest:
    """The Monte Carlo of 200 draws, seed 7, after the search (its points stored) and a grid
    of 1 and 3 H800 servers bursting after 1 h."""
    del searched  # run first: the Monte Carlo re-prices its points too
    at = opened(mine)
    at.text_input(key="capacity_range").set_value("1, 3")
    at.text_input(key="capacity_thresholds").set_value("1")
    at = mc_settings(at, 200, 7).run()
    return at.button(key="capacity_mc_run").click().run()


def test_the_monte_carlo_is_the_services_to_the_cent(
    mine: dict[str, Any], monte_carlo: AppTest
) -> None:
    at = monte_carlo
    assert not at.exception
    assert not at.error
    asked, shown = at.session_state[capacity_mc.RESULT]
    assert asked.settings == McSettings(200, 7, PathSpec())  # the command line's defaults
    with connect(mine["db"]) as con:
        sweep = Sweep(mine["scenario"], [], mine["trace"], date.today())
        direct = sweep_montecarlo(con, sweep, McSettings(200, 7, PathSpec()))
    assert shown == direct  # every figure, bit for bit
    points = [dict(r.point or {}) for r in direct.points]
    assert {"servers.H800": 3, "burst_after_h": 1} in points  # the grid's, stored first
    assert {"servers.H800": 2} in points  # and the search's

    table = frame_with(at, "NPV of costs: mean")
    report = next(r for r in direct.points if r.point == {"servers.H800": 1, "burst_after_h": 1})
    horizon = next(h for h in report.horizons if h.years == 3.0)
    label = "1 H800 server, burst after 1 h"
    for spread in horizon.options:
        row = table[(table["Point"] == label) & (table["Option"] == spread.option)]
        cells = row[["NPV of costs: mean", "p5", "p50", "p95"]].values.tolist()
        money = [fmt_money(v, "USD", 0) for v in (spread.mean, spread.p5, spread.p50, spread.p95)]
        assert cells == [money], spread.option
    wins = frame_with(at, "Owning costs less (share of draws)")
    mine_wins = wins[wins["Point"] == label]
    assert sorted(mine_wins["Owning"]) == ["hybrid", "self-hosted"]
    for w in horizon.owning_wins:
        row = mine_wins[mine_wins["Owning"] == w.owned]
        assert row["Owning costs less (share of draws)"].item() == f"{w.probability:.1%}"
    assert at.get("plotly_chart")

    # the first point's distribution: each option's 200 draws, and the chance owning wins
    first = capacity_mc_view.ordered(direct.points)[0]
    assert at.selectbox(key="capacity_mc_point").value == 0
    drawn = next(
        spec
        for spec in (json.loads(c.proto.spec) for c in at.get("plotly_chart"))
        if "how the draws spread" in spec["layout"]["title"]["text"]
    )
    spreads = next(h for h in first.horizons if h.years == 3.0).options
    assert [d["name"] for d in drawn["data"]] == [s.option for s in spreads]
    for trace, spread in zip(drawn["data"], spreads, strict=True):
        assert values(trace["x"]) == pytest.approx(list(spread.draws), abs=1e-6)
        assert len(spread.draws) == 200
    assert drawn["layout"]["barmode"] == "overlay"
    rented = next(s for s in spreads if s.option not in ("self-hosted", "hybrid"))
    own = next(s for s in spreads if s.option == "self-hosted")
    wins = sum(r > o for r, o in zip(rented.draws, own.draws, strict=True))  # by hand
    sentence = said(at, "In ")
    assert f"In {wins} of 200 draws ({wins / 200:.1%}), owning (self-hosted, " in sentence
    assert any(c.startswith("Each bar counts the draws") for c in captions(at))


def test_without_uncertainty_owning_saves_what_the_sweep_priced(
    mine: dict[str, Any], monte_carlo: AppTest
) -> None:
    at = mc_settings(monte_carlo, 3, 7, flat=True).run()
    at = at.button(key="capacity_mc_run").click().run()

    assert not at.exception
    _, shown = at.session_state[capacity_mc.RESULT]
    results, computed = stored(
        mine, mine["scenario"], [(("servers.H800", 3), ("burst_after_h", 1))]
    )
    assert computed == 0
    for option in ("self-hosted", "hybrid"):
        priced = results[0].option(option, 3.0)
        report = next(r for r in shown.points if r.point == {"servers.H800": 3, "burst_after_h": 1})
        horizon = next(h for h in report.horizons if h.years == 3.0)
        win = next(w for w in horizon.owning_wins if w.owned == option)
        # every draw is the model's own prices: the NPV of buying is the sweep's, to the cent
        assert round(win.npv_of_buying_mean, 2) == round(priced.npv_vs_cloud, 2)
        assert win.npv_of_buying_p5 == pytest.approx(win.npv_of_buying_p95, abs=0.005)


def test_demand_growth_is_priced_as_planner_tco_prices_it(mine: dict[str, Any]) -> None:
    at = opened(mine)
    assert any(
        c.startswith("No demand growth: each point replays the trace once") for c in captions(at)
    )
    at.number_input(key="capacity_growth_rate").set_value(1.5)
    at.number_input(key="capacity_growth_seed").set_value(3)
    at.text_input(key="capacity_range").set_value("3")
    at = at.text_input(key="capacity_thresholds").set_value("1").run()
    at = at.button(key="capacity_run").click().run()

    assert not at.exception
    assert not at.error
    assert (
        "Demand grows: each point replays 5 years, one per year of the longest horizon, at "
        "these factors on the trace's arrival rate: year 1 ×1, year 2 ×1.5, year 3 ×2.25, "
        "year 4 ×3.38, year 5 ×5.06 (seed 3)."
    ) in captions(at)
    grown = with_growth(mine["scenario"], 1.5, 3)
    assert grown.growth == GrowthSpec(arrival_rate_per_year=1.5, seed=3)
    with connect(mine["db"]) as con:
        totals = [
            {o.name: o.total for o in report.horizons[0].options}
            for report in (run_tco(con, s, files=BUNDLED_FILES) for s in (grown, mine["scenario"]))
        ]
    (cloud,) = set(totals[0]) - {"self-hosted", "hybrid"}
    assert totals[0][cloud] > totals[1][cloud] * 1.2  # the bill follows the growing demand
    table = frame_with(at, "Burst after (h)")
    shown = dict(zip(table["Option"], table["Total over 3 years"], strict=True))
    assert shown == {name: f"${total:,.0f}" for name, total in totals[0].items()}


def test_search_and_monte_carlo_speak_chinese(mine: dict[str, Any]) -> None:
    at = opened(mine, "zh")
    at.number_input(key="capacity_search_value").set_value(30.0)
    at.selectbox(key="capacity_search_unit").set_value("m")
    at = at.button(key="capacity_search_run").click().run()  # stored already: read back
    at = at.button(key="capacity_mc_run").click().run()

    assert not at.exception
    assert not at.error
    assert [t.label for t in at.tabs] == ["网格扫描", "搜索规模", "蒙特卡洛"]
    text = said(at, "使自建")
    assert text.startswith("使自建对GPU 作业达到p95 等待不超过 30 分钟的最少 H800 服务器数：2 台。")
    assert text.endswith("其他资源池按场景保持不变：4 台 A100 服务器。")
    assert "步骤" in frame_with(at, "满足目标").columns
    assert "成本 NPV：均值" in frame_with(at, "p50").columns
    assert said(at, "在 ").endswith("年。")  # the chance owning wins, in a sentence
    assert any(c.startswith("每个柱统计") for c in captions(at))
    assert any(c.startswith("蒙特卡洛：") for c in captions(at))  # the method's note


def test_the_cheapest_mix_is_the_services(mine: dict[str, Any]) -> None:
    at = opened(mine)
    at = at.number_input(key="capacity_search_value").set_value(2.0).run()  # hours
    at = at.button(key="capacity_mix_run").click().run()

    assert not at.exception
    assert not at.error
    asked, shown = at.session_state[capacity_mix.RESULT]
    assert asked.target == Target("p95_wait", 2 * 3600, "hybrid")
    with connect(mine["db"]) as con:
        sweep = Sweep(mine["scenario"], load_jobs(con, mine["trace"]), mine["trace"], date.today())
        direct = cheapest_mix(con, sweep, "servers.H800", asked.target)
    assert shown == direct  # every point read back as the page stored it
    best = direct.answer
    assert best is not None
    assert best.meets
    assert len(direct.frontier) >= 2
    assert all(p.total >= best.total for p in direct.frontier if p.meets)  # the cheapest tried
    text = said(at, "The cheapest mix giving the hybrid a p95 wait of at most 2 h")
    kept = f"{best.servers} H800 server{'s' * (best.servers != 1)}"
    assert f"keep {kept}, commit {best.committed_gpus} cloud GPUs" in text
    assert rf"\${best.total:,.0f} over 3 years" in text  # escaped for Markdown
    assert "Owning alone needs " in text
    table = frame_with(at, "Committed GPUs")
    assert table["H800 servers kept"].tolist() == [p.servers for p in direct.frontier]
    assert table["Committed GPUs"].tolist() == [p.committed_gpus for p in direct.frontier]
    assert "cloud GPUs (reserved)" in text


def test_the_cheapest_mix_under_demand_growth_is_the_services_year_by_year(
    mine: dict[str, Any],
) -> None:
    """With arrivals x1.5 a year the mix is offered too: every year must meet the target and
    each year commits for its own burst demand; the page shows the service's answer and its
    years."""
    at = opened(mine)
    at.number_input(key="capacity_growth_rate").set_value(1.5)
    at.number_input(key="capacity_growth_seed").set_value(3)
    at = at.number_input(key="capacity_search_value").set_value(2.0).run()
    at = at.button(key="capacity_mix_run").click().run()

    assert not at.exception
    assert not at.error
    asked, shown = at.session_state[capacity_mix.RESULT]
    grown = with_growth(mine["scenario"], 1.5, 3)
    assert asked.scenario == grown
    with connect(mine["db"]) as con:
        sweep = Sweep(grown, load_jobs(con, mine["trace"]), mine["trace"], date.today())
        direct = cheapest_mix(con, sweep, "servers.H800", asked.target)
    assert shown == direct
    assert direct.answer is not None
    years = direct.answer.by_year
    assert [y.arrival_rate for y in years] == pytest.approx([1.0, 1.5, 2.25])
    assert any(
        c.startswith("Demand grows: every year of the horizon must meet") for c in captions(at)
    )
    table = frame_with(at, "Arrival rate ×")
    assert table["Year"].tolist() == [1, 2, 3]
    assert table["Committed GPUs"].tolist() == [y.committed_gpus for y in years]


def test_the_cheapest_mix_names_its_pricing_model_in_chinese(mine: dict[str, Any]) -> None:
    at = opened(mine, "zh")
    at = at.number_input(key="capacity_search_value").set_value(2.0).run()
    at = at.button(key="capacity_mix_run").click().run()  # stored already: read back

    assert not at.exception
    text = said(at, "使混合方案")
    assert "块云 GPU（预留（reserved））" in text


def test_a_points_label_names_its_pool_and_threshold() -> None:
    def label(point: dict[str, object], lang: Language = "en") -> str:
        report = McReport("s", "USD", 1, 0, PathSpec(), (), point=point)
        return capacity_mc_view.point_label(report, "EUR", lang, first_gpu="A100")

    assert label({"servers": 4, "burst_after_h": 0.5}) == "4 A100 servers, burst after 0,5 h"
    assert label({"servers.H800": 1}) == "1 H800 server"
    assert label({"servers": 1, "burst_after_h": 2}, "zh") == "1 台 A100 服务器，等待 2 小时后溢出"
    assert label({"servers": 8, "policy.placement": "spread"}) == (
        "8 A100 servers, policy.placement=spread"
    )


def test_a_points_histogram_and_its_sentence_are_the_draws_by_hand() -> None:
    own = Spread("self-hosted", 2.5, 1.0, 2.5, 4.0, (1.0, 2.0, 3.0, 4.0))
    rent = Spread("AWS", 3.0, 3.0, 3.0, 3.0, (3.0, 3.0, 3.0, 3.0))
    wins = OwningWins("self-hosted", "AWS", 0.5, 0.5, -1.0, 2.0)  # 3 > 1 and 3 > 2: 2 of 4
    horizon = McHorizon(3.0, (own, rent), (wins,))
    report = McReport("s", "USD", 4, 0, PathSpec(), (horizon,), point={"servers": 4})

    figure = capacity_mc_view.histogram(report, 3.0, "EUR", 0.5, "en")
    sentence = capacity_mc_view.wins_sentence(report, 3.0, "EUR", "en", first_gpu="A100")

    assert figure is not None
    assert [list(d.x) for d in figure.data] == [[0.5, 1.0, 1.5, 2.0], [1.5, 1.5, 1.5, 1.5]]
    assert [d.name for d in figure.data] == ["self-hosted", "AWS"]
    assert sentence == (
        "In 2 of 4 draws (50,0 %), owning (self-hosted, 4 A100 servers) costs less than "
        "renting (AWS) over 3 years."
    )
    assert capacity_mc_view.wins_sentence(report, 3.0, "USD", "zh", first_gpu="A100") == (
        "在 4 次抽样中有 2 次（50.0%），自有（自建，4 台 A100 服务器）的成本低于租用"
        "（AWS），期限 3 年。"
    )
    # nothing to draw: no draws kept, or no such horizon
    bare = McReport("s", "USD", 4, 0, PathSpec(), (McHorizon(3.0, (Spread("x", 1, 1, 1, 1),), ()),))
    assert capacity_mc_view.histogram(bare, 3.0, "USD", 1.0, "en") is None
    assert capacity_mc_view.histogram(report, 5.0, "USD", 1.0, "en") is None
    assert capacity_mc_view.wins_sentence(report, 5.0, "USD", "en") == ""
