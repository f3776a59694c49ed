"""Yearly escalation of power, salaries, colocation and cloud prices (issue 30): month m
(from 1) pays year 1's price x (1 + rate) ^ INT((m - 1) / 12), by hand; 0 changes nothing."""

from dataclasses import replace
from datetime import date
from io import BytesIO
from pathlib import Path

import duckdb
import pytest
from openpyxl import load_workbook

from planner.core.errors import ScenarioError
from planner.core.file_access import LOCAL_FILES
from planner.cost import finance, tco
from planner.cost.baremetal import BareMetal, ServerPool, monthly
from planner.cost.escalation import escalation
from planner.cost.lines import LINE_KEYS
from planner.cost.montecarlo import npvs, parts_of
from planner.cost.montecarlo_paths import FLAT, draw_paths
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import open_store

POOL = ServerPool("a", servers=1, gpus_per_server=8, price=100_000, idle_kw=1, load_kw=3, max_kw=4)
# energy 1 + 2 x 0.5 = 2 kW x 0.10 x 730 = 146 a month; colocation 4 kW x 200 = 800 a month;
# staff 0.5 FTE x 120,000 / 12 = 5,000 a month
BM = BareMetal(
    (POOL,),
    network_share=0.0,
    storage_share=0.0,
    pue=1.0,
    kwh_price=(0.10,),
    colo_per_kw_month=200.0,
    support_share_year=0.0,
    fte=0.5,
    fte_cost_year=120_000.0,
)
DEMAND = tco.Demand(useful_gpu_hours=2_000.0, utilization_by_hour=(0.5,), burst_per_month=300.0)
CLOUD = tco.Rented("cloud", {"cloud_compute": 10_000.0, "storage": 500.0}, 4.0)
STAFF, COLO = LINE_KEYS.index("staff"), LINE_KEYS.index("colocation")


def test_ten_percent_on_power_makes_month_13_cost_1_1_times_month_1() -> None:
    bm = replace(BM, power_escalation_year=0.10)

    costs = monthly(bm, 36, DEMAND.utilization_by_hour)

    assert costs[0].energy == pytest.approx(146.0)
    assert costs[11].energy == pytest.approx(146.0)  # month 12: still year 1
    assert costs[12].energy == pytest.approx(1.1 * 146.0)  # month 13
    assert costs[24].energy == pytest.approx(1.1**2 * 146.0)  # month 25
    assert costs[12].lines == costs[0].lines  # the other prices do not move


def test_salaries_and_colocation_escalate_at_their_own_rates() -> None:
    bm = replace(BM, staff_escalation_year=0.05, colo_escalation_year=0.03)

    costs = monthly(bm, 36, DEMAND.utilization_by_hour)

    assert costs[0].lines[STAFF] == pytest.approx(5_000.0)
    assert costs[24].lines[STAFF] == pytest.approx(5_000.0 * 1.05**2)
    assert costs[0].lines[COLO] == pytest.approx(800.0)
    assert costs[13].lines[COLO] == pytest.approx(800.0 * 1.03)
    assert costs[24].energy == pytest.approx(146.0)


def test_cloud_escalation_raises_every_cloud_bill_and_the_hybrids_bursts() -> None:
    """4 % a year: a cloud option's year-2 months cost 10,500 x 1.04, its 24-month total
    12 x 10,500 x (1 + 1.04); the bursts and the bridge of owned servers likewise."""
    rent = tco.rented_option(CLOUD, DEMAND, 24, 0.0, escalation_year=0.04)
    own = tco.owned_option("hybrid", replace(BM, cloud_escalation_year=0.04), DEMAND, 24, 0.0)
    bridged = monthly(replace(BM, cloud_escalation_year=0.04, lead_time_months=14), 24, (0.5,), 1e3)

    assert rent.monthly_pnl[11] == pytest.approx(10_500.0)
    assert rent.monthly_pnl[12] == pytest.approx(10_500.0 * 1.04)
    assert rent.total == pytest.approx(12 * 10_500 * 2.04)
    assert rent.totals["cloud_compute"] == pytest.approx(12 * 10_000 * 2.04)
    assert rent.pnl_by_category is not None
    assert sum(rent.pnl_by_category["storage"]) == pytest.approx(12 * 500 * 2.04)
    assert own.totals["cloud_burst"] == pytest.approx(12 * 300 * 2.04)
    assert [c.bridge for c in bridged[11:15]] == pytest.approx([1e3, 1.04e3, 1.04e3, 0.0])


