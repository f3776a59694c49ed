"""One source of truth for page 1: every figure the PDF's first page shows equals the one in
`planner tco --json` and the one LibreOffice recalculates in the workbook, for the bundled
sample (a replay, a hybrid, a cloud option cheaper than owning) and a hand case (one server,
one flat cloud price, buying wins).

The three files come from the CLI (`planner tco --json`, `planner report --out x.pdf` and
`--out x.xlsx`), page 1's text from pdftotext, and the workbook's figures from the Cover's
defined names (`Page1_*`, `planner.report.workbook.cover_figures`). `FIGURES` maps each
page-1 figure to the three places; a figure added to page 1 is one more row.
"""

import contextlib
import io
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.workbook.workbook import Workbook

from planner.cli import main
from tests.debian import apt_install
from tests.libreoffice import recalculate
from tests.test_pdf_summary import _page_text
from tests.workbook_cases import HAND

SAMPLE = Path(__file__).parent.parent / "data" / "scenarios" / "sample-tco.yaml"
MONTH = r"(?:never in \d+ months|month \d+|n/a)"
MONEY = r"(-?\$[\d,]+(?:\.\d+)?|n/a)"


@dataclass(frozen=True, slots=True)
class Figure:
    """One page-1 figure: where it is on the page (a pattern whose group is the figure as
    shown), in the JSON (a path, see `_json_value`; `{decision}` and `{against}` are the
    names page 1 shows) and in the workbook (a defined name)."""

    key: str
    page: str
    json: str
    name: str
    sign: float = 1.0
    """The JSON value times this is the figure shown (resale: cash in is a negative cost)."""
    owned: bool = False
    """Only on the page of a report that owns servers."""
    compared: bool = False
    """Only on the page of a report with buying weighed against a cloud option."""


H = "horizons.0"
FIGURES = (
    Figure(
        "decision",
        r"Decision (?:Rent: |Buy servers \()(.+?)\)? The (?:lowest|only)",
        f"{H}.options.@min(cost_per_useful_gpu_hour).name",
        "Page1_Decision",
    ),
    Figure(
        "priced",
        r"(?:of the (\d+) options|(The only) option priced)",
        f"{H}.options.@count(cost_per_useful_gpu_hour)",
        "Page1_OptionsPriced",
    ),
    Figure(
        "against",
        rf"{MONTH} \S+ vs (.+?), discounted at",
        f"{H}.pair.rented",  # the headline pair (docs/verdict.md)
        "Page1_Against",
        compared=True,
    ),
    Figure(
        "npv",
        rf"Cost per useful GPU-hour {MONEY} ",
        f"{H}.pair.npv_of_buying",
        "Page1_NPV",
        compared=True,
    ),
    Figure(
        "break_even_month",
        r"Cost per useful GPU-hour \S+ (never|month \d+)",
        f"{H}.pair.break_even_month",
        "Page1_BreakEvenMonth",
        compared=True,
    ),
    Figure(
        "per_useful",
        rf"Cost per useful GPU-hour \S+ {MONTH} {MONEY}",
        f"{H}.options.[name={{decision}}].cost_per_useful_gpu_hour",
        "Page1_PerUseful",
    ),
    Figure(
        "rate",
        r"discounted at ([\d.]+%) a year",
        "discount_rate",
        "Page1_Rate",
    ),
    Figure(
        "owned_per_useful",
        r"(?:owning|bursting to the cloud\)) costs (\$[\d,.]+) per useful GPU-hour",
        f"{H}.options.[name={{owned}}].cost_per_useful_gpu_hour",
        "Page1_OwnedPerUseful",
        owned=True,
    ),
    Figure(
        "decision_total",
        r"\((\$[\d,]+) in total(?:, p95 wait [\d.,]+ h)?\)",  # a pool's p95 is its launch
        f"{H}.options.[name={{decision}}].total",
        "Page1_DecisionTotal",
    ),
    Figure(
        "break_even_allocation",
        r"(?:only above|above|at) (\d+%) allocation against",
        f"{H}.pair.break_even_utilization",
        "Page1_BreakEvenAllocation",
        owned=True,
        compared=True,
    ),
    Figure(
        "years",
        r"Horizon and discount rate ([\d.]+) years at",
        f"{H}.years",
        "Page1_Years",
    ),
    Figure(
        "useful_per_month",
        r"Useful GPU-hours per month ([\d,]+)",
        "useful_gpu_hours_per_month",
        "Page1_UsefulPerMonth",
    ),
    Figure(
        "installed_gpus",
        r"Owned GPUs and allocation ([\d,]+) GPUs",
        "installed_gpus",
        "Page1_InstalledGPUs",
        owned=True,
    ),
    Figure(
        "allocation",
        r"GPUs, ([\d.]+%) allocated",
        "allocation",
        "Page1_Allocation",
        owned=True,
    ),
    Figure(
        "fixed",
        r"fixed cost per installed GPU-hour (\$[\d,.]+)",
        "fixed_per_installed_gpu_hour",
        "Page1_Fixed",
        owned=True,
    ),
    Figure(
        "variable",
        r"extra energy per busy GPU-hour (\$[\d,.]+)",
        "variable_per_busy_gpu_hour",
        "Page1_Variable",
        owned=True,
    ),
    Figure(
        "resale",
        r"resale value at the horizon's end (none assumed|[\d.]+% of CapEx, \$[\d,]+)",
        f"{H}.options.[name={{owned}}].totals.resale",
        "Page1_Resale",
        sign=-1.0,
        owned=True,
    ),
)


