"""A small export worked by hand end to end (issue 12): a left-censored row, a right-censored
row, a CPU-only row and a withdrawn row; owning with a one-month lead time, a hybrid and a
cloud option. Every total below is written out from the rows, not read from the code."""

from datetime import date
from pathlib import Path

import duckdb
import pytest

from planner.core.file_access import LOCAL_FILES
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.scope import LeftOut
from planner.cost.tco import OptionReport
from planner.report.headline import headline
from planner.service.tco_run import run_tco
from tests.conftest import ingest, jobs_of, write

# Seconds from the window start; the window is 0 to 36,000 s (10 h, CPU1's end).
EXPORT = """job_id,submit_time,start_time,end_time,gpus,cpu,status
L1,,,7200,8,8,completed
R1,3600,3600,,8,8,running
C1,0,0,3600,4,4,completed
F1,7200,7200,10800,8,8,failed
CPU1,0,0,36000,0,16,completed
P1,1000,,1300,8,8,pending
"""
# Useful GPU-hours over the 10 h span: L1 8 x 2 h (0 to its end) + R1 8 x 9 h (to the window
# end) + C1 4 x 1 h + F1 8 x 1 h = 100; CPU1 is CPU-only (scope gpu-jobs), P1 never ran.
SPAN_H = 10.0
GPU_HOURS = 100.0
MONTH_H = 730.0
PER_MONTH = GPU_HOURS * MONTH_H / SPAN_H  # 7,300 GPU-hours a month
MONTHS, LEAD = 12, 1
PRICE = 2.0  # flat, per GPU-hour: each job rents the whole GPUs it asks for
TRACE_BILL = (8 * 2 + 8 * 9 + 4 * 1 + 8 * 1) * PRICE  # 200 for the 10 h trace
SCENARIO = {
    "horizons_years": [1],
    "self_hosted": [
        {
            "gpu": "A100",
            "servers": 2,
            "gpus_per_server": 8,
            "price": 100_000,
            "idle_kw": 1,
            "load_kw": 5,
            "max_kw": 6,
        }
    ],
    "cloud": [{"name": "flat", "gpu": "A100", "price_per_gpu_hour": PRICE, "packing": "per-job"}],
    # one server kept: L1 holds it 0-7,200 s, so C1 (submitted at 0) and R1 (at 3,600) burst
    # after waiting 1,800 s; P1 is withdrawn at 1,300 s, before its burst at 2,800 s; F1 runs
    # on the kept server from 7,200 s
    "hybrid": {"burst_after_s": 1800, "servers": {"A100": 1}},
    "overrides": {
        "lead_time_months": LEAD,
        "network_share": 0.0,
        "storage_share": 0.0,
        "installation": 0.0,
        "life_years": 5.0,
        "residual_share": 0.0,
        "colo_per_kw_month": 100.0,
        "support_share_year": 0.12,
        "fte_per_server": 0.1,
        "fte_cost_year": 120_000.0,
        "software_per_gpu_year": 0.0,
        "spares_share_year": 0.0,
        "tax_rate": 0.0,
    },
}


