"""The workbook of a scenario with growing demand (`growth:`): live formulas over named
assumptions and each year's replay quantities (year k's months priced from year k's), a full
Depreciation sheet, and LibreOffice's recalculation equal to the model to the cent; changing
an assumption on Assumptions moves NPV as the model predicts from each year's inputs.

Case: two A100 servers owned (a 2-month lead time bridged in the cloud), a hybrid keeping one
and bursting, and renting at 2.00 a GPU-hour, over 2.5 years of a day of 8-GPU jobs growing
x1, x2, x3 a year (year 3 a half year); and the workbook tests' mix (spot, CPU instances,
storage, egress, an overflowed reservation, bursts) doubling in year 2. One LibreOffice run
recalculates every workbook.
"""

import json
from dataclasses import replace
from datetime import date
from io import BytesIO

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from planner.core.file_access import LOCAL_FILES
from planner.core.model import Job
from planner.core.serialize import from_json, to_json
from planner.cost import finance, tco
from planner.cost.baremetal import BareMetal, in_service_from
from planner.cost.elsewhere import Unserved, owned_unserved
from planner.cost.inputs import TcoInputs
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.tco import OptionReport
from planner.report.excel import write_xlsx
from planner.report.model import build_report
from planner.report.workbook.owned import COL as OWN_COL
from planner.report.workbook.owned import LATER_COLUMN, ROW, VALUE_COLUMN
from planner.report.workbook.rented import COL as CLOUD_COL
from planner.report.workbook.rented import ROWS as CLOUD_ROW
from planner.service.tco_run import run_tco, tco_of_jobs
from planner.store import open_store
from tests.libreoffice import recalculate
from tests.test_workbook_formulas import _changed
from tests.workbook_cases import MIXED, MIXED_TRACE, options_sheet_mismatches

