"""`planner sweep`: a TCO scenario replayed and priced at every combination of the values
given (`--vary`), or sized by search to a wait target (`--target`); one row per point."""

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli.db import database
from planner.cli.sweep_table import point_lines
from planner.core import atomic_file
from planner.core.errors import PlannerError
from planner.core.file_access import LOCAL_FILES

if TYPE_CHECKING:
    from planner.ingest import IngestOptions
    from planner.service.sweep_bound import Sized
    from planner.service.sweep_keys import Point, Value
    from planner.service.sweep_point import PointResult
    from planner.service.sweep_run import Sweep
    from planner.service.sweep_search import Search, Target
    from planner.store import Connection

ReadOptions = Callable[[argparse.Namespace], "IngestOptions"]
AddReadOptions = Callable[[argparse.ArgumentParser], None]

DESCRIPTION = """\
Replay a trace and price it at every combination of the values given (--vary), find the
fewest servers of one pool that meet a wait target (--target), or the cheapest mix of owned
servers, committed cloud GPUs and on-demand (or spot) bursts that meets it (--target --mix:
the scenario's hybrid keeping n servers of the pool, its commitment sized to the replay's
burst demand; with `growth:` every year must meet the target and each year's commitment is
sized to that year's demand; every count tried is shown, cost against wait). Each point is
stored in the database under a hash of the scenario, trace, price book, date and the point,
so running the same sweep again (after Ctrl-C, say) computes only the points not stored yet.

KEY is a path into the scenario as written in YAML (policy.placement, self_hosted[1].servers,
cloud[0].committed_gpus, hybrid.burst_after_s, ...) or a short name:
  servers         servers of the first self-hosted pool (and the hybrid's kept servers of it)
  servers.GPU     servers of the pool of that GPU, e.g. servers.H800
  burst_after_h   the hybrid's burst threshold in hours
  placement, queueing, admission      policy.*
  committed_gpus, pricing_model, term_months      cloud[0].*
  discount_rate
A list-valued key (growth.arrival_rate, growth.time_warp: a factor per year) takes one list in
brackets per point, the points separated by commas; quote it so the shell keeps the brackets:
  --vary 'growth.arrival_rate=[1,1.5],[1,2,4]'     two points: x1.5 in year 2, or x2 then x4
"""
EPILOG = """\
examples:
  planner sweep --scenario data/scenarios/sample-tco.yaml --vary servers=1,2,4,8 \\
      --vary placement=best-fit,spread --workers 2 --out sweep.parquet
  planner sweep --scenario data/scenarios/sample-tco.yaml --target p95_wait=1h
  planner sweep --scenario data/scenarios/sample-tco.yaml --target p95_wait=1h \\
      --search screened --vary servers=16,32,48,64,80,96,112,128
  planner sweep --scenario data/scenarios/sample-tco.yaml --target p95_wait=1h --mix \\
      --size servers.H800 --json
"""


MAX_POINTS = 1_000
"""A grid larger than this is refused unless asked for: each point replays the whole trace
(about 0.3 s on the sample, hours on a large export), and a typo in a range (1..1000 x 1..1000)
should not start a run of days."""


