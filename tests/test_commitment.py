"""The cheapest commitment for a demand curve (`planner.cost.commitment`): the newsvendor rule
equals a brute-force minimum over every whole number of committed GPUs of what
`planner.cost.cloud.with_commitment` bills, for any jobs and prices; hand-computed curves."""

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from planner.core.model import Job
from planner.cost import cloud
from planner.cost.bill_quantities import bill_quantities
from planner.cost.cloud import CloudJob, Sku
from planner.cost.commitment import (
    DemandCurve,
    best_commitment,
    bill_at,
    brute_force,
    curve_of,
    merged,
    share_at_least,
)
from planner.cost.ledger import PricedBill
from planner.cost.scenario import TcoScenario

SKUS = [Sku("one", "H100", 1.0, 3.0, 1.0, 60.0), Sku("eight", "H100", 8.0, 20.0, 60.0, 60.0)]
job_lists = st.lists(
    st.builds(
        Job,
        job_id=st.just(""),
        submit_s=st.integers(0, 30_000).map(float),
        duration_s=st.integers(60, 12_000).map(float),
        pods=st.integers(1, 3),
        gpus=st.sampled_from([1.0, 2.0, 4.0, 8.0]),
    ),
    min_size=1,
    max_size=30,
)


def _cloud(jobs: list[Job]) -> list[CloudJob]:
    return [CloudJob(str(k), j.submit_s, j.duration_s, j.pods, j.gpus) for k, j in enumerate(jobs)]


def _billed(given: list[Job], committed: int, price: float) -> float:
    """What the model bills for the GPUs (commitment + overflow) with `committed` GPUs."""
    jobs = _cloud(given)
    bill = cloud.price_jobs(jobs, SKUS)
    if committed:
        bill = cloud.with_commitment(
            bill, jobs, SKUS, committed_gpus=committed, commit_price_per_gpu_hour=price
        )
    return bill.compute + bill.commitment + bill.overflow


def _curve(given: list[Job]) -> tuple[DemandCurve, float]:
    """The jobs' demand curve over their span (scale 1) and the hours the commitment is paid,
    read off a bill recorded with one committed GPU as `planner tco` records it."""
    jobs = _cloud(given)
    bill = cloud.with_commitment(
        cloud.price_jobs(jobs, SKUS), jobs, SKUS, committed_gpus=1, commit_price_per_gpu_hour=1.0
    )
    recorded = bill_quantities(PricedBill(bill, SKUS, None, given), 1.0, committed_gpus=1.0)
    return curve_of(recorded), recorded.commit_hours


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


@given(jobs=job_lists, price=st.sampled_from([0.5, 1.2, 1.9, 2.4, 2.9]))
def test_the_rule_is_the_cheapest_commitment_the_model_bills(jobs: list[Job], price: float) -> None:
    """Over every whole commitment from 0 to the peak, the model's own bill is lowest at the
    rule's answer (the one-GPU SKU costs 3.00 and the eight-GPU one 2.50 a GPU-hour)."""
    curve, hours = _curve(jobs)
    peak = math.ceil(max(curve.levels, default=0.0))
    billed = {c: _billed(jobs, c, price) for c in range(peak + 1)}

    best = best_commitment(curve, price, hours)

    assert _close(best.total, min(billed.values()))
    assert _close(best.total, billed[best.committed_gpus])
    assert best.committed_gpus == brute_force(curve, price, hours).committed_gpus


@given(jobs=job_lists, committed=st.integers(0, 40))
def test_a_commitments_bill_and_gpu_hours_add_up(jobs: list[Job], committed: int) -> None:
    curve, hours = _curve(jobs)

    bill = bill_at(curve, committed, 2.0, hours)

    assert _close(bill.total, _billed(jobs, committed, 2.0))
    used, over = bill.committed_gpu_hours_used, bill.on_demand_gpu_hours
    assert _close(used + over, sum(curve.gpu_hours))
    # the committed GPUs serve at most all of themselves while there is demand
    assert used <= committed * curve.hours_at_least(0.0) + 1e-6


ON_SPOT = cloud.Terms(spot=cloud.Spot(0.8, 300.0, 1800.0))
"""Interrupted 0.8 times an hour: about a third of every hour re-run."""


