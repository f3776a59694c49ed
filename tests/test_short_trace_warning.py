"""An export spanning less than a month, or under 5 % of the horizon, is priced with a warning
on every surface: `planner tco` text and JSON notes, the PDF's notes, the workbook's Notes
sheet and the Compare page's warnings, in English and Chinese (issue 30). A 4-job export over
0.12 days is extrapolated to a 3-year TCO; a 60-day export over 3 years is not warned about."""

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from openpyxl import load_workbook

from planner.cli import main
from planner.core.model import Job
from planner.core.notes import worded
from planner.core.serialize import from_json
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.service.tco_window import short_span

HEADER = "job_id,submit_time,start_time,end_time,duration_s,pods,gpus,gpu_type,queue,status\n"
WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"


def _row(k: int, start_h: float) -> str:
    minute = int(start_h * 60)
    at = f"2026-01-05T{minute // 60:02d}:{minute % 60:02d}:00Z"
    return f"j{k},{at},{at},,3888,1,8,H100,a,completed\n"


def _tco(tmp_path: Path, *flags: str) -> str:
    trace = tmp_path / "tiny.csv"
    trace.write_text(HEADER + "".join(_row(k, k * 0.6) for k in range(4)))  # 0.12 days
    scenario = {**yaml.safe_load(WORKED.read_text()), "trace": str(trace)}
    scenario.pop("utilization")
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    buffer = io.StringIO()
    args = ["tco", "--scenario", str(path), "--db", str(tmp_path / "p.duckdb"), *flags]
    with contextlib.redirect_stdout(buffer):
        assert main(args) == 0
    return buffer.getvalue()


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[str, dict[str, Any]]:
    return _tco(tmp_path), json.loads(_tco(tmp_path, "--json"))


def test_a_tiny_export_is_warned_about_in_the_cli_and_its_json(
    tiny: tuple[str, dict[str, Any]],
) -> None:
    shown, raw = tiny

    warning = next(n for n in raw["notes"] if "the trace spans" in str(n))
    assert "0.12 days (4 jobs)" in str(warning)
    assert "of the 5-year horizon" in str(warning)
    assert "note: the trace spans 0.12 days (4 jobs)" in shown


def test_the_warning_is_in_the_workbook_the_pdf_notes_and_the_compare_page(
    tiny: tuple[str, dict[str, Any]],
) -> None:
    from planner.ui import compare_view

    report = from_json(TcoReport, tiny[1])
    (warning,) = [n for n in report.notes if "the trace spans" in n]
    book = load_workbook(io.BytesIO(write_xlsx(build_report([("tiny", report)], 0, "zh"))))
    notes = [str(c.value) for row in book[book.sheetnames[-1]].iter_rows() for c in row]
    pdf_notes = build_report([("tiny", report)], 0, "zh").notes

    assert worded(warning, "zh").startswith("作业轨迹只覆盖 0.12 天（4 个作业）")
    assert any(worded(warning, "zh") in n for n in notes), book.sheetnames
    assert any("作业轨迹只覆盖" in str(n) for n in pdf_notes)
    warnings, _ = compare_view.notes(report)
    assert warning in warnings


def test_a_long_enough_export_is_not_warned_about() -> None:
    day = 86_400.0
    jobs = [Job("a", 0.0, 3600.0), Job("b", 60 * day, 3600.0)]

    assert short_span(jobs, (3.0,)).notes == ()
    assert short_span(jobs, (5.0,)).notes != ()  # 2 months is under 5 % of 5 years
    assert short_span(jobs[:1], (1.0,)).notes != ()  # an hour is less than a month