def add_sweep_command(
    sub: Any, add_read_options: AddReadOptions, read_options: ReadOptions
) -> None:
    sweep = sub.add_parser(
        "sweep",
        help="replay and price a scenario over a grid of values, or size a pool to a wait target",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sweep.add_argument("--scenario", type=Path, required=True, metavar="BASE.yaml")
    sweep.add_argument("--trace", help="job history file or stored trace id (else `trace:`)")
    sweep.add_argument(
        "--vary", action="append", default=[], metavar="KEY=V1,V2,...", help="values to sweep"
    )
    sweep.add_argument(
        "--target",
        metavar="STAT=VALUE",
        help="size by search: p95_wait, mean_wait or p99_wait of the scenario's wait scope "
        "(GPU jobs unless it says otherwise), e.g. p95_wait=1h, mean_wait=600s; the answer "
        "says what binds it, the target or the largest job (no count below the servers it "
        "needs is tried), and then how many servers meet the target without the jobs "
        "needing that many",
    )
    sweep.add_argument(
        "--search",
        choices=("bisect", "screened"),
        default="bisect",
        help="with --target: bisect (default) prices counts on the whole trace; screened "
        "replays every count given by --vary on a time slice of the trace, then fully replays "
        "the frontier it points at (the answer is always a fully replayed count) and reports "
        "the screen's error",
    )
    sweep.add_argument(
        "--screen-fraction",
        type=float,
        default=0.125,
        metavar="F",
        help="with --search screened: the share of the trace's time the screen replays "
        "(default 0.125)",
    )
    sweep.add_argument(
        "--screen-every",
        type=int,
        default=2,
        metavar="K",
        help="with --search screened: screen every K-th count given (and the largest); the "
        "counts between are read off their neighbours (default 2; 1 screens every count)",
    )
    sweep.add_argument(
        "--size",
        default="servers",
        metavar="KEY",
        help="with --target: the pool to size, servers (the first) or servers.GPU",
    )
    sweep.add_argument(
        "--mix",
        action="store_true",
        help="with --target: the cheapest mix of the hybrid's kept servers of the pool, "
        "committed GPUs and on-demand (or spot) bursts meeting the target",
    )
    sweep.add_argument(
        "--commitment",
        metavar="MODEL",
        help="with --mix: how committed GPUs are paid, reserved (default, unless the hybrid's "
        "cloud option is a commitment), savings_plan, cud or subscription",
    )
    sweep.add_argument(
        "--option",
        default="self-hosted",
        help="the option shown and sized: self-hosted (default), hybrid or a cloud option",
    )
    sweep.add_argument(
        "--workers", type=int, metavar="N", help="worker processes (default: all cores)"
    )
    sweep.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="price the points on a Dask cluster: its scheduler's address (tcp://host:8786), "
        "or local[:N] for N worker processes on this machine (instead of --workers)",
    )
    sweep.add_argument(
        "--out", type=Path, metavar="FILE", help="write every row to FILE.parquet or FILE.csv"
    )
    sweep.add_argument(
        "--max-points",
        type=int,
        default=MAX_POINTS,
        metavar="N",
        help=f"refuse a grid of more points than N (default {MAX_POINTS:,}; each point is a "
        "replay: raise it on purpose for a long sweep)",
    )
    add_read_options(sweep)  # --db, --json and how to read the trace
    sweep.set_defaults(run=lambda args: _sweep(args, read_options))


def _sweep(args: argparse.Namespace, read_options: ReadOptions) -> int:
    from planner.service.job_rows import load_jobs
    from planner.service.replay import resolve_trace
    from planner.service.sweep_keys import parse_vary
    from planner.service.sweep_run import Sweep
    from planner.service.tco_files import load_tco_scenario

    _check_out(args.out)
    workers = _workers(args.workers)
    scenario = load_tco_scenario(args.scenario)
    varied = parse_vary(args.vary, scenario)
    _check_mix(args, varied)
    _check_points(args, varied)
    _warn_plain(args.cluster)
    if not varied and not args.target:
        raise PlannerError("give --vary KEY=V1,V2,... (one or more) or --target STAT=VALUE")
    ref = args.trace or scenario.trace
    if ref is None:
        raise PlannerError("a sweep replays a trace: give --trace or `trace:` in the scenario")
    with database(args.db) as con:
        trace_id = resolve_trace(con, ref, read_options(args), files=LOCAL_FILES)
        sweep = Sweep(scenario, load_jobs(con, trace_id), trace_id, date.today())
        if args.mix:
            results = _mix(con, sweep, args)
        elif args.target and args.search == "screened":
            from planner.cli.sweep_screen import run_screened

            results = run_screened(con, sweep, args, varied, workers)
        elif args.target:
            searches = _search(con, sweep, args, varied)
            results = [r for s, _ in searches for r in s.tried]
            _print_search(searches, args)
        else:
            results = _grid(con, sweep, varied, workers, args.cluster)
            _print_points(results, args)
    if args.out is not None:
        _write(results, args.out)
        print(f"wrote {len(results)} points to {args.out}", file=sys.stderr)
    return 0


def _warn_plain(cluster: str | None) -> None:
    if cluster is None:
        return
    from planner.service.sweep_dask import plain_remote

    if plain_remote(cluster):
        print(
            f"note: --cluster {cluster}: Dask's tcp:// is neither encrypted nor authenticated "
            "(whoever reaches the scheduler can run code on its workers and read the jobs); "
            "on a shared network use tls:// with certificates (docs/sweeps.md, Security)",
            file=sys.stderr,
        )


