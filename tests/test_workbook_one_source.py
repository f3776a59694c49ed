"""The workbook as one source of truth: the Cover's figures, the "Options (all horizons)"
sheet and every horizon's comparison are formulas over the same option sheets, so a changed
input on Assumptions moves them together, as the Python model would with that input.

The worked example (horizons of 3 and 5 years, four cloud options) recalculated by LibreOffice
as written and with the discount rate moved from 8 % to 15 %: the monthly cash of every option
does not depend on the rate, so the model's figures at 15 % are its own monthly cash
discounted again (`planner.cost.finance`).
"""

from datetime import date
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.workbook.workbook import Workbook

from planner.core.file_access import LOCAL_FILES
from planner.cost import finance
from planner.cost.results import Horizon, TcoReport
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.report.model import category_label
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import open_store
from tests.libreoffice import recalculate

WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"
RATE = 0.15
CENT = 0.005


@pytest.fixture(scope="module")
def worked(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    con = open_store(tmp_path_factory.mktemp("one") / "p.duckdb")
    try:
        scenario = load_tco_scenario(WORKED)
        return run_tco(con, scenario, files=LOCAL_FILES, today=date(2026, 6, 1))
    finally:
        con.close()


def _set(book: Workbook, name: str, value: float) -> None:
    ((sheet, cell),) = book.defined_names[name].destinations
    book[sheet][cell.replace("$", "")].value = value


def _get(book: Workbook, name: str) -> Any:
    ((sheet, cell),) = book.defined_names[name].destinations
    return book[sheet][cell.replace("$", "")].value


@pytest.fixture(scope="module")
def books(worked: TcoReport, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Workbook]:
    folder = tmp_path_factory.mktemp("one_xlsx")
    data = write_xlsx(build_report([(worked.scenario, worked)], 0, "en", date(2026, 6, 1)))
    (folder / "base.xlsx").write_bytes(data)
    changed = load_workbook(BytesIO(data))
    _set(changed, "DiscountRate", RATE)
    changed.save(folder / "rate.xlsx")
    out = recalculate([folder / "base.xlsx", folder / "rate.xlsx"], folder / "out")
    return {p.stem: load_workbook(p, data_only=True) for p in out}


def _npv(horizon: Horizon, rented: str, rate: float) -> float:
    """The model's NPV of buying against `rented` over `horizon`, discounted at `rate`."""
    own = horizon.options[0]
    cloud = next(o for o in horizon.options if o.name == rented)
    savings = [r - o for r, o in zip(cloud.monthly_cash, own.monthly_cash, strict=True)]
    return finance.npv(savings, rate)


def _options_rows(book: Workbook) -> dict[tuple[float, str], dict[str, Any]]:
    sheet = book["Options (all horizons)"]
    header = [c.value for c in sheet[1]]
    return {
        (float(row[1]), str(row[2])): dict(zip(header, row, strict=True))
        for row in sheet.iter_rows(min_row=2, values_only=True)
    }


def test_the_cover_and_every_horizons_comparison_follow_a_changed_discount_rate(
    worked: TcoReport, books: dict[str, Workbook]
) -> None:
    book, base = books["rate"], books["base"]
    cover = {row[0]: row[1] for row in book["Cover"].iter_rows(min_row=3, values_only=True)}
    three, five = worked.horizons
    for c in three.comparisons:
        expected = _npv(three, c.rented, RATE)
        assert abs(expected - c.npv_of_buying) > 1000  # the rate moves it
        assert cover[f"NPV of buying vs {c.rented}"] == pytest.approx(expected, abs=CENT)
    for k, c in enumerate(five.comparisons):
        shown = book["5y Comparison"].cell(4 + k, 2).value
        assert shown == pytest.approx(_npv(five, c.rented, RATE), abs=CENT)
        before = base["5y Comparison"].cell(4 + k, 2).value
        assert before == pytest.approx(c.npv_of_buying, abs=CENT)
    against = _get(book, "Page1_Against")
    assert _get(book, "Page1_NPV") == pytest.approx(_npv(three, against, RATE), abs=CENT)
    assert _get(book, "Page1_Rate") == RATE


def test_every_horizons_row_follows_a_changed_discount_rate(
    worked: TcoReport, books: dict[str, Workbook]
) -> None:
    """Totals do not move with the rate; each option's equivalent annual cost does:
    NPV of its cash at 15 % x the capital recovery factor over the horizon's years."""
    rows, before = _options_rows(books["rate"]), _options_rows(books["base"])
    for horizon in worked.horizons:
        for o in horizon.options:
            row = rows[(horizon.years, o.name)]
            eac = finance.equivalent_annual_cost(
                finance.npv(o.monthly_cash, RATE), RATE, horizon.years
            )
            assert row["Equivalent annual cost"] == pytest.approx(eac, abs=CENT), o.name
            assert row["Total (P&L)"] == pytest.approx(o.total, abs=CENT)
            was = before[(horizon.years, o.name)]["Equivalent annual cost"]
            assert was == pytest.approx(o.equivalent_annual_cost, abs=CENT)


def test_a_server_count_says_what_stays_fixed(books: dict[str, Workbook]) -> None:
    """Next to the server pools: a changed count does not replay the demand again."""
    sheet = books["base"]["Assumptions"]
    notes = [str(r[0]) for r in sheet.iter_rows(values_only=True) if r[0]]
    (note,) = [n for n in notes if n.startswith("Server counts:")]
    assert "1 H100 servers" in note
    assert "stay those priced" in note  # the worked example's demand is a given utilization


def test_the_covers_figures_recalculate_to_the_worked_examples(
    worked: TcoReport, books: dict[str, Workbook]
) -> None:
    """As written: the Cover's facts and the all-horizons rows are the model's (CapEx of the
    one server: $351,000 on every horizon)."""
    book = books["base"]
    cover = {row[0]: row[1] for row in book["Cover"].iter_rows(min_row=3, values_only=True)}
    aws = worked.horizons[0].comparisons[0].rented
    assert cover["Self-hosted, per installed GPU-hour"] == pytest.approx(2.4959, abs=1e-4)
    assert cover["Self-hosted, per allocated GPU-hour"] == pytest.approx(7.1312, abs=1e-4)
    assert cover[f"Break-even utilization vs {aws}"] == pytest.approx(0.363, abs=5e-4)
    assert cover["Cheapest option"] == "RunPod Community H100"
    assert cover["Horizon (years)"] == 3
    rows = _options_rows(book)
    for horizon in worked.horizons:
        for o in horizon.options:
            row = rows[(horizon.years, o.name)]
            for key, value in o.totals.items():
                label = next(k for k in row if k and _category(k, key))
                assert row[label] == pytest.approx(value, abs=CENT), (o.name, key)
            assert row["Per useful GPU-hour"] == pytest.approx(o.cost_per_useful_gpu_hour)
        assert rows[(horizon.years, "self-hosted")]["CapEx (cash)"] == pytest.approx(351_000)


def _category(label: str, key: str) -> bool:
    return label == category_label(key, "en")
