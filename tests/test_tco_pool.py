"""`packing: pool` on a cloud option: the TCO rents its jobs on an autoscaled node pool
(planner.cost.node_pool) instead of instances of each job's own; per-job stays the default."""

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from planner.core.errors import ScenarioError
from planner.core.file_access import LOCAL_FILES
from planner.cost.chargeback import RULES, Rule, cents
from planner.cost.cloud import CloudJob, Sku, Terms
from planner.cost.node_pool import Committed, PoolSettings
from planner.cost.node_pool_cloud import price_on_pool
from planner.cost.pool_defaults import POOL_DEFAULTS
from planner.cost.results import TcoReport
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.report import build_report
from planner.report.chargeback_table import chargeback, totals, wide_rows
from planner.report.pdf_summary import assumptions, decide
from planner.service.scenario_store import parse
from planner.service.tco_rent import bills_kept
from planner.service.tco_run import run_tco
from planner.store import open_store
from pricing import assumption_set, set_assumption
from pricing.points import PriceFilter, list_prices
from tests.workbook_cases import HAND

TODAY = date(2026, 6, 1)
HEADER = (
    "job_id,submit_time,start_time,end_time,duration_s,pods,gpus,gpu_type,cpu,mem_gib,queue,"
    "user,priority,status"
)
P5 = {"name": "p5", "provider": "AWS", "gpu": "H100", "instance": "p5.48xlarge"}
"""One 8-GPU SKU from the price book (55.04 an instance-hour)."""
SPOT_RULE = {"interruptions_per_hour": 0.1, "restart_s": 300, "checkpoint_interval_s": 3600}


def _sixteen(tmp_path: Path) -> str:
    """16 one-GPU jobs of 1 h, submitted together (a 1-hour window: 730 windows a month)."""
    row = "2026-01-05T00:00:00Z,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,3600,1,1,H100,8,64"
    lines = [HEADER, *(f"j{k},{row},{'ab'[k % 2]},u{k},0,completed" for k in range(16))]
    path = tmp_path / "sixteen.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _run(tmp_path: Path, clouds: list[dict[str, Any]]) -> TcoReport:
    con = open_store(tmp_path / "p.duckdb")
    try:
        scenario = TcoScenario.model_validate({**HAND, "cloud": clouds})
        return run_tco(con, scenario, files=LOCAL_FILES, trace=_sixteen(tmp_path), today=TODAY)
    finally:
        con.close()


def test_sixteen_one_gpu_jobs_rent_two_instances_on_a_pool_and_sixteen_per_job(
    tmp_path: Path,
) -> None:
    report = _run(tmp_path, [{**P5, "packing": "per-job"}, {**P5, "name": "pooled"}])

    assert report.inputs is not None
    per_job, pooled = (c.rented.per_month["cloud_compute"] for c in report.inputs.clouds)
    price = report.inputs.clouds[0].bill.compute[0].price
    assert price == pytest.approx(55.04)
    assert per_job == pytest.approx(16 * 1.0 * price * 730)
    assert pooled == pytest.approx(2 * (300 + 3600 + 600) / 3600 * price * 730)
    assert report.inputs.clouds[1].bill.compute[0].quantity_per_month == pytest.approx(
        2 * 1.25 * 730
    )


def test_a_pooled_options_ledger_balances_and_its_jobs_lines_add_up_to_its_bill(
    tmp_path: Path,
) -> None:
    report = _run(tmp_path, [{**P5, "packing": "pool", "scale_down_s": 0}])

    option = report.horizons[0].options[-1]
    assert option.ledger is not None
    balance = option.ledger.gpu_hours
    assert balance.imbalance == pytest.approx(0.0, abs=1e-6)
    assert balance.cloud["rented"] == pytest.approx(16 * 730 * 12)
    assert option.ledger.cloud_per_job_sum == pytest.approx(option.totals["cloud_compute"])


