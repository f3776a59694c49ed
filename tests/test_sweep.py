"""`planner sweep`: keys applied to a scenario, points stored and resumed, workers equal to one
worker, Ctrl-C keeping finished points, and sizing by search checked against a grid.

The priced scenario is the bundled sample without its hybrid (one replay per point) and with
8 A100 servers, so a grid of every count from 1 to 8 is cheap enough to brute-force.
"""

import json
import pickle
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.cli.main import main
from planner.core.errors import ScenarioError
from planner.core.file_access import LOCAL_FILES
from planner.cost.chargeback import JobTable
from planner.cost.scenario import TcoScenario
from planner.service import tco_rent
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_keys import apply, known_keys, parse_vary
from planner.service.sweep_point import PointOption, PointResult, price_point
from planner.service.sweep_run import Sweep, run_sweep
from planner.service.sweep_search import GROWTH, Target, parse_target, smallest
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_rent import bills_kept
from planner.service.tco_run import tco_of_jobs
from planner.store import Connection, connect

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "scenarios" / "sample-tco.yaml"
TODAY = date(2026, 12, 1)


@pytest.fixture(scope="module")
def sample() -> TcoScenario:
    return load_tco_scenario(SAMPLE)


@pytest.fixture(scope="module")
def small(sample: TcoScenario) -> TcoScenario:
    """The sample with 8 A100 servers and no hybrid."""
    trace = str(ROOT / "data" / "traces" / "sample.csv")
    return apply(sample, (("servers", 8),)).model_copy(update={"hybrid": None, "trace": trace})


@pytest.fixture(scope="module")
def store(
    tmp_path_factory: pytest.TempPathFactory, small: TcoScenario
) -> Iterator[tuple[Connection, Sweep]]:
    with connect(tmp_path_factory.mktemp("sweep") / "planner.duckdb") as con:
        assert small.trace is not None
        trace_id = resolve_trace(con, small.trace, files=LOCAL_FILES)
        yield con, Sweep(small, load_jobs(con, trace_id), trace_id, TODAY)


def points(*counts: int) -> list[tuple[tuple[str, int], ...]]:
    return [(("servers", n),) for n in counts]


# --- keys ------------------------------------------------------------------------------------


def test_a_mistyped_key_is_refused_with_the_nearest_keys(sample: TcoScenario) -> None:
    with pytest.raises(ScenarioError, match=r"no such key; did you mean .*policy\.placement"):
        parse_vary(["policy.placment=spread"], sample)
    with pytest.raises(ScenarioError, match="did you mean placement"):
        parse_vary(["placment=spread"], sample)


def test_values_read_as_numbers_and_keys_reach_nested_fields(sample: TcoScenario) -> None:
    varied = parse_vary(["servers.h800=2,4", "placement=spread", "burst_after_h=0.5"], sample)

    assert varied == [("servers.h800", [2, 4]), ("placement", ["spread"]), ("burst_after_h", [0.5])]
    changed = apply(sample, (("servers.h800", 2), ("placement", "spread"), ("burst_after_h", 0.5)))
    assert [p.servers for p in changed.self_hosted] == [128, 2]
    assert changed.hybrid is not None
    assert changed.hybrid.servers == {"A100": 16, "H800": 2}  # the hybrid keeps what is left
    assert changed.hybrid.burst_after_s == 1800.0
    assert changed.policy.placement == "spread"
    assert sample.policy.placement == "best-fit"  # the base is untouched
    assert "self_hosted[1].servers" in known_keys(sample)
    assert "cloud[0].committed_gpus" in known_keys(sample)
    by_path = apply(sample, (("self_hosted[1].servers", 3), ("cloud[0].committed_gpus", 16)))
    assert by_path.self_hosted[1].servers == 3
    assert by_path.cloud[0].committed_gpus == 16


def test_a_value_the_scenario_refuses_names_the_key(sample: TcoScenario) -> None:
    with pytest.raises(ScenarioError, match="--vary placement=roundabout: Input should be"):
        apply(sample, (("placement", "roundabout"),))
    with pytest.raises(ScenarioError, match="cloud has 1 entries, no \\[3\\]"):
        apply(sample, (("cloud[3].committed_gpus", 1),))
    with pytest.raises(ScenarioError, match="no self-hosted pool of V100"):
        parse_vary(["servers.V100=1"], sample)
    with pytest.raises(ScenarioError, match="servers=0: give a whole number of servers"):
        parse_vary(["servers=4,0"], sample)  # refused before any point is priced


