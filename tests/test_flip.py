"""What would flip the verdict (issue 30): the headline pair's flip values, by hand where the
NPV of buying is linear in the driver, and at the reported value the re-priced NPV is 0."""

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from planner.cost import flip, tco
from planner.cost.baremetal import BareMetal, ServerPool
from planner.cost.pair_model import PairModel

POOL = ServerPool("a", servers=1, gpus_per_server=8, price=120_000, idle_kw=1, load_kw=2, max_kw=2)
# CapEx 120,000 (no network, storage, colocation, support or staff): owning costs the CapEx
# up front and energy every month, (1 + (2 - 1) x 0.5) kW x PUE 1.5 x 730 h x 0.09 = 147.825
BM = BareMetal(
    (POOL,),
    network_share=0.0,
    storage_share=0.0,
    colo_per_kw_month=0.0,
    support_share_year=0.0,
    fte=0.0,
)
DEMAND = tco.Demand(useful_gpu_hours=1_000.0, utilization_by_hour=(0.5,))
ENERGY = 1.5 * 1.5 * 730 * 0.09


def _model(bill: float, *, months: int = 36, rate: float = 0.08, bm: BareMetal = BM) -> PairModel:
    cloud = tco.Rented("cloud", {"cloud_compute": bill}, per_gpu_hour=bill / 1_000)
    return PairModel("self-hosted", bm, DEMAND, cloud, cloud, months, rate)


def test_cloud_price_flip_is_price_times_one_minus_npv_over_the_cloud_bills_value() -> None:
    model = _model(4_000.0)
    factors = [1.08 ** (-m / 12) for m in range(36)]  # month 1 undiscounted, as the model
    pv_cloud = 4_000.0 * sum(factors)
    npv = pv_cloud - 120_000.0 - ENERGY * sum(factors)  # renting's cash less owning's

    found = flip.flip(model, "cloud_price")

    assert model.npv({}) == pytest.approx(npv, rel=1e-9)
    assert found.value == pytest.approx(1 - npv / pv_cloud, rel=1e-9)
    # the same price found the other way: the bill that pays for CapEx and energy
    price_at_flip = (120_000.0 + ENERGY * sum(factors)) / sum(factors)
    assert found.value * 4_000.0 == pytest.approx(price_at_flip, rel=1e-9)


def test_a_driver_that_cannot_flip_the_verdict_in_its_range_reports_none() -> None:
    model = _model(40_000.0)  # renting costs 40k a month against 3.3k of owning: buy

    found = flip.flip(model, "electricity")  # 20 x the power price is 2,957 a month

    assert model.npv({}) > 0
    assert found.value is None
    assert (found.low, found.high) == flip.RANGES["electricity"]


def test_demand_stops_where_the_busiest_hour_fills_the_servers() -> None:
    found = flip.flip(_model(4_000.0), "utilization")

    assert found.high == pytest.approx(2.0)  # allocation 0.5: twice the demand fills them


DRIVERS = ("cloud_price", "server_price", "electricity", "resale_share", "rate", "utilization")


@settings(max_examples=40, deadline=None)
@given(
    bill=st.floats(500.0, 20_000.0),
    driver=st.sampled_from(DRIVERS),
    rate=st.floats(0.0, 0.2),
    months=st.sampled_from([12, 36, 60]),
)
def test_at_the_reported_flip_value_the_repriced_npv_is_zero(
    bill: float, driver: str, rate: float, months: int
) -> None:
    model = _model(bill, months=months, rate=rate)

    found = flip.flip(model, driver)

    scale = max(abs(model.npv({driver: found.low})), abs(model.npv({driver: found.high})))
    if found.value is None:  # then the NPV keeps today's sign at both ends of the range
        today = model.npv({}) >= 0
        assert (model.npv({driver: found.low}) >= 0) == today
        assert (model.npv({driver: found.high}) >= 0) == today
    else:
        assert found.low <= found.value <= found.high
        assert model.npv({driver: found.value}) == pytest.approx(0.0, abs=1e-6 * scale)


@settings(max_examples=20, deadline=None)
@given(bill=st.floats(3_950.0, 4_100.0))  # the NPV is near 0 there: the life can flip it
@example(bill=4_000.0)
def test_the_life_flips_at_the_nearest_whole_month_on_the_other_side(bill: float) -> None:
    # the life moves cash only through tax: the tax depreciation within the horizon and
    # the loss on disposal at its end
    bm = BareMetal(
        (POOL,),
        network_share=0.0,
        storage_share=0.0,
        colo_per_kw_month=0.0,
        support_share_year=0.0,
        fte=0.0,
        tax_rate=0.25,
    )
    model = _model(bill, bm=bm)

    found = flip.flip(model, "life")

    today = model.npv({}) >= 0
    if bill == 4_000.0:  # buying loses 1,115 of NPV; a 3-year life saves tax sooner
        # (and one month shorter buys a replacement before the horizon ends)
        assert found.value == 3.0
    if found.value is not None:
        months = round(found.value * 12)
        assert math.isclose(found.value * 12, months)
        assert (model.npv({"life": months / 60}) >= 0) != today
        nearer = range(min(months, 60) + 1, max(months, 60))  # every life nearer today's
        assert all((model.npv({"life": m / 60}) >= 0) == today for m in nearer)
