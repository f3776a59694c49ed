"""Equal service (issue 30): demand an owned option leaves unserved is priced as bought
elsewhere at a stated rate, in its total, NPV and cost per useful GPU-hour, and waiting
costs a stated rate per GPU-hour waited. Hand-computed cases on a real store."""

import subprocess
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest
from openpyxl import load_workbook

from planner.core.model import Job
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.report.render import render
from planner.report.workbook.owned import COL as OWN
from planner.report.workbook.owned import ROW, VALUE_COLUMN
from planner.service.tco_run import tco_of_jobs
from planner.store import open_store
from tests.debian import program
from tests.libreoffice import recalculate
from tests.test_bridge import OVERRIDES

TODAY = date(2026, 6, 1)
# eight 1-GPU jobs for 10 h fit the one 8-GPU server; a 16-GPU job for 10 h fits no server
# (unschedulable). The trace spans 10 h: a 730-hour month is 73 such spans, so the owned
# option leaves N = 16 GPUs x 10 h x 73 = 11,680 GPU-hours a month unserved.
SMALL = [Job(f"j{k}", 0.0, 36_000.0, gpus=1, gpu_types=("A100",)) for k in range(8)]
GANG = Job("gang", 0.0, 36_000.0, gpus=16, gpu_types=("A100",))
N = 16 * 10 * 73
CLOUD = {"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0}
DEARER = {"name": "dearer", "gpu": "A100", "price_per_gpu_hour": 3.0}


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    store = open_store(Path(tmp_path_factory.mktemp("elsewhere")) / "planner.duckdb")
    yield store
    store.close()


def _report(con: duckdb.DuckDBPyConnection, jobs: list[Job], **fields: Any) -> TcoReport:
    scenario = TcoScenario.model_validate(
        {
            "horizons_years": [1],
            "discount_rate": 0.08,
            "self_hosted": [{"gpu": "A100", "servers": 1, "gpus_per_server": 8}],
            "cloud": [DEARER, CLOUD],
            "overrides": OVERRIDES | {"lead_time_months": 0},
        }
        | fields
    )
    return tco_of_jobs(con, scenario, jobs, today=TODAY)


def _present_value(per_month: float, months: int, rate: float) -> float:
    """Month m's cash (m = 0 .. months - 1) discounted by (1 + rate)^(m / 12)."""
    return sum(per_month / (1 + rate) ** (m / 12) for m in range(months))


def test_unserved_demand_is_bought_at_the_cheapest_on_demand_price_by_hand(
    con: duckdb.DuckDBPyConnection,
) -> None:
    on = _report(con, [*SMALL, GANG])
    off = _report(con, [*SMALL, GANG], served_elsewhere={"enabled": False})

    mine, bare = on.horizons[0].options[0], off.horizons[0].options[0]
    # the cheaper of `rent` (2.0) and `dearer` (3.0) a GPU-hour, named in a note
    assert on.served_elsewhere is not None
    assert on.served_elsewhere.rate == 2.0
    assert any("served elsewhere at" in n and "2 per GPU-hour" in n for n in on.notes)
    # 11,680 GPU-hours a month x 2.0 = 23,360 a month, 12 months = 280,320
    assert mine.totals["served_elsewhere"] == pytest.approx(12 * N * 2.0)
    assert mine.served_elsewhere_gpu_hours == pytest.approx(12 * N)
    assert mine.total - bare.total == pytest.approx(12 * N * 2.0)
    # the NPV of buying falls by the line's present value (no tax: cash = P&L)
    moved = (
        off.horizons[0].comparisons[0].npv_of_buying - on.horizons[0].comparisons[0].npv_of_buying
    )
    assert moved == pytest.approx(_present_value(N * 2.0, 12, 0.08), rel=1e-9)
    # served share: 8 GPUs x 10 h of the 8 + 160 GPU-hours a span = 80 / 240
    assert mine.served_share == pytest.approx(80 / 240)
    assert on.horizons[0].options[-1].served_share == pytest.approx(1.0)
    # the useful GPU-hours a cost is per: what it ran (80 x 73 a month) and what it bought
    assert mine.cost_per_useful_gpu_hour == pytest.approx(mine.total / (12 * 73 * 240))
    assert bare.cost_per_useful_gpu_hour == pytest.approx(bare.total / (12 * 73 * 80))


def test_the_scenario_rate_prices_it_and_off_says_the_demand_differs(
    con: duckdb.DuckDBPyConnection,
) -> None:
    mine = _report(con, [*SMALL, GANG], served_elsewhere={"rate": 5.0})
    off = _report(con, [*SMALL, GANG], served_elsewhere={"enabled": False})

    # 11,680 x 5.0 = 58,400 a month
    assert mine.horizons[0].options[0].totals["served_elsewhere"] == pytest.approx(12 * N * 5.0)
    assert off.served_elsewhere is not None
    assert off.served_elsewhere.rate is None
    assert "served_elsewhere" not in off.horizons[0].options[0].totals
    assert any("serve different demand" in n for n in off.notes)
    assert off.horizons[0].options[0].ledger.gpu_hours.elsewhere == 0.0


def test_a_gpu_hour_waited_costs_the_wait_rate_by_hand(con: duckdb.DuckDBPyConnection) -> None:
    # on 8 GPUs at 0 h: seven 1-GPU jobs of 10 h, one of 20 h and a ninth of 10 h, which
    # waits 10 h for a GPU and ends at 20 h with the long one. The trace spans 20 h (36.5
    # spans a month) and has 1 GPU x 10 h waited: 365 GPU-hours a month
    long = Job("long", 0.0, 72_000.0, gpus=1, gpu_types=("A100",))
    nine = [*SMALL[:7], long, Job("late", 0.0, 36_000.0, gpus=1, gpu_types=("A100",))]

    report = _report(con, nine, served_elsewhere={"wait_per_gpu_hour": 1.5})

    mine = report.horizons[0].options[0]
    assert mine.totals["waiting"] == pytest.approx(12 * 365 * 1.5)
    assert "served_elsewhere" not in mine.totals  # everything ran within the window
    assert mine.served_share == pytest.approx(1.0)


def test_the_workbook_recalculates_the_line_to_the_models_figures(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    # a 2-month lead time bridged by `rent`, a 1.5 wait rate and the unschedulable gang: the
    # served-elsewhere column is 11,680 x 2.0 = 23,360 in each of the 10 months in service
    report = _report(
        con,
        [*SMALL, GANG],
        overrides=OVERRIDES | {"lead_time_months": 2},
        served_elsewhere={"wait_per_gpu_hour": 1.5},
    )
    path = tmp_path / "elsewhere.xlsx"
    path.write_bytes(render([("elsewhere", report)], "xlsx")[0][""])

    book = load_workbook(recalculate([path], tmp_path / "out")[0], data_only=True)

    mine, horizon = book["self-hosted"], report.horizons[0]
    column = [mine.cell(r, OWN["served_elsewhere"]).value for r in range(2, 14)]
    assert column == pytest.approx([0.0, 0.0] + [N * 2.0] * 10)
    model = horizon.options[0]
    assert mine.cell(ROW["total_pnl"], VALUE_COLUMN).value == pytest.approx(model.total)
    per_useful = mine.cell(ROW["per_useful"], VALUE_COLUMN).value
    assert per_useful == pytest.approx(model.cost_per_useful_gpu_hour)
    npv = book["Comparison"].cell(4, 2).value
    assert npv == pytest.approx(horizon.comparisons[0].npv_of_buying)


def test_page_one_shows_served_share_the_line_and_its_rate(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    report = _report(con, [*SMALL, GANG])
    path = tmp_path / "r.pdf"
    path.write_bytes(render([("elsewhere", report)], "pdf")[0][""])
    reader = program(("pdftotext",), "poppler-utils", "reading the PDF back")

    page = subprocess.run(
        [reader, "-f", "1", "-l", "1", "-layout", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    # served share 80 / 240; 12 x 11,680 x 2.0 = 280,320 bought elsewhere; the named rate
    assert "33.3%" in page
    assert "$280,320" in page
    assert "Unserved demand: served elsewhere at" in page
    assert "$2.000 per GPU-hour" in page
    assert "$0.00 per GPU-hour waited" in page


def test_the_default_rate_is_the_owned_gpus_cheapest_on_demand_price(tmp_path: Path) -> None:
    """Unserved A100 work is bought as A100 hours (not the cheapest GPU of any kind), and a
    scenario with no on-demand option for the owned GPU says which it priced instead."""
    from planner.core.file_access import LOCAL_FILES
    from planner.cost.scenario import TcoScenario
    from planner.service.tco_files import load_tco_scenario
    from planner.service.tco_run import run_tco
    from planner.store import connect

    base = {
        "name": "gpu match",
        "utilization": 0.5,
        "horizons_years": [1],
        "self_hosted": [{"gpu": "A100", "servers": 1, "gpus_per_server": 8}],
        "overrides": {"lead_time_months": 2},
    }
    a100 = {"name": "A100 cloud", "provider": "GCP", "gpu": "A100", "packing": "per-job"}
    h100 = {"name": "H100 cloud", "provider": "AWS", "gpu": "H100", "packing": "per-job"}
    with connect(tmp_path / "db.duckdb") as con:
        both = run_tco(
            con, TcoScenario.model_validate(base | {"cloud": [h100, a100]}), files=LOCAL_FILES
        )
        sample = load_tco_scenario(Path("data") / "scenarios" / "sample-tco.yaml")
        only_h100 = run_tco(con, sample, files=LOCAL_FILES)  # A100 and H800 owned, H100 rented

    assert both.inputs is not None
    assert only_h100.inputs is not None
    picked = both.inputs.served_elsewhere
    assert picked is not None
    assert picked.priced_at == "A100 cloud"  # not the H100 option listed first
    assert not any("rents the owned servers' GPU" in n for n in both.notes)
    said = "no on-demand cloud option rents the owned servers' GPU (A100, H800)"
    assert any(said in n for n in only_h100.notes)
