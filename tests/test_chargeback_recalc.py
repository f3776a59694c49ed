"""The Chargeback sheet recalculated by a real spreadsheet engine (LibreOffice headless): for
every rule, each option's SUM over the team rows equals the model's option total to the cent,
each team's amount (a formula over the option's sheet) is within a cent of the model's whole
cents, the difference row is 0.00, and the hostile team name is still text after the round
trip. With the electricity price changed on Assumptions, every column still adds up to its
option's (changed) total."""

from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from planner.core.file_access import LOCAL_FILES
from planner.cost.chargeback import RULES, cents
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.chargeback_table import chargeback
from planner.report.render import render
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import connect
from tests.libreoffice import recalculate
from tests.report_inputs import HOSTILE, write_scenario


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, TcoReport]]:
    """One workbook per rule, written by `render` and recalculated by LibreOffice."""
    folder = tmp_path_factory.mktemp("chargeback_recalc")
    with connect(folder / "p.duckdb") as con:
        report = run_tco(con, load_tco_scenario(write_scenario(folder)), files=LOCAL_FILES)
    written = []
    for rule in RULES:
        path = folder / f"{rule}.xlsx"
        path.write_bytes(render([("small teams", report)], "xlsx", rule=rule)[0][""])
        written.append(path)
    changed = folder / "changed.xlsx"
    book = load_workbook(written[0])
    ((sheet, cell),) = book.defined_names["Tariff"].destinations
    book[sheet][cell.replace("$", "")].value = 0.5
    saved = BytesIO()
    book.save(saved)
    changed.write_bytes(saved.getvalue())
    out = recalculate([*written, changed], folder / "out")
    return {rule: (path, report) for rule, path in zip((*RULES, "changed"), out, strict=True)}


@pytest.mark.parametrize("rule", RULES)
def test_each_options_sum_recalculates_to_its_total(
    recalculated: dict[str, tuple[Path, TcoReport]], rule: str
) -> None:
    path, report = recalculated[rule]
    sheet = load_workbook(path, data_only=True)["Chargeback"]
    rows = _rows(sheet)
    totals = rows["Total (sum of the rows above)"]
    model = rows["Option total (the model's)"]
    difference = rows["Difference"]
    options = report.horizons[0].options
    for k, option in enumerate(options, start=1):
        summed, given = totals[k].value, model[k].value
        assert isinstance(summed, float | int)
        assert isinstance(given, float | int)
        assert round(summed * 100) == cents(option.total) == round(given * 100)
        assert difference[k].value == 0
    charges = chargeback(build_report([("small teams", report)]).sources, 0, rule, "en")
    for k, column in enumerate(charges.columns, start=1):
        for team in charges.teams:
            model = charges.cents(team, column)
            shown = rows[team][k].value
            assert abs(_number(shown) * 100 - (model or 0)) <= 1, (team, column.label)
    assert HOSTILE in rows  # a team name, still text after LibreOffice saved the file
    assert rows[HOSTILE][0].data_type == "s"
    assert ("Idle (not charged to a team)" in rows) == (rule == "idle")


def _rows(sheet: Worksheet) -> dict[object, tuple[Any, ...]]:
    """The sheet's rows by their first cell, the first of each (the table's team rows, not
    the weights' rows under it)."""
    rows: dict[object, tuple[Any, ...]] = {}
    for row in sheet.iter_rows():
        if row[0].value is not None:
            rows.setdefault(row[0].value, row)
    return rows


def _number(value: object) -> float:
    assert isinstance(value, int | float), value
    return float(value)


def test_a_changed_assumption_moves_every_column_to_its_options_new_total(
    recalculated: dict[str, tuple[Path, TcoReport]],
) -> None:
    """Electricity at $0.50 a kWh: the owned options cost more, and each column of the
    Chargeback still adds up to its option's total on the option's own sheet."""
    path, report = recalculated["changed"]
    book = load_workbook(path, data_only=True)
    sheet = book["Chargeback"]
    rows = _rows(sheet)
    totals = rows["Total (sum of the rows above)"]
    given = rows["Option total (the model's)"]
    options = book["Options (all horizons)"]
    header = [c.value for c in options[1]]
    total_column = header.index("Total (P&L)")
    for k in range(1, len(report.horizons[0].options) + 1):
        on_sheet = options.cell(k + 1, total_column + 1).value
        assert _number(totals[k].value) == pytest.approx(_number(on_sheet), abs=0.005)
        assert _number(given[k].value) == pytest.approx(_number(on_sheet), abs=0.005)
        assert rows["Difference"][k].value == 0
    owned = report.horizons[0].options[0]
    assert _number(totals[1].value) > owned.total + 100  # the change moved it
