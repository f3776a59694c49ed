"""The model's notes in a Chinese report: the PDF (read back with pdftotext) and the workbook
say every coded note in Chinese and none in English, after the report went through
`planner tco --json` and back (the codes travel in the JSON); a note without a code is
printed as written. The scenario is the worked example with a 3-month lead time, so the
model notes the cloud bridge (and the server price, dated 2024, is stale)."""

import json
import re
import subprocess
from dataclasses import replace
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from planner.core.notes import CHINESE, Note, worded
from planner.core.serialize import NOTE_CODES, from_json
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.report.pdf import write_pdf
from planner.report.pdf_fonts import Fonts
from tests.test_pdf_summary import fonts, poppler  # noqa: F401 -- fixtures, shared
from tests.test_report import WORKED, tco_json

NAME = "worked example"
PLAIN = "a remark typed by hand, kept as written"


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`planner tco --json` on the worked example with a lead time."""
    folder = tmp_path_factory.mktemp("notes")
    text = WORKED.read_text(encoding="utf-8")
    scenario = folder / "lead.yaml"
    scenario.write_text(re.sub(r"lead_time_months: 0\b", "lead_time_months: 3", text), "utf-8")
    return tco_json(folder / "p.duckdb", scenario)


@pytest.fixture(scope="module")
def report(printed: dict[str, Any]) -> TcoReport:
    """That JSON read back, with a note typed by hand (no code) added."""
    read = from_json(TcoReport, json.loads(json.dumps(printed)))
    return replace(read, notes=(*read.notes, PLAIN))


def _coded(report: TcoReport) -> list[Note]:
    return [n for n in report.notes if isinstance(n, Note) and n.code]


def _flat(text: str) -> str:
    """`text` without whitespace: pdftotext breaks lines where the page did."""
    return re.sub(r"\s+", "", text)


def test_the_json_round_trip_keeps_the_bridge_notes_code(report: TcoReport) -> None:
    bridge = [n for n in _coded(report) if n.code == "bridge_cloud"]

    assert len(bridge) == 1
    assert bridge[0].values == {"months": 3, "option": "AWS p5.48xlarge on-demand"}
    assert {"bridge_cloud", "stale_price"} <= {n.code for n in _coded(report)}


def test_the_chinese_pdf_says_every_note_in_chinese_and_none_in_english(
    report: TcoReport,
    fonts: Fonts,  # noqa: F811 -- the fixture imported above
    poppler: None,  # noqa: F811
    tmp_path: Path,
) -> None:
    out = write_pdf(build_report([(NAME, report)], 0, "zh"), fonts)
    path = tmp_path / "zh.pdf"
    path.write_bytes(out.data)

    said = _flat(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                                check=True).stdout)  # fmt: skip

    for note in _coded(report):
        assert _flat(worded(note, "zh")) in said, note.code
        assert _flat(str(note)) not in said, note.code
    assert "servers are paid at order" not in said
    assert _flat(CHINESE["bridge_cloud"].split("{")[0]) in said
    assert _flat(PLAIN) in said


def test_the_chinese_workbook_says_every_note_in_chinese_and_none_in_english(
    report: TcoReport,
) -> None:
    book = load_workbook(BytesIO(write_xlsx(build_report([(NAME, report)], 0, "zh"))))

    cells = [str(c.value) for sheet in book for row in sheet.iter_rows() for c in row if c.value]
    notes = [str(c.value) for row in book["说明"].iter_rows(min_row=2) for c in row if c.value]

    for note in _coded(report):
        assert worded(note, "zh") in notes, note.code
        assert not [c for c in cells if str(note) in c], note.code
    assert PLAIN in notes
    sources = {str(c.value) for c in book["假设"]["D"]}
    assert {"模型默认值（参考资料 2.1）", "场景覆盖值"} <= sources  # where each input came from
    assert not [c for c in cells if c in {"model default (reference 2.1)", "scenario override"}]
    prices = {str(c.value) for c in book["所用价格"]["B"][1:]}
    assert {"服务器 8xH100", "AWS p5.48xlarge（按需）"} <= prices  # price names worded too
    assert not [c for c in cells if "(on_demand)" in c or "server 8xH100" in c]
    sensitivity = {str(c.value) for row in book["敏感性"].iter_rows() for c in row}
    assert "相对 RunPod Community H100 购买的 NPV（3 年）" in sensitivity
    assert not [c for c in cells if "NPV of buying vs" in c]


def test_the_chinese_workbook_words_the_models_own_names_and_units(report: TcoReport) -> None:
    """Option names the model gives (self-hosted), quantity units and depreciation methods are
    the report's words, not the model's identifiers; cloud options keep the names given."""
    book = load_workbook(BytesIO(write_xlsx(build_report([(NAME, report)], 0, "zh"))))

    cells = {str(c.value) for sheet in book for row in sheet.iter_rows() for c in row if c.value}
    cash_heads = {str(c.value) for c in book["月度现金流"][1]}

    assert {"自建", "自建 (累计)"} <= cash_heads
    assert "AWS p5.48xlarge on-demand" in cash_heads  # the name the scenario gave
    assert "直线法" in cells
    assert "GPU 小时" in {str(c.value) for c in book["假设"]["C"]}
    for english in ("self-hosted", "straight_line", "GPU-hours", "GPU-hour"):
        assert not [c for c in cells if english in c], english


def test_the_english_reports_keep_the_english_notes(report: TcoReport) -> None:
    book = load_workbook(BytesIO(write_xlsx(build_report([(NAME, report)], 0, "en"))))

    notes = [str(c.value) for row in book["Notes"].iter_rows(min_row=2) for c in row if c.value]

    assert [n for n in notes if n in report.notes] == list(report.notes)


def test_json_saved_before_codes_were_kept_is_reported_as_written(
    printed: dict[str, Any],
) -> None:
    saved = {k: v for k, v in printed.items() if k != NOTE_CODES}
    read = from_json(TcoReport, saved)

    notes = build_report([(NAME, read)], 0, "zh").notes

    assert all(type(n) is str for n in read.notes)
    assert [n for n in notes if n in printed["notes"]] == printed["notes"]  # English, as saved
