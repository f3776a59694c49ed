"""TCO over growing demand: each year's months priced from that year's replay and bills, the
ledger balanced, year 1 exactly today's, and `planner tco` showing each year's demand."""

import contextlib
import io
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from planner.cli import main
from planner.core.errors import ScenarioError
from planner.core.file_access import LOCAL_FILES
from planner.core.model import Job
from planner.core.notes import worded
from planner.core.serialize import from_json, to_json
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.report.excel import write_xlsx
from planner.report.model import build_report
from planner.report.pdf import write_pdf
from planner.report.workbook.owned import VALUE_COLUMN
from planner.report.workbook.rented import LATER_COLUMN as CLOUD_LATER_COLUMN
from planner.service.replay import load_jobs
from planner.service.scenario_store import parse
from planner.service.tco_run import run_tco, tco_of_jobs
from planner.store import open_store
from tests.conftest import ingest
from tests.test_ledger import SETTINGS, _check_balanced, jobs_strategy

if TYPE_CHECKING:
    from planner.engine.summary import ReplaySummary

TODAY = date(2026, 6, 1)
OPENB = "openb_pod_list_default.csv.gz"
SERVER = {"gpu": "A100", "servers": 2, "price": 100_000, "idle_kw": 1, "load_kw": 5, "max_kw": 6}
RENT = {"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0, "packing": "per-job"}
# a day of 8-GPU jobs, one an hour for two hours each
JOBS = [Job(f"j{i}", i * 3_600.0, 7_200.0, gpus=8.0, gpu_types=("A100",)) for i in range(24)]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    con = open_store(Path(tmp_path_factory.mktemp("growth")) / "planner.duckdb")
    yield con
    con.close()


def _scenario(**fields: Any) -> TcoScenario:
    data = {
        "horizons_years": [2, 1.5],
        "self_hosted": [SERVER],
        "cloud": [RENT],
        "hybrid": {"burst_after_s": 600, "servers": {"A100": 1}},
        "overrides": {"lead_time_months": 2},
    } | fields
    return TcoScenario.model_validate(data)


_CASH_ONLY = {"capex", "tax_shield"}


def _year(values: tuple[float, ...], year: int) -> float:
    return sum(values[(year - 1) * 12 : year * 12])


def test_no_growth_gives_exactly_todays_report(book: duckdb.DuckDBPyConnection) -> None:
    today = tco_of_jobs(book, _scenario(), JOBS, today=TODAY)

    for growth in ({"arrival_rate": [1.0]}, {"arrival_rate_per_year": 1.0}, {"seed": 3}):
        grown = tco_of_jobs(book, _scenario(growth=growth), JOBS, today=TODAY)

        assert grown.horizons == today.horizons
        assert grown.cost_per_useful_gpu_hour == today.cost_per_useful_gpu_hour
        assert grown.sensitivity == today.sensitivity
        assert [y.gpu_hours for y in grown.demand_by_year or ()] == [384.0, 384.0]


def test_year_one_months_are_todays_when_later_years_grow(
    book: duckdb.DuckDBPyConnection,
) -> None:
    today = tco_of_jobs(book, _scenario(), JOBS, today=TODAY)

    grown = tco_of_jobs(book, _scenario(growth={"arrival_rate": [1, 2]}), JOBS, today=TODAY)

    for h_today, h_grown in zip(today.horizons, grown.horizons, strict=True):
        for t, g in zip(h_today.options, h_grown.options, strict=True):
            assert g.monthly_pnl[:12] == t.monthly_pnl[:12]
            assert g.monthly_cash[:12] == t.monthly_cash[:12]
            assert g.total > t.total  # year 2 costs more on every option
    assert grown.sensitivity == today.sensitivity  # year 1's, as the note says
    assert any("demand grows by year (x1, x2" in n for n in grown.notes)


def test_cloud_on_demand_doubles_in_the_year_demand_doubles(
    book: duckdb.DuckDBPyConnection,
) -> None:
    # by hand: 24 jobs x 8 GPUs x 2 h = 384 GPU-h over a span of 25 h, a month is 730/25 of
    # it: 11,212.8 GPU-h at 2.00 = 22,425.60 a month, 269,107.20 in year 1; x2 jobs in year
    # 2 (each job once more, shifted by whole weeks: none fit in a day, so at its own time)
    scenario = TcoScenario.model_validate(
        {"horizons_years": [2], "cloud": [RENT], "growth": {"arrival_rate": [1, 2], "seed": 9}}
    )

    report = tco_of_jobs(book, scenario, JOBS, today=TODAY)

    rent = report.horizons[0].options[0]
    assert _year(rent.monthly_pnl, 1) == pytest.approx(12 * 384 * 730 / 25 * 2.0)
    assert _year(rent.monthly_pnl, 1) == pytest.approx(269_107.20)
    assert _year(rent.monthly_pnl, 2) == pytest.approx(2 * _year(rent.monthly_pnl, 1))
    assert rent.totals["cloud_compute"] == pytest.approx(3 * 269_107.20)
    years = report.demand_by_year or ()
    assert [(y.year, y.jobs, y.gpu_hours) for y in years] == [(1, 24, 384.0), (2, 48, 768.0)]
    assert years[1].gpu_hours_per_month == pytest.approx(2 * 11_212.8)
    assert rent.ledger is not None
    assert rent.ledger.gpu_hours.demanded == pytest.approx(12 * 11_212.8 * 3)


def test_each_year_replays_its_own_demand_on_the_owned_servers(
    book: duckdb.DuckDBPyConnection,
) -> None:
    grown = tco_of_jobs(book, _scenario(growth={"arrival_rate_per_year": 2}), JOBS, today=TODAY)

    owned, hybrid = grown.horizons[0].options[:2]
    # energy follows each year's allocation; the hybrid (one server) bursts twice as much
    energy = owned.pnl_by_category["energy"] if owned.pnl_by_category else ()
    assert _year(energy, 2) > _year(energy, 1)
    burst = hybrid.pnl_by_category["cloud_burst"] if hybrid.pnl_by_category else ()
    assert _year(burst, 2) > 1.9 * _year(burst, 1) > 0
    assert owned.wait_p95_s is not None


@SETTINGS
@given(jobs=jobs_strategy, lead=st.integers(0, 14), rate=st.sampled_from([0.5, 1.5, 2.0, 3.0]))
def test_the_ledger_balances_with_growth(
    book: duckdb.DuckDBPyConnection, jobs: list[Job], lead: int, rate: float
) -> None:
    scenario = _scenario(
        overrides={"lead_time_months": lead},
        growth={"arrival_rate_per_year": rate, "seed": 1},
    )

    report = tco_of_jobs(book, scenario, jobs, today=TODAY)

    _check_balanced(report)
    for horizon in report.horizons:
        for option in horizon.options:
            assert sum(option.monthly_pnl) == pytest.approx(option.total)
            pnl = {k: v for k, v in option.totals.items() if k not in _CASH_ONLY}
            assert sum(pnl.values()) == pytest.approx(option.total, rel=1e-9, abs=1e-6)


def test_growth_needs_a_trace(book: duckdb.DuckDBPyConnection) -> None:
    scenario = _scenario(hybrid=None, growth={"arrival_rate": [1, 2]})

    with pytest.raises(ScenarioError, match="growth"):
        tco_of_jobs(book, scenario, None, today=TODAY)


def test_a_team_joins_from_its_year(book: duckdb.DuckDBPyConnection) -> None:
    growth = {"add_team": {"name": "vision", "profile": "philly", "from_year": 2, "share": 0.5}}

    report = tco_of_jobs(book, _scenario(growth=growth), JOBS, today=TODAY)

    years = report.demand_by_year or ()
    assert [y.team_jobs > 0 for y in years] == [False, True]
    assert years[1].gpu_hours >= 1.5 * years[0].gpu_hours
    assert any("team vision (philly profile) joins in year 2" in n for n in report.notes)


@pytest.mark.parametrize(
    ("yaml", "expected"),
    [
        ("growth: {arival_rate: [1, 2]}\n", "did you mean 'arrival_rate'"),
        ("growth: {arrival_rate: [1, 2], arrival_rate_per_year: 2}\n", "not both"),
        ("growth: {arrival_rate: [1, -2]}\n", "arrival_rate.1"),
        ("growth: {add_team: {name: t, profile: llm, share: 0.5, from: 2}}\n", "from_year"),
        ("growth: {add_team: {name: t, profile: lm, share: 0.5}}\n", "'philly', 'helios'"),
    ],
)
def test_bad_growth_is_refused_by_key(yaml: str, expected: str) -> None:
    text = f"name: probe\nself_hosted: [{{gpu: H100, servers: 1}}]\n{yaml}"

    with pytest.raises(ScenarioError, match=expected):
        parse(text, "g.yaml", LOCAL_FILES)


def _printed(args: list[str]) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(args) == 0
    return buffer.getvalue()


def test_planner_tco_prints_each_years_demand(tmp_path: Path) -> None:
    trace = tmp_path / "t.csv"
    rows = [f"j{i},{i * 3600},{7200},8,A100" for i in range(24)]
    trace.write_text("job_id,submit_s,duration_s,gpus,gpu_type\n" + "\n".join(rows) + "\n")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "cloud: [{name: rent, gpu: A100, price_per_gpu_hour: 2.0, packing: per-job}]\n"
        "horizons_years: [2]\ntrace: t.csv\ngrowth: {arrival_rate: [1, 2], seed: 4}\n"
    )
    command = ["tco", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb")]

    # in this process (the CLI's code all the same): a `python -m planner` is seconds of CPU
    text = _printed(command)
    data = json.loads(_printed([*command, "--json"]))

    assert "year 2: arrival rate x2, 48 jobs, 768.0 GPU-h" in text
    assert "P&L by year: 1: 269,107.20, 2: 538,214.40" in text
    assert [(y["year"], y["jobs"], y["gpu_hours"]) for y in data["demand_by_year"]] == [
        (1, 24, 384.0),
        (2, 48, 768.0),
    ]
    assert any(n.startswith("demand grows by year") for n in data["notes"])


def test_each_years_demand_survives_a_json_round_trip(book: duckdb.DuckDBPyConnection) -> None:
    report = tco_of_jobs(book, _scenario(growth={"arrival_rate": [1, 3]}), JOBS, today=TODAY)

    again = from_json(TcoReport, json.loads(json.dumps(to_json(report))))

    assert again.demand_by_year == report.demand_by_year
    assert again.horizons[0].options[0].total == report.horizons[0].options[0].total


def test_waits_and_the_replay_summaries_are_the_worst_years(
    book: duckdb.DuckDBPyConnection,
) -> None:
    # one server for a day of 8-GPU jobs: queues grow with the demand, so year 3 is worst
    scenario = _scenario(
        hybrid=None, self_hosted=[SERVER | {"servers": 1}], growth={"arrival_rate": [1, 2, 3]}
    )
    summaries: dict[str, ReplaySummary] = {}
    year_one: dict[str, ReplaySummary] = {}

    report = tco_of_jobs(book, scenario, JOBS, today=TODAY, summaries=summaries)
    tco_of_jobs(
        book,
        _scenario(hybrid=None, self_hosted=[SERVER | {"servers": 1}]),
        JOBS,
        today=TODAY,
        summaries=year_one,
    )

    owned = report.horizons[0].options[0]
    assert summaries["self-hosted"].wait_s.p95 == owned.wait_p95_s
    assert summaries["self-hosted"].wait_s.mean == owned.wait_mean_s
    first = year_one["self-hosted"].wait_s.p95
    assert owned.wait_p95_s is not None
    assert first is not None
    assert owned.wait_p95_s > first


def test_a_time_warp_prices_the_same_jobs_in_a_shorter_span(
    book: duckdb.DuckDBPyConnection,
) -> None:
    # 24 jobs an hour apart, 2 h each: span 25 h; warped x2 the span is 11.5 + 2 = 13.5 h
    scenario = TcoScenario.model_validate(
        {"horizons_years": [2], "cloud": [RENT], "growth": {"time_warp": [1, 2]}}
    )

    report = tco_of_jobs(book, scenario, JOBS, today=TODAY)

    rent = report.horizons[0].options[0]
    assert _year(rent.monthly_pnl, 2) == pytest.approx(12 * 384 * 730 / 13.5 * 2.0)
    years = report.demand_by_year or ()
    assert [(y.jobs, y.time_warp) for y in years] == [(24, 1.0), (24, 2.0)]
    assert any(n.startswith("each year's clock runs faster") for n in report.notes)


def test_the_workbook_and_pdf_show_the_grown_months(book: duckdb.DuckDBPyConnection) -> None:
    report = tco_of_jobs(book, _scenario(growth={"arrival_rate": [1, 2]}), JOBS, today=TODAY)
    model = build_report([("grown", report)], 0, "en")

    sheets = load_workbook(io.BytesIO(write_xlsx(model)))
    pdf = write_pdf(model)

    # each month a live formula on the option's sheet (tests/test_growth_workbook.py
    # recalculates them); year 2's bill is its own column, not year 1's repeated
    rent = report.horizons[0].options[-1]
    rows = list(sheets["Monthly cash flow"].iter_rows(values_only=True))
    column = rows[0].index("rent")
    assert [row[column] for row in rows[1:3]] == ["='rent'!K2", "='rent'!K3"]
    year_1, year_2 = (get_column_letter(c) for c in (VALUE_COLUMN, CLOUD_LATER_COLUMN))
    up = "*(1+CloudEscalationYear)^INT(({}-1)/12)"  # year 1's price, escalated
    assert sheets["rent"]["B13"].value == f"={year_1}5" + up.format("A13")  # month 12: year 1's
    assert sheets["rent"]["B14"].value == f"={year_2}5" + up.format("A14")  # month 13: year 2's
    assert rent.monthly_cash[12] == pytest.approx(2 * rent.monthly_cash[11])
    assert pdf.data.startswith(b"%PDF")
    assert pdf.pages >= 1


def test_the_openb_cloud_bill_grows_with_its_demand(
    shared_traces: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # a whole factor copies every pod: the bill of year 2 is exactly twice year 1's; x1.5
    # draws half the pods once more, within two of the largest pod's bill of half of it
    trace = str(ingest(con, shared_traces / "alibaba-openb-2023" / OPENB).trace_id)
    flat = {"name": "flat", "gpu": "A100", "price_per_gpu_hour": 2.0, "packing": "per-job"}
    by_rate = {}
    for rate in (2.0, 1.5):
        scenario = TcoScenario.model_validate(
            {"horizons_years": [2], "cloud": [flat], "growth": {"arrival_rate": [1, rate]}}
        )
        report = run_tco(con, scenario, files=LOCAL_FILES, trace=trace, today=TODAY)
        by_rate[rate] = report
        rent = report.horizons[0].options[0]
        assert rent.ledger is not None
        assert rent.ledger.gpu_hours.imbalance == pytest.approx(0.0, abs=1e-6)

    double = by_rate[2.0].horizons[0].options[0].monthly_pnl
    assert _year(double, 2) == pytest.approx(2 * _year(double, 1), rel=1e-9)
    years = by_rate[1.5].demand_by_year or ()
    largest = max(j.gpu_hours for j in load_jobs(con, trace) if j.gpus)
    assert abs(years[1].gpu_hours - 1.5 * years[0].gpu_hours) <= 2 * largest
    assert years[1].jobs == pytest.approx(1.5 * years[0].jobs, abs=1)


def test_a_later_years_own_notes_say_which_year(book: duckdb.DuckDBPyConnection) -> None:
    # from year 2 a team asks for H100s: the A100 cloud option prices them at speed 1.0
    team = {"name": "llm", "profile": "llm", "from_year": 2, "share": 0.5, "gpu": "H100"}
    scenario = _scenario(hybrid=None, growth={"add_team": team})

    report = tco_of_jobs(book, scenario, JOBS, today=TODAY)

    later = [n for n in report.notes if n.startswith("year 2: rent:")]
    assert len(later) == 1
    assert "priced at speed 1.0" in later[0]
    assert worded(later[0], "zh").startswith("第 2 年：rent：")
