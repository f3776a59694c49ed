"""The workbook finance recalculates: LibreOffice opens the xlsx (formulas, no cached values),
recalculates it, and every total, every part of a cloud bill, monthly cash flow, NPV, IRR,
payback and break-even month and the tornado's live cases must equal the Python model's to
the cent; changing the electricity price, a server count, the committed GPUs, the on-demand
price above a commitment or the sensitivity swing on Assumptions moves them exactly as the
model predicts with the changed input.

Cases: the worked example (one server, flat utilization, four cloud prices), the bundled
sample (a replay with a hybrid, a 4-month lead time bridged in the cloud, two pools), the
cloud-only sample (a 1-year commitment with overflow), hand-computed ones (a flat demand with
and without a commitment; tax and rarer depreciation) and a tiny trace with spot, storage,
egress, CPU-only jobs, a reservation it overflows and a hybrid bursting to it
(tests/workbook_cases.py). One LibreOffice run recalculates every workbook (module fixture).
"""

from dataclasses import replace
from datetime import date
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.workbook.workbook import Workbook

from planner.core.file_access import LOCAL_FILES
from planner.core.serialize import from_json, to_json
from planner.cost import cloud, finance, tco
from planner.cost.baremetal import HOURS_PER_MONTH, BareMetal, in_service_from
from planner.cost.cloud import CloudJob, Sku
from planner.cost.elsewhere import owned_unserved
from planner.cost.inputs import CloudBillInputs, TcoInputs
from planner.cost.lines import CATEGORIES
from planner.cost.results import Horizon, TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.tco import OptionReport
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.report.text import text
from planner.report.workbook.cloud_inputs import PARTS
from planner.report.workbook.owned import COL as OWN_COL
from planner.report.workbook.owned import ROW, VALUE_COLUMN
from planner.report.workbook.rented import COL as CLOUD_COL
from planner.report.workbook.rented import ROWS as CLOUD_ROW
from planner.report.workbook.sensitivity import COL as SENS
from planner.report.workbook.sensitivity import LIVE
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import open_store
from tests.libreoffice import recalculate
from tests.workbook_cases import (
    COMMITTED,
    ESCALATED,
    HAND,
    INSURED,
    LINK,
    MIXED,
    MIXED_TRACE,
    TAXED,
    options_sheet_mismatches,
    pooling,
    refreshing,
    reserving,
    spilling,
)

SCENARIOS = Path(__file__).parent.parent / "data" / "scenarios"
TODAY = date(2026, 6, 1)
CENT = 0.005


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, TcoReport]:
    con = open_store(tmp_path_factory.mktemp("wb") / "planner.duckdb")
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
        # a report saved before the bills' parts were recorded could only be priced per job
        rent = load_tco_scenario(SCENARIOS / "cloud-on-demand.yaml")
        per_job = [c.model_copy(update={"packing": "per-job"}) for c in rent.cloud]
        found["cloud_per_job"] = run_tco(
            con, rent.model_copy(update={"cloud": per_job}), files=LOCAL_FILES, today=TODAY
        )
        worked = load_tco_scenario(SCENARIOS / "worked-example-h100.yaml")
        found["worked10"] = run_tco(
            con,
            worked.model_copy(update={"sensitivity_swing": 0.1}),
            files=LOCAL_FILES,
            today=TODAY,
        )
        hand = TcoScenario.model_validate(HAND)
        found["hand"] = run_tco(con, hand, files=LOCAL_FILES, today=TODAY)
        cloud = {**HAND["cloud"][0], "name": LINK}  # type: ignore[index]
        hostile = TcoScenario.model_validate({**HAND, "name": LINK, "cloud": [cloud]})
        found["hostile"] = run_tco(con, hostile, files=LOCAL_FILES, today=TODAY)
        taxed = TcoScenario.model_validate(TAXED)
        found["taxed"] = run_tco(con, taxed, files=LOCAL_FILES, today=TODAY)
        insured = TcoScenario.model_validate(INSURED)
        found["insured"] = run_tco(con, insured, files=LOCAL_FILES, today=TODAY)
        escalated = TcoScenario.model_validate(ESCALATED)
        found["escalated"] = run_tco(con, escalated, files=LOCAL_FILES, today=TODAY)
        committed = TcoScenario.model_validate(COMMITTED)
        found["committed"] = run_tco(con, committed, files=LOCAL_FILES, today=TODAY)
        trace = tmp_path_factory.mktemp("trace") / "mixed.csv"
        trace.write_text(MIXED_TRACE)
        for name, scenario in (
            ("mixed", MIXED),
            ("mixed4", reserving(4)),
            ("spill", spilling()),
            ("pooled", pooling()),
            ("mixed_up", refreshing()),
        ):
            found[name] = run_tco(
                con,
                TcoScenario.model_validate(scenario),
                files=LOCAL_FILES,
                trace=str(trace),
                today=TODAY,
            )
    finally:
        con.close()
    # what a saved report reads back (the Compare page's) must carry the same inputs
    return {k: from_json(TcoReport, to_json(r)) for k, r in found.items()}


