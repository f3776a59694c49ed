"""The FOCUS export (`planner report --out FILE.focus.csv`): the FinOps Foundation's own
validator accepts it (tests/focus_validator.py builds it a venv), each option's BilledCost
adds up to its cash (the workbook's cumulative cash, which tests/test_workbook_formulas.py
holds to the model's cent after LibreOffice recalculates it) and its EffectiveCost to its
P&L total, both to the cent; a two-month case is checked by hand.

Cases: the worked example (one server, four cloud prices), the bundled sample (a replay, a
hybrid, two pools), the cloud-only sample (a 1-year commitment), a taxed case with a lead
time, a resale and its disposal tax (tests/workbook_cases.py) and the hand case.
"""

import csv
from collections import defaultdict
from dataclasses import replace
from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from openpyxl import load_workbook

from planner.cli import main
from planner.core.file_access import LOCAL_FILES
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.report.excel import write_xlsx
from planner.report.focus import COLUMNS, next_month, write_focus
from planner.report.model import build_report
from planner.report.text import text
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco, tco_of_jobs
from planner.store import open_store
from tests.focus_validator import validate
from tests.libreoffice import recalculate
from tests.test_growth_tco import JOBS, RENT, SERVER
from tests.workbook_cases import HAND, LINK, TAXED

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "data" / "scenarios"
TODAY = date(2026, 6, 1)
START = date(2027, 1, 1)
TWO_MONTHS = {**HAND, "name": "two months", "horizons_years": [2 / 12]}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, TcoReport]:
    con = open_store(tmp_path_factory.mktemp("focus") / "planner.duckdb")
    try:
        found = {
            name: run_tco(
                con, load_tco_scenario(SCENARIOS / f"{file}.yaml"), files=LOCAL_FILES, today=TODAY
            )
            for name, file in (
                ("worked", "worked-example-h100"),
                ("sample", "sample-tco"),
                ("cloud", "cloud-on-demand"),
            )
        }
        for name, scenario in (("taxed", TAXED), ("hand", TWO_MONTHS)):
            found[name] = run_tco(
                con, TcoScenario.model_validate(scenario), files=LOCAL_FILES, today=TODAY
            )
    finally:
        con.close()
    return found


def _rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(StringIO(data.decode("utf-8"))))


def _cents(text: str) -> int:
    return round(float(text) * 100)


@pytest.mark.parametrize("name", ["worked", "sample", "cloud", "taxed"])
def test_the_focus_validator_accepts_the_export(
    name: str, reports: dict[str, TcoReport], tmp_path: Path
) -> None:
    export = tmp_path / f"{name}.focus.csv"
    export.write_bytes(write_focus([(name, reports[name])], START))

    said = validate(export)

    assert "Validation succeeded." in said


@pytest.mark.parametrize("name", ["worked", "sample", "cloud", "taxed", "hand"])
@pytest.mark.parametrize("horizon", [0, 1])
def test_each_options_costs_add_up_to_its_cash_and_pnl_to_the_cent(
    name: str, horizon: int, reports: dict[str, TcoReport]
) -> None:
    report = reports[name]
    rows = _rows(write_focus([(name, report)], START, horizon_index=horizon))
    billed: dict[str, int] = defaultdict(int)
    effective: dict[str, int] = defaultdict(int)
    for row in rows:
        billed[row["x_Option"]] += _cents(row["BilledCost"])
        effective[row["x_Option"]] += _cents(row["EffectiveCost"])

    chosen = report.horizons[min(horizon, len(report.horizons) - 1)]
    assert set(billed) == {o.name for o in chosen.options}
    for o in chosen.options:
        assert billed[o.name] == round(sum(o.monthly_cash) * 100), o.name
        assert effective[o.name] == round(o.total * 100), o.name