@given(jobs=job_lists, committed=st.integers(0, 40))
def test_on_spot_a_commitment_pays_the_reruns_of_its_overflow_only(
    jobs: list[Job], committed: int
) -> None:
    """Committed capacity is not interrupted: the re-runs shrink with the overflow (all of
    them with nothing committed, none once everything is covered), and the newsvendor's
    curve, read from the bill as `planner tco` records it, bills what the model bills."""
    given_jobs = _cloud(jobs)
    plain = cloud.price_jobs(given_jobs, SKUS, ON_SPOT)

    def at(gpus: float) -> cloud.CloudBill:
        return cloud.with_commitment(
            plain, given_jobs, SKUS, committed_gpus=gpus, commit_price_per_gpu_hour=2.0
        )

    recorded = bill_quantities(PricedBill(at(1), SKUS, None, jobs), 1.0, committed_gpus=1.0)
    curve = curve_of(recorded)
    bill = at(committed)

    assert _close(at(0).overflow + at(0).spot_overhead, plain.compute + plain.spot_overhead)
    assert bill.spot_overhead <= plain.spot_overhead + 1e-9
    if bill.overflow == 0:
        assert bill.spot_overhead == 0
    expected = bill_at(curve, committed, 2.0, recorded.commit_hours)
    assert _close(expected.total, bill.commitment + bill.overflow + bill.spot_overhead)


def test_a_hand_computed_curve_commits_while_the_share_of_hours_exceeds_the_price_ratio() -> None:
    """A 100-hour month: 8 GPUs for 70 h, 16 for 20 h, 24 for 10 h, on demand at 3.00 a
    GPU-hour. The share of hours with at least C GPUs is 1.0 for C up to 8 (70 + 20 + 10 h),
    0.3 from 9 to 16 and 0.1 from 17 to 24. Committed at 2.10 (ratio 0.7) the rule commits 8
    (0.3 < 0.7); at 0.60 (ratio 0.2) it commits 16 (0.3 > 0.2 but 0.1 < 0.2)."""
    curve = DemandCurve(
        levels=(8.0, 16.0, 24.0),
        gpu_hours=(8 * 70.0, 16 * 20.0, 24 * 10.0),
        on_demand_cost=(3.0 * 8 * 70, 3.0 * 16 * 20, 3.0 * 24 * 10),
    )
    assert share_at_least(curve, 8, 100.0) == 1.0
    assert share_at_least(curve, 9, 100.0) == pytest.approx(0.3)
    assert share_at_least(curve, 17, 100.0) == pytest.approx(0.1)

    at_2_10 = best_commitment(curve, 2.10, 100.0)
    at_0_60 = best_commitment(curve, 0.60, 100.0)

    assert at_2_10.committed_gpus == 8
    # 8 x 2.10 x 100 = 1,680; above 8: 8 GPUs x 20 h + 16 x 10 h = 320 GPU-h at 3.00 = 960
    assert at_2_10.commitment == pytest.approx(1680.0)
    assert at_2_10.overflow == pytest.approx(960.0)
    assert at_2_10.on_demand_gpu_hours == pytest.approx(320.0)
    assert at_0_60.committed_gpus == 16
    # 16 x 0.60 x 100 = 960; above 16: 8 GPUs x 10 h = 80 GPU-h at 3.00 = 240
    assert at_0_60.total == pytest.approx(960.0 + 240.0)
    assert at_0_60.total < bill_at(curve, 15, 0.60, 100.0).total
    assert at_0_60.total < bill_at(curve, 17, 0.60, 100.0).total


def test_a_commitment_dearer_than_on_demand_is_never_taken() -> None:
    curve = DemandCurve((4.0,), (400.0,), (1200.0,))  # 4 GPUs for all 100 h at 3.00

    assert best_commitment(curve, 3.5, 100.0).committed_gpus == 0
    assert best_commitment(curve, 2.9, 100.0).committed_gpus == 4  # always busy: commit all
    assert best_commitment(DemandCurve((), (), ()), 1.0, 100.0).committed_gpus == 0


