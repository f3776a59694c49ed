"""The Monte Carlo's demand spread comes from evidence: the scenario's twin check (its
calibrated replay's error e in allocated GPU-hours gives e x sqrt(pi/2)), else the stated 10 % default,
and a note says which; the same seed gives the same draws, the spread shows in them."""

import math
from datetime import date
from pathlib import Path

import numpy as np
import pytest

from planner.core.model import Job
from planner.core.notes import worded
from planner.cost.montecarlo_paths import (
    DEFAULT_DEMAND_SD,
    FLAT,
    Driver,
    PathSpec,
    demand_from_twin,
    draw_paths,
)
from planner.cost.scenario import TcoScenario
from planner.engine.calibration import CalibrationSpec
from planner.service.montecarlo import McSettings, demand_spread, of_inputs
from planner.service.tco_run import tco_of_jobs
from planner.store import open_store

TODAY = date(2026, 6, 1)
SERVER = {"gpu": "A100", "servers": 1, "price": 100_000, "idle_kw": 1, "load_kw": 5, "max_kw": 6}
BASE = {
    "horizons_years": [1],
    "self_hosted": [SERVER],
    "cloud": [{"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0}],
}


def _calibrated(error: float | None) -> TcoScenario:
    """The scenario with a twin check's block as `planner twin --save-scenario` writes it."""
    block = CalibrationSpec.from_fit(
        None,
        fitted_on="history.csv (t1)",
        fit_until_s=3600.0,
        validation_window_s=(3600.0, 7200.0),
        validation={
            "p50_ratio": 1.2,
            "verdict": "it matches",
            "allocation_error": 0.5,  # per hour: timing, not level; never the spread
            "allocation_level_error": error,
        },
    )
    scheduling = {"calibration": block.model_dump(exclude_none=True)}
    return TcoScenario.model_validate(BASE | {"scheduling": scheduling})


def test_a_twin_checks_allocation_error_sets_the_spread() -> None:
    settings, said = demand_spread(McSettings(10, 3), _calibrated(0.04))

    assert settings.paths.demand is not None
    assert settings.paths.demand.level_sd == pytest.approx(0.04 * math.sqrt(math.pi / 2))
    assert settings.paths.demand.level_sd == pytest.approx(0.0501, abs=1e-4)  # by hand
    assert said == (
        "demand spread 5.0%: from the twin check of history.csv (t1), whose calibrated "
        "replay's allocated GPU-hours over its validation window missed the observed by 4.0% "
        "(spread = 4.0% x sqrt(pi/2), the standard deviation of a normal error with that mean "
        "absolute size)"
    )
    assert worded(said, "zh").startswith("需求离散度 5.0%：取自 history.csv (t1) 的孪生校验")


@pytest.mark.parametrize("scenario", [TcoScenario.model_validate(BASE), _calibrated(None)])
def test_without_a_measured_error_the_default_is_stated(scenario: TcoScenario) -> None:
    settings, said = demand_spread(McSettings(10, 3), scenario)

    assert settings.paths.demand == Driver(level_sd=DEFAULT_DEMAND_SD)
    assert said.startswith("demand spread 10%: a default, confidence L")
    assert "openb export missed its allocated GPU-hours by 1.6%" in said
    assert "默认值" in worded(said, "zh")


def test_a_given_spread_is_kept_and_said() -> None:
    given = McSettings(10, 3, PathSpec(demand=Driver(level_sd=0.25)))
    settings, said = demand_spread(given, _calibrated(0.04))

    assert settings == given
    assert said == "demand spread 25.0%: as given"
    assert demand_spread(McSettings(10, 3, FLAT), _calibrated(0.04))[0].paths.demand == Driver()


def test_the_draws_show_the_spread_and_repeat_with_the_seed() -> None:
    spread = demand_from_twin(0.08)
    paths = draw_paths(PathSpec(demand=spread), 4000, 3, seed=11)
    again = draw_paths(PathSpec(demand=spread), 4000, 3, seed=11)
    other = draw_paths(PathSpec(demand=spread), 4000, 3, seed=12)

    logs = np.log(paths.demand[:, 0])
    assert np.std(logs) == pytest.approx(spread.level_sd, rel=0.05)
    assert np.mean(paths.demand[:, 0]) == pytest.approx(1.0, abs=0.01)  # no drift in level
    assert np.array_equal(paths.demand, again.demand)
    assert not np.array_equal(paths.demand, other.demand)
    # the other drivers' numbers do not depend on the demand's spread
    default = draw_paths(PathSpec(), 4000, 3, seed=11)
    assert np.array_equal(default.cloud, paths.cloud)


def test_a_calibrated_scenarios_monte_carlo_repeats_and_says_its_source(tmp_path: Path) -> None:
    jobs = [Job(f"j{i}", i * 3_600.0, 7_200.0, gpus=8.0, gpu_types=("A100",)) for i in range(24)]
    scenario = _calibrated(0.3)
    con = open_store(tmp_path / "p.duckdb")
    try:
        report = tco_of_jobs(con, scenario, jobs, today=TODAY)
    finally:
        con.close()
    assert report.inputs is not None

    first = of_inputs(report.inputs, report, scenario, McSettings(300, 5))
    second = of_inputs(report.inputs, report, scenario, McSettings(300, 5))
    default = of_inputs(report.inputs, report, TcoScenario.model_validate(BASE), McSettings(300, 5))

    assert first == second
    assert first.paths.demand == demand_from_twin(0.3)
    assert any(n.startswith("demand spread 37.6%: from the twin check") for n in first.notes)
    rent = next(o for o in first.horizons[0].options if o.option == "rent")
    narrow = next(o for o in default.horizons[0].options if o.option == "rent")
    assert rent.p95 - rent.p5 > narrow.p95 - narrow.p5  # the wider spread shows in the NPVs
