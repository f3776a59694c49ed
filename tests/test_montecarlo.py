"""`planner montecarlo`: with flat price paths the re-pricing gives the model's own NPV of every
option to the cent (owned, hybrid, cloud on-demand, reserved and spot; lead time and taxes);
a seed gives the same numbers every time and another seed other numbers; the paths drift as
their trends say; the CLI prints the same distribution twice."""

import contextlib
import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from planner.cli import main
from planner.core.file_access import LOCAL_FILES
from planner.core.model import Job
from planner.core.serialize import to_json
from planner.cost import finance
from planner.cost.inputs import TcoInputs
from planner.cost.montecarlo import npvs, parts_of
from planner.cost.montecarlo_paths import FLAT, Driver, PathSpec, draw_paths
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.service.mc_inputs import inputs_text, read_inputs
from planner.service.montecarlo import McSettings, montecarlo_of_jobs, of_inputs
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco, tco_of_jobs
from planner.store import open_store

SCENARIOS = Path(__file__).parent.parent / "data" / "scenarios"
WORKED = SCENARIOS / "worked-example-h100.yaml"
SAMPLE = SCENARIOS / "sample-tco.yaml"
TODAY = date(2026, 12, 1)


def _report(db: Path, scenario: Path) -> TcoReport:
    con = open_store(db)
    try:
        return run_tco(con, load_tco_scenario(scenario), files=LOCAL_FILES, today=TODAY)
    finally:
        con.close()


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    """The bundled sample (self-hosted, hybrid, AWS on-demand, replayed) with a reserved and a
    spot option added: one replay covers every kind of option."""
    folder = tmp_path_factory.mktemp("mc")
    text = SAMPLE.read_text(encoding="utf-8").replace(
        "  - {name: AWS H100 on-demand, provider: AWS, gpu: H100}\n",
        "  - {name: AWS H100 on-demand, provider: AWS, gpu: H100}\n"
        "  - {name: AWS H100 reserved, provider: AWS, gpu: H100, pricing_model: reserved,"
        " term_months: 12, committed_gpus: 16}\n"
        "  - {name: AWS H100 spot, provider: AWS, gpu: H100, pricing_model: spot,"
        " spot: {interruptions_per_hour: 0.05}}\n",
    )
    text = text.replace("../traces/sample.csv", str(SCENARIOS.parent / "traces" / "sample.csv"))
    scenario = folder / "every-kind.yaml"
    scenario.write_text(text, encoding="utf-8")
    return _report(folder / "p.duckdb", scenario)


