"""Monte Carlo speed: 1,000 draws over one scenario and over every point of a stored sweep.

Usage: python bench/bench_montecarlo.py [--jobs N] [--points P] [--draws D] [--workers W]
A synthetic philly trace of N jobs is written and ingested into a fresh database; P server
counts of a V100 pool are swept with `planner sweep`'s code (bench/bench_sweep.py's scenario
plus a reserved and a spot-like second cloud option and a hybrid, 3 and 5 years), which stores
each point and what it was priced from. Timed apart: the sweep (replays), then the Monte
Carlo of all its stored points (`sweep_montecarlo`: reads the inputs, re-prices, no replay),
then one scenario's Monte Carlo after its one replay. Prints figures; asserts nothing.
"""

import argparse
import tempfile
import time
from datetime import date
from pathlib import Path

from bench_sweep import SERVERS_PER_POINT, scenario

from planner.core.file_access import LOCAL_FILES
from planner.cost.montecarlo_paths import PathSpec
from planner.cost.scenario import TcoScenario
from planner.service.montecarlo import McSettings, of_inputs, sweep_montecarlo
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_run import Sweep, run_sweep
from planner.service.tco_run import tco_of_jobs
from planner.store import connect
from planner.synth import write_trace


def bench_scenario(trace: Path) -> TcoScenario:
    base = scenario(trace).model_dump(mode="json")
    base["horizons_years"] = [3, 5]
    base["cloud"].append(
        {
            "name": "cloud V100 committed",
            "gpu": "V100",
            "price_per_gpu_hour": 2.0,
            "committed_gpus": 16,
        }
    )
    base["hybrid"] = {"burst_after_s": 3600, "servers": {"V100": 2}}
    return TcoScenario.model_validate(base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=5_000)
    parser.add_argument("--points", type=int, default=16)
    parser.add_argument("--draws", type=int, default=1_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    settings = McSettings(args.draws, 7, PathSpec())
    with tempfile.TemporaryDirectory(prefix="bench-mc-") as folder:
        trace = Path(folder) / "philly.csv"
        write_trace(trace, profile="philly", jobs=args.jobs, seed=1)
        with connect(Path(folder) / "p.duckdb") as con:
            trace_id = resolve_trace(con, str(trace), files=LOCAL_FILES)
            jobs = load_jobs(con, trace_id)
            sweep = Sweep(bench_scenario(trace), jobs, trace_id, date.today())
            points = [(("servers", SERVERS_PER_POINT * (k + 1)),) for k in range(args.points)]
            started = time.perf_counter()
            run_sweep(con, sweep, points, workers=args.workers)
            swept = time.perf_counter() - started
            print(f"sweep: {args.points} points of {args.jobs:,} jobs replayed in {swept:,.1f} s")
            started = time.perf_counter()
            found = sweep_montecarlo(con, sweep, settings)
            mc = time.perf_counter() - started
            options = sum(len(h.options) for p in found.points for h in p.horizons)
            print(
                f"Monte Carlo over the stored sweep: {args.draws:,} draws x {len(found.points)} "
                f"points ({options} option-horizons, 60 months) in {mc:,.2f} s "
                f"({found.without_inputs} points without inputs)"
            )
            started = time.perf_counter()
            report = tco_of_jobs(con, sweep.scenario, jobs)
            replay = time.perf_counter() - started
            assert report.inputs is not None
            started = time.perf_counter()
            of_inputs(report.inputs, report, sweep.scenario, settings)
            one = time.perf_counter() - started
            print(
                f"one scenario: replay and TCO {replay:,.2f} s, then {args.draws:,} draws "
                f"in {one:,.3f} s"
            )


if __name__ == "__main__":
    main()
