"""How big `planner tco --json` (and so a saved result) is, and how much of it the chargeback
takes, for the bundled sample or any scenario and trace.

Usage: python bench/bench_tco_json.py [--scenario FILE.yaml] [--trace TRACE]
The per-job replay table stays in memory (`ChargebackData.jobs`), out of the JSON: the JSON's
chargeback is team x option totals, so its size does not grow with the number of jobs.
Measured on the bundled sample (4,000 jobs): 733,168 bytes with the table (commit a1d08b8),
94,631 without (commit fedcd7e). This prints figures; it asserts nothing.
"""

import argparse
import json
import tempfile
from pathlib import Path

from planner.core.file_access import LOCAL_FILES
from planner.core.serialize import json_dict
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import connect

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "scenarios" / "sample-tco.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", type=Path, default=SAMPLE)
    parser.add_argument("--trace", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, connect(Path(folder) / "p.duckdb") as con:
        report = run_tco(con, load_tco_scenario(args.scenario), files=LOCAL_FILES, trace=args.trace)
    data = json_dict(report)
    printed = json.dumps(data, indent=2, default=str) + "\n"  # as `planner tco --json` prints
    jobs = len(report.chargeback.jobs) if report.chargeback else 0
    part = len(json.dumps(data.get("chargeback"), indent=2)) if report.chargeback else 0
    print(f"scenario: {args.scenario.name}")
    print(f"jobs in the per-job table (in memory): {jobs:,}")
    print(f"planner tco --json: {len(printed.encode('utf-8')):,} bytes")
    print(f"  of which chargeback (team totals): {part:,} bytes")


if __name__ == "__main__":
    main()
