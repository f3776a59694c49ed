"""The report Finance receives: xlsx, PDF and CSV built from `planner tco --json`, checked
against the worked example's hand-checkable numbers, in English and Chinese, through the
CLI and the app's download buttons."""

import contextlib
import io
import json
import re
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from streamlit.testing.v1 import AppTest

from planner.cli import main
from planner.core.i18n import number_style
from planner.core.serialize import from_json, to_json
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.csv_table import write_csv
from planner.report.excel import write_xlsx
from planner.report.pdf import write_pdf
from planner.report.pdf_fonts import Fonts, find_fonts
from planner.report.text import text
from planner.report.workbook.owned import COL as OWN_COL
from planner.report.workbook.owned import ROW, VALUE_COLUMN
from tests.pages.app import RUN_CEILING_S

SCENARIOS = Path(__file__).parent.parent / "data" / "scenarios"
WORKED = SCENARIOS / "worked-example-h100.yaml"
AWS = "AWS p5.48xlarge on-demand"
NAME = "worked example"


def tco_json(db: Path, scenario: Path) -> dict[str, Any]:
    args = ["tco", "--scenario", str(scenario), "--db", str(db), "--json"]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(args) == 0
    report: dict[str, Any] = json.loads(buffer.getvalue())
    return report


@pytest.fixture(scope="module")
def worked(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    """`planner tco --json`'s report, read back into its type."""
    return from_json(TcoReport, tco_json(tmp_path_factory.mktemp("report") / "p.duckdb", WORKED))


def _summary_values(book: Any) -> dict[str, Any]:
    sheet = book.worksheets[0]
    return {row[0].value: row[1] for row in sheet.iter_rows(min_row=3) if row[0].value}


def _pdf_text(data: bytes) -> bytes:
    """The page content streams of an fpdf2 PDF, inflated (core-font text is literal)."""
    out = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        with contextlib.suppress(zlib.error):
            out.append(zlib.decompress(stream))
    return b"\n".join(out)


def test_xlsx_holds_the_worked_example_numbers_as_numbers(worked: TcoReport) -> None:
    data = write_xlsx(build_report([(NAME, worked)], 0, "en"))

    book = load_workbook(io.BytesIO(data))
    assert book.sheetnames == [
        "Cover",
        "Assumptions",
        "self-hosted",
        *(o.name for o in worked.horizons[0].options[1:]),
        "Comparison",
        "Monthly cash flow",
        "Depreciation",
        "Sensitivity",
        "Verdict flips",
        "Ledger",
        "Replay",
        "Chargeback",
        "Options (all horizons)",
        "5y self-hosted",
        *(f"5y {o.name}" for o in worked.horizons[1].options[1:]),
        "5y Comparison",
        "Prices used",
        "Notes",
    ]
    facts = _summary_values(book)
    installed = facts["Self-hosted, per installed GPU-hour"]
    allocated = facts["Self-hosted, per allocated GPU-hour"]
    break_even = facts[f"Break-even utilization vs {AWS}"]
    # formulas over the option and comparison sheets (tests/test_workbook_one_source.py
    # recalculates them)
    assert installed.value == f"='self-hosted'!{_figure_cell('per_installed')}"
    assert allocated.value == f"='self-hosted'!{_figure_cell('per_allocated')}"
    assert break_even.value == "='Comparison'!F4"
    assert installed.number_format == '"$"#,##0.00;-"$"#,##0.00'
    assert break_even.number_format == "0.0%"
    assert "Owning pays only above 95% allocation" in facts["Conclusion"].value
    assert book["Options (all horizons)"].freeze_panes == "A2"
    assert book["Monthly cash flow"].freeze_panes == "B2"


def _figure_cell(key: str) -> str:
    return f"{get_column_letter(VALUE_COLUMN)}{ROW[key]}"


def test_options_sheet_has_every_option_and_category(worked: TcoReport) -> None:
    """Every horizon's row refers to that horizon's option sheet; the replay's waits are the
    model's values (tests/test_workbook_one_source.py recalculates the formulas)."""
    book = load_workbook(io.BytesIO(write_xlsx(build_report([(NAME, worked)], 0, "en"))))

    rows = list(book["Options (all horizons)"].iter_rows(values_only=True))
    header, body = rows[0], rows[1:]
    options = [o for h in worked.horizons for o in h.options]
    assert len(body) == len(options)
    own = dict(zip(header, body[0], strict=True))
    assert own["Option"] == "self-hosted"
    assert own["CapEx (cash)"] == "=SUM('self-hosted'!C2:C37)"
    assert own["Total (P&L)"] == f"='self-hosted'!{_figure_cell('total_pnl')}"
    five = dict(zip(header, body[len(worked.horizons[0].options)], strict=True))
    assert five["CapEx (cash)"] == "=SUM('5y self-hosted'!C2:C61)"


def test_monthly_cash_sheet_refers_to_each_options_cash_formulas(worked: TcoReport) -> None:
    """The values are the option sheets' formulas (recalculated and compared with the model
    in tests/test_workbook_formulas.py); a report without recorded inputs gets the values."""
    horizon = 1  # five years
    options = worked.horizons[horizon].options
    book = load_workbook(io.BytesIO(write_xlsx(build_report([(NAME, worked)], horizon, "en"))))

    sheet = book["Monthly cash flow"]
    header = [c.value for c in sheet[1]]
    assert header[: 1 + len(options)] == ["Month", *(o.name for o in options)]
    assert sheet.max_row == 1 + 60
    cash = get_column_letter(OWN_COL["cash"])
    assert sheet.cell(2, 2).value == f"='self-hosted'!{cash}2"  # the owned sheet's cash column
    assert sheet.cell(61, 3).value == f"='{options[1].name}'!K61"  # a cloud sheet's (cash)

    plain = replace(worked, inputs=None)
    sheet = load_workbook(io.BytesIO(write_xlsx(build_report([(NAME, plain)], horizon, "en"))))[
        "Monthly cash flow"
    ]
    for k, option in enumerate(options, start=2):
        column = [sheet.cell(r, k).value for r in range(2, sheet.max_row + 1)]
        assert all(isinstance(v, float) for v in column)
        assert sum(column) == pytest.approx(sum(option.monthly_cash))
        # no taxes in the worked example: the cash paid adds up to the P&L total
        assert sum(column) == pytest.approx(option.total)


def test_csv_round_trips_to_the_reports_numbers(worked: TcoReport) -> None:
    data = write_csv(build_report([(NAME, worked)], 0, "en"))

    assert data.startswith(b"\xef\xbb\xbf")
    frame = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig")
    options = [(h.years, o) for h in worked.horizons for o in h.options]
    assert len(frame) == len(options)
    for (years, option), row in zip(options, frame.itertuples(index=False), strict=True):
        values = dict(zip(frame.columns, row, strict=True))
        assert values["Horizon (years)"] == years
        assert values["Option"] == option.name
        assert values["Total (P&L)"] == pytest.approx(option.total, abs=0.005)  # to the cent
        assert values["Per useful GPU-hour"] == pytest.approx(option.cost_per_useful_gpu_hour)
        for category, amount in option.totals.items():
            assert values[text(f"report.cat.{category}", "en")] == pytest.approx(amount, abs=0.005)
        if option.wait_p95_s is not None:
            assert values["p95 wait (h)"] == pytest.approx(option.wait_p95_s / 3600)


def test_chinese_report_has_chinese_labels_and_conclusion(worked: TcoReport) -> None:
    report = build_report([(NAME, worked)], 0, "zh")

    book = load_workbook(io.BytesIO(write_xlsx(report)))
    assert book.sheetnames[:3] == ["封面", "假设", "自建"]
    assert "月度现金流" in book.sheetnames
    assert "方案（全部期限）" in book.sheetnames
    facts = _summary_values(book)
    assert facts["自建：每已装 GPU 小时成本"].value == f"='自建'!{_figure_cell('per_installed')}"
    assert "最便宜的方案是 RunPod Community H100" in facts["结论"].value
    frame = pd.read_csv(io.BytesIO(write_csv(report)), encoding="utf-8-sig")
    assert {"场景", "方案", "总成本（损益）", "p95 等待（小时）"} <= set(frame.columns)


def test_pdf_is_a_short_a4_report_with_its_page_count(worked: TcoReport) -> None:
    out = write_pdf(build_report([(NAME, worked)], 0, "en"))

    assert out.data.startswith(b"%PDF-")
    assert out.data.rstrip().endswith(b"%%EOF")
    assert re.findall(rb"/Count (\d+)\s*/Kids", out.data) == [str(out.pages).encode()]
    assert 2 <= out.pages <= 6  # the summary page, then the appendix (tests/test_pdf_summary.py)
    assert b"/MediaBox [0 0 595.28 841.89]" in out.data  # A4 in points


def test_pdf_falls_back_to_helvetica_and_says_so(worked: TcoReport) -> None:
    out = write_pdf(build_report([("Scénario · 算力", worked)], 0, "en"), Fonts())

    assert out.notes == (text("report.pdf.font_fallback", "en"),)
    content = _pdf_text(out.data)
    assert b"(Own, rent or both: GPU cost report) Tj" in content
    assert b"($2.50) Tj" in content  # per installed GPU-hour
    assert b"(36.3%) Tj" in content  # break-even vs AWS p5
    assert "Scénario · ??".encode("latin-1") in content  # outside Latin-1 replaced


def test_chinese_pdf_embeds_a_cjk_font_or_is_english_with_the_reason(
    worked: TcoReport,
) -> None:
    fonts = find_fonts()

    out = write_pdf(build_report([(NAME, worked)], 0, "zh"), fonts)

    assert out.data.startswith(b"%PDF-")
    if fonts.cjk is not None:
        assert out.notes == ()
        assert b"/FontFile" in out.data
    else:
        assert text("report.pdf.no_cjk", "zh") in out.notes


def test_chinese_pdf_without_any_font_is_english_helvetica(worked: TcoReport) -> None:
    out = write_pdf(build_report([(NAME, worked)], 0, "zh"), Fonts())

    assert out.notes == (text("report.pdf.no_cjk", "zh"), text("report.pdf.font_fallback", "zh"))
    assert b"(Own, rent or both: GPU cost report) Tj" in _pdf_text(out.data)


def test_a_broken_font_file_does_not_stop_the_pdf(worked: TcoReport, tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(b"not a font")

    out = write_pdf(build_report([(NAME, worked)], 0, "en"), Fonts(broken, broken, None))

    assert out.data.startswith(b"%PDF-")
    assert text("report.pdf.font_fallback", "en") in out.notes


def test_several_scenarios_in_one_report(worked: TcoReport) -> None:
    euros = replace(worked, currency="EUR")

    report = build_report([("A", worked), ("B", euros)], 5, "en")

    assert report.scenarios == ("A", "B")
    assert [c.label for c in report.cash.columns[1:3]] == ["A · self-hosted", f"A · {AWS}"]
    assert any("different currencies (USD, EUR)" in n for n in report.notes)
    assert any("A has no horizon 6" in n for n in report.notes)
    single = build_report([("A", worked)], 0, "en")
    assert len(report.options.rows) == 2 * len(single.options.rows)
    assert write_pdf(report).data.startswith(b"%PDF-")


def test_a_cloud_only_scenario_reports_without_owned_servers(tmp_path: Path) -> None:
    scenario = SCENARIOS / "cloud-on-demand.yaml"
    if not scenario.is_file():
        pytest.skip(f"{scenario.name} is not bundled")
    cloud = from_json(TcoReport, tco_json(tmp_path / "p.duckdb", scenario))

    report = build_report([("cloud", cloud)], 0, "en")

    labels = [f.label for f in report.headlines[0].facts]
    assert "Self-hosted, per installed GPU-hour" not in labels
    assert report.headlines[0].conclusion.startswith("The cheapest option is AWS H100")
    assert report.break_even == ()
    assert report.sensitivity.rows == ()
    assert write_pdf(report).data.startswith(b"%PDF-")
    assert load_workbook(io.BytesIO(write_xlsx(report))).sheetnames[0] == "Cover"


def test_excel_money_formats_follow_the_currency() -> None:
    assert number_style("EUR").excel_format(0) == '#,##0 "€";-#,##0 "€"'
    assert number_style("JPY").excel_format() == '"¥"#,##0;-"¥"#,##0'


def test_cli_writes_all_three_files(tmp_path: Path) -> None:
    out = {kind: tmp_path / f"tco.{kind}" for kind in ("xlsx", "pdf", "csv")}
    args = ["tco", "--scenario", str(WORKED), "--db", str(tmp_path / "p.duckdb"), "--lang", "zh"]
    args += [a for kind, path in out.items() for a in (f"--{kind}", str(path))]
    buffer = io.StringIO()

    with contextlib.redirect_stdout(buffer):
        assert main(args) == 0

    printed = buffer.getvalue()
    for path in out.values():
        assert f"wrote {path}" in printed
    assert load_workbook(out["xlsx"]).sheetnames[0] == "封面"
    assert out["pdf"].read_bytes().startswith(b"%PDF-")
    assert "方案" in pd.read_csv(out["csv"], encoding="utf-8-sig").columns


def _downloads_app(path: str) -> None:
    import json
    from pathlib import Path

    from planner.core.serialize import from_json
    from planner.cost.results import TcoReport
    from planner.ui.downloads import report_downloads

    report = from_json(TcoReport, json.loads(Path(path).read_text(encoding="utf-8")))
    report_downloads([("worked example", report)], 0, key="report")


def test_download_buttons_are_labelled_in_the_sessions_language(
    worked: TcoReport, tmp_path: Path
) -> None:
    path = tmp_path / "report.json"
    path.write_text(json.dumps(to_json(worked)), encoding="utf-8")
    app = AppTest.from_function(_downloads_app, args=(str(path),), default_timeout=RUN_CEILING_S)
    app.session_state["lang"] = "zh"

    app.run()

    assert not app.exception
    buttons = app.get("download_button")
    assert [b.proto.label for b in buttons] == [
        "下载 Excel（xlsx）",
        "下载 PDF",
        "下载 CSV",
        "下载 FOCUS（CSV）",
    ]
    assert all(b.proto.deferred_file_id for b in buttons)  # built when pressed
    if find_fonts().cjk is None:
        assert text("report.pdf.no_cjk", "zh") in [c.value for c in app.caption]
