"""The ledger: every option prices the same demand, and it balances; the cloud bill is the
sum over jobs of instances x billed hours x price."""

import io
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from planner.core.model import Job
from planner.cost.cloud import CloudJob, CpuRate, Sku, Terms, price_jobs
from planner.cost.elsewhere import ELSEWHERE_LINES
from planner.cost.ledger import PricedBill
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.tco import OptionReport
from planner.report.excel import write_xlsx
from planner.report.model import build_report
from planner.service.tco_run import tco_of_jobs
from planner.store import open_store
from tests.test_scope import CLOUD

TODAY = date(2026, 6, 1)
SERVER = {
    "gpu": "A100",
    "servers": 2,
    "gpus_per_server": 8,
    "price": 100_000,
    "idle_kw": 1,
    "load_kw": 5,
    "max_kw": 6,
    "cpu": 64,
    "mem_gib": 512,
}
SECOND = {
    "name": "other",
    "gpu": "A100",
    "price_per_gpu_hour": 3.0,
    "price_per_vcpu_hour": 0.05,
    "price_per_gib_hour": 0.005,
}


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    con = open_store(Path(tmp_path_factory.mktemp("ledger")) / "planner.duckdb")
    yield con
    con.close()


def _scenario(**fields: Any) -> TcoScenario:
    data = {
        "horizons_years": [0.25, 1],
        "self_hosted": [SERVER],
        "cloud": [CLOUD, SECOND],
        "hybrid": {"burst_after_s": 600, "servers": {"A100": 1}},
        "overrides": {"lead_time_months": 1},
    } | fields
    return TcoScenario.model_validate(data)


def _check_balanced(report: TcoReport) -> None:
    for horizon in report.horizons:
        demanded = {o.ledger.gpu_hours.demanded for o in horizon.options}
        assert max(demanded) == pytest.approx(min(demanded), rel=1e-9)  # the same demand
        for option in horizon.options:
            ledger = option.ledger
            for lines in (ledger.gpu_hours, ledger.cpu_hours):
                if lines is None:
                    continue
                accounted = lines.owned + sum(lines.cloud.values()) + sum(lines.unserved.values())
                assert accounted == pytest.approx(lines.demanded, rel=1e-6, abs=1e-9)
            _check_served_elsewhere(report, option)
            totals = option.totals
            billed = sum(
                totals.get(k, 0.0)
                for k in ("cloud_compute", "spot_overhead", "cloud_cpu", "bridge", "cloud_burst")
            )
            assert ledger.cloud_per_job_sum == pytest.approx(billed, rel=1e-9, abs=1e-6)


def _check_served_elsewhere(report: TcoReport, option: OptionReport) -> None:
    """demanded = owned + cloud + bought elsewhere + the rest unserved (withdrawn, unpriced),
    the elsewhere side priced at the report's one rate, and the served share from the same
    ledger."""
    lines, prices = option.ledger.gpu_hours, report.served_elsewhere
    assert prices is not None
    served = lines.owned + sum(lines.cloud.values())
    left = sum(v for k, v in lines.unserved.items() if k not in ELSEWHERE_LINES)
    unserved = sum(lines.unserved[k] for k in ELSEWHERE_LINES)
    expected = unserved if prices.enabled else 0.0
    assert lines.elsewhere == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert served + lines.elsewhere + left == pytest.approx(
        lines.demanded - (0.0 if prices.enabled else unserved), rel=1e-6, abs=1e-9
    )
    cost = option.totals.get("served_elsewhere", 0.0)
    assert cost == pytest.approx(lines.elsewhere * (prices.rate or 0.0), rel=1e-9, abs=1e-6)
    if lines.demanded:
        assert option.served_share == pytest.approx(served / lines.demanded, rel=1e-12)