def _saved_before(report: TcoReport) -> TcoReport:
    """`report` as saved before the bills' parts were recorded: SKU quantities only without
    a commitment, every other part a stated monthly amount."""
    assert report.inputs is not None
    clouds = []
    for c in report.inputs.clouds:
        stated = {k: v for k, v in c.rented.per_month.items() if v}
        committed = c.bill.committed_gpus
        lines = () if committed else c.bill.compute
        stated.pop("commitment", None)
        if lines:
            stated.pop("cloud_compute", None)
        old = CloudBillInputs(lines, committed, c.bill.commit_price, stated)
        clouds.append(replace(c, bill=old))
    return replace(report, inputs=replace(report.inputs, clouds=tuple(clouds)))


def _xlsx(report: TcoReport, horizon: int = 0) -> bytes:
    return write_xlsx(build_report([(report.scenario, report)], horizon, "en", TODAY))


def _changed(data: bytes, changes: dict[str, float]) -> bytes:
    """The workbook with defined names' cells set to new values (as a reader would)."""
    book = load_workbook(BytesIO(data))
    for name, value in changes.items():
        ((sheet, cell),) = book.defined_names[name].destinations
        book[sheet][cell.replace("$", "")].value = value
    out = BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def written(reports: dict[str, TcoReport]) -> dict[str, bytes]:
    """Each report's workbook as written (formulas, no cached values), built once."""
    return {k: _xlsx(r) for k, r in reports.items()}


@pytest.fixture(scope="module")
def recalculated(
    reports: dict[str, TcoReport],
    written: dict[str, bytes],
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, Workbook]:
    folder = tmp_path_factory.mktemp("xlsx")
    files = dict(written)
    files["worked5"] = _xlsx(reports["worked"], 1)
    files["worked_tariff"] = _changed(files["worked"], {"Tariff": 0.135})
    files["sample_changed"] = _changed(files["sample"], {"Tariff": 0.12, "Servers_A100": 100})
    files["hand_tariff"] = _changed(files["hand"], {"Tariff": 0.2})
    files["insured_changed"] = _changed(files["insured"], INSURED_CHANGES)
    files["taxed_resale"] = _changed(files["taxed"], {"ResaleShare": RESALE_CHANGED})
    files["worked_swing"] = _changed(files["worked"], {"SensitivitySwing": 0.1})
    files["escalated_changed"] = _changed(files["escalated"], ESCALATION_CHANGES)
    files["mixed_committed"] = _changed(
        files["mixed"], {"Cloud_2_Committed": 4, "Burst_2_Committed": 4}
    )
    files["mixed_on_demand"] = _changed(files["mixed"], {ON_DEMAND: 70.0})
    both = build_report([("A", reports["worked"]), ("B", reports["taxed"])], 0, "en", TODAY)
    files["two"] = write_xlsx(both)
    files["cloud_saved_before"] = _xlsx(_saved_before(reports["cloud_per_job"]))
    paths = []
    for name, data in files.items():
        path = folder / f"{name}.xlsx"
        path.write_bytes(data)
        paths.append(path)
    out = recalculate(paths, folder / "out")
    return {p.stem: load_workbook(p, data_only=True) for p in out}


ON_DEMAND = "Price_AWS_p5_48xlarge_on_demand"
"""The defined name of the reservation's on-demand price (overflow above the commitment)."""


def _figure(book: Workbook, sheet: str, key: str, cloud: bool = False) -> Any:
    row = (CLOUD_ROW if cloud else ROW)[key]
    return book[sheet].cell(row, VALUE_COLUMN).value


def _number(value: object) -> float:
    assert isinstance(value, int | float), f"not a number: {value!r}"
    return float(value)


def _column(book: Workbook, sheet: str, column: int, months: int) -> list[float]:
    return [_number(book[sheet].cell(r, column).value) for r in range(2, months + 2)]


def _check_owned(book: Workbook, o: OptionReport, months: int) -> None:
    cash = _column(book, o.name, OWN_COL["cash"], months)
    assert cash == pytest.approx(list(o.monthly_cash), abs=CENT)
    pnl = _column(book, o.name, OWN_COL["pnl"], months)
    assert pnl == pytest.approx(list(o.monthly_pnl), abs=CENT)
    assert _figure(book, o.name, "total_pnl") == pytest.approx(o.total, abs=CENT)
    for key in (*CATEGORIES[:-1], "cloud_burst"):  # every monthly column, capex .. burst
        total = sum(_column(book, o.name, OWN_COL[key], months))
        assert total == pytest.approx(o.totals.get(key, 0.0), abs=CENT), key
    assert _figure(book, o.name, "useful") == pytest.approx(o.useful_gpu_hours, rel=1e-12)
    for short, key in (("per_useful", "cost_per_useful_gpu_hour"),
                       ("per_installed", "cost_per_installed_gpu_hour"),
                       ("per_allocated", "cost_per_allocated_gpu_hour")):  # fmt: skip
        assert _figure(book, o.name, short) == pytest.approx(getattr(o, key), rel=1e-9), key
    assert _figure(book, o.name, "idle") == pytest.approx(o.idle_cost, abs=CENT)
    assert _figure(book, o.name, "eac") == pytest.approx(o.equivalent_annual_cost, abs=CENT)