def _check_points(args: argparse.Namespace, varied: list[Any]) -> None:
    """A grid (or a search's combinations of the other keys) of at most --max-points."""
    grid = [values for key, values in varied if not (args.target and key == args.size)]
    count = math.prod(len(values) for values in grid)
    if count > args.max_points:
        what = "searches" if args.target else "points"
        raise PlannerError(
            f"--vary gives {count:,} {what}, more than --max-points {args.max_points:,}; "
            "each is a replay of the whole trace (the app sweeps at most 64): vary fewer values, "
            "or give --max-points N to run them all"
        )


def _check_mix(args: argparse.Namespace, varied: list[Any]) -> None:
    if args.search == "screened" and (args.mix or not args.target):
        raise PlannerError("--search screened goes with --target, without --mix")
    if not args.mix:
        if args.commitment:
            raise PlannerError("--commitment goes with --mix")
        return
    if not args.target:
        raise PlannerError("--mix needs --target STAT=VALUE (the wait the mix must meet)")
    if varied:
        raise PlannerError("--mix sizes one scenario: leave out --vary")


def _mix(con: "Connection", sweep: "Sweep", args: argparse.Namespace) -> list["PointResult"]:
    from planner.cli.sweep_mix import alone_line, mix_json, mix_lines, tried_line
    from planner.service.sweep_mix import cheapest_mix
    from planner.service.sweep_search import parse_target

    target = parse_target(args.target)
    started = time.monotonic()
    mix = cheapest_mix(
        con,
        sweep,
        args.size,
        target,
        commitment=args.commitment,
        on_tried=lambda p: print(tried_line(p, target, started), file=sys.stderr, flush=True),
        on_alone=lambda r, met: print(alone_line(r, met, started), file=sys.stderr, flush=True),
    )
    if args.json:
        print(json.dumps(mix_json(mix, args.target), indent=2))
    else:
        print("\n".join(mix_lines(mix, args.target)))
    return [p.result for p in mix.frontier]


def _grid(
    con: "Connection",
    sweep: "Sweep",
    varied: list[tuple[str, list["Value"]]],
    workers: int,
    cluster: str | None,
) -> list["PointResult"]:
    from planner.service.sweep_run import run_sweep

    points = _combinations(varied)
    outcome = run_sweep(con, sweep, points, workers=workers, on_point=_progress(), cluster=cluster)
    stored = len(points) - outcome.computed
    print(
        f"{len(points)} points: {outcome.computed} computed, {stored} stored already",
        file=sys.stderr,
    )
    return list(outcome.results)


def _search(
    con: "Connection", sweep: "Sweep", args: argparse.Namespace, varied: list[Any]
) -> list["Sized"]:
    """One search per combination of the varied keys other than the sized pool's, each with
    what binds its answer (and the search without the largest jobs, when the floor may)."""
    from planner.service.sweep_bound import sized
    from planner.service.sweep_run import pricing, run_sweep
    from planner.service.sweep_search import parse_target, smallest

    target = parse_target(args.target, args.option)
    others = [(k, v) for k, v in varied if k != args.size]
    started = time.monotonic()
    # as many counts a round as workers; the workers (or the cluster) start once per trace
    width = _workers(args.workers)
    session = ExitStack()
    prices: dict[str, Any] = {}

    def searcher(fixed: "Point") -> Callable[["Sweep", int], "Search"]:
        def search_on(on: "Sweep", floor: int) -> "Search":
            if on.trace_id not in prices:  # the whole trace, or the trace less its largest
                how = pricing(con, on, workers=width, cluster=args.cluster)
                prices[on.trace_id] = session.enter_context(how)
            price = prices[on.trace_id]

            def evaluate(points: list["Point"]) -> list["PointResult"]:
                return list(run_sweep(con, on, points, price=price).results)

            label = "search" if on is sweep else "search without the largest jobs"
            tried = _tried(target, label, started)
            return smallest(
                on.scenario, args.size, target, evaluate, fixed,
                on_tried=tried, width=width, floor=floor,
            )  # fmt: skip

        return search_on

    with session:
        return [
            sized(sweep, args.size, args.option, searcher(fixed), fixed)
            for fixed in _combinations(others)
        ]