def test_a_target_reads_units() -> None:
    assert parse_target("p95_wait=1h") == Target("p95_wait", 3600.0)
    assert parse_target("mean_wait=30m").seconds == 1800.0
    assert parse_target("p95_wait=600").seconds == 600.0
    with pytest.raises(ScenarioError, match="STAT one of p95_wait"):
        parse_target("p90_wait=1h")


# --- running, storing, resuming --------------------------------------------------------------


def test_a_second_run_computes_nothing_and_reads_the_same_results(
    store: tuple[Connection, Sweep],
) -> None:
    con, sweep = store
    first = run_sweep(con, sweep, points(1, 2))
    again = run_sweep(con, sweep, points(2, 1))

    assert first.computed == 2
    assert again.computed == 0
    assert again.results == first.results[::-1]
    own = first.results[0].option("self-hosted")
    assert own is not None
    assert own.wait_p50_s is not None
    assert own.wait_p99_s is not None
    assert own.wait_p50_s <= own.wait_p95_s <= own.wait_p99_s  # type: ignore[operator]
    assert 0 < own.utilization < 1  # type: ignore[operator]


def test_a_point_equals_the_tco_of_its_scenario(store: tuple[Connection, Sweep]) -> None:
    con, sweep = store
    [result] = run_sweep(con, sweep, points(2)).results
    report = tco_of_jobs(con, apply(sweep.scenario, points(2)[0]), sweep.jobs, today=TODAY)

    horizon = report.horizons[0]
    own = result.option("self-hosted", horizon.years)
    assert own is not None
    assert own.total == horizon.options[0].total
    assert own.wait_p95_s == horizon.options[0].wait_p95_s
    assert own.npv_vs_cloud == pytest.approx(horizon.comparisons[0].npv_of_buying, rel=1e-12)
    assert len(result.options) == 2 * len(report.horizons)  # self-hosted and AWS, per horizon


@pytest.mark.parametrize("hybrid", [False, True])
def test_a_point_leaves_out_only_the_chargebacks_job_lines(
    store: tuple[Connection, Sweep], sample: TcoScenario, hybrid: bool
) -> None:
    """A point's report is built without the chargeback's per-job lines (`job_lines=False`,
    issue 33: they were a sweep worker's peak): it is the full report less those lines."""
    con, sweep = store
    scenario = sweep.scenario.model_copy(update={"hybrid": sample.hybrid if hybrid else None})
    full = tco_of_jobs(con, scenario, sweep.jobs, today=TODAY)
    lean = tco_of_jobs(con, scenario, sweep.jobs, today=TODAY, job_lines=False)

    assert full.chargeback is not None
    assert len(full.chargeback.jobs) == len(sweep.jobs)
    assert bool(full.chargeback.jobs.hybrid_status) == hybrid
    assert lean == replace(full, chargeback=replace(full.chargeback, jobs=JobTable()))


def test_an_interrupted_sweep_keeps_the_points_it_finished(
    store: tuple[Connection, Sweep],
) -> None:
    con, sweep = store

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(con, sweep, points(3, 5, 6), on_point=stop)
    resumed = run_sweep(con, sweep, points(3, 5, 6))

    assert resumed.computed == 2  # the first point was stored before the interrupt


def test_two_workers_give_one_workers_results_exactly(
    tmp_path: Path, store: tuple[Connection, Sweep]
) -> None:
    con, sweep = store
    one = run_sweep(con, sweep, points(1, 2, 3)).results
    with connect(tmp_path / "fresh.duckdb") as fresh:
        resolve_trace(fresh, str(sweep.scenario.trace), files=LOCAL_FILES)
        two = run_sweep(fresh, sweep, points(1, 2, 3), workers=2)

    assert two.computed == 3
    assert two.results == one


def test_workers_without_the_observed_times_give_the_hybrids_results_exactly(
    tmp_path: Path, store: tuple[Connection, Sweep], sample: TcoScenario
) -> None:
    """The workers' jobs have no observed start and end (`read_jobs(observed=False)`): no
    figure of a point moves, the hybrid's bursts and their cloud bill included."""
    con, small = store
    assert sample.hybrid is not None
    hybrid = replace(small, scenario=sample.model_copy(update={"trace": small.scenario.trace}))
    assert any(job.start_s is not None for job in hybrid.jobs)
    one = run_sweep(con, hybrid, points(4, 8)).results
    with connect(tmp_path / "fresh.duckdb") as fresh:
        resolve_trace(fresh, str(hybrid.scenario.trace), files=LOCAL_FILES)
        two = run_sweep(fresh, hybrid, points(4, 8), workers=2)

    assert two.results == one