@pytest.fixture
def report(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> TcoReport:
    trace = write(tmp_path, "export.csv", EXPORT)
    scenario = TcoScenario.model_validate(SCENARIO)
    return run_tco(con, scenario, files=LOCAL_FILES, trace=str(trace), today=date(2026, 6, 1))


def _options(report: TcoReport) -> dict[str, OptionReport]:
    return {o.name: o for o in report.horizons[0].options}


def test_the_export_is_read_with_its_censored_and_withdrawn_rows(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    result = ingest(con, write(tmp_path, "export.csv", EXPORT))
    jobs = {j["job_id"]: j for j in jobs_of(con, result.trace_id)}

    assert (result.rows, result.accepted, result.rejected) == (6, 6, 0)
    assert (result.running_at_start, result.running_at_end, result.withdrawn) == (1, 1, 1)
    assert result.gpu_hours == pytest.approx(GPU_HOURS)
    assert (jobs["L1"]["submit_s"], jobs["L1"]["duration_s"]) == (0.0, 7200.0)
    assert (jobs["R1"]["status"], jobs["R1"]["duration_s"]) == ("running-at-end", 32400.0)
    assert (jobs["P1"]["status"], jobs["P1"]["withdraw_after_s"]) == ("withdrawn", 300.0)


def test_every_option_prices_the_same_hundred_gpu_hours_and_the_ledger_balances(
    report: TcoReport,
) -> None:
    options = _options(report)
    demanded = PER_MONTH * MONTHS  # 87,600

    own = options["self-hosted"].ledger.gpu_hours
    assert own.demanded == pytest.approx(demanded)
    assert own.cloud["bridge"] == pytest.approx(PER_MONTH * LEAD)  # 7,300
    assert own.owned == pytest.approx(PER_MONTH * (MONTHS - LEAD))  # 80,300
    assert sum(own.unserved.values()) == pytest.approx(0.0)

    hybrid = options["hybrid"].ledger.gpu_hours
    scale = MONTH_H / SPAN_H * (MONTHS - LEAD)  # trace GPU-hours -> the months in service
    assert hybrid.demanded == pytest.approx(demanded)
    assert hybrid.owned == pytest.approx((8 * 2 + 8 * 1) * scale)  # L1 and F1: 19,272
    assert hybrid.cloud["burst"] == pytest.approx((4 * 1 + 8 * 9) * scale)  # C1, R1: 61,028
    assert hybrid.cloud["bridge"] == pytest.approx(PER_MONTH * LEAD)

    cloud = options["flat"].ledger.gpu_hours
    assert cloud.demanded == cloud.cloud["rented"] == pytest.approx(demanded)
    assert any("1 CPU-only job" in note for note in report.notes), report.notes


def test_the_money_by_hand(report: TcoReport) -> None:
    options = _options(report)
    bill_month = TRACE_BILL * MONTH_H / SPAN_H  # 14,600 a month of the same demand

    assert options["flat"].total == pytest.approx(bill_month * MONTHS)  # 175,200

    own = options["self-hosted"].totals
    in_service = MONTHS - LEAD
    assert own["capex"] == pytest.approx(200_000)  # paid at order
    assert own["depreciation"] == pytest.approx(200_000 / 60 * in_service)  # from delivery
    assert own["staff"] == pytest.approx(2 * 0.1 * 120_000 / 12 * in_service)  # 22,000
    assert own["colocation"] == pytest.approx(2 * 6 * 100 * in_service)  # 13,200
    assert own["support"] == pytest.approx(0.12 * 200_000 / 12 * in_service)  # 22,000
    assert own["bridge"] == pytest.approx(bill_month * LEAD)  # 14,600

    hybrid = options["hybrid"].totals
    assert hybrid["capex"] == pytest.approx(100_000)
    assert hybrid["staff"] == pytest.approx(1 * 0.1 * 120_000 / 12 * in_service)  # 11,000
    burst_bill = (4 * 1 + 8 * 9) * PRICE  # C1 and R1 in the cloud: 152 per trace
    assert hybrid["cloud_burst"] == pytest.approx(burst_bill * MONTH_H / SPAN_H * in_service)
    assert hybrid["bridge"] == pytest.approx(bill_month * LEAD)


def test_the_cpu_only_row_left_out_is_counted_in_the_report_and_its_headline(
    report: TcoReport,
) -> None:
    assert report.scope == "gpu-jobs"
    assert report.left_out == LeftOut(cpu_only_jobs=1, cpu_hours=pytest.approx(16 * 10.0))
    facts = {f.label: f.value for f in headline("t", report, report.horizons[0], "en").facts}
    assert facts["CPU-only jobs left out of every option"] == 1
    assert facts["Their CPU-hours over the trace"] == pytest.approx(160.0)
