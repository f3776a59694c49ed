"""A priced cloud bill as quantities at prices (`planner.cost.bill_quantities`): rebuilt as
the workbook's formulas do, every part equals what `planner.cost.cloud` billed, for any jobs,
SKUs, spot terms and committed GPUs, including a commitment other than the one billed."""

import math

from hypothesis import given
from hypothesis import strategies as st

from planner.core.model import Job
from planner.cost import cloud
from planner.cost.bill_quantities import bill_quantities
from planner.cost.cloud import CloudJob, CpuRate, Sku, Spot, Terms
from planner.cost.inputs import CloudBillInputs
from planner.cost.ledger import PricedBill

SKUS = [Sku("one", "H100", 1.0, 3.0, 1.0, 60.0), Sku("eight", "H100", 8.0, 20.0, 60.0, 60.0)]
RATE = CpuRate(0.04, 0.005)
jobs_strategy = st.lists(
    st.builds(
        Job,
        job_id=st.just(""),
        submit_s=st.integers(0, 20_000).map(float),
        duration_s=st.integers(1, 9_000).map(float),
        pods=st.integers(1, 3),
        gpus=st.sampled_from([0.0, 1.0, 2.0, 4.0, 8.0]),
        cpu=st.integers(1, 16).map(float),
        mem_gib=st.integers(1, 64).map(float),
    ),
    min_size=1,
    max_size=25,
)


def _priced(jobs: list[Job], spot: bool, committed: float) -> PricedBill:
    cloud_jobs = [
        CloudJob(str(k), j.submit_s, j.duration_s, j.pods, j.gpus, cpu=j.cpu, mem_gib=j.mem_gib)
        for k, j in enumerate(jobs)
    ]
    terms = Terms(spot=Spot(0.3, 120.0, 900.0) if spot else None, cpu=RATE)
    bill = cloud.price_jobs(cloud_jobs, SKUS, terms)
    if committed:
        bill = cloud.with_commitment(
            bill, cloud_jobs, SKUS, committed_gpus=committed, commit_price_per_gpu_hour=2.0
        )
    return PricedBill(bill, SKUS, RATE, jobs)


def _parts(bill: CloudBillInputs, committed: float) -> dict[str, float]:
    """The bill's parts as the workbook's formulas compute them, for `committed` GPUs."""
    lines = bill.compute
    above = [max(0.0, 1 - committed / level.gpus) for level in bill.levels]
    overflow = [  # each SKU's instance-hours above the commitment, at its price
        sum(level.hours[k] * share for level, share in zip(bill.levels, above, strict=True))
        * q.price
        for k, q in enumerate(lines)
    ]
    return {
        "compute": 0.0
        if bill.committed_gpus
        else sum(q.quantity_per_month * q.price for q in lines),
        # spot re-runs: of every instance-hour, or under a commitment of the overflow only
        "spot": sum(q.rerun_share * o for q, o in zip(lines, overflow, strict=True))
        if bill.committed_gpus
        else sum(q.quantity_per_month * q.rerun_share * q.price for q in lines),
        "commitment": committed * bill.commit_hours * bill.commit_price,
        "overflow": sum(overflow),
        "cpu": sum(q.quantity_per_month * q.price for q in bill.cpu),
    }


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


@given(jobs=jobs_strategy, spot=st.booleans(), committed=st.sampled_from([0.0, 1.0, 8.0, 12.0]))
def test_every_part_is_what_the_model_billed(jobs: list[Job], spot: bool, committed: float) -> None:
    priced = _priced(jobs, spot, committed)
    scale = 3.0

    parts = _parts(bill_quantities(priced, scale, committed_gpus=committed), committed)

    bill = priced.bill
    assert _close(parts["compute"], bill.compute * scale)
    assert _close(parts["spot"], bill.spot_overhead * scale)
    assert _close(parts["commitment"], bill.commitment * scale)
    assert _close(parts["overflow"], bill.overflow * scale)
    assert _close(parts["cpu"], bill.cpu_compute * scale)


@given(jobs=jobs_strategy, moved=st.sampled_from([0.5, 3.0, 9.0, 40.0]))
def test_the_levels_price_any_other_commitment_as_the_model_would(
    jobs: list[Job], moved: float
) -> None:
    """Recorded with 8 GPUs committed, read with `moved`: the model's overflow with `moved`."""
    recorded = bill_quantities(_priced(jobs, False, 8.0), 1.0, committed_gpus=8.0)
    if not recorded.committed_gpus:
        return  # no GPU job: nothing committed, nothing to overflow

    parts = _parts(recorded, moved)

    assert _close(parts["overflow"], _priced(jobs, False, moved).bill.overflow)


def test_one_hour_of_two_eight_gpu_jobs_on_eight_committed_overflows_half() -> None:
    """Jobs of 1 h and 2 h at once on 8-GPU instances: 16 GPUs for an hour, then 8. With 8
    committed, half of the first hour's 2 instance-hours is above: 1 x $20."""
    jobs = [Job("a", 0.0, 3600.0, gpus=8.0), Job("b", 0.0, 7200.0, gpus=8.0)]

    bill = bill_quantities(_priced(jobs, False, 8.0), 1.0, committed_gpus=8.0)

    assert [(level.gpus, level.hours) for level in bill.levels] == [(8.0, (1.0,)), (16.0, (2.0,))]
    assert _parts(bill, 8.0)["overflow"] == 20.0