def test_kept_cloud_bills_price_points_as_fresh_bills_to_the_bit(
    store: tuple[Connection, Sweep],
) -> None:
    """A sweep's workers reuse a cloud bill from point to point (`tco_rent.bills_kept`): a
    point priced with a kept bill, or with a commitment on it, is the fresh point, its
    inputs (for the Monte Carlo) included."""
    con, sweep = store
    plain = (("servers", 2),)
    committed = (("servers", 3), ("cloud[0].committed_gpus", 16))

    def priced(point: tuple) -> PointResult:  # type: ignore[type-arg]
        return price_point(con, sweep.scenario, sweep.jobs, point, sweep.today)

    fresh = [priced(plain), priced(committed)]
    with bills_kept():
        kept = [priced(plain), priced(committed), priced(plain)]
        entries = list(tco_rent._BILLS.kept.values())  # type: ignore[union-attr]
        sums = [key[0] for key in tco_rent._BILLS.sums]  # type: ignore[union-attr]

    # on a node pool the commitment is part of the pool: one kept bill for the plain points
    # (reused) and one for the committed one; their hours summed once each, the demand once
    assert [(len(entries), len(entries[0].committed))] == [(2, 0)]
    assert sorted(sums) == ["demanded", "rented", "rented"]
    assert tco_rent._BILLS.kept is None  # nothing kept after the block
    assert tco_rent._BILLS.sums is None
    for a, b in zip([*fresh, fresh[0]], kept, strict=True):
        assert pickle.dumps(a) == pickle.dumps(b)  # floats by their bytes
        assert a.inputs == b.inputs
    assert kept[1].option("AWS H100 on-demand") != kept[0].option("AWS H100 on-demand")


# --- sizing by search ------------------------------------------------------------------------


def test_the_search_finds_the_grids_smallest_count_meeting_the_target(
    store: tuple[Connection, Sweep],
) -> None:
    """From 7 servers: the grid's smallest count whose p95 wait meets the target and that
    starts as many jobs as 7 do (fewer servers cannot run the largest A100 gangs)."""
    con, sweep = store
    grid = run_sweep(con, sweep, points(*range(1, 8))).results
    target = Target("p95_wait", 0.5 * 3600)
    ran_all = never_ran(grid[-1])  # as many jobs started as with the most servers
    meeting = [r.point[0][1] for r in grid if target.met_by(r) and never_ran(r) <= ran_all]
    by_wait_alone = [r.point[0][1] for r in grid if target.met_by(r)]
    computed: list[int] = []

    def evaluate(pts: list) -> list:  # type: ignore[type-arg]
        outcome = run_sweep(con, sweep, pts)
        computed.append(outcome.computed)
        return list(outcome.results)

    found = smallest(apply(sweep.scenario, (("servers", 7),)), "servers", target, evaluate)

    assert 1 < min(meeting) < 7  # the target is neither trivial nor out of reach
    assert min(by_wait_alone) < min(meeting)  # the jobs left out would have hidden in waits
    assert found.answer is not None
    assert found.answer.point == (("servers", min(meeting)),)
    assert len(found.tried) <= 4  # bisection: 7, then at most 3 halvings, not 7 points
    assert sum(computed) == 0  # every point was stored by the grid
    assert found.held == ("128 x H800",)
    with pytest.raises(ScenarioError, match="options are self-hosted, AWS H100 on-demand"):
        smallest(sweep.scenario, "servers", Target("p95_wait", 60, "hybrid"), evaluate)


def never_ran(result: PointResult) -> int:
    found = result.option("self-hosted")
    assert found is not None
    assert found.never_ran is not None
    return found.never_ran


def waited(point: tuple, wait_s: float, left: int = 0) -> PointResult:  # type: ignore[type-arg]
    own = PointOption("self-hosted", 3.0, 1.0, 1.0, 0.5, wait_s, 0.0, wait_s, wait_s, 0.0, left)
    return PointResult(point, "USD", (own,))


def test_a_count_that_leaves_jobs_out_does_not_meet_the_target(sample: TcoScenario) -> None:
    """Too few servers for the largest gangs: those never run and are in no wait, so the
    waits of the jobs that did run meet any target; the search goes on to the count that
    runs as many jobs as the most servers priced."""
    left = {1: 40, 2: 40, 3: 12, 4: 3, 5: 3, 6: 0, 7: 0, 8: 0}  # jobs never started

    def evaluate(points: list) -> list:  # type: ignore[type-arg]
        return [waited(p, 0.0, left[p[0][1]]) for p in points]

    found = smallest(apply(sample, (("servers", 8),)), "servers", Target("p95_wait", 60), evaluate)

    assert found.answer is not None
    assert found.answer.point == (("servers", 6),)


