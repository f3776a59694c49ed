"""A horizon beyond the servers' life buys their replacement (issue 30): a refresh line of
CapEx at the end of each life, each generation depreciated, tax-shielded and sold as the
first is, by hand and as invariants."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.cost import finance, tco
from planner.cost.baremetal import BareMetal, ServerPool, keep_servers, monthly
from planner.cost.lines import LINE_KEYS
from planner.cost.refresh import Generations

POOL = ServerPool("a", servers=2, gpus_per_server=8, price=90_000, idle_kw=1, load_kw=3, max_kw=3)
# CapEx 180,000 (no network, storage or installation); a 3-year book life, straight line
BM = BareMetal(
    (POOL,),
    network_share=0.0,
    storage_share=0.0,
    life_years=3.0,
    pue=1.0,
    kwh_price=(0.10,),
    colo_per_kw_month=0.0,
    support_share_year=0.0,
    fte=0.0,
)
DEMAND = tco.Demand(useful_gpu_hours=5_000.0, utilization_by_hour=(0.5,))
CLOUD = tco.Rented("cloud", {"cloud_compute": 20_000.0}, 4.0)


def test_a_five_year_horizon_on_a_three_year_life_buys_the_servers_twice() -> None:
    """CapEx 180,000 in month 1 and again in month 37 (counted from 1, as the reports do);
    the book charge is 180,000 / 36 = 5,000 every one of the 60 months, the first generation's
    36 then the second's 24; energy runs on (2 x 2 kW x 0.10 x 730 = 292 a month)."""
    option = tco.owned_option("own", BM, DEMAND, 60, 0.0)
    costs = monthly(BM, 60, DEMAND.utilization_by_hour)

    bought = [m + 1 for m, c in enumerate(costs) if c.capex or c.refresh]
    assert bought == [1, 37]
    assert costs[36].refresh == pytest.approx(180_000)
    assert option.totals["capex"] == pytest.approx(180_000)
    assert option.totals["refresh"] == pytest.approx(180_000)
    assert [c.depreciation for c in costs] == pytest.approx([5_000.0] * 60)
    assert option.totals["depreciation"] == pytest.approx(60 * 5_000)
    assert option.monthly_cash[36] == pytest.approx(180_000 + 292)
    assert option.monthly_pnl[36] == pytest.approx(5_000 + 292)


def test_a_lead_time_orders_the_replacement_so_it_arrives_as_the_old_one_retires() -> None:
    """Delivered 2 months after order, a 12-month life: in service from month 3 (from 1);
    replacements are ordered in months 13 and 25 and go into service in 15 and 27, the
    months their predecessors retire; a fourth (ordered in month 37) is past the 30 months."""
    bm = replace(BM, life_years=1.0, lead_time_months=2)
    gens = Generations(lead=2, life=12, months=30)

    costs = monthly(bm, 30, DEMAND.utilization_by_hour)

    assert [m + 1 for m, c in enumerate(costs) if c.refresh] == [13, 25]
    assert [m + 1 for m in range(30) if gens.retired(m)] == [15, 27]
    assert gens.count == 3
    assert [gens.age(m) for m in (1, 2, 13, 14, 26, 29)] == [None, 0, 11, 0, 0, 3]
    in_service = [m + 1 for m, c in enumerate(costs) if c.energy]
    assert in_service == list(range(3, 31))  # no gap between generations
    assert [c.depreciation for c in costs[2:]] == pytest.approx([180_000 / 12] * 28)


def test_a_horizon_the_life_outlasts_buys_nothing_more() -> None:
    """A 3-year life over 3 years (or a 40-month horizon when the servers arrive 4 months
    late, still inside their life): no refresh, nothing sold before the end."""
    on_time = tco.owned_option("own", BM, DEMAND, 36, 0.0)
    late = tco.owned_option("own", replace(BM, lead_time_months=4), DEMAND, 40, 0.0)

    for option in (on_time, late):
        assert option.totals["refresh"] == 0.0
        assert option.totals["resale"] == 0.0


