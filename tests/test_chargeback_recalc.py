"""The Chargeback sheet recalculated by a real spreadsheet engine (LibreOffice headless): for
every rule, each option's SUM over the team rows equals the model's option total to the cent,
the difference row is 0.00, and the hostile team name is still text after the round trip."""

from pathlib import Path

import pytest
from openpyxl import load_workbook

from planner.core.file_access import LOCAL_FILES
from planner.cost.chargeback import RULES, cents
from planner.cost.results import TcoReport
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
    out = recalculate(written, folder / "out")
    return {rule: (path, report) for rule, path in zip(RULES, out, strict=True)}


@pytest.mark.parametrize("rule", RULES)
def test_each_options_sum_recalculates_to_its_total(
    recalculated: dict[str, tuple[Path, TcoReport]], rule: str
) -> None:
    path, report = recalculated[rule]
    sheet = load_workbook(path, data_only=True)["Chargeback"]
    rows = {row[0].value: row for row in sheet.iter_rows() if row[0].value is not None}
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
    assert HOSTILE in rows  # a team name, still text after LibreOffice saved the file
    assert rows[HOSTILE][0].data_type == "s"
    assert ("Idle (not charged to a team)" in rows) == (rule == "idle")
