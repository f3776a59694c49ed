"""The compare page's pure glue: conclusion, tables, scenario parsing and figures."""

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from planner.core.errors import ScenarioError
from planner.core.file_access import BUNDLED_FILES
from planner.cost.finance import break_even_utilization
from planner.cost.inputs import CloudBillInputs, CloudInputs, TcoInputs
from planner.cost.packing_facts import PackingFacts
from planner.cost.results import (
    Horizon,
    PriceUsed,
    Sensitivity,
    SensitivityBar,
    TcoReport,
    plain_report,
)
from planner.cost.tco import Comparison, OptionReport, Rented
from planner.service.tco_files import load_tco_scenario
from planner.ui import compare_view, cost_charts
from planner.ui.compare_view import CompareRun, conclusion
from planner.ui.cost_charts import OPTION_COLORS, option_colors

SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"


def option(
    name: str, per_hour: float | None, total: float, p95_s: float | None = 0.0
) -> OptionReport:
    return OptionReport(
        name=name,
        total=total,
        totals={},
        monthly_pnl=(),
        monthly_cash=(total / 2, total / 4, total / 4),
        useful_gpu_hours=0.0,
        cost_per_useful_gpu_hour=per_hour,
        equivalent_annual_cost=total / 3,
        wait_mean_s=p95_s,
        wait_p95_s=p95_s,
    )


def report(
    options: list[OptionReport], break_even: dict[str, float | None], npv: dict[str, float]
) -> TcoReport:
    """A hand-made report with one 3-year horizon; the first option is self-hosted."""
    comparisons = tuple(
        Comparison("self-hosted", name, value, None, "", None, None, break_even.get(name))
        for name, value in npv.items()
    )
    horizons = (Horizon(3.0, tuple(options), comparisons),)
    return plain_report(
        horizons, scenario="hand-made", allocation=0.35, break_even_utilization=break_even
    )


def test_a_cheaper_cloud_is_named_with_its_break_even_and_npv() -> None:
    r = report(
        [option("self-hosted", 7.13, 500_000, None), option("Lambda", 3.99, 290_000)],
        {"Lambda": 0.6321},
        {"Lambda": -257_227.96},
    )

    assert conclusion(r) == (
        "At 35% allocation, owning costs $7.13 per useful GPU-hour over 3 years. "
        "The cheapest option is Lambda at $3.99 per useful GPU-hour ($290,000 in total). "
        "Owning pays only above 63% allocation against Lambda. "
        "Over 3 years buying loses $257,228 in NPV against it."
    )


def test_cheapest_is_by_cost_per_useful_gpu_hour_not_by_list_order() -> None:
    r = report(
        [
            option("self-hosted", 7.0, 500_000, None),
            option("dear", 6.0, 450_000),
            option("cheap", 2.5, 190_000),
            option("unpriced", None, 0.0),
        ],
        {"dear": 0.4, "cheap": 0.95, "unpriced": None},
        {"dear": -1.0, "cheap": -2.0, "unpriced": 0.0},
    )

    text = conclusion(r)

    assert "The cheapest option is cheap at $2.50" in text
    assert "above 95% allocation against cheap" in text


def test_when_owning_is_cheapest_it_is_compared_with_the_best_cloud() -> None:
    r = report(
        [option("self-hosted", 2.0, 100_000, None), option("A", 4.0, 200_000)],
        {"A": 0.2},
        {"A": 80_000.0},
    )

    text = conclusion(r)

    assert "The cheapest option is self-hosted at $2.00" in text
    assert "Owning pays above 20% allocation against A, and the demand is there." in text
    assert "buying gains $80,000 in NPV" in text


def test_the_hybrid_is_owning_and_its_wait_is_said() -> None:
    r = report(
        [
            option("self-hosted", 9.0, 900_000, None),
            option("hybrid", 3.0, 300_000, 7_200.0),
            option("AWS", 5.0, 500_000),
        ],
        {"AWS": 0.5},
        {"AWS": -10.0},
    )
    # the model records the headline pair: the hybrid as built against the cheapest cloud
    pair = Comparison("hybrid", "AWS", 20.0, None, "", None, None, None)
    r = replace(r, horizons=(replace(r.horizons[0], pair=pair),))

    text = conclusion(r)

    assert "The cheapest option is hybrid at $3.00 per useful GPU-hour" in text
    assert "p95 wait 2.0 h" in text
    assert "the hybrid gains $20 in NPV against AWS" in text
    assert "self-hosted" not in text  # its owned part is not an option of its own
    assert "$9.00" not in text