def test_a_fractional_level_is_committed_to_the_cheaper_whole_count_around_it() -> None:
    """2.5 GPUs for all 10 h at 1.00 a GPU-hour, committed at 0.5: 2 GPUs cost 10 + 5 of
    overflow, 3 GPUs cost 15 and nothing above."""
    curve = DemandCurve((2.5,), (25.0,), (25.0,))

    best = best_commitment(curve, 0.5, 10.0)

    assert best.total == pytest.approx(15.0)
    assert best.committed_gpus == 2  # 2 and 3 tie: the fewer
    assert brute_force(curve, 0.5, 10.0).total == pytest.approx(15.0)


@given(
    first=job_lists,
    second=job_lists,
    weights=st.tuples(st.integers(0, 12), st.integers(1, 12)),
    committed=st.integers(0, 40),
)
def test_one_commitment_over_merged_years_bills_the_weighted_mean_of_each_year(
    first: list[Job], second: list[Job], weights: tuple[int, int], committed: int
) -> None:
    """Two years' curves merged with their months as weights: any commitment bills the
    months' mean of each year's bill, so the merged curve's cheapest is the cheapest for
    both years held at one level (checked against every level up to the peaks)."""
    (a, hours), (b, _) = _curve(first), _curve(second)
    both = merged([a, b], weights)
    each = (bill_at(a, committed, 2.0, hours).total, bill_at(b, committed, 2.0, hours).total)
    mean = (each[0] * weights[0] + each[1] * weights[1]) / sum(weights)

    assert _close(bill_at(both, committed, 2.0, hours).total, mean)
    peak = math.ceil(max((*a.levels, *b.levels), default=0.0))
    held = min(
        range(peak + 1),
        key=lambda c: (
            weights[0] * bill_at(a, c, 2.0, hours).total
            + weights[1] * bill_at(b, c, 2.0, hours).total
        ),
    )
    best = best_commitment(both, 2.0, hours)
    assert _close(best.total, bill_at(both, held, 2.0, hours).total)


def test_merging_needs_a_weight_per_curve_and_some_months() -> None:
    curve = DemandCurve((4.0,), (400.0,), (1200.0,))

    assert merged([curve], [12]) == curve
    assert merged([curve, curve], [6, 6]) == curve
    with pytest.raises(ValueError, match="one weight each"):
        merged([curve], [0])
    with pytest.raises(ValueError, match="one weight each"):
        merged([curve, curve], [12])


@pytest.mark.parametrize(
    ("reserved", "spot", "expected"),
    [
        ({"overflow": "spot"}, {}, "give `committed_gpus` too"),
        ({"committed_gpus": 8, "overflow": "spotty"}, {}, "'spotty' is not another cloud option"),
        ({"committed_gpus": 8, "overflow": "reserved"}, {}, "is not another cloud option"),
        ({"committed_gpus": 8, "overflow": "spot"}, {"committed_gpus": 2}, "of its own"),
    ],
)
def test_an_overflow_option_is_another_uncommitted_option_of_a_committed_one(
    reserved: dict[str, object], spot: dict[str, object], expected: str
) -> None:
    clouds = [
        {"name": "reserved", "gpu": "H100", "pricing_model": "reserved", **reserved},
        {"name": "spot", "gpu": "H100", "pricing_model": "spot", **spot},
    ]
    with pytest.raises(ValidationError, match=re.escape(expected)):
        TcoScenario.model_validate({"name": "s", "utilization": 0.5, "cloud": clouds})


def test_a_committed_option_overflows_on_demand_unless_it_names_another() -> None:
    clouds = [
        {"name": "reserved", "gpu": "H100", "pricing_model": "reserved", "committed_gpus": 8},
        {"name": "spot", "gpu": "H100", "pricing_model": "spot"},
    ]
    scenario = TcoScenario.model_validate({"name": "s", "utilization": 0.5, "cloud": clouds})
    spilling = scenario.cloud[0].model_copy(update={"overflow": "spot"})

    assert scenario.overflow_of(scenario.cloud[0]).pricing_model == "on_demand"
    assert scenario.overflow_of(scenario.cloud[0]).label() == "reserved"
    assert scenario.overflow_of(spilling) is scenario.cloud[1]