def _cli(*argv: str) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(list(argv)) == 0
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class Surfaces:
    page: str
    """Page 1's text, whitespace collapsed."""
    raw: dict[str, Any]
    """`planner tco --json`."""
    book: Workbook
    """The workbook as LibreOffice recalculated it (values)."""


@pytest.fixture(scope="module")
def surfaces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Surfaces]:
    if not shutil.which("pdftotext"):
        apt_install("poppler-utils", "reading the PDF back")
    folder = tmp_path_factory.mktemp("page1")
    hand = folder / "hand.yaml"
    hand.write_text(json.dumps(HAND))  # YAML reads JSON
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    books = []
    for name, scenario in (("sample", SAMPLE), ("hand", hand)):
        db = str(folder / f"{name}.duckdb")
        raw = json.loads(_cli("tco", "--scenario", str(scenario), "--db", db, "--json"))
        for suffix in ("pdf", "xlsx"):
            path = folder / f"{name}.{suffix}"
            _cli("report", "--scenario", str(scenario), "--db", db, "--out", str(path))
        page = " ".join(_page_text(folder / f"{name}.pdf", 1).split())
        out[name] = (page, raw)
        books.append(folder / f"{name}.xlsx")
    recalculated = recalculate(books, folder / "out")
    return {
        path.stem: Surfaces(*out[path.stem], load_workbook(path, data_only=True))
        for path in recalculated
    }


def _json_value(raw: Any, path: str) -> Any:
    """`a.0.b`: keys and list indices; `[key=value]`: the list item whose key is value;
    `@min(key)`: the list item with the least key (the first on a tie, None values last);
    `@count(key)`: how many items have a key that is not None."""
    value = raw
    for part in re.findall(r"\[[^\]]*\]|@\w+\([^)]*\)|[^.]+", path):
        if part.startswith("["):
            key, wanted = part[1:-1].split("=", 1)
            value = next(item for item in value if str(item[key]) == wanted)
        elif part.startswith("@count("):
            value = sum(1 for item in value if item[part[7:-1]] is not None)
        elif part.startswith("@min("):
            key = part[5:-1]
            priced = [(item[key], k) for k, item in enumerate(value) if item[key] is not None]
            value = value[min(priced)[1]]
        elif isinstance(value, list):
            value = value[int(part)]
        else:
            value = value[part]
    return value


def _workbook_value(book: Workbook, name: str) -> Any:
    ((sheet, cell),) = book.defined_names[name].destinations
    return book[sheet][cell.replace("$", "")].value


