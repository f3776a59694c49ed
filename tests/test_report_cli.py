"""`planner report`: one or several scenarios written as xlsx, PDF or CSV (three files), the
Chargeback sheet with a hostile team name kept as text and SUM totals, the same bytes the
Compare page's downloads build, and one-line errors (exit status 2) for bad arguments."""

import contextlib
import io
import json
from pathlib import Path

import pytest
from openpyxl import load_workbook

from planner.cli import main
from planner.core.file_access import LOCAL_FILES
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import connect
from planner.ui.downloads import _digest, report_files
from tests.report_inputs import HOSTILE, write_scenario


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    found = tmp_path_factory.mktemp("report")
    write_scenario(found)
    write_scenario(found, "other.yaml", "other teams")
    text = (found / "other.yaml").read_text(encoding="utf-8")
    longer = text.replace("horizons_years: [3]", "horizons_years: [3, 5]")
    (found / "two-horizons.yaml").write_text(longer, encoding="utf-8")
    return found


def report(folder: Path, out: str, *more: str) -> Path:
    path = folder / out
    code, printed, err = run(
        "report", "--scenario", str(folder / "scenario.yaml"), "--db", str(folder / "p.duckdb"),
        "--out", str(path), *more,
    )  # fmt: skip
    assert (code, err) == (0, ""), err
    assert f"wrote {path}" in printed
    return path


def test_xlsx_has_a_chargeback_sheet_that_adds_up_and_keeps_names_as_text(folder: Path) -> None:
    path = report(folder, "r.xlsx", "--chargeback", "quota")

    book = load_workbook(path)
    sheet = book["Chargeback"]
    cells = [c for row in sheet.iter_rows() for c in row if c.value is not None]
    hostile = [c for c in cells if c.value == HOSTILE]
    assert hostile
    assert all(c.data_type == "s" for c in hostile)  # text, not a formula
    assert any("proportion to quota" in str(c.value) for c in cells)
    sums = [c for c in cells if str(c.value).startswith("=SUM(")]
    assert len(sums) == 3  # self-hosted, hybrid, the cloud option
    # every amount the SUM covers is a formula, and the option's total is its sheet's
    # (tests/test_chargeback_recalc.py recalculates them)
    for total in sums:
        column = total.column_letter
        first, last = str(total.value)[5:-1].split(":")
        amounts = [sheet[f"{column}{r}"].value for r in range(int(first[1:]), int(last[1:]) + 1)]
        assert all(str(v).startswith("=") for v in amounts), amounts
        model = str(sheet.cell(total.row + 1, total.column).value)
        assert model.startswith("=ROUND(")
        assert "!" in model


def test_pdf_and_csv_reports_are_written(folder: Path) -> None:
    pdf = report(folder, "r.pdf")
    assert pdf.read_bytes().startswith(b"%PDF-")

    tidy = report(folder, "r.csv", "--lang", "zh")
    for name in ("r.csv", "r-jobs.csv", "r-chargeback.csv"):
        assert (folder / name).read_bytes().startswith(b"\xef\xbb\xbf")
    assert tidy.read_text(encoding="utf-8-sig").splitlines()[0].startswith("scenario,")


def test_several_scenarios_share_one_chargeback_sheet(folder: Path) -> None:
    path = folder / "two.xlsx"
    code, _, err = run(
        "report", "--db", str(folder / "p.duckdb"), "--out", str(path),
        "--scenario", str(folder / "scenario.yaml"), "--scenario", str(folder / "other.yaml"),
    )  # fmt: skip
    assert code == 0, err
    sheet = load_workbook(path)["Chargeback"]
    labels = {c.value for row in sheet.iter_rows() for c in row}
    assert {"small teams · self-hosted", "other teams · AWS H100 on-demand"} <= labels


def test_the_cli_writes_the_bytes_the_downloads_build(folder: Path) -> None:
    report(folder, "same.csv", "--chargeback", "idle")
    report(folder, "same.xlsx", "--chargeback", "idle")
    report(folder, "same.pdf", "--chargeback", "idle")
    with connect(folder / "p.duckdb") as con:
        priced = run_tco(con, load_tco_scenario(folder / "scenario.yaml"), files=LOCAL_FILES)
    named = [("small teams", priced)]
    digest = _digest(named)

    csv_files = report_files(digest, named, (0, "en", "csv", "idle"))
    xlsx = report_files(digest, named, (0, "en", "xlsx", "idle"))
    pdf = report_files(digest, named, (0, "en", "pdf", "idle"))

    assert csv_files[""] == (folder / "same.csv").read_bytes()
    assert csv_files["-jobs"] == (folder / "same-jobs.csv").read_bytes()
    assert csv_files["-chargeback"] == (folder / "same-chargeback.csv").read_bytes()
    assert xlsx[""] == (folder / "same.xlsx").read_bytes()
    assert pdf[""] == (folder / "same.pdf").read_bytes()


def test_horizon_picks_the_chargebacks_horizon(folder: Path) -> None:
    out = folder / "h.csv"
    code, _, err = run(
        "report", "--scenario", str(folder / "two-horizons.yaml"), "--db",
        str(folder / "p.duckdb"), "--out", str(out), "--horizon", "5",
    )  # fmt: skip
    assert code == 0, err
    rows = (folder / "h-chargeback.csv").read_text(encoding="utf-8-sig").splitlines()[1:]
    assert rows
    assert {r.split(",")[1] for r in rows} == {"5.0"}
    # the tidy rows keep every horizon
    tidy = out.read_text(encoding="utf-8-sig").splitlines()[1:]
    assert {r.split(",")[1] for r in tidy} == {"3.0", "5.0"}


def test_a_horizon_the_scenario_lacks_is_one_line(folder: Path) -> None:
    code, _, err = run(
        "report", "--scenario", str(folder / "scenario.yaml"), "--db", str(folder / "p.duckdb"),
        "--out", str(folder / "x.csv"), "--horizon", "7",
    )  # fmt: skip
    assert code == 2
    assert err == "error: --horizon 7: the first scenario's horizons are 3 years\n"


@pytest.mark.parametrize(
    ("out", "scenario", "expected"),
    [
        ("r.txt", "scenario.yaml", "error: --out "),
        ("missing/r.csv", "scenario.yaml", "error: --out "),
        ("r.csv", "nope.yaml", "error: "),
    ],
)
def test_bad_arguments_get_one_line_and_status_2(
    folder: Path, out: str, scenario: str, expected: str
) -> None:
    code, printed, err = run(
        "report", "--scenario", str(folder / scenario), "--db", str(folder / "p.duckdb"),
        "--out", str(folder / out),
    )  # fmt: skip
    assert code == 2
    assert printed == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(expected)


def test_json_lists_the_files_written(folder: Path) -> None:
    code, printed, _ = run(
        "report", "--scenario", str(folder / "scenario.yaml"), "--db", str(folder / "p.duckdb"),
        "--out", str(folder / "j.csv"), "--json",
    )  # fmt: skip
    assert code == 0
    files = json.loads(printed)["files"]
    assert [Path(f).name for f in files] == ["j.csv", "j-jobs.csv", "j-chargeback.csv"]