@pytest.fixture(scope="module")
def worked_with_lead_and_tax(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    """The worked example (a utilization, no trace) with a 4-month lead time bridged in the
    cloud, a 25 % tax rate and declining depreciation."""
    folder = tmp_path_factory.mktemp("mc-worked")
    text = WORKED.read_text(encoding="utf-8").replace(
        "  lead_time_months: 0     # and no cloud bridge while the server is on order",
        "  lead_time_months: 4\n  tax_rate: 0.25\n  tax_life_years: 3\n"
        "  depreciation_method: sum_of_years_digits",
    )
    scenario = folder / "lead-tax.yaml"
    scenario.write_text(text, encoding="utf-8")
    return _report(folder / "p.duckdb", scenario)


def _assert_flat_paths_give_the_model(report: TcoReport) -> None:
    assert report.inputs is not None
    rate = report.discount_rate or 0.0
    for horizon in report.horizons:
        months = round(horizon.years * 12)
        flat = npvs(parts_of(report.inputs, months), draw_paths(FLAT, 2, months, seed=1))
        for option in horizon.options:
            model = finance.npv(list(option.monthly_cash), rate)
            assert flat[option.name] == pytest.approx([model, model], abs=0.005), option.name
        for c in horizon.comparisons:
            buying = flat[c.rented] - flat[c.owned]
            assert buying == pytest.approx([c.npv_of_buying] * 2, abs=0.005)


def test_flat_paths_give_every_option_kinds_npv_to_the_cent(every_kind: TcoReport) -> None:
    names = {o.name for o in every_kind.horizons[0].options}
    assert {"self-hosted", "hybrid", "AWS H100 reserved", "AWS H100 spot"} <= names
    reserved = next(c for c in every_kind.inputs.clouds if c.rented.name == "AWS H100 reserved")  # type: ignore[union-attr]
    assert reserved.rented.per_month["commitment"] > 0  # the locked part is exercised

    _assert_flat_paths_give_the_model(every_kind)


def test_flat_paths_keep_the_lead_time_bridge_and_the_tax_shield(
    worked_with_lead_and_tax: TcoReport,
) -> None:
    owned = worked_with_lead_and_tax.horizons[0].options[0]
    assert owned.totals["bridge"] > 0
    assert owned.totals["tax_shield"] < 0

    _assert_flat_paths_give_the_model(worked_with_lead_and_tax)


def test_inputs_kept_as_text_reprice_the_same(every_kind: TcoReport) -> None:
    """What a sweep point keeps (the inputs without the bills' quantity tables) re-prices to
    the same numbers as the report's own inputs."""
    assert every_kind.inputs is not None
    text = inputs_text(every_kind)
    paths = draw_paths(PathSpec(), 50, 60, seed=3)
    direct = npvs(parts_of(every_kind.inputs, 60), paths)
    read = npvs(parts_of(read_inputs(text), 60), paths)
    for name, values in direct.items():
        np.testing.assert_allclose(read[name], values, rtol=1e-12)


def test_a_seed_gives_the_same_numbers_and_another_seed_others() -> None:
    spec = PathSpec()
    one, again, other = (draw_paths(spec, 200, 36, seed=s) for s in (7, 7, 8))

    for field in ("cloud", "electricity", "demand", "server"):
        assert np.array_equal(getattr(one, field), getattr(again, field))
        assert not np.array_equal(getattr(one, field), getattr(other, field))


def test_paths_drift_as_their_trends_say() -> None:
    spec = PathSpec(
        cloud=Driver(trend=-0.2, volatility=0.15),
        electricity=Driver(trend=0.03, volatility=0.1),
        server=Driver(level_sd=0.1),
        demand=Driver(),
    )
    paths = draw_paths(spec, 20_000, 25, seed=11)

    assert np.all(paths.cloud[:, 0] == 1.0)  # today's price, no level spread
    assert paths.cloud[:, 12].mean() == pytest.approx(0.8, rel=0.01)
    assert paths.cloud[:, 24].mean() == pytest.approx(0.64, rel=0.015)
    assert paths.electricity[:, 24].mean() == pytest.approx(1.03**2, rel=0.01)
    assert paths.server.mean() == pytest.approx(1.0, rel=0.01)
    assert np.log(paths.server).std() == pytest.approx(0.1, rel=0.03)
    assert np.all(paths.demand == 1.0)


def test_falling_cloud_prices_cheapen_renting_and_leave_owning(
    worked_with_lead_and_tax: TcoReport,
) -> None:
    """Only the cloud moves: every rented option's NPV falls; the owned one moves only
    through its cloud bridge, and less than a cloud option does."""
    inputs = worked_with_lead_and_tax.inputs
    assert inputs is not None
    falling = PathSpec(Driver(trend=-0.3), Driver(), Driver(), Driver())
    flat = npvs(parts_of(inputs, 36), draw_paths(FLAT, 1, 36, seed=0))
    moved = npvs(parts_of(inputs, 36), draw_paths(falling, 1, 36, seed=0))

    for c in inputs.clouds:
        assert moved[c.rented.name][0] < 0.8 * flat[c.rented.name][0]
    owned_drop = flat["self-hosted"][0] - moved["self-hosted"][0]
    assert 0 < owned_drop < 0.05 * flat["self-hosted"][0]


def test_the_report_orders_its_percentiles_and_counts_wins(every_kind: TcoReport) -> None:
    assert every_kind.inputs is not None
    scenario = load_tco_scenario(SAMPLE)
    mc = of_inputs(every_kind.inputs, every_kind, scenario, McSettings(300, 5))

    for horizon in mc.horizons:
        for o in horizon.options:
            assert o.p5 <= o.p50 <= o.p95
        assert len(horizon.owning_wins) == 2 * 3  # self-hosted and hybrid x three clouds
        assert all(0.0 <= w.probability <= 1.0 for w in horizon.owning_wins)
        assert all(w.npv_of_buying_p5 <= w.npv_of_buying_p95 for w in horizon.owning_wins)


def _cli(tmp_path: Path, *args: str) -> dict[str, Any]:
    buffer = io.StringIO()
    db = str(tmp_path / "p.duckdb")
    with contextlib.redirect_stdout(buffer):
        assert main(["montecarlo", "--scenario", str(WORKED), "--db", db, "--json", *args]) == 0
    out: dict[str, Any] = json.loads(buffer.getvalue())
    return out


def test_the_command_is_reproducible_with_a_seed(tmp_path: Path) -> None:
    first = _cli(tmp_path, "--draws", "200", "--seed", "7")
    again = _cli(tmp_path, "--draws", "200", "--seed", "7")
    other = _cli(tmp_path, "--draws", "200", "--seed", "8")

    assert first["horizons"] == again["horizons"]
    assert first["horizons"] != other["horizons"]
    assert first["draws"] == 200
    assert first["seed"] == 7


def test_the_command_flat_prints_the_tco_npv(tmp_path: Path) -> None:
    flat = _cli(tmp_path, "--draws", "3", "--flat")
    tco = io.StringIO()
    args = ["tco", "--scenario", str(WORKED), "--db", str(tmp_path / "p.duckdb"), "--json"]
    with contextlib.redirect_stdout(tco):
        assert main(args) == 0
    report = json.loads(tco.getvalue())

    for mc, horizon in zip(flat["horizons"], report["horizons"], strict=True):
        for win, c in zip(mc["owning_wins"], horizon["comparisons"], strict=True):
            assert win["rented"] == c["rented"]
            assert win["npv_of_buying_mean"] == pytest.approx(c["npv_of_buying"], abs=0.005)


def test_a_stored_sweep_is_repriced_without_replaying(tmp_path: Path) -> None:
    """`planner sweep` keeps each point's inputs; `planner montecarlo --sweep --flat` gives
    back each point's stored NPV of buying, and a seed gives the same numbers twice."""
    db = str(tmp_path / "p.duckdb")
    swept = io.StringIO()
    sweep = ["sweep", "--scenario", str(SAMPLE), "--vary", "servers=1,2", "--workers", "1"]
    with contextlib.redirect_stdout(swept):
        assert main([*sweep, "--db", db, "--json"]) == 0
    stored = json.loads(swept.getvalue())
    mc_args = ["montecarlo", "--scenario", str(SAMPLE), "--sweep", "--db", db, "--json"]

    def mc(*args: str) -> dict[str, Any]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main([*mc_args, *args]) == 0
        found: dict[str, Any] = json.loads(out.getvalue())
        return found

    flat = mc("--flat", "--draws", "2")
    assert flat["without_inputs"] == 0
    assert [p["point"] for p in flat["points"]] == [{"servers": 1}, {"servers": 2}]
    for point in flat["points"]:
        servers = point["point"]["servers"]
        for horizon in point["horizons"]:
            win = horizon["owning_wins"][0]
            row = next(
                r
                for r in _rows(stored)
                if r["servers"] == servers
                and r["option"] == win["owned"]
                and r["years"] == horizon["years"]
            )
            assert win["npv_of_buying_mean"] == pytest.approx(row["npv_vs_cloud"], abs=0.005)
    assert mc("--draws", "100", "--seed", "3") == mc("--draws", "100", "--seed", "3")
    con = open_store(Path(db))  # a point stored before inputs were kept
    try:
        con.execute(
            "DELETE FROM sweep_point_inputs WHERE point_key IN (SELECT min(point_key) FROM sweep_point_inputs)"
        )
    finally:
        con.close()
    partial = mc("--draws", "10")
    assert partial["without_inputs"] == 1
    assert len(partial["points"]) == 1
    assert any("1 stored points keep no inputs" in n for n in partial["notes"])


def _rows(stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`planner sweep --json`'s points as one row per point, option and horizon."""
    return [{**p["point"], **o} for p in stored for o in p["options"]]


def test_growing_demand_prices_each_year_from_its_own_inputs(tmp_path: Path) -> None:
    """With `growth:`, flat draws give the spliced report's NPVs (year k's months from year
    k's replay and bills, not year 1's repeated)."""
    jobs = [Job(f"j{i}", i * 3_600.0, 7_200.0, gpus=8.0, gpu_types=("A100",)) for i in range(24)]
    server = {"gpu": "A100", "servers": 2, "price": 100_000, "idle_kw": 1, "load_kw": 5}
    scenario = TcoScenario.model_validate(
        {
            "horizons_years": [3],
            "self_hosted": [server | {"max_kw": 6}],
            "cloud": [{"name": "rent", "gpu": "A100", "price_per_gpu_hour": 2.0}],
            "hybrid": {"burst_after_s": 600, "servers": {"A100": 1}},
            "overrides": {"lead_time_months": 2},
            "growth": {"arrival_rate_per_year": 1.5, "seed": 1},
        }
    )
    con = open_store(tmp_path / "p.duckdb")
    try:
        report = tco_of_jobs(con, scenario, jobs, today=TODAY)
        flat = montecarlo_of_jobs(con, scenario, jobs, McSettings(2, 0, FLAT), today=TODAY)
    finally:
        con.close()

    horizon = report.horizons[0]
    rent = next(o for o in horizon.options if o.name == "rent")
    assert sum(rent.monthly_cash[24:36]) > 1.5 * sum(rent.monthly_cash[:12])  # it grows
    spreads = {o.option: o for o in flat.horizons[0].options}
    kept = read_inputs(inputs_text(report))  # as a sweep point keeps them: years 2, 3 later
    assert isinstance(kept, TcoInputs)
    assert [y.year for y in kept.later_years or ()] == [2, 3]
    # a point stored before kept a list of each year's: it reads and prices the same
    before = read_inputs(json.dumps([to_json(y) for y in kept.by_year()], default=str))
    assert isinstance(before, list)
    assert len(before) == 3
    path = draw_paths(FLAT, 1, 36, seed=0)
    from_text = npvs(parts_of(kept, 36), path)
    from_list = npvs(parts_of(before, 36), path)
    for option in horizon.options:
        model = finance.npv(list(option.monthly_cash), report.discount_rate or 0.0)
        assert spreads[option.name].mean == pytest.approx(model, abs=0.005), option.name
        assert from_text[option.name][0] == pytest.approx(model, abs=0.005), option.name
        assert from_list[option.name][0] == from_text[option.name][0]
