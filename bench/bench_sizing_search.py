"""The screened sizing search on a helios-profile trace: time to answer, points screened and
fully replayed, the screen's error; and, on a smaller trace, its answers against the full
grid's.

Usage: python bench/bench_sizing_search.py [--jobs N] [--check-jobs M] [--sizes A:B:STEP]
           [--check-sizes A:B:STEP] [--policies best-fit,spread] [--workers 2]
           [--fraction 0.125] [--screen-every 2] [--target p95_wait=1h] [--verbose]

A synthetic helios trace of N jobs (planner.synth) is ingested into a fresh database and sized
over the given counts of 8-GPU V100 servers, once per placement policy, by
`planner.service.sweep_screen.screened_smallest` on `--workers` processes. Then the same on a
trace of M jobs (over `--check-sizes`, by default the sizes: choose counts around that trace's
own frontier, or the check proves little), where every point of the grid is also replayed fully on a
fresh database and the grid's answer (the fewest servers meeting the target that leave out no
more jobs than the most servers) is compared with the screened search's. Helios has gangs of up
to 2,048 GPUs: any count below 256 servers would leave them out and the floor would be the
answer, so gangs above `--max-gang` GPUs are set aside (their share of the GPU-hours printed)
and the counts sized are those where the wait decides.
This prints figures; it asserts nothing (tests never assert wall-clock time).
"""

import argparse
import os
import time
from datetime import date
from pathlib import Path
from tempfile import TemporaryDirectory

from bench_sweep_1m import Peaks

from planner.core.file_access import LOCAL_FILES
from planner.cost.scenario import TcoScenario
from planner.service.replay import load_jobs, resolve_trace
from planner.service.sweep_point import PointResult
from planner.service.sweep_run import Sweep, run_sweep
from planner.service.sweep_screen import ScreenedSearch, floor_for, screened_smallest
from planner.service.sweep_search import Target, parse_target
from planner.store import Connection, connect
from planner.synth import write_trace


def scenario() -> TcoScenario:
    return TcoScenario.model_validate(
        {
            "name": "bench sizing search",
            "horizons_years": [3],
            "self_hosted": [
                {
                    "gpu": "V100",
                    "servers": 256,
                    "gpus_per_server": 8,
                    "price": 120_000,
                    "idle_kw": 1.0,
                    "load_kw": 3.0,
                    "max_kw": 3.5,
                }
            ],
            "cloud": [{"name": "cloud V100", "gpu": "V100", "price_per_gpu_hour": 3.06}],
        }
    )


def loaded(con: Connection, folder: Path, jobs: int, max_gang: int) -> Sweep:
    trace = folder / f"helios-{jobs}.csv"
    started = time.perf_counter()
    write_trace(trace, profile="helios", jobs=jobs, seed=1)
    trace_id = resolve_trace(con, str(trace), files=LOCAL_FILES)
    every = load_jobs(con, trace_id)
    kept = [j for j in every if j.total_gpus <= max_gang]
    hours = sum(j.gpu_hours for j in every)
    aside = hours - sum(j.gpu_hours for j in kept)
    sweep = Sweep(scenario(), kept, f"{trace_id} gangs <= {max_gang}", date(2026, 12, 1))
    spent = time.perf_counter() - started
    print(
        f"{jobs:,} helios jobs written, ingested, loaded in {spent:,.1f} s; "
        f"{len(every) - len(kept):,} gangs above {max_gang} GPUs set aside "
        f"({aside / hours:.1%} of the GPU-hours)"
    )
    return sweep


def searched(
    con: Connection, sweep: Sweep, target: Target, sizes: list[int], args: argparse.Namespace
) -> dict[str, ScreenedSearch]:
    found = {}
    for policy in args.policies.split(","):
        fixed = (("placement", policy),)
        started = time.perf_counter()
        with Peaks() as peaks:
            phases = Phases(peaks, started, args.verbose)
            search = screened_smallest(
                con, sweep, "servers", target,
                candidates=sizes, fixed=fixed, fraction=args.fraction, workers=args.workers,
                every=args.screen_every,
                floor=floor_for(sweep, "servers", "self-hosted", fixed), on_point=phases.told,
            )  # fmt: skip
            phases.close()
        spent = time.perf_counter() - started
        found[policy] = search
        wait = search.worst_wait_error_s
        util = search.worst_utilization_error
        print(
            f"  {policy}: answer {_count(search.answer)} servers in {spent:,.1f} s; "
            f"{len(search.screened)} screened ({search.slice_jobs:,} jobs each), "
            f"{len(search.full)} fully replayed, {len(search.below_floor)} below the floor; "
            f"worst screening error: wait p95 {_h(wait)} h, utilization "
            f"{'–' if util is None else f'{util * 100:.1f} pp'}; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        print(
            f"    critical path {phases.critical():,.1f} CPU s (each phase's busiest worker plus "
            f"this process; {' + '.join(f'{c:,.1f}' for c in phases.phases)}); "
            f"workers' peak RSS {', '.join(f'{mb:,.0f}' for mb in peaks.largest(args.workers))} MB"
        )
        for e in search.errors:
            print(
                f"    {e.servers}: wait p95 screened {_h(e.screened_wait_s)} h, full "
                f"{_h(e.full_wait_s)} h; utilization screened {_pct(e.screened_utilization)}, "
                f"full {_pct(e.full_utilization)}"
            )
    return found