@pytest.mark.parametrize(
    ("break_even", "sentence"),
    [
        (None, "Owning never pays against C: its price does not cover a busy GPU's energy."),
        (1.4, "Owning does not pay against C even at full allocation (it needs 140%)."),
    ],
)
def test_owning_that_never_pays_is_said_plainly(break_even: float | None, sentence: str) -> None:
    r = report(
        [option("self-hosted", 9.0, 9.0, None), option("C", 1.0, 1.0)],
        {"C": break_even},
        {"C": -5.0},
    )

    assert sentence in conclusion(r)


def test_without_cloud_options_only_owning_is_described() -> None:
    r = report([option("self-hosted", 9.0, 9.0, None)], {}, {})

    assert conclusion(r) == (
        "At 35% allocation, owning costs $9.00 per useful GPU-hour over 3 years. "
        "The cheapest option is self-hosted at $9.00 per useful GPU-hour ($9 in total)."
    )


def test_cash_is_cumulative_by_month() -> None:
    r = report([option("self-hosted", 1.0, 400.0, None)], {}, {})

    frame = compare_view.cash_frame(r, 0)

    assert frame["month"].tolist() == [1, 2, 3]
    assert frame["cumulative"].tolist() == [200.0, 300.0, 400.0]


def test_break_even_markers_lie_on_the_self_hosted_curve() -> None:
    f, v = 2.0, 0.5
    be = break_even_utilization(f, v, 4.5)
    r = report(
        [option("self-hosted", 7.0, 1.0, None), option("C", 4.5, 1.0), option("D", 0.4, 1.0)],
        {"C": be, "D": None},
        {"C": 0.0, "D": 0.0},
    )

    curve, clouds = compare_view.break_even_frames(CompareRun(r, f, v), 0)

    assert curve["u"].iloc[-1] == 1.0
    assert curve["cost"].iloc[-1] == pytest.approx(f + v)
    c = clouds.set_index("option")
    assert c.loc["C", "break_even"] == pytest.approx(0.5)
    assert c.loc["C", "cost"] == pytest.approx(4.5)  # where the curve meets C's price
    assert c.loc["D"].isna()[["break_even", "cost"]].all()
    fig = cost_charts.break_even(curve, clouds, 0.35, "EUR")
    assert [t.name for t in fig.data] == ["self-hosted", "C", "D", "break-even"]
    assert fig.layout.yaxis.title.text == "Cost per useful GPU-hour (EUR)"


def test_stale_prices_and_placeholder_rates_are_warnings() -> None:
    r = report([option("self-hosted", 1.0, 1.0, None)], {}, {})
    r = replace(
        r,
        prices_used=(
            PriceUsed("server 8xH100", as_of="2024-08-01", stale=True),
            PriceUsed("Lambda", as_of="2026-09-25", stale=False),
        ),
        notes=("cost: converted CNY->USD at a placeholder FX rate", "the first 4 months ..."),
    )

    warnings, remarks = compare_view.notes(r)

    assert len(warnings) == 2
    assert warnings[0].startswith("server 8xH100: price as of 2024-08-01 is stale")
    assert remarks == ["the first 4 months ..."]


def test_a_stale_price_is_warned_once_and_an_unsourced_one_is_a_warning() -> None:
    r = report([option("self-hosted", 1.0, 1.0, None)], {}, {})
    r = replace(
        r,
        prices_used=(
            PriceUsed("server 8xH100", as_of="2024-08-01", stale=True),
            PriceUsed("server 8xL40S", as_of="", stale=False),
        ),
        notes=(
            "server 8xH100: price as of 2024-08-01 is stale (853 days old, over the limit of "
            "90 days); update it on the Prices page or with `planner prices`",
            "server 8xL40S: unsourced estimate (no source date); replace it with a dated quote",
        ),
    )

    warnings, remarks = compare_view.notes(r)

    assert warnings == [
        "server 8xH100: price as of 2024-08-01 is stale; check it on the Prices page",
        "server 8xL40S: unsourced estimate (no source date); replace it with a dated quote",
    ]
    assert remarks == []


def test_the_tornado_keeps_the_reports_order_and_names_drivers() -> None:
    r = report([option("self-hosted", 1.0, 1.0, None)], {}, {})
    bars = (
        SensitivityBar("cloud_price", -30.0, 10.0, 40.0),
        SensitivityBar("pue", -9.0, -11.0, 2.0),
    )
    r = replace(r, sensitivity=Sensitivity("NPV", -10.0, bars))

    frame = compare_view.tornado_frame(r)
    fig = cost_charts.tornado(frame, -10.0, "NPV", "EUR")

    assert frame["driver"].tolist() == ["Cloud price", "PUE"]
    assert list(fig.data[0].x) == [-20.0, 1.0]  # low, measured from the base
    assert list(fig.data[1].x) == [20.0, -1.0]
    assert fig.layout.xaxis.title.text == "NPV of buying (EUR)"


