"""One headline pair everywhere (issue 30): the headline facts, the conclusion, PDF page 1,
the tornado, the flip values and the workbook all weigh the same owned option against the
same cloud option; a hybrid is one option, never its owned part."""

from datetime import date
from io import BytesIO
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.workbook.workbook import Workbook

from planner.core.file_access import LOCAL_FILES
from planner.core.notes import worded
from planner.cost.pair import OWNED
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.excel import write_xlsx
from planner.report.pdf_summary import decide, figures
from planner.report.text import text
from planner.report.workbook.flips import COL as FLIP
from planner.report.workbook.sensitivity import COL as SENS
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import open_store
from tests.libreoffice import recalculate
from tests.report_inputs import write_scenario

WORKED = Path(__file__).parent.parent / "data" / "scenarios" / "worked-example-h100.yaml"
TODAY = date(2026, 6, 1)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, TcoReport]:
    folder = tmp_path_factory.mktemp("flip")
    con = open_store(folder / "planner.duckdb")
    try:
        worked = run_tco(con, load_tco_scenario(WORKED), files=LOCAL_FILES, today=TODAY)
        keeps_one = write_scenario(folder)  # 2 servers self-hosted, the hybrid keeps 1
        keeps_all = folder / "all.yaml"
        text = keeps_one.read_text(encoding="utf-8")
        keeps_all.write_text(text.replace("servers: {A100: 1}", "servers: {A100: 2}"))
        return {
            "worked": worked,
            "hybrid": run_tco(con, load_tco_scenario(keeps_all), files=LOCAL_FILES, today=TODAY),
            "hybrid_one": run_tco(
                con, load_tco_scenario(keeps_one), files=LOCAL_FILES, today=TODAY
            ),
        }
    finally:
        con.close()


@pytest.fixture(scope="module")
def workbook(reports: dict[str, TcoReport], tmp_path_factory: pytest.TempPathFactory) -> Workbook:
    folder = tmp_path_factory.mktemp("xlsx")
    path = folder / "worked.xlsx"
    report = reports["worked"]
    path.write_bytes(write_xlsx(build_report([(report.scenario, report)], 0, "en", TODAY)))
    (out,) = recalculate([path], folder / "out")
    return load_workbook(BytesIO(out.read_bytes()), data_only=True)


def test_the_pair_is_the_owned_option_as_built_against_the_cheapest_cloud_option(
    reports: dict[str, TcoReport],
) -> None:
    for report in reports.values():
        horizon = report.horizons[0]
        clouds = [o for o in horizon.options if o.name not in OWNED]
        cheapest = min(clouds, key=lambda o: o.cost_per_useful_gpu_hour or float("inf"))
        owners = [o for o in horizon.options if o.name in OWNED and o.part_of is None]
        owner = min(owners, key=lambda o: o.cost_per_useful_gpu_hour or float("inf"))
        pair = horizon.pair
        assert pair is not None
        assert (pair.owned, pair.rented) == (owner.name, cheapest.name)
        assert report.verdict is not None
        assert (report.verdict.owned, report.verdict.rented) == (pair.owned, pair.rented)
        assert report.verdict.npv_of_buying == pytest.approx(pair.npv_of_buying, rel=1e-9)


def test_headline_conclusion_tornado_pdf_and_workbook_name_the_same_pair(
    reports: dict[str, TcoReport], workbook: Workbook
) -> None:
    report = reports["worked"]
    pair = report.horizons[0].pair
    assert pair is not None
    model = build_report([(report.scenario, report)], 0, "en", TODAY)
    facts = {f.label: f.value for f in model.headlines[0].facts}

    assert facts[text("report.fact.pair", "en")] == f"self-hosted vs {pair.rented}"
    assert facts[text("report.fact.pair_npv", "en")] == pair.npv_of_buying
    conclusion = model.headlines[0].conclusion
    assert f"against {pair.rented}" in conclusion
    assert report.sensitivity is not None
    assert pair.rented in worded(report.sensitivity.output, "en")
    assert report.sensitivity.base == pytest.approx(pair.npv_of_buying, rel=1e-9)
    decision = decide((report.scenario, report), 0)
    assert decision.against == pair
    assert pair.rented in figures(decision, "en")[1][2]  # the NPV tile's "vs ..."
    tornado = workbook["Sensitivity"]
    assert pair.rented in str(tornado.cell(2, SENS["output"]).value)
    assert tornado.cell(2, SENS["base"]).value == pytest.approx(pair.npv_of_buying, abs=0.005)
    flips = workbook["Verdict flips"]
    assert flips.cell(2, FLIP["pair"]).value == f"self-hosted vs {pair.rented}"


def test_the_workbooks_cloud_price_flip_recalculates_to_the_models(
    reports: dict[str, TcoReport], workbook: Workbook
) -> None:
    verdict = reports["worked"].verdict
    assert verdict is not None
    rows = {
        row[FLIP["driver"] - 1]: row
        for row in workbook["Verdict flips"].iter_rows(min_row=2, values_only=True)
    }
    for f in verdict.flips:
        row = rows[text(f"report.driver.{f.driver}", "en")]
        at, how = row[FLIP["at"] - 1], str(row[FLIP["how"] - 1])
        if f.value is None:
            assert str(at).startswith("never within")
        else:
            assert at == pytest.approx(f.value, rel=1e-9)
        assert how.startswith("live" if f.driver in ("cloud_price", "server_price") else "")
    cloud = next(f for f in verdict.flips if f.driver == "cloud_price")
    assert cloud.value is not None  # RunPod at 3.57 x its price makes buying pay
    assert rows[text("report.driver.cloud_price", "en")][FLIP["how"] - 1].startswith("live")


def test_a_hybrid_is_one_option_its_owned_part_is_never_ranked(
    reports: dict[str, TcoReport],
) -> None:
    report = reports["hybrid"]  # it keeps both servers: self-hosted is its owned part
    assert report.horizons[0].options[0].part_of == "hybrid"
    model = build_report([(report.scenario, report)], 0, "en", TODAY)
    decision = decide((report.scenario, report), 0)

    assert "self-hosted" not in model.headlines[0].conclusion
    assert "hybrid" in model.headlines[0].conclusion
    assert decision.chosen is not None
    assert decision.chosen.name != "self-hosted"
    assert decision.owned is not None
    assert decision.owned.name == "hybrid"
    # the hybrid and the one cloud option: two options as built, and servers to weigh
    why = figures(decision, "en")[0][2]
    assert "of the 2 options" in why
    npv_sub = figures(decision, "en")[1][2]
    assert npv_sub != text("report.pdf.tile.no_comparison", "en")
    assert report.sensitivity is not None
    assert worded(report.sensitivity.output, "en").startswith("NPV of the hybrid")


def test_a_hybrid_keeping_fewer_servers_leaves_self_hosted_an_option_of_its_own(
    reports: dict[str, TcoReport],
) -> None:
    report = reports["hybrid_one"]  # self-hosted buys 2 servers, the hybrid keeps 1
    decision = decide((report.scenario, report), 0)

    assert report.horizons[0].options[0].part_of is None
    assert "of the 3 options" in figures(decision, "en")[0][2]
