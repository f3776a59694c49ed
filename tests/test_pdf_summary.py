"""The PDF report's one-page executive summary and its appendix, read back the way a
person sees them: rendered to images (pdftoppm), its text extracted (pdftotext) and its
fonts listed (pdffonts), all from Debian's poppler-utils.

poppler-utils and a Chinese font (fonts-wqy-microhei) are installed with apt-get when
missing, like tests/e2e/conftest.py installs chromium. Each PDF is built once per module.
"""

import contextlib
import io
import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

from planner.cli import main
from planner.core.i18n import fmt_money
from planner.core.serialize import from_json
from planner.cost import finance
from planner.cost.results import (
    Horizon,
    Sensitivity,
    SensitivityBar,
    TcoReport,
    plain_report,
)
from planner.cost.tco import Comparison, OptionReport
from planner.report import build_report
from planner.report.pdf import write_pdf
from planner.report.pdf_fonts import Fonts, find_fonts
from planner.report.text import text
from tests.debian import apt_install

WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"
NAME = "worked example"
POPPLER = ("pdftoppm", "pdftotext", "pdffonts")
CJK_PACKAGE = "fonts-wqy-microhei"


@pytest.fixture(scope="module")
def poppler() -> None:
    """pdftoppm, pdftotext and pdffonts on PATH (Debian's poppler-utils)."""
    if not all(shutil.which(tool) for tool in POPPLER):
        apt_install("poppler-utils", "reading the PDF back")
    missing = [tool for tool in POPPLER if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"poppler-utils is installed but {', '.join(missing)} is not on PATH")


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    """The machine's fonts, with a Chinese one (installed when there is none)."""
    found = find_fonts()
    if found.cjk is None:
        apt_install(CJK_PACKAGE, "the Chinese PDF")
        found = find_fonts()
    if found.cjk is None:
        pytest.fail(f"{CJK_PACKAGE} is installed but find_fonts() finds no Chinese font")
    return found


