"""The resale value at the horizon's end (issue 30): cash in at `resale_share` x CapEx in the
last month, and the tax on the gain on disposal against the tax book value, by hand."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.cost import finance, tco
from planner.cost.baremetal import BareMetal, ServerPool, capex

POOL = ServerPool("a", servers=1, gpus_per_server=8, price=120_000, idle_kw=1, load_kw=2, max_kw=2)
# CapEx 120,000 (no network, storage or installation); book life 5 years, tax life 3 years,
# both straight line with no residual: the tax book writes off 120,000 / 36 = 3,333.33 a month
BM = BareMetal(
    (POOL,),
    network_share=0.0,
    storage_share=0.0,
    tax_life_years=3.0,
    colo_per_kw_month=0.0,
    support_share_year=0.0,
    fte=0.0,
)
DEMAND = tco.Demand(useful_gpu_hours=1_000.0, utilization_by_hour=(0.5,))


def _last_cash(bm: BareMetal, months: int) -> tuple[float, dict[str, float]]:
    option = tco.owned_option("own", bm, DEMAND, months, 0.0)
    return option.monthly_cash[-1], dict(option.totals)


@pytest.mark.parametrize(
    ("share", "disposal_tax"),
    [
        # after 24 months the tax book value is 120,000 - 24 x 3,333.33 = 40,000
        (0.5, 0.25 * (60_000 - 40_000)),  # a gain of 20,000 pays 5,000 of tax
        (0.2, 0.25 * (24_000 - 40_000)),  # a loss of 16,000 saves 4,000
        (0.0, 0.25 * (0 - 40_000)),  # scrapped: the whole tax book value is a loss
    ],
)
def test_the_gain_or_loss_on_disposal_is_taxed_against_the_tax_book_value(
    share: float, disposal_tax: float
) -> None:
    taxed = replace(BM, tax_rate=0.25, resale_share=share)
    without = replace(taxed, resale_share=0.0, tax_rate=0.25)

    last, totals = _last_cash(taxed, 24)

    assert totals["resale"] == pytest.approx(-share * 120_000)
    assert totals["disposal_tax"] == pytest.approx(disposal_tax)
    # the last month's cash is the month's own, less the resale value, plus the tax on it
    month_only = _last_cash(without, 24)[0] - _last_cash(without, 24)[1]["disposal_tax"]
    assert last == pytest.approx(month_only - share * 120_000 + disposal_tax)


def test_servers_not_delivered_by_the_horizons_end_are_still_sold() -> None:
    # ordered (CapEx paid in month 0), due in month 6, the horizon ends after 3: the order is
    # the owner's to sell; nothing was depreciated, so the tax book value is all of CapEx
    on_order = replace(BM, lead_time_months=6, tax_rate=0.25, resale_share=0.7)

    sale = tco.sale(on_order, 3)

    assert sale.resale == pytest.approx(0.7 * 120_000)
    assert sale.disposal_tax == pytest.approx(0.25 * (0.7 - 1) * 120_000)  # a loss: tax saved


def test_the_default_is_no_resale_value() -> None:
    _, totals = _last_cash(BM, 24)

    assert BareMetal((POOL,)).resale_share == 0.0
    assert (totals["resale"], totals["disposal_tax"]) == (0.0, 0.0)


@given(
    share=st.floats(0.0, 1.0),
    months=st.integers(1, 84),
    rate=st.integers(0, 30).map(lambda k: k / 100),  # whole percents (a denormal rate
    # breaks `finance.capital_recovery_factor`, a separate matter)
    lead=st.integers(0, 12),
    price=st.floats(1_000.0, 500_000.0),
)
def test_without_tax_a_resale_value_adds_its_share_of_capex_discounted_from_each_sale(
    share: float, months: int, rate: float, lead: int, price: float
) -> None:
    """The last month sells the servers in service; beyond their 60-month life a retired
    generation is sold too, in the month its replacement is delivered (lead + 60 k)."""
    bm = replace(BM, pools=(replace(POOL, price=price),), lead_time_months=lead, tax_rate=0.0)
    cloud = tco.rented_option(
        tco.Rented("cloud", {"cloud_compute": 5_000.0}, 2.0), DEMAND, months, rate
    )

    def npv(resale_share: float) -> float:
        own = tco.owned_option("own", replace(bm, resale_share=resale_share), DEMAND, months, rate)
        return tco.compare(own, cloud, bm, 2.0, rate).npv_of_buying

    sales = [months - 1, *range(lead + 60, months, 60)]
    discount = sum((1 + rate) ** (-m / 12) for m in sales)  # cash at the start of the month
    assert npv(share) - npv(0.0) == pytest.approx(share * capex(bm) * discount, rel=1e-9, abs=1e-6)
    assert discount == pytest.approx(sum(finance.discount_factors(months, rate)[m] for m in sales))