def test_committed_instances_are_paid_whether_used_or_not() -> None:
    sku = Sku("p5", "H100", 8.0, 80.0)
    kept = Sku("p5 committed", "H100", 8.0, 40.0)
    jobs = [CloudJob("a", 0.0, 3600.0, 1, 8.0)]
    settings = PoolSettings(provisioning_s=0.0, scale_down_s=0.0, committed=(Committed(kept, 2),))

    priced = price_on_pool(jobs, [sku], settings, Terms())

    assert priced.bill.commitment == pytest.approx(2 * 40.0)
    assert priced.bill.compute == 0.0
    assert [p.cost for p in priced.bill.jobs] == pytest.approx([40.0])  # the idle one: no one's


def test_each_instance_is_split_over_its_pods_by_gpu_seconds_held() -> None:
    sku = Sku("p4", "A100", 4.0, 4.0)
    jobs = [CloudJob("long", 0.0, 7200.0, 1, 2.0), CloudJob("short", 0.0, 3600.0, 1, 2.0)]
    settings = PoolSettings(provisioning_s=0.0, scale_down_s=0.0)

    priced = price_on_pool(jobs, [sku], settings, Terms())

    # one instance up 2 h (8.0): 4 GPU-hours held by the long job, 2 by the short one
    assert [p.cost for p in priced.bill.jobs] == pytest.approx([8.0 * 4 / 6, 8.0 * 2 / 6])
    assert [p.instances * p.billed_hours * sku.price_per_hour for p in priced.bill.jobs] == (
        pytest.approx([p.cost for p in priced.bill.jobs])
    )


def test_pool_settings_are_part_of_a_kept_bills_key(tmp_path: Path) -> None:
    slow = {**P5, "name": "slow", "packing": "pool", "provisioning_s": 3600}
    with bills_kept():
        report = _run(tmp_path, [{**P5, "name": "fast", "packing": "pool"}, slow])

    assert report.inputs is not None
    fast_bill, slow_bill = (c.rented.per_month["cloud_compute"] for c in report.inputs.clouds)
    assert slow_bill > fast_bill


def test_a_cap_needs_a_pool() -> None:
    with pytest.raises(ValidationError) as raised:
        CloudSpec.model_validate({"gpu": "H100", "max_instances": 4, "packing": "per-job"})

    assert "per_job_cap" in str(raised.value.errors()[0]["ctx"]["error"].code)


def test_a_spot_option_on_a_pool_pays_its_re_runs_as_spot_overhead(tmp_path: Path) -> None:
    # the spot price is a rule-of-thumb share of on demand: read it from the bill's line
    spot = {**P5, "pricing_model": "spot", "packing": "pool", "spot": SPOT_RULE}

    report = _run(tmp_path, [spot])

    assert report.inputs is not None
    cloud = report.inputs.clouds[0]
    line = cloud.bill.compute[0]
    # 16 one-GPU jobs of 1 h on two instances: each pod 3,600 + 0.1 x (1,800 + 300) = 3,810 s
    up = 300 + 3810 + 600
    assert (line.quantity_per_month + line.quantity_per_month * line.rerun_share) == (
        pytest.approx(2 * up / 3600 * 730)
    )
    per_month = cloud.rented.per_month
    assert per_month["spot_overhead"] == pytest.approx(
        2 * up / 3600 * line.price * 730 * 210 / 3810
    )
    assert per_month["cloud_compute"] + per_month["spot_overhead"] == pytest.approx(
        2 * up / 3600 * line.price * 730
    )
    assert cloud.packing is not None
    assert cloud.packing.interruptions_per_hour == 0.1
    assert cloud.packing.interruptions == pytest.approx(16 * 0.1 * 730)


def test_a_node_pool_is_the_default() -> None:
    spec = CloudSpec(gpu="H100")

    assert (spec.packing, spec.provisioning_s, spec.scale_down_s) == ("pool", None, None)
    assert spec.max_instances is None


def test_the_pool_delays_are_the_reference_sets_rows_with_their_sources(tmp_path: Path) -> None:
    con = open_store(tmp_path / "p.duckdb")
    try:
        book = assumption_set(con)
    finally:
        con.close()

    for default in POOL_DEFAULTS:
        row = book[default.name]
        assert (row.value, row.unit, row.confidence) == (
            default.value,
            default.unit,
            default.confidence,
        )
        assert row.source == default.source
    assert "scale-down-unneeded-time" in book["pool.scale_down_s"].source
    assert "Karpenter" in book["pool.provisioning_s"].source


