"""The cloud as an elastic node pool, by hand: packing, launch choice, delays, the instance
cap, committed instances, gangs; and against today's per-job rule.

Times in seconds; P = the provisioning delay (300 s), D = the scale-down delay (600 s) unless
a test says otherwise.
"""

import math
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.errors import ScenarioError
from planner.cost.cloud import CloudJob, Sku, Spot, Terms, price_jobs
from planner.cost.node_pool import Committed, PoolSettings, price_pool
from planner.cost.node_pool_bill import bill_run
from planner.cost.node_pool_cloud import price_on_pool
from planner.cost.node_pool_plan import PoolPlan, PoolRun, instance_gpus
from planner.cost.node_pool_sim import NEVER_PLACED, simulate_pool

P, D, HOUR = 300.0, 600.0, 3600.0
EIGHT = Sku("8x", "A100", 8, 8.0, granularity_s=1, min_billing_s=60)
ONE = Sku("1x", "A100", 1, 1.5, granularity_s=1, min_billing_s=60)
POOL = PoolSettings(provisioning_s=P, scale_down_s=D)


def job(
    name: str, submit_s: float = 0.0, run_s: float = HOUR, pods: int = 1, gpus: float = 1
) -> CloudJob:
    return CloudJob(name, submit_s, run_s, pods, gpus)


def test_sixteen_one_gpu_jobs_share_two_instances_billed_from_launch_to_release() -> None:
    jobs = [job(f"j{k}") for k in range(16)]

    pool = price_pool(jobs, [EIGHT], POOL)
    per_job = price_pool(jobs, [EIGHT], PoolSettings(packing="per-job"))

    (use,) = pool.on_demand
    assert use.instances == 2
    assert use.instance_hours == pytest.approx(2 * (P + HOUR + D) / HOUR)
    assert pool.cost == pytest.approx(2 * (P + HOUR + D) / HOUR * 8.0)
    assert pool.held_gpu_hours == pytest.approx(16.0)
    assert pool.billed_gpu_hours == pytest.approx(16 * (P + HOUR + D) / HOUR)
    assert pool.packing_overhead == pytest.approx((P + HOUR + D) / HOUR)
    assert pool.waits.provisioning.p95 == pytest.approx(P)
    assert pool.peak_instances == 2
    assert per_job.on_demand[0].instances == 16
    assert per_job.cost == pytest.approx(16 * 8.0)
    assert per_job.packing_overhead == pytest.approx(8.0)


def test_a_pod_that_fits_a_one_gpu_instance_launches_that_size_when_cheaper_per_hour() -> None:
    # the 8-GPU instance is cheaper per GPU (1.0 against 1.5) but dearer per hour
    bill = price_pool([job("small")], [EIGHT, ONE], POOL)

    assert [(u.sku, u.instances) for u in bill.on_demand] == [("8x", 0), ("1x", 1)]
    assert bill.cost == pytest.approx((P + HOUR + D) / HOUR * 1.5)


def test_a_pod_too_big_for_the_small_size_launches_the_large_one() -> None:
    bill = price_pool([job("pair", gpus=2)], [EIGHT, ONE], POOL)

    assert [(u.sku, u.instances) for u in bill.on_demand] == [("8x", 1), ("1x", 0)]


def test_equal_prices_per_hour_launch_the_larger_instance() -> None:
    same_price = Sku("4x", "A100", 4, 8.0)

    bill = price_pool([job("small")], [same_price, EIGHT], POOL)

    assert [u.instances for u in bill.on_demand] == [0, 1]


def test_an_instance_cap_makes_pods_wait_for_room_and_reports_the_wait() -> None:
    # one instance allowed: b waits until a ends at P + 1 h and takes its instance at once
    jobs = [job("a", gpus=8), job("b", gpus=8)]

    bill = price_pool(
        jobs, [EIGHT], PoolSettings(provisioning_s=P, scale_down_s=D, max_instances=1)
    )

    assert bill.waits.cap_s == (0.0, P + HOUR)
    assert bill.waits.provisioning_s == (P, 0.0)
    assert bill.waits.cap.mean == pytest.approx((P + HOUR) / 2)
    assert bill.waits.total.max == pytest.approx(P + HOUR)
    assert bill.peak_instances == 1
    # one instance from 0 to b's end (P + 2 h) and its scale-down delay
    assert bill.on_demand[0].instance_hours == pytest.approx((P + 2 * HOUR + D) / HOUR)


