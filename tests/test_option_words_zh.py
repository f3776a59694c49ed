"""Option names in Chinese: an option kind or pricing model our code wrote into a name
(self-hosted, "AWS p5.48xlarge on_demand", the option form's "... reserved 36m") is said in
words in the Chinese PDF and workbook; a cloud option the user named keeps its name. The
scenario is the worked example with its AWS option left unnamed, a spot one and a 36-month
reservation named as the option form names it; the report goes through `planner tco --json`
and back, as a saved result does."""

import json
import re
import subprocess
from io import BytesIO
from pathlib import Path

import pytest
from openpyxl import load_workbook

from planner.core.notes import Note, cloud_label, worded
from planner.core.serialize import from_json
from planner.cost.results import TcoReport
from planner.cost.scenario import CloudSpec
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.report.pdf import write_pdf
from planner.report.pdf_fonts import Fonts
from planner.service.option_forms import CloudForm
from tests.test_pdf_summary import fonts, poppler  # noqa: F401 -- fixtures, shared
from tests.test_report import WORKED, tco_json

NAME = "worked example"
AWS_NAMED = (
    "  - {name: AWS p5.48xlarge on-demand, provider: AWS, gpu: H100, instance: p5.48xlarge}\n"
)
OURS = (
    "  - {provider: AWS, gpu: H100, instance: p5.48xlarge, packing: per-job}\n"
    "  - {provider: AWS, gpu: H100, instance: p5.48xlarge, pricing_model: spot, packing: per-job}\n"
    "  - {name: AWS p5.48xlarge reserved 36m, provider: AWS, gpu: H100, instance: p5.48xlarge,\n"
    "     pricing_model: reserved, term_months: 36, committed_gpus: 8, packing: per-job}\n"
)
CODES = ("self-hosted", "hybrid", "on_demand", "reserved", "spot", "savings_plan", "cud")
WORDS = ("AWS p5.48xlarge 按需", "AWS p5.48xlarge 竞价", "AWS p5.48xlarge 预留 36 个月")
USER_NAMED = ("CoreWeave HGX H100", "Lambda 8x H100", "RunPod Community H100")
RULE_KEY = re.compile(r"discount\.[a-z0-9_.]+")
"""A price-book rule's key (`discount.spot`), quoted in a note as the book names it."""


def _codes_in(text: str) -> list[str]:
    left = RULE_KEY.sub("", text)
    return [code for code in CODES if code in left]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    folder = tmp_path_factory.mktemp("words")
    text = WORKED.read_text(encoding="utf-8")
    assert AWS_NAMED in text
    scenario = folder / "ours.yaml"
    scenario.write_text(text.replace(AWS_NAMED, OURS), encoding="utf-8")
    printed = tco_json(folder / "p.duckdb", scenario)
    return from_json(TcoReport, json.loads(json.dumps(printed)))


def test_our_names_are_coded_and_say_the_pricing_model_in_words() -> None:
    unnamed = CloudSpec(provider="AWS", gpu="H100")
    form = CloudForm("AWS", "H100", "p5.48xlarge", "reserved", 36, 8.0)
    as_saved = CloudSpec(
        name=str(form.label()), provider="AWS", gpu="H100", instance="p5.48xlarge",
        pricing_model="reserved", term_months=36, committed_gpus=8,
    )  # fmt: skip
    named = CloudSpec(name="AWS H100 spot deal", provider="AWS", gpu="H100", pricing_model="spot")

    assert unnamed.label() == "AWS H100 on_demand"  # the English name is unchanged
    assert worded(unnamed.label(), "zh") == "AWS H100 按需"
    assert as_saved.label() == "AWS p5.48xlarge reserved 36m"
    assert worded(as_saved.label(), "zh") == "AWS p5.48xlarge 预留 36 个月"
    assert not isinstance(named.label(), Note)  # the user's own name
    assert worded(named.label(), "zh") == "AWS H100 spot deal"
    assert worded(cloud_label("", "H100", "savings_plan"), "zh") == "H100 节省计划"


def test_the_json_round_trip_keeps_the_option_names_codes(report: TcoReport) -> None:
    names = [o.name for o in report.horizons[0].options]

    coded = [n for n in names if isinstance(n, Note) and n.code.startswith("cloud_label")]
    assert [worded(n, "zh") for n in coded] == list(WORDS)
    assert set(USER_NAMED) <= set(names)


def test_the_chinese_workbook_says_our_option_names_in_words(report: TcoReport) -> None:
    book = load_workbook(BytesIO(write_xlsx(build_report([(NAME, report)], 0, "zh"))))

    cells = [
        str(c.value)
        for sheet in book
        for row in sheet.iter_rows()
        for c in row
        if c.value is not None and not str(c.value).startswith("=")
    ]
    assert not [c for c in cells if _codes_in(c)]
    assert not [s for s in book.sheetnames if _codes_in(s)]
    assert set(WORDS) <= set(book.sheetnames)  # one sheet per option, named in words
    assert set(USER_NAMED) <= set(book.sheetnames)
    assert "相对 AWS p5.48xlarge 预留 36 个月 购买的 NPV" in cells


def test_the_english_workbook_keeps_the_names_as_they_were(report: TcoReport) -> None:
    book = load_workbook(BytesIO(write_xlsx(build_report([(NAME, report)], 0, "en"))))

    assert {"AWS p5.48xlarge on_demand", "AWS p5.48xlarge spot"} <= set(book.sheetnames)


def test_the_chinese_pdf_says_our_option_names_in_words(
    report: TcoReport,
    fonts: Fonts,  # noqa: F811 -- the fixture imported above
    poppler: None,  # noqa: F811
    tmp_path: Path,
) -> None:
    out = write_pdf(build_report([(NAME, report)], 0, "zh"), fonts)
    path = tmp_path / "zh.pdf"
    path.write_bytes(out.data)

    said = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip

    assert not [line for line in said.splitlines() if _codes_in(line)]
    flat = re.sub(r"\s+", "", said)
    for words in WORDS:
        assert re.sub(r"\s+", "", words) in flat