@pytest.mark.parametrize("name", ["sample", "taxed"])
def test_each_category_adds_up_to_the_reports_total_for_it(
    name: str, reports: dict[str, TcoReport]
) -> None:
    """CapEx, refresh, tax shield, resale and disposal tax as BilledCost, depreciation as
    EffectiveCost, running costs as both: each within a cent a row of the report's total."""
    report = reports[name]
    rows = _rows(write_focus([(name, report)], START))
    for o in report.horizons[0].options:
        mine = [r for r in rows if r["x_Option"] == o.name]
        for key, total in o.totals.items():
            found = [r for r in mine if r["x_CostCategory"] == key]
            view = "EffectiveCost" if key == "depreciation" else "BilledCost"
            cents = sum(_cents(r[view]) for r in found)
            assert abs(cents - round(total * 100)) <= max(1, len(found)), (o.name, key)


@pytest.mark.parametrize("name", ["worked", "sample", "cloud", "taxed"])
def test_the_gpu_hours_add_up_to_the_useful_and_the_served_elsewhere(
    name: str, reports: dict[str, TcoReport]
) -> None:
    report = reports[name]
    rows = _rows(write_focus([(name, report)], START))
    for o in report.horizons[0].options:
        mine = [r for r in rows if r["x_Option"] == o.name and r["ConsumedQuantity"]]
        useful = [float(r["ConsumedQuantity"]) for r in mine if r["x_CostCategory"] != "served_elsewhere"]  # fmt: skip
        bought = [float(r["ConsumedQuantity"]) for r in mine if r["x_CostCategory"] == "served_elsewhere"]  # fmt: skip

        assert sum(useful) == pytest.approx(o.useful_gpu_hours, rel=1e-9, abs=1e-3), o.name
        assert sum(bought) == pytest.approx(o.served_elsewhere_gpu_hours, rel=1e-9, abs=1e-3)
        assert all(r["ConsumedUnit"] == r["PricingUnit"] == "GPU-Hours" for r in mine)


def test_two_months_by_hand(reports: dict[str, TcoReport]) -> None:
    rows = _rows(write_focus([("hand", reports["hand"])], START))
    got = [
        (r["x_Option"], r["x_Month"], r["ChargeCategory"], r["x_CostCategory"],
         r["BilledCost"], r["EffectiveCost"], r["ConsumedQuantity"], r["ChargePeriodStart"])
        for r in rows
    ]  # fmt: skip

    # One 8-GPU server at $100,000 (no network, storage or installation share), a one-year
    # life: depreciation 100,000 / 12 = 8,333.333 a month, 8,333.33 then 8,333.34 (rounded
    # along the running sum: 16,666.67 over two months). Energy: (idle 1 kW + (2 - 1) kW x
    # 0.5 allocation) x PUE 1 x $0.10/kWh x 730 h = $109.50 a month. Useful GPU-hours: 8 x
    # 0.5 x 730 = 2,920 a month, which the "flat" cloud bills at $10: $29,200 a month.
    jan, feb = "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z"
    assert got == [
        ("self-hosted", "1", "Purchase", "capex", "100000.00", "0.00", "", jan),
        ("self-hosted", "1", "Usage", "depreciation", "0.00", "8333.33", "2920.0", jan),
        ("self-hosted", "1", "Usage", "energy", "109.50", "109.50", "", jan),
        ("self-hosted", "2", "Usage", "depreciation", "0.00", "8333.34", "2920.0", feb),
        ("self-hosted", "2", "Usage", "energy", "109.50", "109.50", "", feb),
        ("flat", "1", "Usage", "cloud_compute", "29200.00", "29200.00", "2920.0", jan),
        ("flat", "2", "Usage", "cloud_compute", "29200.00", "29200.00", "2920.0", feb),
    ]
    assert {r["ChargePeriodEnd"] for r in rows if r["x_Month"] == "2"} == {"2027-03-01T00:00:00Z"}
    assert {r["BillingCurrency"] for r in rows} == {"USD"}
    assert {r["x_ServedShare"] for r in rows} == {"1.0"}