def _shown(text: str) -> tuple[float | str | None, float]:
    """A figure as page 1 shows it: its value and half its last shown digit (the rounding);
    a name as itself; "never" (and "none assumed") as None and 0."""
    if text.startswith("never"):
        return None, 0.0
    if text == "none assumed":
        return 0.0, 0.0
    if text == "The only":
        return 1.0, 0.0
    if text.startswith("month "):
        return float(text.split()[1]), 0.0
    found = re.search(r"(-?)\$?([\d,]+(?:\.(\d+))?)(%?)$", text)
    if found is None:
        return text, 0.0
    sign, digits, decimals, percent = found.groups()
    scale = 0.01 if percent else 1.0
    value = float(digits.replace(",", "")) * (-1 if sign else 1) * scale
    return value, 0.5 * 10 ** -len(decimals or "") * scale


def _figures_on(case: Surfaces) -> list[Figure]:
    owns = case.raw["allocation"] is not None
    compared = any(h["comparisons"] for h in case.raw["horizons"])
    return [f for f in FIGURES if (owns or not f.owned) and (compared or not f.compared)]


@pytest.mark.parametrize("case", ["sample", "hand"])
def test_every_figure_on_page_one_is_the_jsons_and_the_recalculated_workbooks(
    case: str, surfaces: dict[str, Surfaces]
) -> None:
    s = surfaces[case]
    shown = {}
    for f in _figures_on(s):
        found = re.search(f.page, s.page)
        assert found is not None, f"{f.key} not found on page 1: {s.page[:600]}"
        shown[f.key] = next(g for g in found.groups() if g is not None)
    pair = s.raw["horizons"][0].get("pair") or {}
    names = {
        "decision": shown["decision"],
        "against": shown.get("against", ""),
        "owned": pair.get("owned", "self-hosted"),
    }
    for f in _figures_on(s):
        page, half = _shown(shown[f.key])
        expected = _json_value(s.raw, f.json.format(**names))
        if isinstance(expected, int | float) and not isinstance(expected, bool):
            expected *= f.sign
        workbook = _workbook_value(s.book, f.name)
        if isinstance(page, str):
            assert page == expected == workbook, f.key
        elif page is None:
            assert expected is None, f.key
            assert workbook == "never", f.key
        else:
            assert page == pytest.approx(expected, abs=half + 1e-9), f.key
            assert workbook == pytest.approx(expected, rel=1e-9, abs=0.005), f.key


def test_the_hand_case_by_hand(surfaces: dict[str, Surfaces]) -> None:
    """HAND (tests/workbook_cases.py): one 8-GPU server at $100,000 depreciated over a year,
    half its GPUs busy: 4 x 730 = 2,920 useful GPU-hours a month; P&L over 12 months
    100,000 + 12 x 109.50 (1.5 kW x $0.10 x 730 h) = 101,314, per useful GPU-hour
    101,314 / 35,040 = $2.8914; renting them at $10 is $350,400. Buying saves
    -70,909.50 in month 1 then 29,090.50 a month: NPV at 0 % 249,086, even in month 4.
    Fixed per installed GPU-hour: (100,000 + 1 kW idle x $0.10 x 730 x 12) / (8 x 8,760)
    = $1.4394; extra energy per busy GPU-hour: 1 kW / 8 GPUs x $0.10 = $0.0125."""
    book = surfaces["hand"].book

    def at(name: str) -> Any:
        return _workbook_value(book, name)

    assert (at("Page1_Decision"), at("Page1_Against")) == ("self-hosted", "flat")
    assert at("Page1_NPV") == pytest.approx(249_086.0, abs=0.005)
    assert at("Page1_BreakEvenMonth") == 4
    assert at("Page1_PerUseful") == pytest.approx(101_314 / 35_040, rel=1e-12)
    assert at("Page1_DecisionTotal") == pytest.approx(101_314.0, abs=0.005)
    assert at("Page1_UsefulPerMonth") == pytest.approx(2_920.0)
    assert at("Page1_Fixed") == pytest.approx((100_000 + 0.1 * 730 * 12) / (8 * 8_760))
    assert at("Page1_Variable") == pytest.approx(0.0125)
    assert "$249,086" in surfaces["hand"].page