class Phases:
    """CPU seconds per phase of a search (the screen, then each round of full replays, told
    apart by the points reported together at its end): the busiest process's, plus this
    process's. Their sum is the time to answer on a machine with a core per worker and
    nothing else running, whatever the load was while measuring."""

    def __init__(self, peaks: Peaks, started: float, verbose: bool) -> None:
        self.peaks, self.started, self.verbose = peaks, started, verbose
        self.phases: list[float] = []
        self._last = (started, time.process_time(), dict(peaks.cpu))

    def told(self, stage: str, result: PointResult, met: bool) -> None:
        now = time.perf_counter()
        if now - self._last[0] > 0.5:  # the first point of a phase's batch
            self._phase_ends(now)
        if self.verbose:
            print(
                f"    {now - self.started:7.1f} s  {stage:6} {_count(result)} servers, meets: {met}"
            )

    def close(self) -> None:
        time.sleep(0.5)  # the sampler's last look at the workers
        self._phase_ends(time.perf_counter())

    def _phase_ends(self, now: float) -> None:
        _, own, before = self._last
        after = dict(self.peaks.cpu)
        busiest = max((after[p] - before.get(p, 0.0) for p in after), default=0.0)
        spent = busiest + time.process_time() - own
        if spent > 0.05:  # not the moment between the last round and the answer
            self.phases.append(spent)
        self._last = (now, time.process_time(), after)

    def critical(self) -> float:
        return sum(self.phases)


def grid_answers(
    con: Connection, sweep: Sweep, target: Target, sizes: list[int], args: argparse.Namespace
) -> dict[str, int | None]:
    """Every point replayed fully: the fewest servers meeting the target that leave out no
    more jobs than the most servers."""
    answers = {}
    started = time.perf_counter()
    for policy in args.policies.split(","):
        points = [(("servers", n), ("placement", policy)) for n in sorted(sizes)]
        results = run_sweep(con, sweep, points, workers=args.workers).results
        least = _never_ran(results[-1], target)
        meeting = [r for r in results if target.met_by(r) and _never_ran(r, target) <= least]
        answers[policy] = _count(meeting[0]) if meeting else None
    spent = time.perf_counter() - started
    print(f"  full grid: {len(sizes) * len(answers)} points in {spent:,.1f} s: {answers}")
    return answers


def _never_ran(result: PointResult, target: Target) -> int:
    found = result.option(target.option)
    return 0 if found is None or found.never_ran is None else found.never_ran


def _count(result: PointResult | None) -> int | None:
    return None if result is None else int(result.point[0][1])  # type: ignore[arg-type]


def _h(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds / 3600:,.3f}"


def _pct(share: float | None) -> str:
    return "–" if share is None else f"{share:.1%}"


def checked(root: Path, target: Target, sizes: list[int], args: argparse.Namespace) -> None:
    """The screened search against the full grid on the smaller trace."""
    with connect(root / "small.duckdb") as con:
        small = loaded(con, root, args.check_jobs, args.max_gang)
        started = time.perf_counter()
        screened = searched(con, small, target, sizes, args)
        print(f"screened search, {args.check_jobs:,} jobs: {time.perf_counter() - started:,.1f} s")
    with connect(root / "grid.duckdb") as con:  # fresh: no point read back
        grid = grid_answers(con, small, target, sizes, args)
    same = all(_count(screened[p].answer) == grid[p] for p in grid)
    print(f"screened answers equal the full grid's on {args.check_jobs:,} jobs: {same}")


def _sizes(text: str) -> list[int]:
    first, last, step = (int(v) for v in text.split(":"))
    return list(range(first, last + 1, step))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200_000, help="0: the check only")
    parser.add_argument("--check-jobs", type=int, default=20_000, help="0: no check")
    parser.add_argument("--sizes", default="100:290:10", help="first:last:step (inclusive)")
    parser.add_argument("--check-sizes", default=None, help="for the check; default --sizes")
    parser.add_argument("--max-gang", type=int, default=512, help="GPUs; larger gangs set aside")
    parser.add_argument("--policies", default="best-fit,spread")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fraction", type=float, default=0.125)
    parser.add_argument("--screen-every", type=int, default=2)
    parser.add_argument("--target", default="p95_wait=1h")
    parser.add_argument("--verbose", action="store_true", help="each point as it is priced")
    args = parser.parse_args()
    sizes = _sizes(args.sizes)
    check_sizes = _sizes(args.check_sizes or args.sizes)
    target = parse_target(args.target)
    print(f"{len(sizes)} sizes x {args.policies}, {args.workers} workers, target {args.target}")
    with TemporaryDirectory(prefix="bench-sizing-") as folder:
        root = Path(folder)
        if args.jobs:
            with connect(root / "big.duckdb") as con:
                big = loaded(con, root, args.jobs, args.max_gang)
                started = time.perf_counter()
                searched(con, big, target, sizes, args)
                print(
                    f"screened search, {args.jobs:,} jobs: {time.perf_counter() - started:,.1f} s"
                )
        if args.check_jobs:
            checked(root, target, check_sizes, args)
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
