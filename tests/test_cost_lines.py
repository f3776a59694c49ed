"""The table of owning's cost lines (`planner.cost.lines`): insurance and property tax priced
by hand, and every place that lists lines or assumptions agreeing with the table."""

import csv
import io
import json
import subprocess
from dataclasses import fields, replace
from pathlib import Path

import pytest

from planner.core.file_access import LOCAL_FILES
from planner.core.serialize import from_json, to_json
from planner.cost import tco
from planner.cost.baremetal import (
    BareMetal,
    ServerPool,
    fixed_per_installed_gpu_hour,
    monthly,
)
from planner.cost.lines import ASSUMPTIONS, CATEGORIES, LINE_KEYS, LINES
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.report import model
from planner.report.render import render
from planner.report.text import CATALOGS
from planner.report.workbook import owned
from planner.report.workbook.assumptions import _SCALARS
from planner.service.tco_run import run_tco
from planner.store import connect
from planner.ui.compare_view import category_frame
from tests.debian import program
from tests.workbook_cases import INSURED

CENT = 0.005
PRICE = 120_000.0


def _bm(**fields_: float) -> BareMetal:
    """One 8-GPU server at $120,000: no network, storage, power, colocation, support, staff,
    so only the lines under test cost anything; a 1-year straight-line book life."""
    pool = ServerPool("H100", 1, 8, PRICE, 0.0, 0.0, 0.0)
    base: dict[str, object] = {
        "network_share": 0.0,
        "storage_share": 0.0,
        "life_years": 1.0,
        "colo_per_kw_month": 0.0,
        "support_share_year": 0.0,
        "fte": 0.0,
        "kwh_price": (0.0,),
    }
    return replace(BareMetal(pools=(pool,)), **(base | fields_))


def test_insurance_is_a_share_of_capex_a_year_while_in_service() -> None:
    # 1 % of $120,000 a year = $100 a month, from delivery (month 2) on
    months = monthly(_bm(insurance_share_year=0.01, lead_time_months=2), 14, (0.5,))
    insurance = [m.category("insurance") for m in months]
    assert insurance == [0.0, 0.0] + [100.0] * 12


def test_property_tax_is_charged_on_the_book_value_at_each_months_start() -> None:
    # 12 % a year of the book value: month k in service starts at 120,000 - 10,000 k, so
    # pays 1,200 - 100 k; over the 12 months 14,400 - 100 x 66 = 7,800
    months = monthly(_bm(property_tax_share_year=0.12, lead_time_months=1), 13, (0.0,))
    tax = [m.category("property_tax") for m in months]
    assert tax[0] == 0.0
    assert tax[1:] == pytest.approx([1200.0 - 100.0 * k for k in range(12)], abs=1e-9)
    assert sum(tax) == pytest.approx(7800.0, abs=CENT)


def test_both_lines_are_running_costs_in_the_pnl_cash_and_tax_shield() -> None:
    bm = _bm(insurance_share_year=0.01, property_tax_share_year=0.12, tax_rate=0.25)
    demand = tco.Demand(useful_gpu_hours=1000.0)
    result = tco.owned_option("own", bm, demand, 12, 0.0)
    assert result.totals["insurance"] == pytest.approx(1200.0, abs=CENT)
    assert result.totals["property_tax"] == pytest.approx(7800.0, abs=CENT)
    # P&L: depreciation 120,000 + 1,200 + 7,800; the tax shield a quarter of the deductible
    # costs (tax depreciation on the same schedule, and both lines)
    assert sum(result.monthly_pnl) == pytest.approx(129_000.0, abs=CENT)
    assert result.totals["tax_shield"] == pytest.approx(-0.25 * 129_000.0, abs=CENT)
    assert result.pnl_by_category is not None
    assert sum(result.pnl_by_category["property_tax"]) == pytest.approx(7800.0, abs=CENT)


def test_f_counts_property_tax_at_the_mean_book_value_over_the_life() -> None:
    # per year: depreciation 120,000, insurance 1,200, property tax 12 % of 60,000 = 7,200
    bm = _bm(insurance_share_year=0.01, property_tax_share_year=0.12)
    per_year = 120_000.0 + 1_200.0 + 7_200.0
    assert fixed_per_installed_gpu_hour(bm) == pytest.approx(per_year / (8 * 8760.0))