def test_a_commitment_is_paid_then_split_into_used_and_unused(
    reports: dict[str, TcoReport],
) -> None:
    rows = _rows(write_focus([("cloud", reports["cloud"])], START))
    first = [r for r in rows if r["x_CostCategory"] == "commitment" and r["x_Month"] == "1"]

    kinds = [(r["ChargeCategory"], r["CommitmentDiscountStatus"]) for r in first]
    assert kinds[0] == ("Purchase", "")
    assert {s for _, s in kinds[1:]} <= {"Used", "Unused"}
    paid = _cents(first[0]["BilledCost"])
    assert paid > 0
    assert _cents(first[0]["EffectiveCost"]) == 0
    # the Used and Unused rows carry the purchase as EffectiveCost (within a cent: rounding)
    assert abs(sum(_cents(r["EffectiveCost"]) for r in first[1:]) - paid) <= 1
    assert all(_cents(r["BilledCost"]) == 0 for r in first[1:])
    assert {r["CommitmentDiscountCategory"] for r in first} == {"Usage"}
    assert len({r["CommitmentDiscountId"] for r in first}) == 1


def test_a_commitment_above_a_flat_demand_by_hand(tmp_path: Path) -> None:
    flat = {"name": "flat", "gpu": "H100", "price_per_gpu_hour": 10.0, "committed_gpus": 5,
            "packing": "per-job"}  # fmt: skip
    scenario = TcoScenario.model_validate({**TWO_MONTHS, "cloud": [flat]})
    con = open_store(tmp_path / "planner.duckdb")
    try:
        report = run_tco(con, scenario, files=LOCAL_FILES, today=TODAY)
    finally:
        con.close()

    rows = _rows(write_focus([("c", report)], START))
    got = [
        (r["ChargeCategory"], r["CommitmentDiscountStatus"], r["BilledCost"],
         r["EffectiveCost"], r["ConsumedQuantity"], r["CommitmentDiscountQuantity"])
        for r in rows
        if r["x_Option"] == "flat" and r["x_Month"] == "1"
    ]  # fmt: skip

    # 5 GPUs committed x 730 h = 3,650 GPU-hours at $10: $36,500 a month. The demand holds 4
    # GPUs (8 x 0.5) all month: 2,920 GPU-hours used (4/5: $29,200), 730 unused ($7,300).
    assert got == [
        ("Purchase", "", "36500.00", "0.00", "", "3650.0"),
        ("Usage", "Used", "0.00", "29200.00", "2920.0", "2920.0"),
        ("Usage", "Unused", "0.00", "7300.00", "", "730.0"),
    ]


def test_hostile_option_names_stay_text(reports: dict[str, TcoReport]) -> None:
    data = write_focus([(LINK, reports["hand"])], START).decode("utf-8")

    rows = _rows(data.encode("utf-8"))
    assert list(rows[0]) == list(COLUMNS)
    assert {r["x_Scenario"] for r in rows} == {"'" + LINK}


def test_the_default_start_is_next_month() -> None:
    assert next_month(date(2026, 12, 7)) == date(2027, 1, 1)
    assert next_month(date(2026, 6, 30)) == date(2026, 7, 1)


def test_the_cli_writes_the_hand_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "hand.yaml"
    scenario.write_text(
        "name: two months\ncurrency: USD\nhorizons_years: [0.16666666666666666]\n"
        "discount_rate: 0.0\nutilization: 0.5\nself_hosted:\n"
        "  - {gpu: H100, servers: 1, gpus_per_server: 8, price: 100000, idle_kw: 1.0,"
        " load_kw: 2.0, max_kw: 2.0}\n"
        "overrides: {network_share: 0.0, storage_share: 0.0, life_years: 1.0, pue: 1.0,"
        " kwh_price: 0.1, colo_per_kw_month: 0.0, support_share_year: 0.0,"
        " fte_per_server: 0.0, lead_time_months: 0, availability: 1.0}\n"
        "cloud:\n  - {name: flat, gpu: H100, price_per_gpu_hour: 10.0}\n"
    )
    out = tmp_path / "plan.focus.csv"
    code = main(["report", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb"),
                 "--out", str(out), "--start-month", "2027-01"])  # fmt: skip

    assert code == 0
    assert "FOCUS rows start in 2027-01" in capsys.readouterr().out
    billed = sum(_cents(r["BilledCost"]) for r in _rows(out.read_bytes()))
    assert billed == 10_021_900 + 5_840_000  # 100,000 + 2 x 109.50; 2 x 29,200


def test_a_month_that_is_not_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["report", "--scenario", "x.yaml", "--out", str(tmp_path / "p.focus.csv"),
              "--start-month", "2027-13"])  # fmt: skip

    assert exited.value.code == 2
    assert "write it as YYYY-MM" in capsys.readouterr().err