@given(
    start=st.integers(1, 40),
    drops=st.lists(st.floats(0, 3600), min_size=1, max_size=700),
    target_s=st.floats(0, 20_000),
)
def test_bisection_agrees_with_a_grid_whenever_the_wait_falls_with_servers(
    sample: TcoScenario, start: int, drops: list[float], target_s: float
) -> None:
    """Any non-increasing wait curve: the search's answer is the grid's smallest count meeting
    the target up to 16x the scenario's servers, and it prices far fewer points."""
    base = apply(sample, (("servers", start),))
    ceiling = start * GROWTH
    curve = [20_000 - sum(drops[:n]) for n in range(ceiling + 1)]  # wait with n servers
    target = Target("p95_wait", target_s)
    asked: list[int] = []

    def evaluate(points: list) -> list:  # type: ignore[type-arg]
        asked.extend(p[0][1] for p in points)
        return [waited(p, curve[p[0][1]]) for p in points]

    found = smallest(base, "servers", target, evaluate)

    grid = [n for n in range(1, ceiling + 1) if curve[n] <= target_s]
    if grid:
        assert found.answer is not None
        assert found.answer.point[0][1] == min(grid)
    else:
        assert found.answer is None
    assert len(asked) == len(set(asked)) <= 2 * ceiling.bit_length() + 2


# --- the command -----------------------------------------------------------------------------


def test_the_command_prints_json_writes_csv_and_refuses_unknown_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], small: TcoScenario
) -> None:
    scenario = tmp_path / "small.yaml"
    data = small.model_dump(mode="json", exclude_unset=True)
    scenario.write_text(json.dumps(data), encoding="utf-8")
    base = ["sweep", "--scenario", str(scenario), "--db", str(tmp_path / "db.duckdb")]

    code = main(
        [
            *base,
            "--vary",
            "servers=2,4",
            "--workers",
            "1",
            "--json",
            "--out",
            str(tmp_path / "o.csv"),
        ]
    )
    printed = json.loads(capsys.readouterr().out)

    assert code == 0
    assert [p["point"] for p in printed] == [{"servers": 2}, {"servers": 4}]
    assert printed[0]["options"][0]["option"] == "self-hosted"
    lines = (tmp_path / "o.csv").read_text().splitlines()
    assert lines[0].startswith("servers,option,years,total,per_useful_gpu_hour,utilization,")
    assert len(lines) == 1 + 2 * 2 * 2  # points x options x horizons

    parquet = tmp_path / "o.parquet"
    assert main([*base, "--vary", "servers=4,2", "--out", str(parquet)]) == 0
    assert "2 points: 0 computed, 2 stored already" in capsys.readouterr().err
    frame = pd.read_parquet(parquet)
    assert frame["servers"].tolist() == [4] * 4 + [2] * 4
    assert frame["total"].tolist()[4] == printed[0]["options"][0]["total"]

    # one worker: plain bisection (tests/test_sweep_search.py: wider). 19 jobs ask for 1,024
    # A100 GPUs (128 pods x 8): no count below 128 runs them, so the search starts there
    target = ["--target", "p95_wait=0.5h", "--workers", "1"]
    assert main([*base, "--vary", "servers=2", *target]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("smallest servers meeting p95_wait=0.5h for self-hosted: 128")
    assert "held fixed: 128 x H800" in captured.out
    assert "search: servers=128: p95_wait 0.00 h, meets" in captured.err
    assert "search: servers=127" not in captured.err  # below the floor: never priced
    assert "what binds it: the largest job, not the wait target" in captured.out
    assert "runs it; 19 jobs need 128" in captured.out
    # without them, the 26 jobs of 512 A100 GPUs set the next floor, 64, which meets the target
    assert "search without the largest jobs: servers=64: p95_wait 0.00 h, meets" in captured.err
    assert "without the 19 jobs needing 128 servers (" in captured.out
    assert "): 64 servers meet p95_wait=0.5h" in captured.out
    assert "that 64 is itself a floor: job " in captured.out
    assert "; 26 jobs need 64" in captured.out

    assert main([*base, "--vary", "placment=spread"]) == 2
    assert "did you mean placement" in capsys.readouterr().err
