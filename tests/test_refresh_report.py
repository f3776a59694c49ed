"""The refresh line and the escalation rates as a reader of the reports sees them (issue 30):
`planner tco` on the worked example with a 3-year server life over 5 years and prices
rising, its JSON, its PDF's page 1 (English and Chinese, read back with pdftotext) and its
CSV; the stock worked example (5-year life over 3 years, no escalation) shows neither."""

import contextlib
import csv
import io
import json
import subprocess
from pathlib import Path

import pytest
import yaml

from planner.cli import main
from tests.debian import program

WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"
RISING = {
    "life_years": 3,
    "power_escalation_year": 0.03,
    "staff_escalation_year": 0.04,
    "cloud_escalation_year": -0.10,
}


def _scenario(folder: Path, **overrides: float) -> Path:
    scenario = yaml.safe_load(WORKED.read_text())
    scenario["horizons_years"] = [5]
    scenario["overrides"] |= overrides
    path = folder / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario))
    return path


def _tco(folder: Path, scenario: Path, *out: str) -> dict[str, object]:
    buffer = io.StringIO()
    db = str(folder / "p.duckdb")
    with contextlib.redirect_stdout(buffer):
        assert main(["tco", "--scenario", str(scenario), "--db", db, "--json", *out]) == 0
    found: dict[str, object] = json.loads(buffer.getvalue())
    return found


@pytest.fixture(scope="module")
def rising(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    folder = tmp_path_factory.mktemp("rising")
    scenario = _scenario(folder, **RISING)
    report = _tco(folder, scenario, "--pdf", str(folder / "en.pdf"), "--csv", str(folder / "t.csv"))
    main(["tco", "--scenario", str(scenario), "--db", str(folder / "p.duckdb"),
          "--pdf", str(folder / "zh.pdf"), "--lang", "zh"])  # fmt: skip
    return folder, report


def _page_one(pdf: Path) -> str:
    reader = program(("pdftotext",), "poppler-utils", "reading the PDF back")
    args = [reader, "-layout", "-l", "1", str(pdf), "-"]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def test_the_json_has_a_refresh_line_of_one_more_capex(
    rising: tuple[Path, dict[str, object]],
) -> None:
    """One 8xH100 server, CapEx 300,000 x 1.17 = 351,000, bought in month 1 and again in
    month 37 (36 months of life); the book charge runs at 351,000 / 36 = 9,750 all 60 months."""
    _, report = rising
    horizons = report["horizons"]
    assert isinstance(horizons, list)
    own = horizons[0]["options"][0]
    assert own["totals"]["capex"] == pytest.approx(351_000)
    assert own["totals"]["refresh"] == pytest.approx(351_000)
    assert own["totals"]["depreciation"] == pytest.approx(60 * 9_750)
    assert own["monthly_cash"][36] - own["monthly_cash"][35] > 350_000


def test_page_one_names_the_refresh_and_the_escalation_in_both_languages(
    rising: tuple[Path, dict[str, object]],
) -> None:
    folder, _ = rising
    english, chinese = _page_one(folder / "en.pdf"), _page_one(folder / "zh.pdf")

    assert "Owned: servers replaced at the end of their life" in english
    assert "every 3 years, bought again in month 37: $351,000 more CapEx" in english
    assert "Prices rising a year (from month 13)" in english
    assert "power +3.0%, salaries +4.0%, cloud -10.0%" in english
    assert "第 37 月再次购买" in chinese
    assert "电价 +3.0%，薪资 +4.0%，云价格 -10.0%" in chinese


def test_the_csv_has_a_refresh_column(rising: tuple[Path, dict[str, object]]) -> None:
    folder, _ = rising
    rows = list(csv.DictReader(io.StringIO((folder / "t.csv").read_text("utf-8-sig"))))
    label = "Refresh (replacement servers at the end of their life, cash)"
    own = next(r for r in rows if r["Option"] == "self-hosted")
    assert float(own[label]) == pytest.approx(351_000)
    assert float(own["CapEx (cash)"]) == pytest.approx(351_000)


def test_the_stock_worked_example_shows_neither(tmp_path: Path) -> None:
    """Its 5-year life outlasts a 5-year horizon and nothing escalates: no refresh, no row."""
    report = _tco(tmp_path, _scenario(tmp_path), "--pdf", str(tmp_path / "en.pdf"))
    horizons = report["horizons"]
    assert isinstance(horizons, list)
    assert horizons[0]["options"][0]["totals"]["refresh"] == 0.0
    page = _page_one(tmp_path / "en.pdf")
    assert "replaced at the end of their life" not in page
    assert "Prices rising" not in page


def test_a_resale_value_sells_each_generation_and_page_one_shows_the_ends(
    tmp_path: Path,
) -> None:
    """Resale 30 %: the first server is sold in month 37 for 0.3 x 351,000 = 105,300 as its
    replacement arrives, the second at the horizon's end for as much (210,600 in all); page 1's
    resale row is the end's sale."""
    scenario = _scenario(tmp_path, life_years=3, resale_share=0.3)
    report = _tco(tmp_path, scenario, "--pdf", str(tmp_path / "en.pdf"))
    horizons = report["horizons"]
    assert isinstance(horizons, list)
    own = horizons[0]["options"][0]
    assert own["totals"]["resale"] == pytest.approx(-2 * 105_300)
    page = _page_one(tmp_path / "en.pdf")
    assert "30% of CapEx, $105,300 cash in before tax" in page


def test_the_worked_examples_npv_pays_the_second_server_in_month_37(tmp_path: Path) -> None:
    """The figures of docs/tco.md: over 5 years at 8 %, a 3-year life's NPV of buying against AWS
    is the 5-year life's less the second server's CapEx discounted 36 months,
    351,000 / 1.08 ^ 3 = 278,633.6 (no tax, no resale: the rest of the cash is the same)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    five = _tco(tmp_path / "a", _scenario(tmp_path / "a"))
    three = _tco(tmp_path / "b", _scenario(tmp_path / "b", life_years=3))

    def npv(report: dict[str, object]) -> float:
        horizons = report["horizons"]
        assert isinstance(horizons, list)
        value: float = horizons[0]["comparisons"][0]["npv_of_buying"]
        return value

    assert npv(three) == pytest.approx(npv(five) - 351_000 / 1.08**3, abs=0.01)
    assert round(npv(five)) == -84_359
    assert round(npv(three)) == -362_994