def test_under_a_cap_a_pod_waits_for_an_idle_instance_of_the_wrong_size_to_be_released() -> None:
    # `small` holds the only place on a 1-GPU instance; `big` can only launch once that
    # instance, empty from P + 1 h, is released D later
    jobs = [job("small"), job("big", gpus=8)]

    bill = price_pool(
        jobs, [EIGHT, ONE], PoolSettings(provisioning_s=P, scale_down_s=D, max_instances=1)
    )

    released = P + HOUR + D
    assert bill.waits.cap_s == (0.0, released)
    assert bill.waits.provisioning_s == (P, P)
    assert bill.on_demand[1].instance_hours == pytest.approx(released / HOUR)
    assert bill.on_demand[0].instance_hours == pytest.approx((P + HOUR + D) / HOUR)


def test_committed_instances_are_billed_whether_used_or_not() -> None:
    committed = Committed(Sku("8x-1y", "A100", 8, 5.0), instances=2)
    jobs = [job("a", run_s=2 * HOUR)]

    bill = price_pool(
        jobs, [EIGHT], PoolSettings(provisioning_s=P, scale_down_s=D, committed=(committed,))
    )

    # the job runs at once on a committed instance; both are paid for its 2 hours
    assert bill.on_demand[0].instances == 0
    assert bill.committed[0].instance_hours == pytest.approx(2 * 2.0)
    assert bill.cost == pytest.approx(2 * 2.0 * 5.0)
    assert bill.waits.total.max == 0.0
    assert bill.peak_instances == 2


def test_demand_above_the_committed_instances_launches_on_demand() -> None:
    committed = Committed(Sku("8x-1y", "A100", 8, 5.0), instances=1)
    jobs = [job("a", gpus=8), job("b", gpus=8)]

    bill = price_pool(
        jobs, [EIGHT], PoolSettings(provisioning_s=P, scale_down_s=D, committed=(committed,))
    )

    assert bill.on_demand[0].instances == 1
    assert bill.on_demand[0].instance_hours == pytest.approx((P + HOUR + D) / HOUR)
    # committed: from the first submit (0) to the last end (P + 1 h)
    assert bill.committed[0].instance_hours == pytest.approx((P + HOUR) / HOUR)


def test_a_gang_launches_two_eight_gpu_instances_and_starts_when_both_are_ready() -> None:
    gang = job("gang", pods=2, gpus=8)

    bill = price_pool([gang], [EIGHT, ONE], POOL)

    assert [u.instances for u in bill.on_demand] == [2, 0]
    assert bill.waits.provisioning_s == (P,)
    assert bill.held_gpu_hours == pytest.approx(16.0)


def test_a_gang_half_on_a_ready_instance_still_starts_when_the_other_is_ready() -> None:
    committed = Committed(Sku("8x-1y", "A100", 8, 5.0), instances=1)

    bill = price_pool(
        [job("gang", pods=2, gpus=8)],
        [EIGHT],
        PoolSettings(provisioning_s=P, scale_down_s=D, committed=(committed,)),
    )

    assert bill.on_demand[0].instances == 1
    assert bill.waits.provisioning_s == (P,)


def test_a_gang_of_small_pods_launches_what_holds_them_all_cheapest() -> None:
    # eight 1-GPU pods: eight 1-GPU instances at 0.9 (7.2 an hour) beat one 8-GPU at 8.0,
    # unless a cap of 4 instances rules them out
    cheap_one = Sku("1x", "A100", 1, 0.9)
    gang = job("gang", pods=8, gpus=1)

    free = price_pool([gang], [EIGHT, cheap_one], POOL)
    capped = price_pool(
        [gang], [EIGHT, cheap_one], PoolSettings(provisioning_s=P, scale_down_s=D, max_instances=4)
    )

    assert [u.instances for u in free.on_demand] == [0, 8]
    assert [u.instances for u in capped.on_demand] == [1, 0]
    assert capped.waits.cap.max == 0.0


