"""Payback and break-even month by one convention on every surface: the worked example's
months at 90 % allocation (where buying pays back within the horizon, against Lambda in month 30
undiscounted and 33 discounted) as `planner tco` prints and serialises them, as the PDF shows them (page 1 and the
appendix's A3, read with pdftotext) and as the recalculated workbook's Comparison sheet
finds them (its summary row and the month column where each cumulative saving turns >= 0)
are the same numbers, counted from 1, the month of purchase.
"""

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from planner.cli import main
from planner.core.serialize import from_json
from planner.cost.results import TcoReport
from planner.cost.tco import Comparison
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.report.pdf import write_pdf
from planner.report.pdf_fonts import find_fonts
from planner.report.pdf_summary import decide
from planner.report.workbook.compare import saving_cells
from tests.debian import apt_install
from tests.libreoffice import recalculate
from tests.test_pdf_summary import _page_text

WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"


def _cli(scenario: Path, *flags: str) -> str:
    db = scenario.with_suffix(".duckdb")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["tco", "--scenario", str(scenario), "--db", str(db), *flags]) == 0
    return buffer.getvalue()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[TcoReport, str, dict[str, object]]:
    """The worked example at 90 % allocation: its JSON report, its text, the raw JSON."""
    scenario = tmp_path_factory.mktemp("months") / "worked90.yaml"
    source = WORKED.read_text()
    assert "\nutilization: 0.35\n" in source
    scenario.write_text(source.replace("\nutilization: 0.35\n", "\nutilization: 0.9\n"))
    raw = json.loads(_cli(scenario, "--json"))
    return from_json(TcoReport, raw), _cli(scenario), raw


def _compared(report: TcoReport) -> Comparison:
    """Buying against Lambda, which pays back late in the 3-year horizon."""
    return next(c for c in report.horizons[0].comparisons if c.rented.startswith("Lambda"))


def test_the_json_counts_months_from_one_and_the_text_says_the_same(
    runs: tuple[TcoReport, str, dict[str, object]],
) -> None:
    report, shown, raw = runs
    c = _compared(report)

    assert (c.payback_month, c.break_even_month) == (30, 33)
    assert json.dumps(raw).count('"break_even_month": 33') == 2  # both horizons
    assert f"buy vs {c.rented}: NPV" in shown
    assert f"break-even month {c.break_even_month}" in shown


def test_the_pdf_shows_the_models_months(
    runs: tuple[TcoReport, str, dict[str, object]], tmp_path: Path
) -> None:
    if not shutil.which("pdftotext"):
        apt_install("poppler-utils", "reading the PDF back")
    report, _, _ = runs
    c = _compared(report)
    pdf = tmp_path / "worked.pdf"
    pdf.write_bytes(write_pdf(build_report([("worked", report)], 0, "en"), find_fonts()).data)

    appendix = " ".join(_page_text(pdf, 2, 99).split())
    summary = _page_text(pdf, 1)

    assert f"{c.payback_month} {c.break_even_month}" in appendix
    against = decide(("worked", report), 0).against
    assert against is not None
    month = against.break_even_month
    assert (f"month {month}" if month else "never in 36 months") in summary


def test_the_recalculated_workbook_finds_the_same_months(
    runs: tuple[TcoReport, str, dict[str, object]], tmp_path: Path
) -> None:
    report, _, _ = runs
    horizon = report.horizons[0]
    written = tmp_path / "worked.xlsx"
    written.write_bytes(write_xlsx(build_report([("worked", report)], 0, "en")))

    (path,) = recalculate([written], tmp_path / "out")
    sheet = load_workbook(path, data_only=True)["Comparison"]

    clouds = len(horizon.comparisons)
    for k, c in enumerate(horizon.comparisons):
        assert sheet.cell(4 + k, 4).value == (c.payback_month or "never")
        assert sheet.cell(4 + k, 5).value == (c.break_even_month or "never")
        column, first, last = saving_cells(clouds, k, round(horizon.years * 12))
        month = next(
            (
                sheet.cell(r, 1).value
                for r in range(first, last + 1)
                if sheet.cell(r, column + 5).value == 1
            ),
            None,
        )
        assert month == c.break_even_month