def test_no_escalation_leaves_every_figure_as_it_was() -> None:
    """At rate 0 the factor is exactly 1.0, so nothing moves by even a rounding error."""
    costs = monthly(BM, 60, DEMAND.utilization_by_hour)
    flat = tco.rented_option(CLOUD, DEMAND, 60, 0.1)

    assert escalation(BM, "power", 59) == 1.0
    assert {c.energy for c in costs} == {costs[0].energy}
    assert {c.lines for c in costs} == {costs[0].lines}
    assert set(flat.monthly_pnl) == {10_500.0}
    assert flat.pnl_by_category is None


def test_an_escalation_of_minus_100_percent_or_below_is_refused() -> None:
    with pytest.raises(ScenarioError, match="staff_escalation_year must be above -100 %"):
        replace(BM, staff_escalation_year=-1.0)


WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"


def _worked(con: duckdb.DuckDBPyConnection, **overrides: float) -> TcoReport:
    """The worked example over 5 years on a 3-year life (a refresh), bridged 4 months."""
    scenario = load_tco_scenario(WORKED)
    scenario = scenario.model_copy(
        update={
            "horizons_years": (5.0,),
            "overrides": scenario.overrides
            | {"life_years": 3.0, "lead_time_months": 4}
            | overrides,
        }
    )
    return run_tco(con, scenario, files=LOCAL_FILES, today=date(2026, 12, 1))


def test_monte_carlo_leaves_power_and_cloud_escalation_to_its_own_trends(tmp_path: Path) -> None:
    """Flat price paths (every multiplier 1) re-price each option as the model does without
    the power and cloud escalation (the paths' trends take their place), and with the staff
    escalation (no path moves salaries), the refresh included."""
    con = open_store(tmp_path / "p.duckdb")
    try:
        rising = _worked(
            con, power_escalation_year=0.1, cloud_escalation_year=0.05, staff_escalation_year=0.04
        )
        calm = _worked(con, staff_escalation_year=0.04)
    finally:
        con.close()
    assert rising.inputs is not None
    flat = npvs(parts_of(rising.inputs, 60), draw_paths(FLAT, 1, 60, seed=0))
    rate = rising.inputs.discount_rate
    assert calm.horizons[0].options[0].totals["refresh"] > 0
    for calm_option, rising_option in zip(
        calm.horizons[0].options, rising.horizons[0].options, strict=True
    ):
        model = finance.npv(calm_option.monthly_cash, rate)
        assert flat[calm_option.name][0] == pytest.approx(model, abs=0.005), calm_option.name
        assert finance.npv(rising_option.monthly_cash, rate) != pytest.approx(model, abs=1.0)


def test_a_cloud_only_scenario_escalates_its_bills_too(tmp_path: Path) -> None:
    """`overrides: {cloud_escalation_year: 0.1}` without owned servers: month 13's bill is
    1.1 x month 1's, recorded in the inputs and named in the workbook."""
    scenario = load_tco_scenario(WORKED.with_name("cloud-on-demand.yaml"))
    rising = scenario.model_copy(update={"overrides": {"cloud_escalation_year": 0.1}})
    con = open_store(tmp_path / "p.duckdb")
    try:
        report = run_tco(con, rising, files=LOCAL_FILES, today=date(2026, 12, 1))
    finally:
        con.close()
    assert report.inputs is not None
    assert report.inputs.cloud_escalation_year == 0.1
    option = report.horizons[0].options[0]
    assert option.monthly_pnl[12] == pytest.approx(1.1 * option.monthly_pnl[0])
    book = load_workbook(BytesIO(write_xlsx(build_report([("c", report)], 0, "en"))))
    assert "CloudEscalationYear" in book.defined_names