def test_an_empty_instance_is_reused_within_the_scale_down_delay() -> None:
    # b arrives 5 min after a's instance emptied: no launch, no provisioning wait
    jobs = [job("a"), job("b", submit_s=P + HOUR + 300)]

    bill = price_pool(jobs, [EIGHT], POOL)

    assert bill.on_demand[0].instances == 1
    assert bill.waits.provisioning_s == (P, 0.0)
    assert bill.on_demand[0].instance_hours == pytest.approx((P + HOUR + 300 + HOUR + D) / HOUR)


def test_the_scale_down_clock_restarts_when_an_instance_empties_again() -> None:
    # b reuses a's instance briefly; the timer a's end started must not release it early
    emptied = P + HOUR
    jobs = [job("a"), job("b", submit_s=emptied + 100, run_s=100)]

    bill = price_pool(jobs, [EIGHT], POOL)

    assert bill.on_demand[0].instances == 1
    assert bill.on_demand[0].instance_hours == pytest.approx((emptied + 200 + D) / HOUR)


def test_billing_rounds_each_instance_up_to_its_granularity_and_minimum() -> None:
    hourly = Sku("8x-hourly", "A100", 8, 8.0, granularity_s=HOUR, min_billing_s=HOUR)
    minute_job = job("short", run_s=60)

    bill = price_pool([minute_job], [hourly], PoolSettings(provisioning_s=0, scale_down_s=0))

    assert bill.on_demand[0].instance_hours == 1.0


def test_fractional_pods_hold_whole_gpus() -> None:
    jobs = [job(f"half{k}", gpus=0.5) for k in range(8)]

    bill = price_pool(jobs, [EIGHT], POOL)

    assert bill.on_demand[0].instances == 1
    assert bill.held_gpu_hours == pytest.approx(8.0)
    assert bill.useful_gpu_hours == pytest.approx(4.0)


def test_jobs_the_pool_cannot_run_say_why() -> None:
    jobs = [
        job("cpu", gpus=0),
        job("huge", gpus=16),
        job("wide", pods=3, gpus=8),
        job("fine", gpus=8),
    ]

    bill = price_pool(
        jobs, [EIGHT], PoolSettings(provisioning_s=P, scale_down_s=D, max_instances=2)
    )

    assert set(bill.unrunnable) == {0, 1, 2}
    assert "CPU-only" in bill.unrunnable[0]
    assert "add a price point for a larger instance" in bill.unrunnable[1]
    assert "cap of 2" in bill.unrunnable[2]
    assert bill.waits.jobs == (3,)


def test_the_price_floor_is_the_held_gpu_hours_at_the_cheapest_price_per_gpu() -> None:
    bill = price_pool([job("a", gpus=2)], [EIGHT, ONE], POOL)

    assert bill.price_floor == pytest.approx(2.0 * 1.0)  # 8x: 1.0 per GPU-hour


def test_per_job_packing_is_todays_bill_to_the_bit() -> None:
    jobs = [
        job("six", gpus=6),
        job("tenth", run_s=100, gpus=0.1),
        job("two-pods", pods=2, gpus=4),
        CloudJob("slow", 50.0, 7200.0, 1, 1.0, "V100"),
        job("third", submit_s=7.0, run_s=1234.5, gpus=1),
        job("fifth", submit_s=9.0, run_s=4321.5, gpus=3),
    ]
    hourly_one = Sku("1x", "A100", 1, 3.0, granularity_s=HOUR, min_billing_s=HOUR)
    terms = Terms(speed={("A100", "V100"): 2.0}, startup_s=30.0)

    bill = price_pool(jobs, [EIGHT, hourly_one], PoolSettings(packing="per-job"), terms)
    today = price_jobs(jobs, [EIGHT, hourly_one], terms)

    assert bill.cost == today.compute
    assert bill.billed_gpu_hours == today.billed_gpu_hours
    assert bill.useful_gpu_hours == today.useful_gpu_hours
    assert sum(u.instances for u in bill.on_demand) == sum(p.instances for p in today.jobs)
    assert bill.waits.total.max == 0.0


