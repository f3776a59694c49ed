"""A sweep's stored rows (what `planner sweep` prints and the Capacity page shows): each owned
row's ledger adds up with the work carried past the trace's window, utilization is the share
the TCO prices within the window, the twin error bar is the twin check's error applied to the
replayed figures, and a re-run and the command read the same numbers back from a real DuckDB
file.

The scenario is the bundled sample without its hybrid and with 1 or 4 A100 servers: small
enough that a backlog is carried past the window (the ledger's `carried` line is not empty).
"""

import json
from collections.abc import Iterator
from dataclasses import asdict
from datetime import date
from pathlib import Path

import pytest

from planner.cli.main import main
from planner.core.file_access import LOCAL_FILES
from planner.cost.scenario import SchedulingSpec, TcoScenario
from planner.engine.calibration import CalibrationSpec, ValidationSpec
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep import Row, balances, rows_of
from planner.service.sweep_keys import apply
from planner.service.sweep_point import PointResult
from planner.service.sweep_run import Sweep, SweepOutcome, run_sweep
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import tco_of_jobs
from planner.store import Connection, connect

ROOT = Path(__file__).resolve().parents[1]
TODAY = date.today()  # the command keys its points by today's date: the same key
POINTS = [(("servers", 1),), (("servers", 4),)]
ERROR = 0.25  # a twin check's allocation error, as `planner twin --save-scenario` keeps it


@pytest.fixture(scope="module")
def small() -> TcoScenario:
    sample = load_tco_scenario(ROOT / "data" / "scenarios" / "sample-tco.yaml")
    trace = str(ROOT / "data" / "traces" / "sample.csv")
    return apply(sample, (("servers", 8),)).model_copy(update={"hybrid": None, "trace": trace})


@pytest.fixture(scope="module")
def stored(
    tmp_path_factory: pytest.TempPathFactory, small: TcoScenario
) -> Iterator[tuple[Path, Connection, Sweep, SweepOutcome]]:
    db = tmp_path_factory.mktemp("store") / "planner.duckdb"
    with connect(db) as con:
        assert small.trace is not None
        trace_id = resolve_trace(con, small.trace, files=LOCAL_FILES)
        sweep = Sweep(small, load_jobs(con, trace_id), trace_id, TODAY)
        yield db, con, sweep, run_sweep(con, sweep, POINTS)


def owned(results: tuple[PointResult, ...]) -> list[Row]:
    return [r for r in rows_of(results) if r.servers is not None]


def test_each_owned_rows_ledger_adds_up_with_the_work_carried_past_the_window(
    stored: tuple[Path, Connection, Sweep, SweepOutcome],
) -> None:
    rows = owned(stored[3].results)

    assert len(rows) == 4  # 2 counts x 2 horizons
    for row in rows:
        assert row.demanded_gpu_h is not None
        assert row.served_gpu_h is not None
        assert balances(row), row
        # without the carried line the row would not add up: it is not in `left_out`
        gap = row.demanded_gpu_h - row.served_gpu_h - row.left_out_gpu_h
        assert gap == pytest.approx(row.carried_gpu_h, rel=1e-9)
        assert row.carried_gpu_h > 0  # a backlog is worked off after the trace ends
    assert not balances(Row("x", 1, 3.0, 1.0, 1.0, 0.0, None, 10.0, 5.0, 80.0, 100.0))


def test_utilization_is_the_allocated_share_the_tco_prices_within_the_window(
    stored: tuple[Path, Connection, Sweep, SweepOutcome],
) -> None:
    _, con, sweep, outcome = stored
    four = outcome.results[1]
    report = tco_of_jobs(con, apply(sweep.scenario, four.point), sweep.jobs, today=TODAY)
    option = report.horizons[0].options[0]
    assert option.name == "self-hosted"
    assert option.cost_per_installed_gpu_hour is not None
    assert option.cost_per_allocated_gpu_hour is not None
    assert report.inputs is not None
    availability = report.inputs.owned[0].bare_metal.availability

    found = four.option("self-hosted")

    # cost per installed / per allocated GPU-hour = allocation / availability
    ratio = option.cost_per_installed_gpu_hour / option.cost_per_allocated_gpu_hour
    assert found is not None
    assert found.utilization == pytest.approx(ratio * availability, rel=1e-9)
    assert 0 < found.utilization < 1