def test_a_pooled_option_takes_its_delays_from_the_assumption_set(tmp_path: Path) -> None:
    con = open_store(tmp_path / "p.duckdb")
    try:
        quote = {"set_name": "reference-defaults", "unit": "seconds", "confidence": "M"}
        set_assumption(con, {**quote, "name": "pool.provisioning_s", "value": 0})
        set_assumption(con, {**quote, "name": "pool.scale_down_s", "value": 1800})
        pooled = {**P5, "packing": "pool"}
        given = {**P5, "name": "given", "packing": "pool", "provisioning_s": 300}
        scenario = TcoScenario.model_validate({**HAND, "cloud": [pooled, given]})
        report = run_tco(con, scenario, files=LOCAL_FILES, trace=_sixteen(tmp_path), today=TODAY)
    finally:
        con.close()

    # 16 one-GPU jobs of 1 h on two p5 instances, each up provisioning + 1 h + scale-down
    assert report.inputs is not None
    from_set, own = (c.rented.per_month["cloud_compute"] for c in report.inputs.clouds)
    assert from_set == pytest.approx(2 * (0 + 3600 + 1800) / 3600 * 55.04 * 730)
    assert own == pytest.approx(2 * (300 + 3600 + 1800) / 3600 * 55.04 * 730)
    said = [n for n in report.notes if "node pool instance" in n]
    assert any("p5: a node pool instance is ready 0 s after launch" in n for n in said), said
    assert any(
        "given: a node pool instance is released after standing empty 1800" in n for n in said
    )
    assert not any("given: a node pool instance is ready" in n for n in said)


def test_every_cloud_option_states_its_packing_overhead_price_floor_and_waits(
    tmp_path: Path,
) -> None:
    report = _run(tmp_path, [{**P5, "packing": "per-job"}, {**P5, "name": "pooled"}])

    assert report.inputs is not None
    per_job, pooled = (c.packing for c in report.inputs.clouds)
    assert per_job is not None
    assert pooled is not None
    floor = 16 * 730 * 55.04 / 8  # 16 GPU-hours held a window at the p5's price per GPU
    assert (per_job.packing, pooled.packing) == ("per-job", "pool")
    assert per_job.held_gpu_hours == pooled.held_gpu_hours == pytest.approx(16 * 730)
    assert per_job.overhead == pytest.approx(8.0)  # 16 instances of 8 GPUs for 16 GPU-hours
    assert pooled.overhead == pytest.approx(2 * 8 * 1.25 / 16)
    assert per_job.price_floor == pooled.price_floor == pytest.approx(floor)
    assert (per_job.provisioning_wait_mean_s, per_job.cap_wait_p95_s) == (0.0, 0.0)
    assert pooled.provisioning_wait_mean_s == pooled.provisioning_wait_p95_s == 300.0
    assert pooled.cap_wait_p95_s == 0.0
    assert (pooled.provisioning_s, pooled.scale_down_s) == (300.0, 600.0)
    assert (per_job.provisioning_s, per_job.scale_down_s) == (None, None)
    pooled_option = report.horizons[0].options[-1]
    assert pooled_option.wait_p95_s == 300.0


def test_an_instance_cap_makes_pods_wait_and_the_wait_is_reported(tmp_path: Path) -> None:
    report = _run(tmp_path, [{**P5, "packing": "pool", "max_instances": 1, "scale_down_s": 0}])

    assert report.inputs is not None
    facts = report.inputs.clouds[0].packing
    assert facts is not None
    # the second 8 wait for the first 8 to be ready (300 s) and to run (1 h) on the one p5
    assert facts.cap_wait_p95_s == pytest.approx(3900.0)
    assert facts.cap_wait_mean_s == pytest.approx(3900.0 / 2)