SPOT = Spot(interruptions_per_hour=0.1, restart_s=300.0, checkpoint_interval_s=HOUR)


def test_on_spot_pods_hold_their_instance_longer_by_the_work_interruptions_lose() -> None:
    # each 1 h job: 0.1 interruptions an hour x 1 h, each losing half a checkpoint interval
    # (1,800 s) and a restart (300 s): 0.1 x 2,100 = 210 s more, as per job
    jobs = [job(f"j{k}") for k in range(8)]

    bill = price_pool(jobs, [EIGHT], POOL, Terms(spot=SPOT))
    per_job = price_jobs(jobs[:1], [EIGHT], Terms(spot=SPOT))

    run = HOUR + 210.0
    # one instance: launched at 0, ready at P, the pods run `run`, released D later
    (use,) = bill.on_demand
    assert use.instance_hours == pytest.approx((P + run + D) / HOUR)
    assert bill.cost == pytest.approx((P + run + D) / HOUR * 8.0)
    # the re-runs' share of the GPU-seconds held on it: 8 x 210 of 8 x 3,810
    assert bill.spot_overhead == pytest.approx(bill.cost * 210.0 / run)
    assert bill.interruptions == pytest.approx(8 * 0.1 * 1.0)
    assert bill.held_gpu_hours == pytest.approx(8 * run / HOUR)
    assert per_job.spot_overhead == pytest.approx(210.0 / HOUR * 8.0)


def test_on_spot_a_pods_bill_splits_into_compute_and_spot_overhead_per_job() -> None:
    jobs = [job("a"), job("b", run_s=2 * HOUR)]

    priced = price_on_pool(jobs, [EIGHT], POOL, Terms(spot=SPOT))

    # a: 3,600 + 210 s; b: 7,200 + 0.1 x 2 x 2,100 = 420 s (held 3,810 and 7,620 GPU-s)
    bill, pool = priced.bill, priced.pool
    cost = (P + 2 * HOUR + 420.0 + D) / HOUR * 8.0
    assert bill.compute + bill.spot_overhead == pytest.approx(cost)
    assert bill.spot_overhead == pytest.approx(cost * (210.0 + 420.0) / (3810.0 + 7620.0))
    assert [p.spot_overhead for p in bill.jobs] == pytest.approx(
        [cost * 210.0 / 11430.0, cost * 420.0 / 11430.0]
    )
    assert sum(p.cost + p.spot_overhead for p in bill.jobs) == pytest.approx(pool.cost)
    assert pool.interruptions == pytest.approx(0.1 * 3.0)


def test_on_spot_committed_instances_are_not_interrupted() -> None:
    committed = Committed(Sku("8x-1y", "A100", 8, 5.0), instances=1)
    settings = PoolSettings(provisioning_s=P, scale_down_s=D, committed=(committed,))

    bill = price_pool([job("a"), job("b", gpus=8)], [EIGHT], settings, Terms(spot=SPOT))

    # a runs on the committed instance for 1 h; b on a launched (spot) one for 1 h + 210 s
    assert bill.committed[0].instance_hours == pytest.approx((P + HOUR + 210.0) / HOUR)
    assert bill.on_demand[0].instance_hours == pytest.approx((P + HOUR + 210.0 + D) / HOUR)
    assert bill.spot_overhead == pytest.approx(bill.on_demand[0].cost * 210.0 / (HOUR + 210.0))
    assert bill.interruptions == pytest.approx(0.1)


def test_speed_and_startup_set_how_long_a_pod_holds_its_instance() -> None:
    slow = CloudJob("v100-job", 0.0, 7200.0, 1, 8.0, "V100")
    terms = Terms(speed={("A100", "V100"): 2.0}, startup_s=120.0)

    bill = price_pool([slow], [EIGHT], PoolSettings(provisioning_s=0, scale_down_s=0), terms)

    assert bill.on_demand[0].instance_hours == pytest.approx(3720 / HOUR)
    assert bill.held_gpu_hours == pytest.approx(8 * 3720 / HOUR)