def test_growing_demand_gives_each_years_cash_lines(tmp_path: Path) -> None:
    """With growth each year is priced from its own replay: the cash-only lines (the tax
    shield moves with each year's running costs) come from that year, so no month needs a
    catch-all row and every category still adds up."""
    scenario = TcoScenario.model_validate(
        {
            "horizons_years": [2],
            "self_hosted": [SERVER],
            "cloud": [RENT],
            "hybrid": {"burst_after_s": 600, "servers": {"A100": 1}},
            "overrides": {"lead_time_months": 2, "tax_rate": 0.25},
            "growth": {"arrival_rate": [1, 2]},
        }
    )
    con = open_store(tmp_path / "planner.duckdb")
    try:
        report = tco_of_jobs(con, scenario, JOBS, today=TODAY)
    finally:
        con.close()

    rows = _rows(write_focus([("grown", report)], START))
    assert not [
        r for r in rows if "+" in r["x_CostCategory"] or r["ChargeCategory"] == "Adjustment"
    ]
    for o in report.horizons[0].options:
        mine = [r for r in rows if r["x_Option"] == o.name]
        assert sum(_cents(r["BilledCost"]) for r in mine) == round(sum(o.monthly_cash) * 100)
        assert sum(_cents(r["EffectiveCost"]) for r in mine) == round(o.total * 100)
        shield = sum(_cents(r["BilledCost"]) for r in mine if r["x_CostCategory"] == "tax_shield")
        assert abs(shield - round(o.totals["tax_shield"] * 100)) <= 24, o.name  # a cent a month


def test_billed_cost_is_the_recalculated_workbooks_cumulative_cash(
    reports: dict[str, TcoReport], tmp_path: Path
) -> None:
    """The workbook the report writes, recalculated by LibreOffice: each option's cumulative
    cash in the last month of the Monthly cash flow sheet is its BilledCost added up."""
    names = ("worked", "taxed", "cloud")
    paths = []
    for name in names:
        path = tmp_path / f"{name}.xlsx"
        path.write_bytes(write_xlsx(build_report([(name, reports[name])], 0, "en", TODAY)))
        paths.append(path)
    books = {p.stem: load_workbook(p, data_only=True) for p in recalculate(paths, tmp_path / "out")}

    for name in names:
        sheet = books[name][text("report.sheet.cash", "en")]
        options = reports[name].horizons[0].options
        last = round(reports[name].horizons[0].years * 12) + 1
        rows = _rows(write_focus([(name, reports[name])], START))
        for k, o in enumerate(options):
            assert sheet.cell(1, 2 + k).value == o.name
            cumulative = sheet.cell(last, 2 + len(options) + k).value
            billed = sum(_cents(r["BilledCost"]) for r in rows if r["x_Option"] == o.name)
            assert isinstance(cumulative, float | int)
            assert abs(billed - cumulative * 100) <= 0.5 + 1e-6, (name, o.name)


def test_a_report_saved_before_the_cash_lines_were_kept_still_adds_up(
    reports: dict[str, TcoReport],
) -> None:
    """Without the cash-only lines by month, the CapEx is month 1's Purchase and each month's
    other cash not in the P&L one row: the sums hold all the same."""
    report = reports["taxed"]
    horizons = tuple(
        replace(h, options=tuple(replace(o, cash_by_category=None) for o in h.options))
        for h in report.horizons
    )
    before = replace(report, horizons=horizons)

    rows = _rows(write_focus([("taxed", before)], START))

    for o in before.horizons[0].options:
        mine = [r for r in rows if r["x_Option"] == o.name]
        assert sum(_cents(r["BilledCost"]) for r in mine) == round(sum(o.monthly_cash) * 100)
        assert sum(_cents(r["EffectiveCost"]) for r in mine) == round(o.total * 100)
    owned = [r for r in rows if r["x_OptionKind"] == "owned"]
    assert [r["ChargeCategory"] for r in owned if r["x_CostCategory"] == "capex"] == ["Purchase"]
    assert {r["ChargeCategory"] for r in owned if "+" in r["x_CostCategory"]} == {"Adjustment"}