@pytest.fixture(scope="module")
def worked(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    """`planner tco --json` on the worked example, read back into its type."""
    db = tmp_path_factory.mktemp("pdf") / "p.duckdb"
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["tco", "--scenario", str(WORKED), "--db", str(db), "--json"]) == 0
    return from_json(TcoReport, json.loads(buffer.getvalue()))


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.fixture(scope="module")
def english(worked: TcoReport, fonts: Fonts, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = write_pdf(build_report([(NAME, worked)], 0, "en"), fonts)
    assert out.notes == ()
    return _write(tmp_path_factory.mktemp("pdf") / "en.pdf", out.data)


@pytest.fixture(scope="module")
def chinese(worked: TcoReport, fonts: Fonts, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = write_pdf(build_report([(NAME, worked)], 0, "zh"), fonts)
    assert out.notes == ()
    return _write(tmp_path_factory.mktemp("pdf") / "zh.pdf", out.data)


def _run(*command: str) -> str:
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def _page_text(pdf: Path, first: int, last: int | None = None) -> str:
    """The text of pages first..last (1-based), as pdftotext reads it."""
    return _run("pdftotext", "-f", str(first), "-l", str(last or first), str(pdf), "-")


def _rendered_pages(pdf: Path, out: Path) -> list[Path]:
    out.mkdir(exist_ok=True)
    _run("pdftoppm", "-png", "-r", "30", str(pdf), str(out / "page"))
    return sorted(out.glob("page-*.png"))


def _expected(report: TcoReport) -> dict[str, str]:
    """The headline figures, from the model's numbers, as the summary formats them."""
    horizon = report.horizons[0]
    priced = [o for o in horizon.options if o.cost_per_useful_gpu_hour is not None]
    best = min(priced, key=lambda o: o.cost_per_useful_gpu_hour or 0.0)
    against = next(c for c in horizon.comparisons if c.rented == best.name)
    month = against.break_even_month
    return {
        "decision": f"Rent: {best.name}",
        "npv": fmt_money(against.npv_of_buying, "USD", 0),
        "break_even": f"never in {round(horizon.years * 12)} months"
        if month is None
        else f"month {month}",
        "per_useful": fmt_money(best.cost_per_useful_gpu_hour, "USD", 2),
    }


def test_the_summary_is_page_one_and_the_appendix_follows(
    poppler: None, english: Path, tmp_path: Path
) -> None:
    pages = _rendered_pages(english, tmp_path)

    assert len(pages) >= 3
    assert all(p.stat().st_size > 1000 for p in pages)  # drawn, not blank
    summary = _page_text(english, 1)
    assert "Executive summary" in summary
    assert "Appendix" not in summary
    assert _page_text(english, 2).lstrip().startswith("Appendix")
    assert "A8 Notes" in _page_text(english, 2, len(pages))


def test_the_summary_shows_the_models_headline_figures(
    poppler: None, english: Path, worked: TcoReport
) -> None:
    expected = _expected(worked)
    summary = _page_text(english, 1)

    # the worked example by hand: RunPod at $2.69 is cheapest; buying loses against it.
    # With no resale value (the default) it loses 140,400 x 1.08^(-35/12) = 112,171 more
    # than when the book value left came back in month 36 (-342,921 then)
    assert expected == {
        "decision": "Rent: RunPod Community H100",
        "npv": "-$455,092",
        "break_even": "never in 36 months",
        "per_useful": "$2.69",
    }
    for shown in expected.values():
        assert shown in summary
    assert "Key assumptions" in summary
    assert "3 years at 8.0% a year" in summary
    assert "resale value at the horizon's end" in summary
    assert "none assumed (book value is not cash)" in summary


def test_every_summary_figure_is_in_the_appendix(
    poppler: None, english: Path, worked: TcoReport
) -> None:
    appendix = _page_text(english, 2, 99)
    horizon = worked.horizons[0]

    for shown in _expected(worked).values():
        assert shown.removeprefix("Rent: ") in appendix
    for o in horizon.options:  # cost per useful GPU-hour = total / useful GPU-hours
        assert o.cost_per_useful_gpu_hour == pytest.approx(o.total / o.useful_gpu_hours)
        assert fmt_money(o.total, "USD", 0) in appendix
        assert f"{o.useful_gpu_hours:,.0f}" in appendix
    assert "r = 8.0% a year" in appendix


def _crossing_report() -> TcoReport:
    """Buying costs 100 up front, then nothing; renting 30 a month: at 0% buying breaks even
    in month 4 (-70, -40, -10, +20) and gains 80 over six months."""
    owned_cash, rented_cash = (100.0, 0, 0, 0, 0, 0), (30.0,) * 6

    def option(name: str, cash: tuple[float, ...], per_useful: float) -> OptionReport:
        return OptionReport(name, sum(cash), {}, cash, cash, 60.0, per_useful)

    comparison = Comparison(
        "self-hosted",
        "cloud",
        finance.npv([r - o for r, o in zip(rented_cash, owned_cash, strict=True)], 0.0),
        None,
        "",
        None,
        finance.break_even_month(rented_cash, owned_cash, 0.0),
        0.5,
    )
    options = (option("self-hosted", owned_cash, 100 / 60), option("cloud", rented_cash, 3.0))
    horizon = Horizon(0.5, options, (comparison,))
    report = plain_report((horizon,), scenario="cross", scope="gpu-jobs", allocation=0.5)
    return replace(report, discount_rate=0.0)


def test_a_break_even_month_in_the_horizon_is_shown_and_recomputable(
    poppler: None, fonts: Fonts, tmp_path: Path
) -> None:
    pdf = _write(
        tmp_path / "cross.pdf", write_pdf(build_report([("cross", _crossing_report())]), fonts).data
    )

    summary = _page_text(pdf, 1)
    assert "Buy servers (self-hosted)" in summary
    assert "month 4" in summary
    assert "$80" in summary  # NPV at 0%: 6 x 30 - 100
    cash = _page_text(pdf, 2, 99)
    assert "-$10" in cash  # month 3's discounted cumulative saving, the last below zero
    assert "$20" in cash  # month 4's, the first at or above zero


def test_the_summary_stays_one_page_with_many_scenarios(
    poppler: None, fonts: Fonts, tmp_path: Path
) -> None:
    drivers = ("cloud_price", "utilization", "server_price", "life", "staff", "rate", "pue")
    bars = tuple(SensitivityBar(d, -100.0 * k, 50.0 * k, 150.0 * k) for k, d in enumerate(drivers))
    sensitivity = Sensitivity("NPV of buying vs cloud, 0.5 years", 80.0, bars)
    report = replace(_crossing_report(), sensitivity=sensitivity)
    named = [
        (f"a rather long scenario name, number {k}, to wrap in its cell", report) for k in range(9)
    ]

    pdf = _write(tmp_path / "many.pdf", write_pdf(build_report(named), fonts).data)

    summary = _page_text(pdf, 1)
    assert "9 scenarios" in summary
    assert "3 more in the appendix" in summary
    assert "Key assumptions" in summary
    assert "Where to find these figures" in summary  # the page's last line is on it
    assert _page_text(pdf, 2).lstrip().startswith("Appendix")


def test_prices_are_listed_once_each(
    poppler: None, worked: TcoReport, fonts: Fonts, tmp_path: Path
) -> None:
    twice = build_report([("A", worked), ("B", worked)], 0, "en")
    assert len(twice.prices.rows) == 2 * len(worked.prices_used)

    pdf = _write(tmp_path / "twice.pdf", write_pdf(twice, fonts).data)

    appendix = _page_text(pdf, 2, 99)
    section = appendix[appendix.index("A6 Prices used") : appendix.index("A7 Ledger")]
    prices = " ".join(section.split())  # a long name wraps in its cell
    for price in worked.prices_used:
        assert prices.count(price.price) == 1, price.price


def test_the_chinese_pdf_embeds_a_cjk_font_and_says_the_headline_in_chinese(
    poppler: None, chinese: Path, worked: TcoReport, fonts: Fonts
) -> None:
    assert fonts.cjk is not None
    with TTFont(fonts.cjk, fontNumber=0, lazy=True) as font:
        cjk_name = font["name"].getDebugName(6)  # the PostScript name pdffonts lists
    listed = _run("pdffonts", str(chinese)).splitlines()[2:]
    # name, type, encoding, then "emb sub uni": the subset of the CJK font is embedded
    embedded = [line.split() for line in listed if cjk_name in line]
    assert embedded, listed
    assert all(fields[-5:-2] == ["yes", "yes", "yes"] for fields in embedded), listed

    summary = _page_text(chinese, 1)
    expected = _expected(worked)
    assert text("report.pdf.summary", "zh") in summary
    assert "租用：RunPod Community H100" in summary
    assert "36 个月内不会达到" in summary
    assert expected["npv"] in summary
    assert expected["per_useful"] in summary
    assert "Executive summary" not in summary
    assert "自建 $7.13" in summary  # the model's option names are worded in Chinese too
    assert "self-hosted" not in summary
    assert "敏感性：相对 RunPod Community H100 购买的 NPV（3 年）" in summary  # the pair's
    assert _page_text(chinese, 2).lstrip().startswith("附录")


def test_without_a_chinese_font_the_pdf_is_english_and_says_why(
    poppler: None, worked: TcoReport, fonts: Fonts, tmp_path: Path
) -> None:
    no_cjk = Fonts(fonts.regular, fonts.bold, None)

    out = write_pdf(build_report([(NAME, worked)], 0, "zh"), no_cjk)

    assert out.notes == (text("report.pdf.no_cjk", "zh"),)
    summary = _page_text(_write(tmp_path / "no-cjk.pdf", out.data), 1)
    assert "Executive summary" in summary
    assert "Rent: RunPod Community H100" in summary


def test_the_reports_page_of_the_docs_shows_the_summary_page() -> None:
    root = Path(__file__).parent.parent
    shot = root / "docs" / "screenshots" / "pdf-summary.png"

    assert "(screenshots/pdf-summary.png)" in (root / "docs" / "reports.md").read_text()
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_the_same_report_gives_the_same_bytes(
    worked: TcoReport, fonts: Fonts, chinese: Path
) -> None:
    """`planner report` and the Compare page's download must hand out the same file (the
    module's Chinese PDF, built from the same report once before: a CJK font is dear)."""
    report = build_report([(NAME, worked)], 0, "zh")

    assert write_pdf(report, fonts).data == chinese.read_bytes()