def test_settings_that_cannot_work_are_refused() -> None:
    committed = Committed(EIGHT, instances=3)
    with pytest.raises(ScenarioError, match="hold the 3 committed"):
        PoolSettings(max_instances=2, committed=(committed,))
    with pytest.raises(ScenarioError, match="must not be negative"):
        PoolSettings(provisioning_s=-1)
    with pytest.raises(ScenarioError, match="per-job packing"):
        PoolSettings(packing="per-job", max_instances=4)


def test_no_job_is_left_waiting_for_ever() -> None:
    # a gang the cap allows only when everything else has gone still runs in the end
    jobs = [job(f"one{k}", submit_s=k * 10.0) for k in range(5)] + [job("gang", pods=2, gpus=8)]

    bill = price_pool(
        jobs, [ONE, EIGHT], PoolSettings(provisioning_s=P, scale_down_s=D, max_instances=2)
    )

    assert NEVER_PLACED not in bill.unrunnable.values()
    assert len(bill.waits.jobs) == 6


# --- properties (hypothesis) -------------------------------------------------------------

SIZES = (1, 2, 4, 8)
POD_GPUS = (0.5, 1.0, 2.0, 3.0, 4.0, 8.0)
PROPERTY_SETTINGS = settings(max_examples=200, deadline=None)


@st.composite
def cloud_jobs(draw: st.DrawFn, gpus: Sequence[float] = POD_GPUS) -> list[CloudJob]:
    count = draw(st.integers(0, 25))
    return [
        CloudJob(
            f"j{k}",
            float(draw(st.integers(0, 4 * 3600))),
            draw(st.floats(0, 3 * 3600, allow_nan=False)),
            draw(st.integers(1, 3)),
            draw(st.sampled_from(gpus)),
        )
        for k in range(count)
    ]


@st.composite
def pool_plans(draw: st.DrawFn) -> PoolPlan:
    sizes = draw(st.lists(st.sampled_from(SIZES), min_size=1, max_size=4, unique=True))
    billing = draw(st.sampled_from((1.0, 60.0, 3600.0)))
    types = [
        Sku(f"{n}x", "A100", n, draw(st.floats(0.5, 4.0)) * n, billing, billing) for n in sizes
    ]
    committed = draw(st.lists(st.integers(0, 2), max_size=1))
    types += [Sku("8x-1y", "A100", 8, 5.0)] * len(committed)
    cap = draw(st.one_of(st.none(), st.integers(max(1, sum(committed)), 6)))
    return PoolPlan(
        tuple(types),
        len(sizes),
        tuple(committed),
        provisioning_s=draw(st.sampled_from((0.0, 60.0, 300.0))),
        scale_down_s=draw(st.sampled_from((0.0, 600.0))),
        max_instances=cap,
    )


def _holdings(jobs: Sequence[CloudJob], run: PoolRun) -> dict[int, list[tuple[float, int]]]:
    """Per instance, +GPUs when a pod is placed on it and -GPUs when its job ends (a job
    that ends as it starts holds nothing over time: left out)."""
    changes: dict[int, list[tuple[float, int]]] = {}
    for j, on in enumerate(run.placed_on):
        if run.end_s[j] == run.reserved_s[j]:
            continue
        for i in on:
            changes.setdefault(i, []).append((run.reserved_s[j], run.need[j]))
            changes.setdefault(i, []).append((run.end_s[j], -run.need[j]))
    return changes


@PROPERTY_SETTINGS
@given(jobs=cloud_jobs(), plan=pool_plans())
def test_no_instance_ever_holds_more_gpus_than_it_has(jobs: list[CloudJob], plan: PoolPlan) -> None:
    run = simulate_pool(jobs, plan)

    for i, changes in _holdings(jobs, run).items():
        gpus = instance_gpus(plan.types[run.instances[i].type])
        held = 0
        for _, delta in sorted(changes):  # ends (negative) before placements at one instant
            held += delta
            assert 0 <= held <= gpus


