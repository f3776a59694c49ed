"""The twin check on a busy cluster (issue 31, item 2) over several seeds: the history of
tests/test_twin_busy.py (1-GPU serving pods, 6.2 h on average, 300 arrivals a day for 28 days,
replayed on 80 GPUs and checked against a node list of 88), one line of figures a seed.

Usage: python bench/bench_twin_busy.py [--seeds 0 1 2 ...]
Prints, per seed: the GPUs the history held on average (its concurrency integrated over its
span, as a share of the real 80), the most held at once, the capacity the twin fitted and the
held-back window's p90 wait observed, calibrated and in the plain replay. Asserts nothing.

Measured (2026-12-07, 2 cores shared with other sessions): seed 5, the test's, 90.3 % held on
average, peak 80, fitted 80, p90 10,894 s observed and calibrated, 126 s plain.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.engine.policy import Policy
from planner.twin.calibrate import TwinInput, run_twin
from tests.test_twin_busy import LISTED_NODES, _figures, _history, _nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[5])
    for seed in parser.parse_args().seeds:
        history = _history(seed=seed)
        run = run_twin(TwinInput("serving", "11 nodes", history, _nodes(LISTED_NODES), Policy()))
        print(f"seed {seed}: {_figures(history, run).strip()}")


if __name__ == "__main__":
    main()
