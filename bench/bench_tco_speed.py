"""How fast a TCO is priced: `run_tco` on the bundled TCO scenarios (replay included), and the
cost model alone (`planner.cost.tco.owned_option` over a 10-year horizon, the inner loop of
sweeps and sensitivities).

Usage: python bench/bench_tco_speed.py [--repeats 5] [--model-runs 2000]
Prints the median CPU seconds of each; asserts nothing. To compare two checkouts, run it in
each on the same machine at the same load, e.g. `PYTHONPATH=../other python bench/...`.
"""

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from planner.core.file_access import LOCAL_FILES
from planner.cost import tco
from planner.cost.baremetal import BareMetal, ServerPool
from planner.cost.scenario import TcoScenario
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import connect

SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"
FILES = ("worked-example-h100.yaml", "sample-tco.yaml", "cloud-on-demand.yaml")


def _median_cpu(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _model(runs: int) -> None:
    pool = ServerPool("A100", 16, 8, 250_000.0, 1.5, 6.5, 6.5)
    bm = BareMetal(pools=(pool,), lead_time_months=3, tax_rate=0.25)
    demand = tco.Demand(useful_gpu_hours=50_000.0, utilization_by_hour=(0.4,) * 24)
    for _ in range(runs):
        tco.owned_option("own", bm, demand, 120, 0.08)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--model-runs", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, connect(Path(folder) / "p.duckdb") as con:
        for name in FILES:
            scenario = load_tco_scenario(SCENARIOS / name)
            run_tco(con, scenario, files=LOCAL_FILES)  # seeds the price book once

            def price(scenario: TcoScenario = scenario) -> None:
                run_tco(con, scenario, files=LOCAL_FILES)

            print(f"run_tco {name}: {_median_cpu(price, args.repeats):.3f} s CPU (median)")
    model = _median_cpu(lambda: _model(args.model_runs), args.repeats)
    print(f"owned_option x {args.model_runs} (120 months): {model:.3f} s CPU (median)")


if __name__ == "__main__":
    main()