def test_bundled_scenarios_are_the_tco_ones_with_the_worked_example_first() -> None:
    names = compare_view.bundled_scenarios()

    assert names[0] == "worked-example-h100.yaml"
    assert "sample-tco.yaml" in names
    assert "sample.yaml" not in names


def test_uploaded_text_parses_like_the_cli_reads_the_file() -> None:
    path = SCENARIOS / "sample-tco.yaml"

    parsed = compare_view.parse_scenario(path.read_text(encoding="utf-8"), "up.yaml")

    cli = load_tco_scenario(path)
    assert parsed.trace == "../traces/sample.csv"  # kept as written: relative to the bundle
    assert cli.trace is not None
    assert parsed.model_copy(update={"trace": cli.trace}) == cli
    assert BUNDLED_FILES.file(parsed.trace, "trace") == Path(cli.trace).resolve()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("self_hosted: [\n", "up.yaml: cannot read the TCO scenario"),
        ("name: x\n", "up.yaml: scenario: give servers to own"),
        ("- a\n- b\n", "up.yaml: scenario: Input should be a valid dictionary"),
        (
            "self_hosted: [{gpu: H100, servers: 0}]\n",
            "up.yaml: self_hosted.0.servers: Input should be greater than or equal to 1",
        ),
    ],
)
def test_invalid_uploads_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        compare_view.parse_scenario(text, "up.yaml")


def test_the_conclusion_is_written_in_chinese_when_asked() -> None:
    r = report(
        [option("self-hosted", 7.13, 500_000, None), option("Lambda", 3.99, 290_000)],
        {"Lambda": 0.6321},
        {"Lambda": -257_227.96},
    )

    text = conclusion(r, 0, "zh")

    assert text == (
        "在 35% 的分配率下,3 年内自建每有效 GPU 小时成本为 $7.13。 "
        "最便宜的方案是 Lambda,每有效 GPU 小时 $3.99(总计 $290,000)。 "
        "只有分配率高于 63% 时自建才比 Lambda 划算。 "
        "3 年内,相对于它,购买的净现值少了 $257,228。"
    )


def test_a_cloud_only_report_has_no_owning_sentences() -> None:
    r = report([option("A", 4.0, 200_000), option("B", 3.0, 150_000)], {}, {})
    r = replace(r, allocation=None)

    text = conclusion(r)

    assert text == (
        "Renting only, over 3 years. "
        "The cheapest option is B at $3.00 per useful GPU-hour ($150,000 in total)."
    )


def test_cloud_only_files_are_offered_on_the_page_but_not_to_the_capacity_sweep() -> None:
    assert "cloud-on-demand.yaml" in compare_view.bundled_files()
    assert "sample.yaml" not in compare_view.bundled_files()
    assert compare_view.bundled_files()[0] == "worked-example-h100.yaml"
    assert "cloud-on-demand.yaml" not in compare_view.bundled_scenarios()


# --- several saved scenarios (compare_saved) ----------------------------------------------------


def priced(name: str, r: TcoReport, f: float | None = None, v: float | None = None) -> Any:
    from planner.cost.scenario import TcoScenario
    from planner.ui.compare_saved import Priced

    scenario = TcoScenario.model_validate({"cloud": [{"gpu": "H100", "price_per_gpu_hour": 1.0}]})
    r = replace(r, fixed_per_installed_gpu_hour=f, variable_per_busy_gpu_hour=v)
    return Priced(name, "tco", scenario, CompareRun(r, f, v))


def test_saved_scenarios_conclusion_ranks_across_scenarios_and_says_the_wait() -> None:
    from planner.ui import compare_saved

    own = report([option("self-hosted", 3.0, 300_000, 7_200.0)], {}, {})
    rent = report([option("AWS", 4.0, 400_000, 0.0), option("Spot", 6.0, 1.0, 0.0)], {}, {})
    rent = replace(rent, allocation=None)
    both = [priced("rent", rent), priced("own", own, 2.0, 0.5)]

    text = compare_saved.conclusion(both)

    assert text == (
        "Over 3 years the cheapest is self-hosted (own) at $3.00 per useful GPU-hour, "
        "$300,000 in total. "
        "That is $1.00 (25%) less per useful GPU-hour than the next, AWS (rent) at $4.00. "
        "In exchange, its jobs wait longer: p95 2.0 h against 0 min. "
        "Owning the servers of own pays above 57% allocation against rent · AWS; they run at 35.0%."
    )
    # in Chinese the option kind is said in words (issue 31)
    assert "年内最便宜的是 自建(own)" in compare_saved.conclusion(both, "zh")