@PROPERTY_SETTINGS
@given(jobs=cloud_jobs(), plan=pool_plans())
def test_every_job_runs_once_in_full_or_is_reported_unrunnable(
    jobs: list[CloudJob], plan: PoolPlan
) -> None:
    run = simulate_pool(jobs, plan)

    for j, job in enumerate(jobs):
        ran = not math.isnan(run.start_s[j])
        assert ran != (j in run.unrunnable)
        if not ran:
            assert run.unrunnable[j] != NEVER_PLACED
            continue
        assert job.submit_s <= run.reserved_s[j] <= run.start_s[j]
        # times are sums of floats: allow their rounding, not a second delay
        assert run.start_s[j] - run.reserved_s[j] <= plan.provisioning_s + 1e-6
        assert run.end_s[j] - run.start_s[j] == pytest.approx(job.run_s, abs=1e-6)
        assert len(run.placed_on[j]) == job.pods
        for i in run.placed_on[j]:
            life = run.instances[i]
            assert life.launched_s <= run.reserved_s[j]
            assert run.end_s[j] <= life.released_s


@PROPERTY_SETTINGS
@given(jobs=cloud_jobs(), plan=pool_plans())
def test_the_bill_covers_what_pods_held_and_the_cap_holds(
    jobs: list[CloudJob], plan: PoolPlan
) -> None:
    run = simulate_pool(jobs, plan)
    bill = bill_run(jobs, plan, run)

    assert bill.billed_gpu_hours >= bill.held_gpu_hours - 1e-9
    assert bill.cost >= bill.price_floor - 1e-9
    launchable = max(instance_gpus(t) for t in plan.types[: plan.launchable])
    if plan.max_instances is None and all(n <= launchable for n in run.need):
        assert bill.waits.cap.max in (None, 0.0)  # nothing waits for room
    if plan.max_instances is not None:
        assert run.peak_instances <= plan.max_instances


@st.composite
def one_size_jobs(draw: st.DrawFn, size: int) -> list[CloudJob]:
    """Single pods of any size up to `size`, or gangs of whole-instance pods."""
    jobs = draw(cloud_jobs(gpus=[g for g in POD_GPUS if g <= size]))
    return [j if j.pods == 1 else replace(j, gpus=float(size)) for j in jobs]


@PROPERTY_SETTINGS
@given(data=st.data(), size=st.sampled_from(SIZES), price=st.floats(0.5, 40.0))
def test_the_pool_costs_no_more_than_per_job_with_per_second_billing_and_no_delays(
    data: st.DataObject, size: int, price: float
) -> None:
    """With one instance size, a pool instance is up only while pods hold it, so it is billed
    for the union of their runs, never more than their sum. Not true in general: best fit can
    spread a gang over the leftovers of instances whose other pods end early, keeping them
    all up (see the next test), and the per-job rule packs a job's fractional pods together."""
    jobs = data.draw(one_size_jobs(size))
    sku = Sku(f"{size}x", "A100", size, price, granularity_s=1, min_billing_s=1)

    pool = price_pool(jobs, [sku], PoolSettings(provisioning_s=0, scale_down_s=0))
    per_job = price_pool(jobs, [sku], PoolSettings(packing="per-job"))

    assert pool.cost <= per_job.cost * (1 + 1e-12) + 1e-9


def test_best_fit_can_spread_a_gang_over_leftovers_and_cost_more_than_per_job() -> None:
    # each 2-GPU instance keeps a 1-GPU pod until 1 h; a gang of two 1-GPU pods arriving
    # at 0.5 h fills both leftovers (best fit), so both instances stay up until it ends
    two = Sku("2x", "A100", 2, 1.0, granularity_s=1, min_billing_s=1)
    jobs = [
        job("a", run_s=0.5 * HOUR),
        job("b", run_s=HOUR),
        job("c", run_s=0.5 * HOUR),
        job("d", run_s=HOUR),
        job("gang", submit_s=0.5 * HOUR, pods=2, run_s=10 * HOUR),
    ]
    no_delays = PoolSettings(provisioning_s=0, scale_down_s=0)

    pool = price_pool(jobs, [two], no_delays)
    per_job = price_pool(jobs, [two], PoolSettings(packing="per-job"))

    assert pool.cost == pytest.approx(2 * 10.5)
    assert per_job.cost == pytest.approx(0.5 + 1 + 0.5 + 1 + 10)
