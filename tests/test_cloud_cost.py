"""Pricing jobs on cloud SKUs, by hand: packing, billing, spot, commitments."""

import pytest

from planner.cost.cloud import CloudJob, Sku, Spot, Terms, price_jobs, with_commitment

EIGHT = Sku("8x", "H100", 8, 80.0, granularity_s=1, min_billing_s=60)
ONE = Sku("1x", "H100", 1, 12.0, granularity_s=3600, min_billing_s=3600)


def test_pods_pack_onto_whole_instances_and_the_cheapest_sku_wins() -> None:
    jobs = [
        CloudJob("six", 0, 3600, pods=1, gpus=6),  # 1 x 8-GPU instance for an hour: 80
        CloudJob("tenth", 0, 100, pods=1, gpus=0.1),  # 8x per second: 100 s = 2.22 < 1x hourly 12
        CloudJob("two-pods", 0, 3600, pods=2, gpus=4),  # both pods on one 8x instance: 80
    ]
    bill = price_jobs(jobs, [EIGHT, ONE])

    assert [(p.sku, p.instances, p.cost) for p in bill.jobs] == [
        (0, 1, pytest.approx(80.0)),
        (0, 1, pytest.approx(80.0 * 100 / 3600)),
        (0, 1, pytest.approx(80.0)),
    ]
    assert bill.billed_gpu_hours == pytest.approx(8 + 8 * 100 / 3600 + 8)
    assert bill.useful_gpu_hours == pytest.approx(6 + 0.1 * 100 / 3600 + 8)


def test_billing_rounds_up_to_the_granularity_and_minimum() -> None:
    short = CloudJob("short", 0, 30, pods=1, gpus=1)
    per_second = price_jobs([short], [Sku("s", "H100", 1, 3.6, granularity_s=1, min_billing_s=60)])
    hourly = price_jobs([short], [ONE])

    assert per_second.jobs[0].cost == pytest.approx(3.6 * 60 / 3600)  # the 60-s minimum
    assert hourly.jobs[0].cost == pytest.approx(12.0)  # a whole hour


def test_a_pod_larger_than_every_instance_says_which_price_to_add() -> None:
    bill = price_jobs([CloudJob("big", 0, 10, pods=1, gpus=16)], [EIGHT])

    assert bill.jobs == []
    assert "add a price point for a larger instance" in bill.unpriced[0]


def test_speed_and_startup_change_the_billed_time() -> None:
    job = CloudJob("a100-job", 0, 7200, pods=1, gpus=8, gpu_model="A100")
    bill = price_jobs([job], [EIGHT], Terms(speed={("H100", "A100"): 2.0}, startup_s=120))

    # 7,200 s at twice the speed = 3,600 s, plus 120 s of start-up
    assert bill.jobs[0].billed_hours == pytest.approx(3720 / 3600)


def test_spot_bills_the_expected_lost_work_and_restarts() -> None:
    job = CloudJob("j", 0, 7200, pods=1, gpus=8)
    spot = Spot(interruptions_per_hour=0.5, restart_s=300, checkpoint_interval_s=3600)
    bill = price_jobs([job], [EIGHT], Terms(spot=spot))

    # 2 h x 0.5/h = 1 interruption, losing half an interval (1,800 s) and a restart (300 s)
    assert bill.spot_overhead == pytest.approx(80.0 * 2100 / 3600)


def test_committed_gpus_are_paid_always_and_cover_demand_first() -> None:
    jobs = [CloudJob("a", 0, 3600, pods=1, gpus=8), CloudJob("b", 0, 3600, pods=1, gpus=8)]
    bill = price_jobs(jobs, [EIGHT])
    committed = with_commitment(bill, jobs, [EIGHT], committed_gpus=8, commit_price_per_gpu_hour=5)

    # 16 GPUs of demand for an hour, 8 committed: each job is half covered
    assert committed.commitment == pytest.approx(8 * 5 * 1)
    assert committed.overflow == pytest.approx(80.0)
    assert committed.compute == 0
    assert committed.total == pytest.approx(40 + 80)