def test_a_saved_hybrid_is_one_option_not_its_servers_without_bursting() -> None:
    from planner.ui import compare_saved

    # the hybrid keeps every server: self-hosted is its owned part (`part_of`), as the
    # model marks it, and not an option of its own (one rule: planner.cost.pair.as_built)
    parts = [
        replace(option("self-hosted", 4.18, 300_000, 93.6 * 3600), part_of="hybrid"),
        option("hybrid", 8.62, 600_000, 3600.0),
        option("AWS", 9.5, 650_000, 0.0),
    ]
    hybrid = priced("hybrid 32 nodes", report(parts, {}, {}))
    rent = priced("rent", replace(report([option("AWS", 10.0, 700_000)], {}, {}), allocation=None))

    text = compare_saved.conclusion([hybrid, rent])

    assert text.startswith(
        "Over 3 years the cheapest is hybrid (hybrid 32 nodes) at $8.62 per useful GPU-hour, "
        "$600,000 in total. "
        "That is $0.88 (9%) less per useful GPU-hour than the next, AWS (hybrid 32 nodes) at "
        "$9.50. "
        "In exchange, its jobs wait longer: p95 1.0 h against 0 min."
    )
    assert "self-hosted" not in text


def test_saved_scenarios_table_and_break_even_span_every_scenario() -> None:
    from planner.cost.finance import break_even_utilization
    from planner.ui import compare_saved

    own = report([option("self-hosted", 3.0, 300_000, None)], {}, {})
    rent = report([option("AWS", 4.0, 400_000)], {}, {})
    rent = replace(rent, allocation=None)
    both = [priced("rent", rent), priced("own", own, 2.0, 0.5)]

    table = compare_saved.table(both)
    run = compare_saved.break_even_run(both)
    combined = compare_saved.combined_report(both)

    assert table[["scenario", "option"]].values.tolist() == [
        ["rent", "AWS"],
        ["own", "self-hosted"],
    ]
    assert table["utilization"].tolist()[1] == 0.35
    assert run is not None
    assert run.break_even_utilization == {
        "rent · AWS": pytest.approx(break_even_utilization(2.0, 0.5, 4.0))
    }
    assert compare_saved.first_owned(both).name == "own"
    assert combined.break_even_utilization == {"AWS": pytest.approx(2.0 / 3.5)}
    assert [o.scenario for o in combined.horizons[0].options] == ["rent", "own"]
    cash = compare_saved.cash_frame(both)
    assert set(cash["option"]) == {"rent · AWS", "own · self-hosted"}


def test_options_keep_their_colours_across_charts_and_owners_differ() -> None:
    cash = option_colors(["a · self-hosted", "b · self-hosted", "c · AWS", "c · AWS reserved"])
    even = option_colors(["self-hosted", "c · AWS reserved", "c · AWS"])

    assert cash["a · self-hosted"] == even["self-hosted"] == OPTION_COLORS["self-hosted"]
    assert cash["b · self-hosted"] != cash["a · self-hosted"]  # two sizes, two colours
    assert cash["c · AWS"] == even["c · AWS"]
    assert cash["c · AWS reserved"] == even["c · AWS reserved"] != cash["c · AWS"]


def test_the_options_table_shows_served_share_bought_elsewhere_and_packing() -> None:
    # self-hosted served 80 of 240 GPU-hours and bought the rest at 2.0 (320 GPU-hours a
    # horizon x 2.0 = 640); the cloud billed 8 GPU-hours for the 4 its pods held (2.00x) at a
    # floor of 4 x 2.0 = 8.0 a month
    own = replace(
        option("self-hosted", 9.0, 1_000.0),
        totals={"served_elsewhere": 640.0},
        served_share=80 / 240,
        served_elsewhere_gpu_hours=320.0,
    )
    cloud = replace(option("rent", 2.0, 500.0), served_share=1.0)
    facts = PackingFacts("per-job", 8.0, 4.0, 2.0, 8.0, 0.0, 0.0, 0.0, 0.0)
    rented = Rented("rent", {"cloud_compute": 16.0}, 2.0)
    inputs = TcoInputs(0.08, 0.0, 0.2, "", "", (), (CloudInputs(rented, CloudBillInputs(), facts),))
    r = replace(report([own, cloud], {}, {}), inputs=inputs)

    frame = compare_view.options_frame(r, 0).set_index("option")

    assert frame.loc["self-hosted", "served_share"] == pytest.approx(1 / 3)
    assert frame.loc["self-hosted", "served_elsewhere"] == 640.0
    assert frame.loc["rent", "served_elsewhere"] == 0.0
    assert frame.loc["rent", "packing_overhead"] == 2.0
    assert frame.loc["rent", "price_floor"] == 8.0
    assert frame["packing_overhead"].isna()["self-hosted"]