def test_the_twin_bar_is_the_cost_times_1_less_and_1_more_e_and_the_wait_over_its_ratios(
    stored: tuple[Path, Connection, Sweep, SweepOutcome],
) -> None:
    """Issue 31, item 3: e = 25 % (GPU-hours) bars the cost; the p95 wait is barred by the
    waits' own ratios, p90 0.4 and p99 0.8: x min(1, 1/0.4, 1/0.8) = x1 to x max(...) = x2.5."""
    _, con, sweep, outcome = stored
    validation = ValidationSpec(allocation_level_error=ERROR, p90_ratio=0.4, p99_ratio=0.8)
    calibration = CalibrationSpec(fitted_on="sample", validation=validation)
    scheduling = SchedulingSpec(calibration=calibration)
    calibrated = Sweep(
        sweep.scenario.model_copy(update={"scheduling": scheduling}),
        sweep.jobs,
        sweep.trace_id,
        TODAY,
    )

    barred = run_sweep(con, calibrated, POINTS[1:]).results[0]

    plain = outcome.results[1]
    for option in barred.options:
        before = plain.option(option.option, option.years)
        assert before is not None
        assert option.total == before.total  # a calibration without start latency: same replay
        if option.option != "self-hosted":
            assert option.twin_error is None  # a cloud option: no replay, no bar
            assert option.per_hour_low is None
            continue
        assert before.twin_error is None  # the uncalibrated scenario: "not calibrated"
        assert option.twin_error == ERROR
        per_hour, wait = option.per_useful_gpu_hour, option.wait_p95_s
        assert per_hour is not None
        assert wait is not None
        assert (option.per_hour_low, option.per_hour_high) == (per_hour * 0.75, per_hour * 1.25)
        assert (option.wait_p95_low_s, option.wait_p95_high_s) == (wait * 1.0, wait * 2.5)


def test_a_rerun_and_the_command_read_the_same_rows_back_from_the_file(
    stored: tuple[Path, Connection, Sweep, SweepOutcome],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, con, sweep, outcome = stored
    again = run_sweep(con, sweep, POINTS)
    assert again.computed == 0
    assert again.results == outcome.results  # every new column came back from DuckDB
    scenario = tmp_path / "small.yaml"
    data = sweep.scenario.model_dump(mode="json", exclude_unset=True)
    scenario.write_text(json.dumps(data), encoding="utf-8")
    con.close()  # the command opens the file itself

    code = main(
        ["sweep", "--scenario", str(scenario), "--db", str(db), "--json",
         "--vary", "servers=1,4", "--workers", "1"]
    )  # fmt: skip

    captured = capsys.readouterr()
    printed = json.loads(captured.out)
    assert code == 0
    assert "2 points: 0 computed, 2 stored already" in captured.err
    assert [p["options"] for p in printed] == [
        [asdict(o) for o in r.options] for r in outcome.results
    ]


def test_the_commands_table_says_not_calibrated_and_the_bar_when_calibrated() -> None:
    from planner.cli.sweep_table import point_lines
    from planner.service.sweep_point import PointOption

    plain = PointOption("self-hosted", 3.0, 9.0, 70.0, 0.5, 0.0, 0.0, 3600.0, 0.0, 1.0, 0)
    barred = PointOption(
        "self-hosted", 3.0, 9.0, 70.0, 0.5, 0.0, 0.0, 3600.0, 0.0, 1.0, 0,
        twin_error=ERROR, per_hour_low=52.5, per_hour_high=87.5,
    )  # fmt: skip
    results = [PointResult((("servers", n),), "USD", (o,)) for n, o in ((1, plain), (2, barred))]

    header, one, two = point_lines(results, "self-hosted")

    assert "twin bar" in header
    assert "not calibrated" in one
    assert "52.50-87.50 USD (±25%)" in two
