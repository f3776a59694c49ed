"""Inputs past what the model can mean are refused up front, in the CLI as in the app: Monte
Carlo draws and drivers, a scenario's prices and rates, a sweep's number of points."""

from pathlib import Path

import pydantic
import pytest

from planner.cli.main import main
from planner.core.errors import ScenarioError
from planner.cost.montecarlo_paths import Driver
from planner.cost.scenario import TcoScenario
from planner.service.montecarlo import MAX_DRAWS, McSettings
from planner.service.tco_files import load_tco_scenario

ROOT = Path(__file__).resolve().parents[1]
WORKED = ROOT / "data" / "scenarios" / "worked-example-h100.yaml"
SAMPLE = ROOT / "data" / "scenarios" / "sample-tco.yaml"


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    return err[-1]


def test_montecarlo_draws_are_capped_as_in_the_app(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["montecarlo", "--scenario", str(WORKED), "--db", str(tmp_path / "db.duckdb")]

    assert main([*argv, "--draws", "1000000000"]) == 2
    assert _error(capsys) == (
        "error: --draws must be between 1 and 100,000 (got 1,000,000,000), as in the app"
    )
    assert MAX_DRAWS == 100_000
    with pytest.raises(ScenarioError, match="draws must be between 1 and 100,000"):
        McSettings(draws=MAX_DRAWS + 1)


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--cloud-vol", "inf", "must be between 0 and 5 (a fraction a year), got inf"),
        ("--cloud-trend", "nan", "must be above -1 and at most 10 (a fraction a year), got nan"),
        ("--electricity-vol", "1e300", "must be between 0 and 5 (a fraction a year), got 1e300"),
        ("--server-sd", "-0.1", "must be between 0 and 5 (a fraction a year), got -0.1"),
        ("--demand-sd", "ten", "expected a number, got 'ten'"),
    ],
)
def test_montecarlo_drivers_out_of_range_are_refused(
    flag: str, value: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["montecarlo", "--scenario", str(WORKED), f"{flag}={value}"])

    assert exited.value.code == 2
    assert _error(capsys).endswith(f"argument {flag}: {said}")


@pytest.mark.parametrize(
    "bad",
    [{"volatility": float("inf")}, {"trend": float("nan")}, {"level_sd": 1e300}],
)
def test_a_driver_out_of_range_is_refused_in_the_core(bad: dict[str, float]) -> None:
    with pytest.raises(ScenarioError, match="a price's"):
        Driver(**bad)


def test_a_scenarios_prices_and_rates_are_bounded(tmp_path: Path) -> None:
    data = load_tco_scenario(WORKED).model_dump(mode="json", exclude_unset=True)

    with pytest.raises(pydantic.ValidationError, match="less than or equal to 10"):
        TcoScenario.model_validate({**data, "discount_rate": 1e308})
    pool = {**data["self_hosted"][0], "price": 1e308}
    with pytest.raises(pydantic.ValidationError, match="less than or equal to 100000000"):
        TcoScenario.model_validate({**data, "self_hosted": [pool]})
    cloud = {**data["cloud"][0], "price_per_gpu_hour": 1e9}
    with pytest.raises(pydantic.ValidationError, match="less than or equal to 100000000"):
        TcoScenario.model_validate({**data, "cloud": [cloud]})


def test_an_override_past_the_bound_is_refused_on_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = WORKED.read_text(encoding="utf-8") + "\noverrides: {fte_cost_year: 1.0e+308}\n"
    scenario = tmp_path / "huge.yaml"
    scenario.write_text(text, encoding="utf-8")

    code = main(["tco", "--scenario", str(scenario), "--db", str(tmp_path / "db.duckdb")])

    assert code == 2
    assert _error(capsys) == (
        "error: overrides.fte_cost_year: 1e+308 is out of range; give a finite number of at "
        "most 100,000,000"
    )


def test_a_sweep_grid_past_max_points_is_refused_before_any_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "db.duckdb"
    argv = ["sweep", "--scenario", str(SAMPLE), "--db", str(db)]

    servers = ",".join(str(n) for n in range(1, 41))
    hours = ",".join(str(h) for h in range(1, 31))
    code = main([*argv, "--vary", f"servers={servers}", "--vary", f"burst_after_h={hours}"])

    assert code == 2
    assert _error(capsys) == (
        "error: --vary gives 1,200 points, more than --max-points 1,000; each is a replay of "
        "the whole trace (the app sweeps at most 64): vary fewer values, or give "
        "--max-points N to run them all"
    )
    assert not db.exists()  # refused before the trace was read or a point stored