jobs_strategy = st.lists(
    st.builds(
        Job,
        job_id=st.uuids().map(str),
        submit_s=st.floats(0, 20_000),
        duration_s=st.floats(60, 20_000),
        pods=st.integers(1, 2),
        gpus=st.sampled_from([1.0, 2.0, 4.0, 8.0, 16.0]),
        cpu=st.sampled_from([0.0, 4.0, 16.0]),
        mem_gib=st.sampled_from([0.0, 16.0, 64.0]),
        gpu_types=st.sampled_from([(), ("A100",)]),
        status=st.sampled_from(["completed", "failed", "cancelled", "running-at-end"]),
    ),
    min_size=1,
    max_size=25,
    unique_by=lambda j: j.job_id,
)
cpu_strategy = st.lists(
    st.builds(
        Job,
        job_id=st.uuids().map(lambda u: f"cpu-{u}"),
        submit_s=st.floats(0, 20_000),
        duration_s=st.floats(60, 20_000),
        pods=st.integers(1, 3),
        gpus=st.just(0.0),
        cpu=st.sampled_from([1.0, 8.0, 32.0]),
        mem_gib=st.sampled_from([2.0, 64.0]),
    ),
    min_size=1,
    max_size=10,
    unique_by=lambda j: j.job_id,
)
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@SETTINGS
@given(jobs=jobs_strategy, cpu=cpu_strategy, lead=st.integers(0, 4), cloud=st.booleans())
def test_the_ledger_balances_for_every_option_and_horizon(
    book: duckdb.DuckDBPyConnection, jobs: list[Job], cpu: list[Job], lead: int, cloud: bool
) -> None:
    fields: dict[str, Any] = {"overrides": {"lead_time_months": lead}, "scope": "all-jobs"}
    if not cloud:
        fields |= {"cloud": [], "hybrid": None}

    report = tco_of_jobs(book, _scenario(**fields), jobs + cpu, today=TODAY)

    _check_balanced(report)
    first = report.horizons[0].options[0].ledger
    assert first.cpu_hours is not None  # the GPU servers have finite CPUs: CPU-only jobs in scope
    if not cloud and lead:
        assert first.gpu_hours.unserved["lead_time"] > 0
    # the cheapest on-demand option's list price: `rent` at 2.0 a GPU-hour, not `other` at 3.0
    assert report.served_elsewhere is not None
    assert report.served_elsewhere.rate == (2.0 if cloud else None)


@SETTINGS
@given(jobs=jobs_strategy, cpu=cpu_strategy)
def test_cpu_only_jobs_never_change_the_gpu_part_of_any_bill(
    book: duckdb.DuckDBPyConnection, jobs: list[Job], cpu: list[Job]
) -> None:
    # the CPU-only jobs sit inside the GPU jobs' span, so a month is the same span either way
    start = min(j.submit_s for j in jobs)
    end = max(j.submit_s + j.duration_s for j in jobs)
    inside = [
        j.__class__(
            **{**_fields(j), "submit_s": start, "duration_s": min(j.duration_s, end - start)}
        )
        for j in cpu
    ]
    for scope, extra in (("gpu-jobs", {}), ("all-jobs", {"self_hosted": [SERVER]})):
        scenario = _scenario(scope=scope, **extra)

        alone = tco_of_jobs(book, scenario, jobs, today=TODAY)
        mixed = tco_of_jobs(book, scenario, jobs + inside, today=TODAY)

        for h_alone, h_mixed in zip(alone.horizons, mixed.horizons, strict=True):
            for a, m in zip(h_alone.options, h_mixed.options, strict=True):
                if a.name in {"rent", "other"}:
                    assert m.totals["cloud_compute"] == pytest.approx(
                        a.totals["cloud_compute"], rel=1e-12
                    )
                gpu_a, gpu_m = a.ledger.gpu_hours, m.ledger.gpu_hours
                assert gpu_m.demanded == pytest.approx(gpu_a.demanded, rel=1e-12)
                if scope == "gpu-jobs":
                    assert m.totals == a.totals


def _fields(job: Job) -> dict[str, Any]:
    return {name: getattr(job, name) for name in job.__dataclass_fields__}


