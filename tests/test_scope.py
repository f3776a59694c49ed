"""Defect 3: CPU-only jobs are priced on both sides or on neither, and every report says
which jobs are in scope."""

from datetime import date
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.cli.tco import tco_lines as _lines
from planner.core.model import Job
from planner.cost.cloud import CloudJob, CpuRate, Sku, Terms, price_jobs
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.tco import OptionReport
from planner.service.tco_run import tco_of_jobs

TODAY = date(2026, 6, 1)
GPU_JOBS = [Job(f"g{k}", 600.0 * k, 7_200.0, gpus=1, gpu_types=("A100",)) for k in range(4)]
CPU_JOBS = [
    Job("c0", 0.0, 3_600.0, pods=2, gpus=0, cpu=4, mem_gib=16),
    Job("c1", 1_200.0, 1_800.0, gpus=0, cpu=8, mem_gib=32),
]
CLOUD = {
    "name": "rent",
    "gpu": "A100",
    "price_per_gpu_hour": 2.0,
    "price_per_vcpu_hour": 0.03,
    "price_per_gib_hour": 0.004,
    "packing": "per-job",  # the hand figures rent each job the GPUs it asks for
}
SERVER = {
    "gpu": "A100",
    "servers": 1,
    "gpus_per_server": 8,
    "price": 100_000,
    "idle_kw": 1,
    "load_kw": 5,
    "max_kw": 6,
}


def _scenario(**fields: Any) -> TcoScenario:
    data = {
        "horizons_years": [1],
        "self_hosted": [SERVER],
        "cloud": [CLOUD],
        "overrides": {"lead_time_months": 0},
    } | fields
    return TcoScenario.model_validate(data)


def _options(report: TcoReport) -> dict[str, OptionReport]:
    return {o.name: o for o in report.horizons[0].options}


def test_gpu_jobs_leave_cpu_only_jobs_out_of_every_option_and_say_so(
    con: duckdb.DuckDBPyConnection,
) -> None:
    scenario = _scenario(hybrid={"burst_after_s": 60})

    alone = tco_of_jobs(con, scenario, GPU_JOBS, today=TODAY)
    mixed = tco_of_jobs(con, scenario, GPU_JOBS + CPU_JOBS, today=TODAY)

    assert mixed.scope == "gpu-jobs"
    assert mixed.horizons == alone.horizons
    # 2 pods x 4 cores x 1 h + 8 cores x 0.5 h = 12 CPU-hours
    assert any("2 CPU-only jobs (12.0 CPU-hours) are left out" in n for n in mixed.notes)


def test_all_jobs_on_cpu_servers_are_priced_on_both_sides(
    con: duckdb.DuckDBPyConnection,
) -> None:
    cpu_servers = {"count": 2, "price": 10_000, "power_kw": 0.5, "cpu": 8, "mem_gib": 64}
    scenario = _scenario(scope="all-jobs", cpu_servers=cpu_servers)
    gpu_only = _options(tco_of_jobs(con, _scenario(), GPU_JOBS, today=TODAY))

    report = tco_of_jobs(con, scenario, GPU_JOBS + CPU_JOBS, today=TODAY)

    assert report.scope == "all-jobs"
    options = _options(report)
    # the span is the same (the GPU jobs'), so a month is the same number of spans
    span_h = (3 * 600 + 7_200) / 3600
    cpu_bill = 2 * 1 * (4 * 0.03 + 16 * 0.004) + 0.5 * (8 * 0.03 + 32 * 0.004)
    assert options["rent"].totals["cloud_cpu"] == pytest.approx(cpu_bill * 8760 / span_h)
    assert options["rent"].totals["cloud_compute"] == pytest.approx(
        gpu_only["rent"].totals["cloud_compute"]
    )
    owned, before = options["self-hosted"].totals, gpu_only["self-hosted"].totals
    assert owned["capex"] - before["capex"] == pytest.approx(2 * 10_000 * (1 + 0.12 + 0.05))
    assert owned["staff"] / before["staff"] == pytest.approx(3.0)  # 3 servers instead of 1


def test_all_jobs_without_an_owned_home_are_left_out_of_every_option(
    con: duckdb.DuckDBPyConnection,
) -> None:
    scenario = _scenario(scope="all-jobs")

    report = tco_of_jobs(con, scenario, GPU_JOBS + CPU_JOBS, today=TODAY)

    assert "cloud_cpu" not in _options(report)["rent"].totals
    assert any("no owned home" in n for n in report.notes)


def test_all_jobs_run_on_the_gpu_servers_cpus_when_they_are_finite(
    con: duckdb.DuckDBPyConnection,
) -> None:
    server = SERVER | {"cpu": 64, "mem_gib": 512}
    scenario = _scenario(scope="all-jobs", self_hosted=[server])

    report = tco_of_jobs(con, scenario, GPU_JOBS + CPU_JOBS, today=TODAY)

    assert _options(report)["rent"].totals["cloud_cpu"] > 0
    assert not any("left out" in n for n in report.notes)


gpu_jobs = st.lists(
    st.builds(
        CloudJob,
        job_id=st.just("g"),
        submit_s=st.floats(0, 10_000),
        run_s=st.floats(1, 50_000),
        pods=st.integers(1, 4),
        gpus=st.sampled_from([0.5, 1.0, 2.0, 4.0, 8.0]),
    ),
    min_size=1,
    max_size=20,
)
cpu_jobs = st.lists(
    st.builds(
        CloudJob,
        job_id=st.just("c"),
        submit_s=st.floats(0, 100_000),
        run_s=st.floats(1, 500_000),
        pods=st.integers(1, 4),
        gpus=st.just(0.0),
        cpu=st.floats(0, 64),
        mem_gib=st.floats(0, 512),
    ),
    max_size=20,
)
SKUS = [Sku("one", "A100", 1, 2.0), Sku("eight", "A100", 8, 14.0, 3600.0, 60.0)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gpu=gpu_jobs, cpu=cpu_jobs, at=st.integers(0, 20))
def test_adding_cpu_only_jobs_never_changes_a_gpu_jobs_bill(
    gpu: list[CloudJob], cpu: list[CloudJob], at: int
) -> None:
    terms = Terms(cpu=CpuRate(0.03, 0.004))
    mixed = gpu[:at] + cpu + gpu[at:]
    where = [k if k < at else k + len(cpu) for k in range(len(gpu))]

    alone = price_jobs(gpu, SKUS, terms)
    both = price_jobs(mixed, SKUS, terms)

    assert [(p.sku, p.instances, p.billed_hours, p.cost) for p in alone.jobs] == [
        (p.sku, p.instances, p.billed_hours, p.cost) for p in both.jobs
    ]
    assert [where[p.job] for p in alone.jobs] == [p.job for p in both.jobs]
    assert both.compute == pytest.approx(alone.compute, rel=1e-12)
    assert len(both.cpu_jobs) == len(cpu)


def test_the_text_report_states_the_scope_and_each_options_ledger(
    con: duckdb.DuckDBPyConnection,
) -> None:
    report = tco_of_jobs(con, _scenario(), GPU_JOBS + CPU_JOBS, today=TODAY)

    lines = _lines(report)

    assert any(line.startswith("scope: gpu-jobs") for line in lines)
    ledgers = [line for line in lines if line.strip().startswith("ledger: demanded")]
    assert len(ledgers) == 2  # self-hosted and rent, one horizon