TODAY = date(2026, 6, 1)
CENT = 0.005
SERVER = {"gpu": "A100", "servers": 2, "price": 100_000, "idle_kw": 1, "load_kw": 5, "max_kw": 6}
SCENARIO = {
    "horizons_years": [2.5, 1.5],
    "self_hosted": [SERVER],
    "cloud": [{"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0}],
    "hybrid": {"burst_after_s": 600, "servers": {"A100": 1}},
    "overrides": {"lead_time_months": 2},
    "growth": {"arrival_rate": [1, 2, 3], "seed": 5},
}
JOBS = [Job(f"j{i}", i * 3_600.0, 7_200.0, gpus=8.0, gpu_types=("A100",)) for i in range(24)]
MONTHS = 30


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    con = open_store(tmp_path_factory.mktemp("grown") / "planner.duckdb")
    try:
        found = tco_of_jobs(con, TcoScenario.model_validate(SCENARIO), JOBS, today=TODAY)
    finally:
        con.close()
    # as a saved report reads back (the Compare page's): the years' inputs survive
    return from_json(TcoReport, json.loads(json.dumps(to_json(found))))


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    """The workbook tests' mix (spot with storage, egress and CPU instances, a reservation the
    demand overflows, a hybrid bursting to it) over 2 years, its demand doubling in year 2."""
    folder = tmp_path_factory.mktemp("mixed")
    trace = folder / "mixed.csv"
    trace.write_text(MIXED_TRACE)
    grown = {**MIXED, "horizons_years": [2], "growth": {"arrival_rate": [1, 2], "seed": 3}}
    con = open_store(folder / "planner.duckdb")
    try:
        found = run_tco(
            con, TcoScenario.model_validate(grown), files=LOCAL_FILES, trace=str(trace), today=TODAY
        )
    finally:
        con.close()
    return from_json(TcoReport, json.loads(json.dumps(to_json(found))))


def _xlsx(report: TcoReport, lang: str = "en") -> bytes:
    return write_xlsx(build_report([("grown", report)], 0, lang, TODAY))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def recalculated(
    report: TcoReport, mixed: TcoReport, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Workbook]:
    folder = tmp_path_factory.mktemp("xlsx")
    data = _xlsx(report)
    files = {"grown": data, "changed": _changed(data, {"Tariff": 0.25, "Servers_A100": 3})}
    files["mixed"] = _xlsx(mixed)
    paths = []
    for name, content in files.items():
        path = folder / f"{name}.xlsx"
        path.write_bytes(content)
        paths.append(path)
    return {p.stem: load_workbook(p, data_only=True) for p in recalculate(paths, folder / "out")}


def _number(value: object) -> float:
    assert isinstance(value, int | float), f"not a number: {value!r}"
    return float(value)


def _column(book: Workbook, sheet: str, column: int, months: int = MONTHS) -> list[float]:
    return [_number(book[sheet].cell(r, column).value) for r in range(2, months + 2)]


def test_the_report_carries_each_later_years_quantities(report: TcoReport) -> None:
    inputs = report.inputs
    assert inputs is not None
    assert [y.year for y in inputs.later_years or ()] == [2, 3]
    bills = [y.clouds[0].rented.monthly_total for y in inputs.by_year()]
    assert bills[1] == pytest.approx(2 * bills[0])  # a whole factor copies every job
    assert bills[2] == pytest.approx(3 * bills[0])
    assert inputs.later_years is not None
    assert inputs.later_years[0].owned[0].demand != inputs.owned[0].demand


def test_the_workbook_is_live_over_each_years_quantities(report: TcoReport) -> None:
    book = load_workbook(BytesIO(_xlsx(report)))
    names = set(book.defined_names)

    assert {"Useful_1", "Y2_Useful_1", "Y3_Useful_1", "Y3_UsefulCloud_1"} <= names
    own = book["self-hosted"]
    assert str(own.cell(2, OWN_COL["cash"]).value).startswith("=")  # month 1's cash, a formula
    year_2 = get_column_letter(LATER_COLUMN + 1)  # year 2's kW and energy figures
    energy = own.cell(14, OWN_COL["energy"]).value  # month 13: year 2's energy, escalated
    assert energy == f"=B14*{year_2}27*HoursPerMonth*(1+PowerEscalationYear)^INT((A14-1)/12)"
    replays = {row[1] for row in book["Replay"].iter_rows(min_row=2, values_only=True)}
    assert {"self-hosted, year 1", "self-hosted, year 2", "hybrid, year 3"} <= replays
    zh = load_workbook(BytesIO(_xlsx(report, "zh")))
    sheet = zh[zh.sheetnames[1]]
    cells = [str(c.value) for row in sheet.iter_rows() for c in row if c.value]
    assert any(c.startswith("第 2 年（需求增长后）") for c in cells)
    assert "自建，第 3 年：每月有效 GPU 小时" in cells
    assert zh["自建"].cell(1, LATER_COLUMN).value == "第 2 年分配率"


def test_every_total_and_npv_recalculates_to_the_models_cent(
    report: TcoReport, recalculated: dict[str, Workbook]
) -> None:
    book = recalculated["grown"]
    horizon = report.horizons[0]
    for o in horizon.options:
        _check_option(book, o, owned=o.name in {"self-hosted", "hybrid"})
    row = [book["Comparison"].cell(4, j).value for j in range(1, 6)]
    c = horizon.comparisons[0]
    assert row[0] == "rent"
    assert row[1] == pytest.approx(c.npv_of_buying, abs=CENT)
    assert row[2] == pytest.approx(c.irr, abs=1e-7)
    assert row[3:5] == [c.payback_month, c.break_even_month]
    # the grown months differ from year 1 repeated: year 3's bill is three times year 1's
    rent = _column(book, "rent", CLOUD_COL["cash"])
    assert rent[24] == pytest.approx(3 * rent[0], abs=CENT)
    # every horizon's row of the all-horizons sheet, each from its own sheets
    assert options_sheet_mismatches(book, report) == []


def test_a_committed_spot_and_bursting_mix_recalculates_too(
    mixed: TcoReport, recalculated: dict[str, Workbook]
) -> None:
    """Each year's spot re-runs, CPU instances, storage, egress, the reservation's demand
    levels (Y2_Cloud_2_LevelHours1, ...) and the hybrid's burst bill, priced month by month."""
    book = recalculated["mixed"]
    horizon = mixed.horizons[0]
    for o in horizon.options:
        _check_option(book, o, owned=o.name in {"self-hosted", "hybrid"}, months=24)
    for k, c in enumerate(horizon.comparisons):
        assert book["Comparison"].cell(4 + k, 2).value == pytest.approx(c.npv_of_buying, abs=CENT)
    reserved = _column(book, "reserved", CLOUD_COL["overflow"], 24)
    assert reserved[12] > reserved[11] > 0  # year 2 overflows the same reservation more


def _check_option(book: Workbook, o: OptionReport, *, owned: bool, months: int = MONTHS) -> None:
    cash_column = OWN_COL["cash"] if owned else CLOUD_COL["cash"]
    cash = _column(book, o.name, cash_column, months)
    assert cash == pytest.approx(list(o.monthly_cash), abs=CENT)
    sheet = book[o.name]
    rows = ROW if owned else CLOUD_ROW
    assert sheet.cell(rows["total_pnl"], VALUE_COLUMN).value == pytest.approx(o.total, abs=CENT)
    useful = sheet.cell(rows["useful"], VALUE_COLUMN).value
    assert useful == pytest.approx(o.useful_gpu_hours, rel=1e-12)
    eac = sheet.cell(rows["eac"], VALUE_COLUMN).value
    assert eac == pytest.approx(o.equivalent_annual_cost, abs=CENT)
    if owned:
        for key, value in (
            ("per_useful", o.cost_per_useful_gpu_hour),
            ("per_installed", o.cost_per_installed_gpu_hour),
            ("per_allocated", o.cost_per_allocated_gpu_hour),
        ):
            assert sheet.cell(ROW[key], VALUE_COLUMN).value == pytest.approx(value, rel=1e-9)
        assert sheet.cell(ROW["idle"], VALUE_COLUMN).value == pytest.approx(o.idle_cost, abs=CENT)


def test_the_depreciation_sheet_is_full(
    report: TcoReport, recalculated: dict[str, Workbook]
) -> None:
    sheet = recalculated["grown"]["Depreciation"]
    own = next(o for o in report.horizons[0].options if o.name == "self-hosted")
    charges = [_number(sheet.cell(r, 2).value) for r in range(2, MONTHS + 2)]

    assert sheet.max_row == MONTHS + 1
    assert charges[:2] == [0.0, 0.0]  # not yet delivered
    assert sum(charges) == pytest.approx(own.totals["depreciation"], abs=CENT)


def _spliced_npv(inputs: TcoInputs, bm: BareMetal) -> float:
    """NPV of buying (self-hosted) against the first cloud option, priced by the Python model
    from each year's recorded inputs with `bm` as the servers' assumptions: year k's months
    from year k's cash, as `planner.cost.growth.splice` takes them."""
    rate = inputs.discount_rate
    saving: list[float] = []
    for k, year in enumerate(inputs.by_year()):
        demand, first = year.owned[0].demand, year.clouds[0].rented
        useful = first.useful_gpu_hours or demand.useful_gpu_hours
        bridge = tco.Bridge(first.monthly_total, useful)
        lines = _unserved(year, bm, demand)
        own = tco.owned_option(
            "self-hosted", bm, demand, MONTHS, rate, bridge=bridge, unserved=lines
        ).monthly_cash
        rent = tco.rented_option(first, demand, MONTHS, rate, tax_rate=bm.tax_rate).monthly_cash
        months = slice(12 * k, MONTHS if k == 2 else 12 * (k + 1))
        saving += [r - o for r, o in zip(rent[months], own[months], strict=True)]
    return finance.npv(saving, rate)


def _unserved(year: TcoInputs, bm: BareMetal, demand: tco.Demand) -> Unserved | None:
    """The year's served-elsewhere and waiting lines at the recorded rates (None: off)."""
    prices = year.served_elsewhere
    if prices is None or not prices.enabled:
        return None
    at = (MONTHS, in_service_from(bm, MONTHS))
    return owned_unserved(prices, demand.unserved_gpu_hours, demand.waited_gpu_hours, at)


def test_changing_an_assumption_moves_npv_as_the_model_predicts(
    report: TcoReport, recalculated: dict[str, Workbook]
) -> None:
    inputs = report.inputs
    assert inputs is not None
    bm = inputs.owned[0].bare_metal
    npv = report.horizons[0].comparisons[0].npv_of_buying
    assert _spliced_npv(inputs, bm) == pytest.approx(npv, abs=CENT)  # the inputs reproduce it
    pools = (replace(bm.pools[0], servers=3),)
    predicted = _spliced_npv(inputs, replace(bm, kwh_price=(0.25,), pools=pools))

    got = recalculated["changed"]["Comparison"]["B4"].value

    assert abs(predicted - npv) > 1000  # it does move
    assert got == pytest.approx(predicted, abs=CENT)
