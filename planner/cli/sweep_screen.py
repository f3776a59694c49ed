"""`planner sweep --target ... --search screened`: the screened search run once per
combination of the other varied keys, with its progress, the answer, what the screen cost
(counts screened, counts fully replayed), the screen's error at every fully replayed count and
the fully replayed points; `--json` the same."""

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from planner.cli.sweep import _combinations, _point_json
from planner.cli.sweep_table import point_lines
from planner.core.errors import PlannerError

if TYPE_CHECKING:
    from planner.service.sweep_point import PointResult
    from planner.service.sweep_run import Sweep
    from planner.service.sweep_screen import ScreenedSearch, ScreenError
    from planner.store import Connection


def run_screened(
    con: "Connection", sweep: "Sweep", args: argparse.Namespace, varied: list[Any], workers: int
) -> list["PointResult"]:
    """Every screened search's fully replayed points (the slice's are not written to --out:
    their figures are a slice's, not the trace's)."""
    from planner.service.sweep_screen import floor_for, screened_smallest
    from planner.service.sweep_search import parse_target

    target = parse_target(args.target, args.option)
    candidates = _candidates(args.size, varied)
    others = [(k, v) for k, v in varied if k != args.size]
    started = time.monotonic()

    def shown(stage: str, r: "PointResult", met: bool) -> None:
        wait = target.wait_of(r)
        text = "no waits" if wait is None else f"{target.stat} {wait / 3600:,.2f} h"
        point = " ".join(f"{k}={v}" for k, v in r.point)
        verdict = "meets" if met else "misses"
        spent = time.monotonic() - started
        print(f"{stage}: {point}: {text}, {verdict} ({spent:,.1f} s)", file=sys.stderr, flush=True)

    found = []
    for fixed in _combinations(others):
        floor = floor_for(sweep, args.size, args.option, fixed)
        found.append(
            screened_smallest(
                con,
                sweep,
                args.size,
                target,
                candidates=candidates,
                fixed=fixed,
                fraction=args.screen_fraction,
                every=args.screen_every,
                workers=workers,
                floor=floor,
                on_point=shown,
            )
        )
    if args.json:
        print(json.dumps([screened_json(s, args.target) for s in found], indent=2))
    else:
        for s in found:
            print("\n".join(screened_lines(s, args.target, args.option)))
    return [r for s in found for r in s.full]


def _candidates(size: str, varied: list[Any]) -> list[int]:
    values = dict(varied).get(size)
    if not values:
        raise PlannerError(
            f"--search screened picks the answer among the counts given: add --vary "
            f"{size}=N1,N2,... (the candidate counts, e.g. {size}=8,16,24,32)"
        )
    if not all(isinstance(v, int) and v >= 1 for v in values):
        raise PlannerError(f"--vary {size}: the candidate counts are whole numbers of 1 or more")
    return [int(v) for v in values]


def screened_lines(search: "ScreenedSearch", target: str, option: str) -> list[str]:
    """The answer, what the screen cost and its error, then the fully replayed points."""
    fixed = " ".join(f"{k}={v}" for k, v in search.screened[0].point[1:])
    at = f" with {fixed}" if fixed else ""
    if search.answer is None:
        head = f"no count of {search.key} given meets {target} for {option}{at}"
    else:
        n = search.answer.point[0][1]
        head = f"smallest {search.key} meeting {target} for {option}{at}: {n} (fully replayed)"
    lines = [
        head,
        f"screen: the trace's first {search.fraction:.1%} of its time "
        f"({search.slice_jobs:,} of {search.trace_jobs:,} jobs); "
        f"{len(search.screened)} counts screened{_every(search.every)}, "
        f"{len(search.full)} fully replayed",
    ]
    if search.below_floor:
        listed = ", ".join(str(n) for n in search.below_floor)
        lines.append(f"not replayed, below the fewest servers that run the largest job: {listed}")
    lines += error_lines(search.errors)
    return [*lines, "fully replayed:", *point_lines(search.full, option)]


def _every(every: int) -> str:
    return "" if every == 1 else f" (every {_ordinal(every)} given and the largest)"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def error_lines(errors: Sequence["ScreenError"]) -> list[str]:
    """The screen's error at each fully replayed count: wait in hours, utilization in points."""
    head = ("servers", "wait screened", "full (h)", "error (h)", "util screened", "full", "error")
    rows = [head, *(_error_cells(e) for e in errors)]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    table = ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines = ["screening error (full - screened) at the fully replayed counts:", *table]
    if not all(e.screened for e in errors):
        lines.append("* not screened: its screened wait read off the screened counts beside it")
    return lines


def _error_cells(e: "ScreenError") -> tuple[str, ...]:
    return (
        f"{e.servers:,}",
        _hours(e.screened_wait_s) + ("" if e.screened else "*"),
        _hours(e.full_wait_s),
        _hours(e.wait_s),
        _share(e.screened_utilization),
        _share(e.full_utilization),
        "–" if e.utilization is None else f"{e.utilization * 100:+.1f} pp",
    )


def _hours(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds / 3600:,.2f}"


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def screened_json(search: "ScreenedSearch", target: str) -> dict[str, Any]:
    return {
        "size": search.key,
        "target": target,
        "answer": None if search.answer is None else _point_json(search.answer),
        "screen": {
            "fraction": search.fraction,
            "jobs": search.slice_jobs,
            "trace_jobs": search.trace_jobs,
            "points_screened": len(search.screened),
            "every": search.every,
            "points_fully_replayed": len(search.full),
            "below_floor": list(search.below_floor),
        },
        "screening_error": [
            {
                "servers": e.servers,
                "screened": e.screened,
                "wait_screened_s": e.screened_wait_s,
                "wait_full_s": e.full_wait_s,
                "wait_error_s": e.wait_s,
                "utilization_screened": e.screened_utilization,
                "utilization_full": e.full_utilization,
                "utilization_error": e.utilization,
            }
            for e in search.errors
        ],
        "worst_wait_error_s": search.worst_wait_error_s,
        "worst_utilization_error": search.worst_utilization_error,
        "fully_replayed": [_point_json(r) for r in search.full],
        "screened": [_point_json(r) for r in search.screened],
    }
