"""Defect 6: one lead-time rule on every path. CapEx at order; depreciation and running costs
from delivery; meanwhile the first cloud option bridges the demand, or nothing does and that
demand is unserved."""

from datetime import date

import duckdb
import pytest

from planner.core.model import Job
from planner.cost.scenario import TcoScenario, tco_from_replay
from planner.cost.tco import OptionReport
from planner.engine.scenario import Scenario
from planner.service.tco_run import tco_of_jobs

TODAY = date(2026, 6, 1)
# eight 1-GPU jobs for 10 hours: the trace spans 10 h, a 730-hour month is 73 such spans
JOBS = [Job(f"j{k}", 0.0, 36_000.0, gpus=1, gpu_types=("A100",)) for k in range(8)]
OVERRIDES = {
    "lead_time_months": 2,
    "network_share": 0.0,
    "storage_share": 0.0,
    "installation": 0.0,
    "pue": 1.0,
    "kwh_price": 0.1,
    "colo_per_kw_month": 100.0,
    "support_share_year": 0.12,
    "fte_per_server": 0.5,
    "fte_cost_year": 120_000.0,
    "life_years": 5.0,
    "residual_share": 0.0,
    "spares_share_year": 0.0,
    "software_per_gpu_year": 0.0,
    "availability": 1.0,
    "tax_rate": 0.0,
}
CLOUD = {"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0, "packing": "per-job"}
SERVER = {"gpu": "A100", "servers": 1, "gpus_per_server": 8}


def _yaml(cloud: bool, **server: float) -> TcoScenario:
    return TcoScenario.model_validate(
        {
            "horizons_years": [1],
            "self_hosted": [{**SERVER, **server}],
            "cloud": [CLOUD] if cloud else [],
            "overrides": OVERRIDES,
        }
    )


def _owned(
    con: duckdb.DuckDBPyConnection, scenario: TcoScenario
) -> tuple[OptionReport, tuple[str, ...]]:
    """The self-hosted option and the report's notes."""
    report = tco_of_jobs(con, scenario, JOBS, today=TODAY)
    option = report.horizons[0].options[0]
    assert option.name == "self-hosted"
    return option, report.notes


# 12 months, delivery at month 2: 10 months in service
HAND = {
    "capex": 100_000.0,
    "refresh": 0.0,  # a 5-year life outlasts the year: no replacement
    "depreciation": 100_000 / 60 * 10,
    "energy": 5 * 0.1 * 730 * 10,  # 5 kW busy all the time, 0.10 a kWh, PUE 1
    "colocation": 6 * 100 * 10,  # 6 kW contracted x 100 a kW-month
    "support": 0.12 * 100_000 / 12 * 10,
    "staff": 0.5 * 120_000 / 12 * 10,
    "software": 0.0,
    "spares": 0.0,
    "insurance": 0.0,
    "property_tax": 0.0,
    "cloud_burst": 0.0,
    "tax_shield": 0.0,
    "resale": 0.0,  # resale value 0 by default: nothing comes back at the end
    "disposal_tax": 0.0,
}
BRIDGE = 8 * 10 * 2.0 * 73 * 2  # 8 GPU x 10 h x 2.00 a GPU-hour, 73 spans a month, 2 months


@pytest.mark.parametrize("cloud", [True, False])
def test_a_two_month_lead_time_over_a_year_by_hand(
    con: duckdb.DuckDBPyConnection, cloud: bool
) -> None:
    scenario = _yaml(cloud, price=100_000, idle_kw=1, load_kw=5, max_kw=6)

    owned, notes = _owned(con, scenario)

    expected = HAND | {"bridge": BRIDGE if cloud else 0.0}
    assert owned.totals == pytest.approx(expected)
    monthly_pnl = owned.monthly_pnl
    assert isinstance(monthly_pnl, tuple)
    assert monthly_pnl[:2] == pytest.approx([BRIDGE / 2] * 2 if cloud else [0.0, 0.0])
    own = sum(v for k, v in HAND.items() if k != "capex")
    assert owned.cost_per_installed_gpu_hour == pytest.approx(own / (8 * 730 * 10))
    served_months = 12 if cloud else 10
    assert owned.useful_gpu_hours == pytest.approx(80 * 73 * served_months)
    monthly_cash = owned.monthly_cash
    assert isinstance(monthly_cash, tuple)
    # the last month is a month of running costs only: the book value left (10 of 60 months
    # depreciated, 83,333.33) used to come back as cash here; the resale value is 0 now
    running = own - HAND["depreciation"]
    assert monthly_cash[-1] == pytest.approx(running / 10)
    if not cloud:
        assert any("nothing bridges the lead time" in n for n in notes)


@pytest.mark.parametrize("cloud", [True, False])
def test_a_saved_replay_scenario_and_a_yaml_scenario_cost_the_same(
    con: duckdb.DuckDBPyConnection, cloud: bool
) -> None:
    replay = Scenario.model_validate({"name": "same"})
    nodes = [("a100-0", "A100", 8, 0.0, 0.0)]
    fields: dict[str, object] = {
        "horizons_years": [1],
        "overrides": OVERRIDES,
        "cloud": [CLOUD] if cloud else [],
    }
    from_replay = tco_from_replay(replay, nodes, **fields)
    from_yaml = _yaml(cloud).model_copy(update={"name": "same"})

    a = tco_of_jobs(con, from_replay, JOBS, today=TODAY)
    b = tco_of_jobs(con, from_yaml, JOBS, today=TODAY)

    for x, y in zip(a.horizons[0].options, b.horizons[0].options, strict=True):
        assert x.totals == pytest.approx(y.totals)
        assert x.total == pytest.approx(y.total)
    assert a.horizons[0].options[0].totals["bridge"] > 0 if cloud else True