def _tried(target: "Target", label: str, started: float) -> Callable[["PointResult", bool], None]:
    """Progress: each point the search tries."""

    def tried(r: "PointResult", met: bool) -> None:
        wait = target.wait_of(r)
        shown = "no waits" if wait is None else f"{target.stat} {wait / 3600:,.2f} h"
        found = r.option(target.option)
        if found is not None and found.never_ran:
            shown += f", {found.never_ran:,} jobs never ran"
        point = " ".join(f"{k}={v}" for k, v in r.point)
        spent = time.monotonic() - started
        verdict = "meets" if met else "misses"
        print(f"{label}: {point}: {shown}, {verdict} ({spent:,.1f} s)", file=sys.stderr)

    return tried


def _combinations(varied: Sequence[tuple[str, Sequence["Value"]]]) -> list["Point"]:
    keys = [k for k, _ in varied]
    return [
        tuple(zip(keys, values, strict=True))
        for values in itertools.product(*(v for _, v in varied))
    ]


def _workers(asked: int | None) -> int:
    import os

    if asked is None:
        return os.cpu_count() or 1
    if asked < 1:
        raise PlannerError(f"--workers must be 1 or more, got {asked}")
    return asked


def _check_out(path: Path | None) -> None:
    if path is not None and path.suffix.lower() not in {".parquet", ".csv"}:
        raise PlannerError(f"--out {path}: write a .parquet or .csv file")


def _progress() -> Callable[[int, int], None]:
    started = time.monotonic()

    def show(done: int, total: int) -> None:
        spent = time.monotonic() - started
        print(f"sweep: point {done}/{total} done ({spent:,.1f} s)", file=sys.stderr, flush=True)

    return show


# --- output ----------------------------------------------------------------------------------


def _print_points(results: Sequence["PointResult"], args: argparse.Namespace) -> None:
    if args.json:
        print(json.dumps([_point_json(r) for r in results], indent=2))
        return
    for line in point_lines(results, args.option):
        print(line)


def _print_search(searches: Sequence["Sized"], args: argparse.Namespace) -> None:
    from planner.cli.sweep_bound import bound_json, bound_lines

    if args.json:
        found = [
            {
                "size": s.key,
                "target": args.target,
                "answer": None if s.answer is None else _point_json(s.answer),
                "held_fixed": list(s.held),
                "tried": [_point_json(r) for r in s.tried],
                "bound": None if b is None else bound_json(b, _point_json),
            }
            for s, b in searches
        ]
        print(json.dumps(found, indent=2))
        return
    for s, b in searches:
        print("\n".join(search_lines(s, args.target, args.option)))
        if b is not None:
            print("\n".join(bound_lines(b, args.target, lambda r: point_lines(r, args.option))))


def _point_json(result: "PointResult") -> dict[str, Any]:
    from dataclasses import asdict

    return {
        "point": dict(result.point),
        "currency": result.currency,
        "options": [asdict(o) for o in result.options],
    }


def search_lines(search: "Search", target: str, option: str) -> list[str]:
    """The answer in a sentence, what was held fixed, then every point priced."""
    from planner.service.sweep_keys import shown

    fixed = ", ".join(
        f"{k}={shown(v)}" for k, v in (search.tried[0].point[1:] if search.tried else ())
    )
    at = f" with {fixed}" if fixed else ""
    if search.answer is None:
        head = f"no {search.key} up to {search.ceiling} meets {target} for {option}{at}"
    else:
        n = search.answer.point[0][1]
        head = f"smallest {search.key} meeting {target} for {option}{at}: {n}"
    held = f"held fixed: {', '.join(search.held)}" if search.held else ""
    found = search.answer.option(option) if search.answer is not None else None
    left = found.never_ran if found is not None else None
    # the search never counts a point that leaves out jobs a larger one runs; these none runs
    never = f"{left:,} jobs never ran, as with the most servers tried" if left else ""
    extra = [line for line in (held, never) if line]
    return [head, *extra, *point_lines(search.tried, option)]


def _write(results: Sequence["PointResult"], path: Path) -> None:
    import pandas as pd

    from planner.report.csv_table import frame_csv
    from planner.service.sweep_point import records

    frame = pd.DataFrame(records(results))
    try:
        if path.suffix.lower() == ".csv":
            atomic_file.write_text(path, frame_csv(frame), newline="")
        else:
            with atomic_file.replacing(path) as part:
                frame.to_parquet(part, index=False)
    except OSError as err:
        raise PlannerError(f"Cannot write {path}: {err.strerror}") from err