@pytest.mark.parametrize("rule", RULES)
def test_a_pooled_options_chargeback_adds_up_to_its_total(tmp_path: Path, rule: Rule) -> None:
    report = _run(tmp_path, [{**P5, "packing": "per-job"}, {**P5, "name": "pooled"}])

    cb = chargeback(build_report([("s", report)], 0, "en").sources, 0, rule, "en")
    rows = wide_rows(cb, "en")
    for k, option in enumerate(report.horizons[0].options):
        column = sum(round((values[k] or 0.0) * 100) for _, values in rows)
        assert column == cents(option.total) == round(totals(cb)[k] * 100)
    assert report.chargeback is not None
    assert report.chargeback.usage["pooled"] == report.chargeback.usage["p5"]


@pytest.mark.parametrize(
    ("field", "value"),
    [("provisioning_s", "-1"), ("scale_down_s", "1e9"), ("max_instances", "0"), ("packing", "x")],
)
def test_a_pool_setting_out_of_range_is_refused_by_field(field: str, value: str) -> None:
    text = f"name: p\ncloud: [{{gpu: H100, packing: pool, {field}: {value}}}]\n"

    with pytest.raises(ScenarioError, match=rf"cloud\.0\.{field}"):
        parse(text, "p.yaml", LOCAL_FILES)


def test_a_pooled_commitment_may_overflow_to_spot(tmp_path: Path) -> None:
    spot = {**P5, "name": "spot", "pricing_model": "spot", "packing": "pool", "spot": SPOT_RULE}
    pooled = {**P5, "committed_gpus": 8, "overflow": "spot", "packing": "pool"}
    pooled |= {"price_per_gpu_hour": 4.0, "name": "kept"}

    report = _run(tmp_path, [spot, pooled])

    # one committed instance holds 8 pods for 1 h (never interrupted); 8 more pods launch
    # one spot instance, ready at 300 s, and re-run 210 s each: the committed instance is
    # paid from the first submit to the last end, 300 + 3,810 s
    assert report.inputs is not None
    kept = report.inputs.clouds[1]
    assert kept.rented.per_month["commitment"] == pytest.approx(8 * 4.0 * 4110 / 3600 * 730)
    assert kept.rented.per_month["spot_overhead"] > 0
    assert kept.packing is not None
    assert kept.packing.interruptions == pytest.approx(8 * 0.1 * 730)


def _bursting(tmp_path: Path) -> str:
    """One 8-GPU job holds the kept server 2 h; a gang of 3 pods x 4 GPUs (12 > 8: never on
    the kept server; `gpus` is the job's total) bursts at once; four 1-GPU jobs of 1 h wait
    and burst at 600 s."""
    rows = [
        "long,2026-01-05T00:00:00Z,,,7200,1,8,H100,8,64,a,u,0,completed",
        "gang,2026-01-05T00:00:00Z,,,3600,3,12,H100,8,64,a,u,0,completed",
        *(f"s{k},2026-01-05T00:00:00Z,,,3600,1,1,H100,8,64,b,u,0,completed" for k in range(4)),
    ]
    path = tmp_path / "bursting.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n")
    return str(path)


def test_a_hybrids_bursts_share_the_pools_instances_from_when_they_burst(tmp_path: Path) -> None:
    pooled = {**P5, "packing": "pool", "provisioning_s": 300, "scale_down_s": 600}
    scenario = TcoScenario.model_validate(
        {**HAND, "cloud": [pooled], "hybrid": {"burst_after_s": 600, "servers": {"H100": 1}}}
    )
    con = open_store(tmp_path / "p.duckdb")
    try:
        report = run_tco(con, scenario, files=LOCAL_FILES, trace=_bursting(tmp_path), today=TODAY)
    finally:
        con.close()

    # the gang launches two p5 instances at 0 (pods 1 and 2 on the first, pod 3 on the
    # second), ready at 300 s, ending at 3,900 s; the four 1-GPU jobs burst at 600 s onto
    # the second one's 4 free GPUs and end at 4,200 s. Released 600 s after emptying:
    # the first at 4,500 s, the second at 4,800 s: 9,300 instance-seconds. (Pending from
    # their submit, at 0, they would share the booting instance: 9,000.)
    assert report.inputs is not None
    hybrid = report.inputs.owned[1]
    assert hybrid.burst is not None
    (line,) = hybrid.burst.compute
    scale = 730 / 2  # a 2-hour window (0 to the long job's end): 365 windows a month
    assert line.quantity_per_month == pytest.approx(9300 / 3600 * scale)
    assert hybrid.demand.burst_per_month == pytest.approx(9300 / 3600 * 55.04 * scale)