def test_the_cloud_bill_is_the_sum_over_jobs_of_instances_hours_and_price() -> None:
    jobs = [
        CloudJob("a", 0.0, 5_400.0, pods=1, gpus=8),  # one 8-GPU instance for 1.5 h
        CloudJob("b", 0.0, 30.0, pods=3, gpus=1),  # 3 GPUs: billed the 60 s minimum
        CloudJob("c", 0.0, 7_200.0, pods=2, gpus=0, cpu=4, mem_gib=16),
    ]
    skus = [Sku("p8", "A100", 8, 20.0), Sku("p1", "A100", 1, 3.0)]
    rate = CpuRate(0.03, 0.004)

    bill = price_jobs(jobs, skus, Terms(cpu=rate))
    lines = PricedBill(bill, skus, rate, [_job(j) for j in jobs]).lines()

    assert [(x.job_id, x.sku, x.instances) for x in lines] == [
        ("a", "p8", 1),
        ("b", "p1", 3),
        ("c", "cpu instance", 2),
    ]
    # a: 1 x 1.5 h x 20.00 = 30.00; b: 3 x 60 s x 3.00 = 0.15; c: 2 x 2 h x (0.12 + 0.064)
    assert [round(x.cost, 2) for x in lines] == [30.00, 0.15, 0.74]
    assert round(bill.total, 2) == round(30.00 + 0.15 + 2 * 2 * 0.184, 2) == 30.89
    assert sum(x.cost for x in lines) == pytest.approx(bill.total, rel=1e-12)


def _job(j: CloudJob) -> Job:
    return Job(
        j.job_id, j.submit_s, j.run_s, pods=j.pods, gpus=j.gpus, cpu=j.cpu, mem_gib=j.mem_gib
    )


def test_excluding_failed_jobs_lowers_useful_hours_not_the_demand(
    book: duckdb.DuckDBPyConnection,
) -> None:
    jobs = [
        Job("ok", 0.0, 3_600.0, gpus=4, gpu_types=("A100",)),
        Job("bad", 0.0, 3_600.0, gpus=4, gpu_types=("A100",), status="failed"),
    ]
    every = tco_of_jobs(book, _scenario(), jobs, today=TODAY)
    useful = tco_of_jobs(book, _scenario(exclude_failed=True), jobs, today=TODAY)

    assert useful.useful_gpu_hours_per_month == pytest.approx(every.useful_gpu_hours_per_month / 2)
    ledger_every = every.horizons[0].options[0].ledger
    assert useful.horizons[0].options[0].ledger == ledger_every


def test_the_workbook_has_a_ledger_sheet_with_every_option_and_horizon(
    book: duckdb.DuckDBPyConnection,
) -> None:
    jobs = [Job(f"j{k}", 600.0 * k, 7_200.0, gpus=2, gpu_types=("A100",)) for k in range(6)]
    report = tco_of_jobs(book, _scenario(), jobs, today=TODAY)

    data = write_xlsx(build_report([("ledger", report)], 0, "en"))

    sheet = load_workbook(io.BytesIO(data))["Ledger"]
    rows = list(sheet.iter_rows(values_only=True))
    header = rows[0]
    assert header[:5] == ("Scenario", "Horizon (years)", "Option", "Unit", "Demanded")
    assert len(rows) == 1 + 2 * 4  # 2 horizons x (self-hosted, hybrid, rent, other)
    for row in rows[1:]:
        line = dict(zip(header, row, strict=True))
        served = sum(
            float(v)
            for k, v in line.items()
            if k
            not in {
                "Scenario",
                "Option",
                "Unit",
                "Horizon (years)",
                "Demanded",
                "Imbalance (demanded - accounted)",
                "Cloud bill: sum of instances x billed hours x price",
            }
        )
        assert served == pytest.approx(float(line["Demanded"]))


def test_a_withdrawn_job_is_not_billed_and_a_flat_price_rents_the_gpus_a_pod_asks(
    book: duckdb.DuckDBPyConnection,
) -> None:
    run = [Job("a", 0.0, 3_600.0, gpus=3, gpu_types=("A100",))]
    withdrawn = Job("w", 10.0, 0.0, gpus=8, gpu_types=("A100",), status="withdrawn")
    scenario = _scenario(hybrid=None)

    alone = tco_of_jobs(book, scenario, run, today=TODAY)
    both = tco_of_jobs(book, scenario, [*run, withdrawn], today=TODAY)

    rent = both.horizons[0].options[1]
    assert rent.name == "rent"
    # 3 GPUs x 1 h x 2.00 over a 1-hour span: 730 spans a month, 3 months
    assert rent.totals["cloud_compute"] == pytest.approx(3 * 2.0 * 730 * 3)
    assert rent.totals == alone.horizons[0].options[1].totals
    assert rent.ledger.gpu_hours.unserved["unpriced"] == 0.0
