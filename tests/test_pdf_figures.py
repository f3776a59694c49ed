"""The PDF summary's figures against the model: the decision, and the appendix's discounted
cumulative saving, whose first month at zero is the model's break-even month and whose
last value is its NPV of buying. Pure functions, no PDF is written."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.cost import finance
from planner.cost.results import Horizon, PriceUsed, TcoReport, plain_report
from planner.cost.tco import Comparison, OptionReport
from planner.report.model import build_report
from planner.report.pdf_summary import (
    break_even_text,
    decide,
    discounted_savings,
    figures,
    output_text,
    unique_prices,
)

MONEY = st.floats(min_value=0.0, max_value=1e6, allow_nan=False)


def _report(owned: list[float], rented: list[float], rate: float, owned_cost: float) -> TcoReport:
    """Self-hosted against one cloud option, with the comparison the model computes."""
    savings = [r - o for r, o in zip(rented, owned, strict=True)]
    comparison = Comparison(
        "self-hosted",
        "cloud",
        finance.npv(savings, rate),
        None,
        "",
        finance.payback_month(savings),
        finance.break_even_month(rented, owned, rate),
        0.5,
    )
    options = (
        OptionReport("self-hosted", sum(owned), {}, tuple(owned), tuple(owned), 10.0, owned_cost),
        OptionReport("cloud", sum(rented), {}, tuple(rented), tuple(rented), 10.0, 1.0),
    )
    horizon = Horizon(len(owned) / 12, options, (comparison,))
    report = plain_report((horizon,), scenario="s", scope="gpu-jobs", allocation=0.5)
    return replace(report, discount_rate=rate)


@settings(max_examples=100, deadline=None)
@given(
    data=st.data(),
    months=st.integers(min_value=1, max_value=36),
    capex=st.floats(min_value=1.0, max_value=1e6),
    rate=st.floats(min_value=0.0, max_value=0.3),
)
def test_the_discounted_saving_gives_the_models_npv_and_break_even_month(
    data: st.DataObject, months: int, capex: float, rate: float
) -> None:
    owned = data.draw(st.lists(MONEY, min_size=months, max_size=months))
    rented = data.draw(st.lists(MONEY, min_size=months, max_size=months))
    owned[0] += capex + rented[0]  # servers are paid up front: month 1 saves nothing

    d = decide(("s", _report(owned, rented, rate, 2.0)), 0)
    saving = discounted_savings(d)

    assert d.against is not None
    assert saving[-1] == pytest.approx(d.against.npv_of_buying, rel=1e-9, abs=1e-6)
    flows = [r - o for r, o in zip(rented, owned, strict=True)]
    tolerance = 1e-9 * max(abs(f) for f in flows)
    first = next((m for m, v in enumerate(saving, start=1) if v >= -tolerance), None)
    assert first == d.against.break_even_month
    assert d.break_even_month == first


def test_the_decision_is_the_lowest_cost_per_useful_gpu_hour() -> None:
    owned, rented = [100.0, 0.0, 0.0], [30.0, 30.0, 30.0]

    buy = decide(("s", _report(owned, rented, 0.0, 0.5)), 0)
    rent = decide(("s", _report(owned, rented, 0.0, 5.0)), 0)

    assert (buy.buy, buy.chosen and buy.chosen.name) == (True, "self-hosted")
    assert (rent.buy, rent.chosen and rent.chosen.name) == (False, "cloud")
    assert buy.against == rent.against  # either way weighed against the one cloud option
    assert break_even_text(buy, "en") == "never in 3 months"  # -70, -40, -10
    assert break_even_text(buy, "zh") == "3 个月内不会达到"


def test_a_cloud_only_report_has_no_npv_to_show() -> None:
    cloud = OptionReport("cloud", 90.0, {}, (30.0,) * 3, (30.0,) * 3, 10.0, 9.0)
    report = plain_report((Horizon(0.25, (cloud,), ()),), scope="gpu-jobs")

    d = decide(("c", report), 0)

    assert d.chosen is cloud
    assert d.against is None
    assert discounted_savings(d) == ()
    assert break_even_text(d, "en") == "n/a"


def test_an_owned_only_report_is_the_only_option_with_no_cloud_to_weigh() -> None:
    owned = OptionReport(
        "self-hosted", 160.0, {}, (100.0, 30.0, 30.0), (100.0, 30.0, 30.0), 10.0, 16.0
    )
    report = plain_report((Horizon(0.25, (owned,), ()),), scope="gpu-jobs", allocation=0.5)

    d = decide(("o", report), 0)
    (decision, npv, even, _) = figures(d, "en")

    assert decision[1:] == ("Buy servers (self-hosted)", "The only option priced over 0.25 years.")
    assert npv[2] == even[2] == "no cloud option to weigh buying against"
    zh = figures(d, "zh")
    assert (zh[0][2], zh[1][2]) == ("0.25 年内唯一计价的方案。", "没有云方案可与购买对比")


def test_a_report_of_several_options_counts_the_priced_ones() -> None:
    owned, rented = [100.0, 0.0, 0.0], [30.0, 30.0, 30.0]

    (decision, *_) = figures(decide(("s", _report(owned, rented, 0.0, 0.5)), 0), "en")

    assert decision[2] == "The lowest cost per useful GPU-hour of the 2 options over 0.25 years."


def test_the_models_sensitivity_output_is_worded_in_chinese() -> None:
    output = "NPV of buying vs AWS p5, 3 years"

    assert output_text(output, "zh") == "相对 AWS p5 购买的 NPV（3 年）"
    assert output_text(output, "en") == output
    assert output_text("something else", "zh") == "something else"


def test_a_price_shared_by_two_scenarios_is_listed_once() -> None:
    server = PriceUsed("server 8xH100", per_server=300_000.0, currency="USD", as_of="2024-08-01")
    cloud = PriceUsed("cloud (on_demand)", per_gpu_hour=2.5, currency="USD", as_of="2026-11-09")
    a = replace(_report([100.0, 0.0], [30.0, 30.0], 0.0, 1.0), prices_used=(server, cloud))
    b = replace(a, prices_used=(server, replace(cloud, per_gpu_hour=2.0)))

    listed = unique_prices(build_report([("a", a), ("b", b)]).prices)

    assert [(c["price"], c["per_gpu_hour"]) for c in listed] == [
        ("server 8xH100", None),
        ("cloud (on_demand)", 2.5),
        ("cloud (on_demand)", 2.0),
    ]