@pytest.mark.parametrize(
    ("provider", "gpu", "sizes"),
    [("GCP", "A100", [1, 2, 4, 8]), ("AWS", "L4", [1, 4, 8]), ("AWS", "A10G", [1, 4, 8])],
)
def test_the_price_book_offers_a_gpus_instance_sizes(
    tmp_path: Path, provider: str, gpu: str, sizes: list[int]
) -> None:
    con = open_store(tmp_path / "p.duckdb")
    try:
        where = PriceFilter(provider=provider, gpu=gpu, pricing_model="on_demand")
        points = list_prices(con, where, today=TODAY)
    finally:
        con.close()

    us = [p for p in points if p.region in {"us-central1", "us-east-1"} and p.gpu_mem_gb != 80]
    assert sorted(int(p.gpus_per_instance) for p in us) == sizes
    assert all(p.source_url and p.confidence and p.currency == "USD" for p in us)


def test_a_pool_of_gcps_a100_sizes_launches_the_2_gpu_one_for_a_2_gpu_pod(tmp_path: Path) -> None:
    con = open_store(tmp_path / "p.duckdb")
    try:
        points = list_prices(con, PriceFilter(provider="GCP", gpu="A100 40GB"), today=TODAY)
    finally:
        con.close()
    skus = [
        Sku(p.instance_type, "A100", p.gpus_per_instance, p.price_per_instance_hour)
        for p in points
        if p.pricing_model == "on_demand"
    ]
    settings = PoolSettings(provisioning_s=300.0, scale_down_s=600.0)

    priced = price_on_pool([CloudJob("two", 0.0, 3600.0, 1, 2.0)], skus, settings, Terms())

    # a2-highgpu-2g: 2 x (VM part 0.73948 + GPU part 2.9339) = 7.3468 an hour, the cheapest
    # size that holds 2 GPUs (4g 14.6936, 8g 29.387), up 300 + 3,600 + 600 s
    launched = [(u.sku, u.instances) for u in priced.pool.on_demand if u.instances]
    assert launched == [("a2-highgpu-2g", 1)]
    assert priced.bill.compute == pytest.approx(4500 / 3600 * 7.3468)


@pytest.mark.parametrize(
    ("packing", "en", "zh"),
    [
        (
            "pool",
            "node pool: pods share instances, ready 300 s after launch, released 600 s after "
            "emptying; billed 1.25 GPU-hours per GPU-hour held",
            "节点池：Pod 共享实例，启动后 300 秒就绪，空闲 600 秒后释放；"
            "每占用 1 GPU 小时计费 1.25 GPU 小时",
        ),
        (
            "per-job",
            "per job: each job on instances of its own; billed 8.00 GPU-hours per GPU-hour held",
            "按作业：每个作业独占自己的实例；每占用 1 GPU 小时计费 8.00 GPU 小时",
        ),
    ],
)
def test_page_one_names_how_the_cloud_option_packs_pods(
    tmp_path: Path, packing: str, en: str, zh: str
) -> None:
    report = _run(tmp_path, [{**P5, "packing": packing}])
    named = ("hand", report)
    d = decide(named, 0)

    # 16 one-GPU pods: a pool bills 2 instances x 8 GPUs x (300 + 3,600 + 600) s = 20 GPU-hours
    # for 16 held (1.25); per job, 16 instances x 8 GPUs x 1 h = 128 for 16 (8.00)
    assert dict(assumptions(named, d, "en"))["Cloud (p5): how pods rent instances"] == en
    assert dict(assumptions(named, d, "zh"))["云（p5）：Pod 如何租用实例"] == zh