def _check_rented(book: Workbook, o: OptionReport, months: int) -> None:
    cash = _column(book, o.name, CLOUD_COL["cash"], months)
    assert cash == pytest.approx(list(o.monthly_cash), abs=CENT)
    assert _figure(book, o.name, "total_pnl", True) == pytest.approx(o.total, abs=CENT)
    for part in PARTS[:-1]:  # every part a formula: none left as a stated amount
        total = sum(_column(book, o.name, CLOUD_COL[part], months))
        assert total == pytest.approx(o.totals.get(part, 0.0), abs=CENT), part
    assert sum(_column(book, o.name, CLOUD_COL["other"], months)) == 0.0
    assert _figure(book, o.name, "per_useful", True) == pytest.approx(
        o.cost_per_useful_gpu_hour, rel=1e-9
    )
    eac = _figure(book, o.name, "eac", True)
    assert eac == pytest.approx(o.equivalent_annual_cost, abs=CENT)


def _check(book: Workbook, report: TcoReport, horizon: Horizon) -> None:
    months = round(horizon.years * 12)
    owned = {o.name for o in (report.inputs.owned if report.inputs else ())}
    for o in horizon.options:
        (_check_owned if o.name in owned else _check_rented)(book, o, months)
    sheet = book["Comparison"] if horizon.comparisons else None
    for k, c in enumerate(horizon.comparisons):
        assert sheet is not None
        row = [sheet.cell(4 + k, j).value for j in range(1, 7)]
        assert row[0] == c.rented
        assert row[1] == pytest.approx(c.npv_of_buying, abs=CENT)
        if c.irr is not None:
            assert row[2] == pytest.approx(c.irr, abs=1e-7)
        assert row[3] == ("never" if c.payback_month is None else c.payback_month)
        assert row[4] == ("never" if c.break_even_month is None else c.break_even_month)
        assert row[5] == pytest.approx(c.break_even_utilization, rel=1e-9)