def test_the_new_lines_cost_nothing_by_default() -> None:
    bm = _bm()
    assert bm.insurance_share_year == 0.0
    assert bm.property_tax_share_year == 0.0
    result = tco.owned_option("own", bm, tco.Demand(useful_gpu_hours=1.0), 24, 0.05)
    assert result.totals["insurance"] == 0.0
    assert result.totals["property_tax"] == 0.0


def test_negative_rates_are_refused_by_the_tables_check() -> None:
    with pytest.raises(Exception, match="insurance_share_year must not be negative"):
        _bm(insurance_share_year=-0.01)
    with pytest.raises(Exception, match="property_tax_share_year must not be negative"):
        _bm(property_tax_share_year=-0.01)


def test_every_bare_metal_input_has_one_entry_in_the_table() -> None:
    scalars = {f.name for f in fields(BareMetal)} - {"pools", "notes"}
    entries = [a.field for a in ASSUMPTIONS]
    assert sorted(entries) == sorted(scalars)
    for line in LINES:
        assert line.rate in scalars
        if line.instead is not None:
            assert line.instead[0] in scalars


def test_every_line_reaches_the_categories_the_workbook_and_both_languages() -> None:
    assert CATEGORIES[4 : 4 + len(LINES)] == LINE_KEYS
    assert set(LINE_KEYS) <= set(model.CATEGORIES)
    assert set(LINE_KEYS) <= set(owned.COLUMNS)
    assert set(LINE_KEYS) <= set(owned.FIGURES)
    named = {field for field, *_ in _SCALARS}
    for lang, catalog in CATALOGS.items():
        for key in LINE_KEYS:
            for prefix in ("report.cat.", "report.wb.own.", "report.wb.fig."):
                assert prefix + key in catalog, (lang, prefix + key)
        for entry in ASSUMPTIONS:
            if entry.field in named:
                assert f"report.wb.bm.{entry.field}" in catalog, (lang, entry.field)
                assert f"report.wb.unit.{entry.unit}" in catalog, (lang, entry.unit)


@pytest.fixture(scope="module")
def insured(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    """The workbook tests' INSURED case priced by `run_tco`, read back from its JSON (what a
    saved result is)."""
    with connect(tmp_path_factory.mktemp("lines") / "p.duckdb") as con:
        found = run_tco(con, TcoScenario.model_validate(INSURED), files=LOCAL_FILES)
    return from_json(TcoReport, json.loads(json.dumps(to_json(found))))


def test_insurance_and_property_tax_reach_json_csv_pdf_and_compare(
    insured: TcoReport, tmp_path: Path
) -> None:
    own = insured.horizons[0].options[0]
    insurance, tax = own.totals["insurance"], own.totals["property_tax"]
    # JSON: 1.2 % of CapEx a year over the 46 months in service (a 2-month lead time)
    assert insurance == pytest.approx(0.012 * 100_000 / 12 * 46, abs=CENT)
    assert 0 < tax < 0.03 * 100_000 / 12 * 46  # on a falling book value
    named = [("insured", insured)]
    # CSV: the tidy P&L rows of each line add up to its total
    files, _ = render(named, "csv")
    rows = list(csv.DictReader(io.StringIO(files[""].decode("utf-8-sig"))))
    mine = [r for r in rows if r["option"] == own.name and r["view"] == "pnl"]
    for key, total in (("insurance", insurance), ("property_tax", tax)):
        amounts = [float(r["amount"]) for r in mine if r["category"] == key]
        # each row is within a cent of its amount (rounded along the running sum of all
        # the option's rows, not of this category's)
        assert sum(amounts) == pytest.approx(total, abs=0.01 * len(amounts)), key
    # PDF: the appendix's table by category names both lines with their totals
    pdf, _ = render(named, "pdf")
    path = tmp_path / "r.pdf"
    path.write_bytes(pdf[""])
    reader = program(("pdftotext",), "poppler-utils", "reading the PDF back")
    shown = subprocess.run([reader, str(path), "-"], capture_output=True, text=True, check=True)
    assert "Insurance" in shown.stdout
    assert "Property tax" in shown.stdout
    assert f"{insurance:,.0f}" in shown.stdout
    # Compare: the table by category, in both languages
    frame = category_frame(insured, 0, "en").set_index("category")
    assert frame.loc["Insurance"].iloc[0] == pytest.approx(insurance)
    assert frame.loc["Property tax"].iloc[0] == pytest.approx(tax)
    assert "保险" in set(category_frame(insured, 0, "zh")["category"])
