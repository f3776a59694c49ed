"""Defect 5: every per-server cost of a hybrid follows the servers it keeps, staff included."""

from datetime import date

import duckdb
import pytest

from planner.cost.baremetal import BareMetal, ServerPool, keep_servers, monthly
from planner.cost.scenario import TcoScenario
from planner.service.tco_inputs import bare_metal, load_inputs
from planner.service.tco_replayed import hybrid_servers

FTE_COST_YEAR = 180_000.0  # reference-defaults fte_cost_year.us
FTE_PER_SERVER = 0.25  # reference-defaults fte_per_server


def _scenario(**overrides: float) -> TcoScenario:
    return TcoScenario.model_validate(
        {
            "self_hosted": [
                {
                    "gpu": "A100",
                    "servers": 110,
                    "price": 200_000,
                    "idle_kw": 2,
                    "load_kw": 6,
                    "max_kw": 6.5,
                }
            ],
            "cloud": [{"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0}],
            "hybrid": {"burst_after_s": 3600, "servers": {"A100": 80}},
            "overrides": overrides,
        }
    )


def _staff_per_month(con: duckdb.DuckDBPyConnection, scenario: TcoScenario) -> tuple[float, float]:
    inputs, _ = load_inputs(con, scenario, date(2026, 6, 1))
    bm, _ = bare_metal(con, scenario, inputs)
    kept = hybrid_servers(scenario, bm)
    return monthly(bm, 1, (0.5,))[0].category("staff"), monthly(kept, 1, (0.5,))[0].category(
        "staff"
    )


def test_a_hybrid_keeping_80_of_110_servers_pays_staff_for_80(
    con: duckdb.DuckDBPyConnection,
) -> None:
    scenario = _scenario(lead_time_months=0)

    owned, hybrid = _staff_per_month(con, scenario)

    # 110 x 0.25 FTE x 180,000 / 12 = 412,500; 80 x 0.25 x 180,000 / 12 = 300,000 a month
    assert owned == pytest.approx(412_500.0)
    assert hybrid == pytest.approx(300_000.0)


def test_an_explicit_fte_scales_by_servers_kept_over_servers_in_all(
    con: duckdb.DuckDBPyConnection,
) -> None:
    scenario = _scenario(lead_time_months=0, fte=11.0)

    owned, hybrid = _staff_per_month(con, scenario)

    # 11 FTE for 110 servers: 0.1 FTE a server; the hybrid keeps 80: 8 FTE
    assert owned == pytest.approx(11 * 180_000 / 12)
    assert hybrid == pytest.approx(8 * 180_000 / 12)


def test_any_bare_metal_with_fewer_servers_pays_per_server_costs_for_its_own() -> None:
    pool = ServerPool("A100", 10, 8, 100_000.0, 2.0, 6.0, 6.5)
    bm = BareMetal(pools=(pool,), fte=5.0, installation=10_000.0)

    kept = keep_servers(bm, [ServerPool("A100", 4, 8, 100_000.0, 2.0, 6.0, 6.5)])

    before, after = monthly(bm, 1, (0.5,))[0], monthly(kept, 1, (0.5,))[0]
    assert after.category("staff") == pytest.approx(before.category("staff") * 0.4)
    assert kept.installation == pytest.approx(4_000.0)
    for name in ("energy", "colocation", "support", "software", "spares"):
        assert after.category(name) == pytest.approx(before.category(name) * 0.4), name