@pytest.mark.parametrize(
    "name",
    [
        "worked",
        "sample",
        "cloud",
        "hand",
        "taxed",
        "insured",
        "committed",
        "mixed",
        "mixed4",
        "spill",
        "pooled",
        "escalated",
        "mixed_up",
    ],
)
def test_every_total_recalculates_to_the_models_cent(
    name: str, reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    report = reports[name]
    assert report.inputs is not None
    _check(recalculated[name], report, report.horizons[0])
    assert options_sheet_mismatches(recalculated[name], report) == []


def test_the_five_year_horizon_recalculates_too(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    report = reports["worked"]
    assert recalculated["worked5"]["Assumptions"]["B5"].value == 60
    _check(recalculated["worked5"], report, report.horizons[1])


def test_the_hand_computed_case(recalculated: dict[str, Workbook]) -> None:
    """One 8-GPU server at $100,000 depreciated over 12 months, drawing 1.5 kW (half of its
    8 GPUs busy: 1 + (2 - 1) x 0.5) at $0.10 a kWh = $109.50 a 730-hour month; renting the
    same 2,920 GPU-hours a month at $10 is $29,200. Saving: -$70,909.50 in month 0, then
    $29,090.50 a month; undiscounted NPV = -70,909.50 + 11 x 29,090.50 = $249,086; the
    cumulative saving turns positive in the fourth month, month 4 counted from 1
    (-70,909.5 + 3 x 29,090.5 = 16,362)."""
    book = recalculated["hand"]
    own = book["self-hosted"]
    assert own.cell(2, OWN_COL["cash"]).value == pytest.approx(100_109.50, abs=CENT)
    assert own.cell(3, OWN_COL["cash"]).value == pytest.approx(109.50, abs=CENT)
    assert own.cell(2, OWN_COL["depreciation"]).value == pytest.approx(100_000 / 12, abs=CENT)
    # no resale value (the default) and no tax: nothing comes back at the end
    assert own.cell(13, OWN_COL["resale"]).value == pytest.approx(0.0, abs=CENT)
    assert own.cell(13, OWN_COL["disposal_tax"]).value == pytest.approx(0.0, abs=CENT)
    assert book["flat"].cell(2, CLOUD_COL["cash"]).value == pytest.approx(29_200, abs=CENT)
    comparison = book["Comparison"]
    assert comparison["B4"].value == pytest.approx(249_086.0, abs=CENT)
    assert comparison["D4"].value == 4
    assert comparison["E4"].value == 4
    # doubling the tariff adds 109.50 a month of energy: NPV falls by 12 x 109.50
    changed = recalculated["hand_tariff"]["Comparison"]["B4"].value
    assert changed == pytest.approx(249_086.0 - 12 * 109.5, abs=CENT)


def _model_npv(inputs: TcoInputs, horizon: Horizon, bm: BareMetal) -> float:
    """NPV of buying against the first cloud option, priced by the Python model from the
    report's recorded inputs with `bm` as the self-hosted assumptions."""
    months = round(horizon.years * 12)
    rate = inputs.discount_rate
    demand = inputs.owned[0].demand
    first = inputs.clouds[0].rented
    useful = demand.useful_gpu_hours if first.useful_gpu_hours is None else first.useful_gpu_hours
    prices = inputs.served_elsewhere
    lines = None
    if prices is not None and prices.enabled:  # the recorded served-elsewhere rate
        lead = in_service_from(bm, months)
        hours = (demand.unserved_gpu_hours, demand.waited_gpu_hours)
        lines = owned_unserved(prices, *hours, (months, lead))
    own = tco.owned_option(
        "self-hosted",
        bm,
        demand,
        months,
        rate,
        bridge=tco.Bridge(first.monthly_total, useful),
        unserved=lines,
    )
    rent = tco.rented_option(
        first, demand, months, rate, tax_rate=bm.tax_rate, escalation_year=bm.cloud_escalation_year
    )
    return finance.npv(
        [r - o for r, o in zip(rent.monthly_cash, own.monthly_cash, strict=True)], rate
    )


@pytest.mark.parametrize(
    "case", [("worked", "worked_tariff", 0.135, None), ("sample", "sample_changed", 0.12, 100)]
)
def test_changing_an_assumption_moves_npv_as_the_model_predicts(
    case: tuple[str, str, float, int | None],
    reports: dict[str, TcoReport],
    recalculated: dict[str, Workbook],
) -> None:
    """Tariff (and the first pool's servers) changed on Assumptions: the recalculated NPV is
    the model's with the same change (the replay's quantities held)."""
    name, changed, tariff, servers = case
    report = reports[name]
    assert report.inputs is not None
    horizon = report.horizons[0]
    bm = report.inputs.owned[0].bare_metal
    # the recorded inputs reproduce the report's NPV in Python
    assert _model_npv(report.inputs, horizon, bm) == pytest.approx(
        horizon.comparisons[0].npv_of_buying, abs=CENT
    )
    pools = bm.pools
    if servers is not None:
        pools = (replace(pools[0], servers=servers), *pools[1:])
    moved = replace(bm, kwh_price=(tariff,), pools=pools)
    predicted = _model_npv(report.inputs, horizon, moved)
    got = recalculated[changed]["Comparison"]["B4"].value
    before = recalculated[name]["Comparison"]["B4"].value
    assert abs(predicted - horizon.comparisons[0].npv_of_buying) > 1000  # it does move
    assert got == pytest.approx(predicted, abs=CENT)
    assert got != pytest.approx(before, abs=1.0)


INSURED_CHANGES = {"InsuranceShareYear": 0.02, "PropertyTaxShareYear": 0.05}


def test_insurance_and_property_tax_are_live_named_assumptions(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """Insurance and property tax changed on Assumptions: the recalculated NPV is the model's
    with the same change, and each line's column adds up to the model's total."""
    report = reports["insured"]
    assert report.inputs is not None
    horizon = report.horizons[0]
    owned = horizon.options[0]
    assert owned.totals["insurance"] > 0
    assert owned.totals["property_tax"] > 0
    bm = report.inputs.owned[0].bare_metal
    moved = replace(
        bm,
        insurance_share_year=INSURED_CHANGES["InsuranceShareYear"],
        property_tax_share_year=INSURED_CHANGES["PropertyTaxShareYear"],
    )
    predicted = _model_npv(report.inputs, horizon, moved)
    assert abs(predicted - horizon.comparisons[0].npv_of_buying) > 1000  # it does move
    got = recalculated["insured_changed"]["Comparison"]["B4"].value
    assert got == pytest.approx(predicted, abs=CENT)


RESALE_CHANGED = 0.5


def test_the_resale_value_and_its_disposal_tax_are_live(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """TAXED (CapEx C = 100,000) runs 4 years on servers with a 3-year book life, delivered 2
    months after order: the first generation serves months 3-38, its replacement is ordered
    in month 37 (C again, the refresh line) and serves months 39-48.

    Month 39: the first generation is sold for 0.3 C; the 2-year sum-of-years tax schedule
    has written it down to the residual (0.1 C, the tax book keeps the book residual when
    taxed), so its gain is 0.2 C, taxed at 25 %: +0.05 C. Month 48: the second is sold for
    0.3 C after 10 months in service, the tax book at C - 0.9 C x 2/3 x 10/12 = 0.5 C: a loss
    of 0.2 C saves 0.05 C. Moving the resale share to 50 % on the Assumptions sheet gives the
    model's NPV with that share."""
    report = reports["taxed"]
    assert report.inputs is not None
    horizon = report.horizons[0]
    owned = horizon.options[0]
    capex = owned.totals["capex"]
    months = round(horizon.years * 12)
    sheet = recalculated["taxed"][owned.name]

    def cell(month: int, key: str) -> float:
        return _number(sheet.cell(month + 1, OWN_COL[key]).value)

    assert capex == pytest.approx(100_000)
    assert cell(37, "refresh") == pytest.approx(capex)
    assert owned.totals["refresh"] == pytest.approx(capex)
    assert cell(39, "resale") == pytest.approx(-0.3 * capex)
    assert cell(39, "disposal_tax") == pytest.approx(0.25 * 0.2 * capex)
    assert cell(months, "resale") == pytest.approx(-0.3 * capex)
    assert cell(months, "disposal_tax") == pytest.approx(-0.25 * 0.2 * capex)
    assert owned.totals["resale"] == pytest.approx(-0.6 * capex)
    assert owned.totals["disposal_tax"] == pytest.approx(0.0, abs=CENT)
    bm = report.inputs.owned[0].bare_metal
    predicted = _model_npv(report.inputs, horizon, replace(bm, resale_share=RESALE_CHANGED))
    assert abs(predicted - horizon.comparisons[0].npv_of_buying) > 1000  # it does move
    got = recalculated["taxed_resale"]["Comparison"]["B4"].value
    assert got == pytest.approx(predicted, abs=CENT)


ESCALATION_CHANGES = {
    "PowerEscalationYear": 0.02,
    "StaffEscalationYear": 0.0,
    "ColoEscalationYear": 0.08,
    "CloudEscalationYear": -0.15,
}


def test_the_escalation_rates_are_live_named_assumptions(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """ESCALATED's month 13 pays 1.1 x month 1's energy, 1.05 x its staff and 1.03 x its
    colocation, and its cloud bill 1.04 x; changing the four rates on Assumptions (cloud
    prices falling 15 % a year) gives the model's NPV with those rates."""
    report = reports["escalated"]
    assert report.inputs is not None
    horizon = report.horizons[0]
    own, cloud = horizon.options[0], horizon.options[1]
    sheet = recalculated["escalated"][own.name]

    def cell(month: int, key: str) -> float:
        return _number(sheet.cell(month + 1, OWN_COL[key]).value)

    for key, up in (("energy", 1.1), ("staff", 1.05), ("colocation", 1.03)):
        assert cell(12, key) == pytest.approx(cell(3, key), abs=CENT)  # year 1 (delivery: 3)
        assert cell(13, key) == pytest.approx(up * cell(3, key), abs=CENT), key
        assert cell(25, key) == pytest.approx(up**2 * cell(3, key), abs=CENT), key
    bill = recalculated["escalated"][cloud.name]
    assert _number(bill.cell(14, CLOUD_COL["pnl"]).value) == pytest.approx(
        1.04 * cloud.monthly_pnl[0], abs=CENT
    )
    bm = report.inputs.owned[0].bare_metal
    moved = replace(
        bm,
        power_escalation_year=0.02,
        staff_escalation_year=0.0,
        colo_escalation_year=0.08,
        cloud_escalation_year=-0.15,
    )
    predicted = _model_npv(report.inputs, horizon, moved)
    assert abs(predicted - horizon.comparisons[0].npv_of_buying) > 1000  # it does move
    got = recalculated["escalated_changed"]["Comparison"]["B4"].value
    assert got == pytest.approx(predicted, abs=CENT)


def test_ledger_balances_after_recalculation(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    sheet = recalculated["sample"]["Ledger"]
    header = [c.value for c in sheet[1]]
    imbalance = header.index("Imbalance (demanded - accounted)") + 1
    demanded = header.index("Demanded") + 1
    rows = range(2, sheet.max_row + 1)
    assert len(rows) >= 3 * 2  # three options, two horizons
    for r in rows:
        assert sheet.cell(r, imbalance).value == pytest.approx(
            0.0, abs=1e-6 * _number(sheet.cell(r, demanded).value)
        )


def test_cover_shows_the_recalculated_npv(
    reports: dict[str, TcoReport], written: dict[str, bytes], recalculated: dict[str, Workbook]
) -> None:
    """The Cover's NPV of buying against each cloud option is a formula (the Comparison
    sheet's), and recalculates to the model's."""
    facts = {
        row[0].value: row[1]
        for row in load_workbook(BytesIO(written["worked"]))["Cover"].iter_rows(min_row=3)
        if isinstance(row[0].value, str)
    }
    cover = recalculated["worked"]["Cover"]
    live = {row[0]: row[1] for row in cover.iter_rows(min_row=3, values_only=True)}
    comparisons = reports["worked"].horizons[0].comparisons
    for c in comparisons:
        key = f"NPV of buying vs {c.rented}"
        assert facts[key].data_type == "f"
        assert live[key] == pytest.approx(c.npv_of_buying, abs=CENT)


def test_a_pooled_options_ledger_balances_after_recalculation(
    recalculated: dict[str, Workbook],
) -> None:
    sheet = recalculated["pooled"]["Ledger"]
    header = [c.value for c in sheet[1]]
    imbalance = header.index("Imbalance (demanded - accounted)") + 1
    demanded = header.index("Demanded") + 1
    rows = range(2, sheet.max_row + 1)
    assert len(rows) >= 3  # self-hosted, spot, the pooled reservation
    for r in rows:
        assert sheet.cell(r, imbalance).value == pytest.approx(
            0.0, abs=1e-6 * _number(sheet.cell(r, demanded).value)
        )


def test_hostile_names_stay_text_and_their_sheets_still_compute(
    recalculated: dict[str, Workbook],
) -> None:
    """A scenario and a cloud option named `=HYPERLINK(...)`: the option's sheet is named
    after it, formulas refer to it quoted, and after LibreOffice recalculates, the names are
    still text and the hand case's NPV is unchanged."""
    book = recalculated["hostile"]
    assert book["Comparison"]["A4"].value == LINK
    assert book["Comparison"]["B4"].value == pytest.approx(249_086.0, abs=CENT)
    cover = {row[0]: row[1] for row in book["Cover"].iter_rows(min_row=3, values_only=True)}
    assert cover["Scenarios"] == LINK
    assert any(title.startswith("=HYPERLINK") for title in book.sheetnames)


def test_the_same_report_gives_the_same_bytes(
    reports: dict[str, TcoReport], written: dict[str, bytes]
) -> None:
    assert _xlsx(reports["hand"]) == written["hand"]


def test_a_chinese_workbook_names_its_sheets_and_inputs_in_chinese(
    reports: dict[str, TcoReport],
) -> None:
    report = reports["worked"]
    data = write_xlsx(build_report([(report.scenario, report)], 0, "zh", TODAY))
    book = load_workbook(BytesIO(data))
    assert book.sheetnames[:2] == ["封面", "假设"]
    assert {"比较", "月度现金流", "折旧", "敏感性", "需求台账", "回放"} <= set(book.sheetnames)
    assumptions = {row[0] for row in book["假设"].iter_rows(min_row=4, values_only=True)}
    assert {"折现率（名义）", "PUE（能效比）", "电价", "每全职人员成本"} <= assumptions
    assert book["自建"].cell(1, OWN_COL["cash"]).value == "现金流"


def test_two_scenarios_in_one_workbook_each_recalculate(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """The Compare page's workbook: each scenario's sheets and names carry its number."""
    book = recalculated["two"]
    for tag, name in (("S1", "worked"), ("S2", "taxed")):
        expected = reports[name].horizons[0].comparisons[0].npv_of_buying
        assert book[f"{tag} Comparison"]["B4"].value == pytest.approx(expected, abs=CENT)
        assert book[f"{tag} Assumptions"]["G4"].value == f"{tag}_DiscountRate"


EXCEL_FUNCTIONS = {
    "ABS", "AND", "AVERAGE", "COUNT", "IF", "IFERROR", "INDEX", "INT", "IRR", "ISNA", "MATCH", "MAX",
    "MIN", "MOD", "NPV", "OR", "ROUND", "ROUNDUP", "SUM", "SUMPRODUCT", "VDB",
}  # fmt: skip


def test_formulas_use_excel_functions_and_valid_names(written: dict[str, bytes]) -> None:
    import re

    for name in ("sample", "taxed", "cloud", "mixed"):
        book = load_workbook(BytesIO(written[name]))
        formulas = [
            str(c.value) for s in book.worksheets for row in s.iter_rows() for c in row
            if c.data_type == "f"
        ]  # fmt: skip
        quoted = [re.sub(r"'(?:[^']|'')*'!|\"[^\"]*\"", "", f) for f in formulas]
        used = {m for f in quoted for m in re.findall(r"([A-Z][A-Z0-9.]*)\(", f)}
        assert used <= EXCEL_FUNCTIONS, used - EXCEL_FUNCTIONS
        assert len(book.defined_names) >= 10
        for defined in book.defined_names:
            assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_.]*", defined), defined
            assert not re.fullmatch(r"[A-Za-z]{1,3}[0-9]+|[RrCc][0-9]*", defined), defined


def test_replay_sheet_says_utilization_waits_and_why_jobs_waited(
    reports: dict[str, TcoReport], written: dict[str, bytes]
) -> None:
    report = reports["sample"]
    assert report.inputs is not None
    sheet = load_workbook(BytesIO(written["sample"]))["Replay"]
    rows = [r for r in sheet.iter_rows(min_row=2, values_only=True) if r[0] is not None]
    facts = {(str(r[1]), str(r[2])): r[3] for r in rows}
    for owned in report.inputs.owned:
        replay = owned.replay
        assert replay is not None
        assert facts[(owned.name, "Utilization of the owned GPUs")] == replay.utilization
        assert facts[(owned.name, "Jobs")] == replay.jobs
        wait = facts[(owned.name, "p95 wait (h)")]
        assert wait == pytest.approx((replay.wait_p95_s or 0.0) / 3600)
        reasons = {k[1] for k in facts if k[0] == owned.name and "waited because" in k[1]}
        assert len(reasons) == len(replay.waiting_gpu_hours_by_reason)


def test_every_cloud_part_hand_computed_for_one_month(recalculated: dict[str, Workbook]) -> None:
    """MIXED's month (365 two-hour spans). Spot at $2 a GPU-hour: 3 instance-hours of 8 GPUs
    ($16) = $17,520; interruptions (0.5 an hour, half of a 20-minute checkpoint interval lost
    plus a 6-minute restart: 16 min an hour) re-run 0.4 of them = $2,336; the CPU-only job
    730 vCPU-hours x $0.05 + 2,920 GiB-hours x $0.01 = $65.70; 1,000 GB stored x $0.02 =
    $20; 500 GB out x $0.09 = $45. The reservation: 8 GPUs x 730 h x $4.4032 = $25,714.688;
    in the first hour of each span 16 GPUs run, half above the commitment: 730
    instance-hours x 1/2 x $55.04 = $20,089.60."""
    book = recalculated["mixed"]

    def month(sheet: str, part: str) -> float:
        return _number(book[sheet].cell(2, CLOUD_COL[part]).value)

    spot = {"cloud_compute": 17_520.0, "spot_overhead": 2_336.0, "cloud_cpu": 65.7,
            "storage": 20.0, "egress": 45.0, "commitment": 0.0, "overflow": 0.0}  # fmt: skip
    reserved = {"cloud_compute": 0.0, "commitment": 25_714.688, "overflow": 20_089.6,
                "cloud_cpu": 65.7, "spot_overhead": 0.0, "storage": 0.0}  # fmt: skip
    for sheet, parts in (("spot", spot), ("reserved", reserved)):
        for part, amount in parts.items():
            assert month(sheet, part) == pytest.approx(amount, abs=CENT), (sheet, part)


def test_a_commitment_overflowing_to_spot_pays_its_reruns_on_the_overflow_only(
    recalculated: dict[str, Workbook],
) -> None:
    """SPILL's month: the reservation as in MIXED (8 GPUs x 730 h x $4.4032 = $25,714.688),
    but the GPU-hours above it billed by the spot option: in the first hour of each span half
    of each job's 8 GPUs is above the commitment, 1 instance-hour of 8 GPUs at $16 a span,
    365 a month = $5,840; spot's re-run share (2/15 of its instance-hours, as the spot
    option's $2,336 over $17,520 shows) of that overflow only = $778.67, not of the
    committed hours."""
    book = recalculated["spill"]

    def month(sheet: str, part: str) -> float:
        return _number(book[sheet].cell(2, CLOUD_COL[part]).value)

    assert month("reserved", "commitment") == pytest.approx(25_714.688, abs=CENT)
    assert month("reserved", "overflow") == pytest.approx(5_840.0, abs=CENT)
    assert month("reserved", "spot_overhead") == pytest.approx(5_840.0 * 2 / 15, abs=CENT)
    assert month("reserved", "cloud_compute") == 0.0
    assert month("spot", "spot_overhead") == pytest.approx(2_336.0, abs=CENT)


def test_a_flat_commitment_overflows_on_demand(recalculated: dict[str, Workbook]) -> None:
    """4 GPUs a month on 3 committed at $10: 3 x 730 x 10 = $21,900 committed and the 730
    GPU-hours above at $10 = $7,300."""
    sheet = recalculated["committed"]["flat"]
    assert sheet.cell(2, CLOUD_COL["commitment"]).value == pytest.approx(21_900.0, abs=CENT)
    assert sheet.cell(2, CLOUD_COL["overflow"]).value == pytest.approx(7_300.0, abs=CENT)


def test_changing_the_committed_gpus_moves_every_figure_as_the_model_predicts(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """The reservation cut to 4 GPUs on Assumptions (its bill's and the hybrid's bursts'):
    the recalculated workbook is the model's run with 4 committed, to the cent."""
    predicted = reports["mixed4"]
    book = recalculated["mixed_committed"]
    _check(book, predicted, predicted.horizons[0])
    before = recalculated["mixed"]["reserved"].cell(2, CLOUD_COL["overflow"]).value
    assert book["reserved"].cell(2, CLOUD_COL["overflow"]).value > _number(before) + 1000


def test_changing_the_on_demand_price_above_the_commitment_moves_npv_as_the_model_predicts(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """The reservation's on-demand price $55.04 -> $70 an instance-hour: the model prices the
    trace's jobs (`planner.cost.cloud`) with the new price, and the workbook's overflow, total
    and NPV of buying against the reservation follow to the cent."""
    report = reports["mixed"]
    assert report.inputs is not None
    horizon = report.horizons[0]
    months = round(horizon.years * 12)
    jobs = [CloudJob("g1", 0.0, 3600.0, 1, 8.0), CloudJob("g2", 0.0, 7200.0, 1, 8.0)]
    sku = Sku("p5.48xlarge", "H100", 8.0, 70.0)
    bill = cloud.with_commitment(
        cloud.price_jobs(jobs, [sku]),
        jobs,
        [sku],
        committed_gpus=8,
        commit_price_per_gpu_hour=4.4032,
    )
    reserved = report.inputs.clouds[1].rented
    scale = HOURS_PER_MONTH / 2.0
    per_month = {**reserved.per_month, "overflow": bill.overflow * scale}
    rent = tco.rented_option(
        replace(reserved, per_month=per_month), report.inputs.owned[0].demand, months, 0.1
    )
    own = next(o for o in horizon.options if o.name == "self-hosted")
    npv = finance.npv(
        [r - o for r, o in zip(rent.monthly_cash, own.monthly_cash, strict=True)], 0.1
    )
    book = recalculated["mixed_on_demand"]
    overflow = book["reserved"].cell(2, CLOUD_COL["overflow"]).value
    assert overflow == pytest.approx(730 * 0.5 * 70.0, abs=CENT)
    assert _figure(book, "reserved", "total_pnl", True) == pytest.approx(
        sum(rent.monthly_pnl), abs=CENT
    )
    assert book["Comparison"]["B5"].value == pytest.approx(npv, abs=CENT)
    assert npv - horizon.comparisons[1].npv_of_buying > 1000  # renting dearer: buying gains


def _tornado(book: Workbook) -> list[tuple[Any, ...]]:
    """The bar table's rows (the case blocks start after an empty row)."""
    rows = []
    for row in book["Sensitivity"].iter_rows(min_row=2, max_col=SENS["how"], values_only=True):
        if row[0] is None:
            break
        rows.append(row)
    return rows


@pytest.mark.parametrize(
    ("name", "workbook"),
    [(n, n) for n in ("worked", "taxed", "insured", "committed", "escalated")]
    + [("worked10", "worked_swing")],
)
def test_the_tornado_recalculates_to_the_models_bars(
    name: str, workbook: str, reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """Every live case (a column re-evaluating the saving with one input moved) gives the
    model's NPV at that driver's low and high to the cent; server life and FX are the model's
    values and say so. `worked_swing` is the worked workbook with the swing changed to 10% on
    Assumptions against the model run with a 10% swing (its model-only rows stay at 20%)."""
    s = reports[name].sensitivity
    assert s is not None
    rows = {r[SENS["driver"] - 1]: r for r in _tornado(recalculated[workbook])}
    assert len(rows) == len(s.bars)
    for bar in s.bars:
        row = rows[text(f"report.driver.{bar.driver}", "en")]
        live = bar.driver in LIVE
        assert row[SENS["how"] - 1].startswith("live" if live else "computed by the model")
        assert row[SENS["base"] - 1] == pytest.approx(s.base, abs=CENT)
        if not live and workbook != name:
            continue  # the model's values stay those of the report the workbook was made of
        assert row[SENS["low"] - 1] == pytest.approx(bar.low, abs=CENT), bar.driver
        assert row[SENS["high"] - 1] == pytest.approx(bar.high, abs=CENT), bar.driver
    live = {b.driver for b in s.bars} & set(LIVE)
    assert {
        "rate",
        "electricity",
        "pue",
        "staff",
        "cloud_price",
        "server_price",
        "resale_share",
    } <= live


@pytest.mark.parametrize("name", ["sample", "mixed"])
def test_a_hybrid_pairs_tornado_is_the_models_and_says_so(
    name: str, reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """A scenario with a hybrid weighs the hybrid (its headline pair), which no Comparison
    columns weigh: every bar is the model's value, stated so."""
    pair = reports[name].horizons[0].pair
    assert pair is not None
    assert pair.owned == "hybrid"
    s = reports[name].sensitivity
    assert s is not None
    rows = _tornado(recalculated[name])
    assert len(rows) == len(s.bars)
    for row, bar in zip(rows, s.bars, strict=True):
        assert str(row[SENS["how"] - 1]).startswith("computed by the model")
        assert row[SENS["low"] - 1] == pytest.approx(bar.low, abs=CENT)
        assert row[SENS["high"] - 1] == pytest.approx(bar.high, abs=CENT)


def test_a_workbook_of_another_horizon_states_the_tornado_as_the_models(
    recalculated: dict[str, Workbook],
) -> None:
    rows = _tornado(recalculated["worked5"])
    assert rows
    assert all(str(r[SENS["how"] - 1]).startswith("computed by the model") for r in rows)


def test_a_changed_tariff_moves_the_tornado_base_and_its_cases(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    before, after = (_tornado(recalculated[k]) for k in ("worked", "worked_tariff"))
    pair = reports["worked"].horizons[0].pair
    assert pair is not None
    clouds = [o.name for o in reports["worked"].horizons[0].options[1:]]
    row = 4 + clouds.index(pair.rented)  # the tornado is the headline pair's (the cheapest)
    npv = recalculated["worked_tariff"]["Comparison"][f"B{row}"].value
    assert after[0][SENS["base"] - 1] == pytest.approx(npv, abs=CENT)
    moved = [
        a[SENS["low"] - 1] - b[SENS["low"] - 1]
        for a, b in zip(after, before, strict=True)
        if a[SENS["how"] - 1].startswith("live")
    ]
    assert len(moved) >= 6
    assert min(abs(m) for m in moved) > 1.0  # every live case follows the tariff


def test_two_scenarios_each_get_their_live_tornado(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """The Compare page's workbook: each scenario's cases in its own block, on its own
    sheets and names."""
    rows = _tornado(recalculated["two"])
    expected = [
        (tag, bar)
        for tag, name in (("A", "worked"), ("B", "taxed"))
        for bar in (reports[name].sensitivity.bars if reports[name].sensitivity else ())
    ]
    assert len(rows) == len(expected)
    for row, (tag, bar) in zip(rows, expected, strict=True):
        assert row[0] == tag
        assert row[SENS["low"] - 1] == pytest.approx(bar.low, abs=CENT), (tag, bar.driver)
        assert row[SENS["high"] - 1] == pytest.approx(bar.high, abs=CENT), (tag, bar.driver)


def test_a_report_saved_before_the_bills_parts_states_them_and_still_adds_up(
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    """Saved JSON without the parts' quantities: the overflow is a stated amount (the
    'other' column) and every option still recalculates to the model's cash."""
    report, book = reports["cloud_per_job"], recalculated["cloud_saved_before"]
    months = round(report.horizons[0].years * 12)
    for o in report.horizons[0].options:
        cash = _column(book, o.name, CLOUD_COL["cash"], months)
        assert cash == pytest.approx(list(o.monthly_cash), abs=CENT)
    reserved = report.horizons[0].options[1]
    stated = sum(_column(book, reserved.name, CLOUD_COL["other"], months))
    assert stated == pytest.approx(reserved.totals["overflow"], abs=CENT)
