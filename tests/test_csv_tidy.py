"""The report's CSV files: tidy cost rows (month x category x option) that add up to the
report's totals to the cent with no float noise, the per-job table and the chargeback table,
every user-supplied text cell neutralised against formula injection (OWASP)."""

import csv
import io
from collections import defaultdict
from pathlib import Path

import pytest

from planner.core.file_access import LOCAL_FILES
from planner.core.spreadsheet_text import FORMULA_STARTS, is_formula_like
from planner.cost.chargeback import cents
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.csv_table import write_csv
from planner.report.csv_tidy import TIDY, money_text, running_cents
from planner.report.render import CHARGEBACK, JOBS, render
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import connect
from tests.report_inputs import HOSTILE, write_scenario

WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, TcoReport]]:
    """The small replayed scenario (hybrid, quotas, a hostile team) and the worked example
    (a utilization, four cloud options, two horizons)."""
    folder = tmp_path_factory.mktemp("csv")
    with connect(folder / "p.duckdb") as con:
        small = run_tco(con, load_tco_scenario(write_scenario(folder)), files=LOCAL_FILES)
        worked = run_tco(con, load_tco_scenario(WORKED), files=LOCAL_FILES)
    return [(HOSTILE, small), ("worked", worked)]


def _rows(data: bytes) -> list[dict[str, str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def test_running_cents_keep_each_cell_within_a_cent_and_the_sum_exact() -> None:
    values = [0.1] * 10 + [1 / 3] * 3 + [25611300.000000004]
    shown = running_cents(values)
    assert sum(shown) == round(sum(values) * 100)
    assert all(abs(c - v * 100) < 1 for c, v in zip(shown, values, strict=True))
    assert [money_text(c) for c in (-5, 0, 1234567, -100)] == ["-0.05", "0.00", "12345.67", "-1.00"]


def test_tidy_rows_add_up_to_every_options_totals_to_the_cent(
    reports: list[tuple[str, TcoReport]],
) -> None:
    files, _ = render(reports, "csv")
    rows = _rows(files[""])
    assert tuple(rows[0]) == TIDY
    pnl: dict[tuple[str, str, str], int] = defaultdict(int)
    cash: dict[tuple[str, str, str], int] = defaultdict(int)
    for row in rows:
        assert len(row["amount"].split(".")[1]) == 2  # to the cent, no float noise
        key = (row["scenario"], row["horizon_years"], row["option"])
        (pnl if row["view"] == "pnl" else cash)[key] += round(float(row["amount"]) * 100)
    expected = 0
    for name, report in reports:
        shown = "'" + name if is_formula_like(name) else name  # neutralised, per OWASP
        for h in report.horizons:
            for o in h.options:
                key = (shown, str(float(h.years)), o.name)
                assert pnl[key] == cents(o.total), key
                assert cash[key] == round(sum(o.monthly_cash) * 100), key
                expected += len(o.monthly_pnl)
    months = {(r["scenario"], r["horizon_years"], r["option"], r["month"]) for r in rows}
    assert len(months) == expected


def test_owned_options_are_split_by_category_month_by_month(
    reports: list[tuple[str, TcoReport]],
) -> None:
    rows = _rows(render(reports, "csv")[0][""])
    owned = [r for r in rows if r["option"] == "self-hosted" and r["scenario"] == "worked"]
    categories = {r["category"] for r in owned if r["view"] == "pnl"}
    assert {"depreciation", "energy", "staff", "support"} <= categories
    assert "capex" not in categories  # cash, not P&L
    assert {r["category"] for r in owned if r["view"] == "cash"} == {"net_cash"}


def test_jobs_and_chargeback_csvs_neutralise_user_text(
    reports: list[tuple[str, TcoReport]],
) -> None:
    files, _ = render(reports, "csv", rule="idle")
    jobs = _rows(files[JOBS])
    small = reports[0][1]
    assert small.chargeback is not None
    assert len(jobs) == len(small.chargeback.jobs)  # the worked example has no replay
    hostile = next(r for r in jobs if r["job_id"] == "j4")
    assert hostile["team"] == "'" + HOSTILE
    assert hostile["user"] == "'-u3"
    assert hostile["scenario"] == "'" + HOSTILE
    charged = _rows(files[CHARGEBACK])
    assert "'" + HOSTILE in {r["team"] for r in charged}
    text = b"".join(files.values()).decode("utf-8-sig")
    for row in csv.reader(io.StringIO(text)):
        assert not [c for c in row if c[:1] in FORMULA_STARTS and not _number(c)], row


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_the_chargeback_csv_adds_up_to_each_option_total(
    reports: list[tuple[str, TcoReport]],
) -> None:
    for rule in ("use", "quota", "idle"):
        rows = _rows(render(reports, "csv", rule=rule)[0][CHARGEBACK])
        by_option: dict[str, int] = defaultdict(int)
        for r in rows:
            assert r["rule"] in {"use", rule}
            by_option[r["option"]] += round(float(r["charge"]) * 100)
        small = reports[0][1]
        for o in small.horizons[0].options:
            assert by_option[o.name] == cents(o.total)


def test_the_same_inputs_give_the_same_bytes(reports: list[tuple[str, TcoReport]]) -> None:
    first, _ = render(reports, "csv", lang="zh", rule="quota")
    again, _ = render(reports, "csv", lang="zh", rule="quota")
    assert first == again


def test_the_options_csv_has_money_to_the_cent(reports: list[tuple[str, TcoReport]]) -> None:
    data = write_csv(build_report(reports, 0, "en"))

    rows = _rows(data)
    assert len(rows) == sum(len(h.options) for _, r in reports for h in r.horizons)
    for row in rows:
        total = row["Total (P&L)"]
        assert len(total.split(".")[1]) == 2, total  # never 25611300.000000004
        assert all(len(v.split(".")[-1]) <= 6 for v in row.values() if _number(v))