def test_a_retired_generation_is_sold_and_its_gain_taxed() -> None:
    """Resale 25 % of CapEx, tax 20 %, a 2-year tax life (straight line, no residual) inside
    the 3-year book life: in month 37 the first generation is sold for 45,000, fully written
    off for tax, a gain of 45,000 taxed 9,000; the second, sold in month 48 after 12 months
    with a tax book value of 180,000 - 12 x 7,500 = 90,000, loses 45,000 and saves 9,000."""
    bm = replace(BM, resale_share=0.25, tax_rate=0.2, tax_life_years=2.0)
    costs = monthly(bm, 48, DEMAND.utilization_by_hour)
    option = tco.owned_option("own", bm, DEMAND, 48, 0.0)
    end = tco.sale(bm, 48)

    assert (costs[36].resale, costs[36].disposal_tax) == pytest.approx((-45_000, 9_000))
    assert (end.resale, end.disposal_tax) == pytest.approx((45_000, -9_000))
    assert option.totals["resale"] == pytest.approx(-90_000)
    assert option.totals["disposal_tax"] == pytest.approx(0.0)
    # the second generation's tax depreciation starts again at delivery: 7,500 a month
    assert costs[36].tax_shield == pytest.approx(-0.2 * (7_500 + costs[36].running))


def test_the_hybrids_kept_servers_are_refreshed_too() -> None:
    """A hybrid keeping 1 of the 2 servers buys that one again (CapEx 90,000)."""
    kept = keep_servers(BM, (replace(POOL, servers=1),))
    burst = replace(DEMAND, burst_per_month=1_000.0)

    option = tco.owned_option("hybrid", kept, burst, 60, 0.0)

    assert option.totals["refresh"] == pytest.approx(90_000)
    assert option.totals["cloud_burst"] == pytest.approx(60 * 1_000)


@given(
    months=st.integers(1, 120),
    lead=st.integers(0, 14),
    life_months=st.sampled_from([12, 24, 30, 36, 60]),
    rates=st.fixed_dictionaries(
        {
            "tax_rate": st.sampled_from([0.0, 0.25]),
            "resale_share": st.sampled_from([0.0, 0.3]),
            "residual_share": st.sampled_from([0.0, 0.1]),
            "property_tax_share_year": st.sampled_from([0.0, 0.04]),
        }
    ),
)
def test_cash_is_its_categories_and_the_book_depreciates_each_generation_once(
    months: int, lead: int, life_months: int, rates: dict[str, float]
) -> None:
    """Whatever the horizon: the cash adds up to its categories, the P&L to its own, the
    book charges (C - residual) / life for each month in service (straight line), one
    generation is bought per life begun inside the horizon, and the NPV of buying is the
    NPV of renting's cash less owning's."""
    bm = replace(BM, life_years=life_months / 12, lead_time_months=lead, **rates)
    tax_rate, residual = rates["tax_rate"], rates["residual_share"]
    demand = replace(DEMAND, burst_per_month=500.0)
    own = tco.owned_option("own", bm, demand, months, 0.08)
    rent = tco.rented_option(CLOUD, demand, months, 0.08, tax_rate=tax_rate)
    t = own.totals

    running = t["energy"] + sum(t[k] for k in LINE_KEYS) + t["bridge"] + t["cloud_burst"]
    cash = t["capex"] + t["refresh"] + running + t["tax_shield"] + t["resale"] + t["disposal_tax"]
    assert sum(own.monthly_cash) == pytest.approx(cash, rel=1e-9, abs=1e-6)
    assert sum(own.monthly_pnl) == pytest.approx(t["depreciation"] + running, rel=1e-9, abs=1e-6)
    served = max(0, months - lead)
    per_month = 180_000 * (1 - residual) / life_months
    assert t["depreciation"] == pytest.approx(per_month * served, rel=1e-9, abs=1e-6)
    generations = Generations(min(lead, months), life_months, months).count
    assert t["refresh"] == pytest.approx(180_000 * (generations - 1))
    if served:
        assert generations == 1 + (served - 1) // life_months
    comparison = tco.compare(own, rent, bm, 4.0, 0.08)
    savings = [r - o for r, o in zip(rent.monthly_cash, own.monthly_cash, strict=True)]
    assert comparison.npv_of_buying == pytest.approx(finance.npv(savings, 0.08))
