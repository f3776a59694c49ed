"""`planner twin`: does the replay reproduce what happened? Printing only; the method is
`planner.twin.calibrate`. The check's progress (replays done of planned, the time spent and
left) goes to stderr as it runs, so `--json` output stays clean."""

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli.db import database
from planner.cli.progress import StatusLine, seconds_text, status_line
from planner.cli.replay import bin_width, duration_s
from planner.core.file_access import LOCAL_FILES
from planner.core.serialize import to_json

if TYPE_CHECKING:
    from planner.ingest import IngestOptions
    from planner.twin.progress import Listener, TwinProgress
    from planner.twin.report import (
        ArrivalShift,
        Calibration,
        Comparison,
        GroupWaits,
        TwinReport,
    )

ReadOptions = Callable[[argparse.Namespace], "IngestOptions"]
DAY_S = 86_400.0


def add_twin_command(
    sub: Any, read_options: Callable[[argparse.ArgumentParser], None], options: ReadOptions
) -> None:
    twin = sub.add_parser(
        "twin",
        help="does the replay reproduce what happened? compare and calibrate",
        description=(
            "Replay a history on the cluster it came from and compare it with what happened "
            "(observed starts, waits, withdrawn jobs, allocated GPUs). Start latency per "
            "pod-size class, the effective capacity and the policy are fitted on the jobs "
            "submitted before --fit-until and checked on the jobs submitted after it."
        ),
    )
    twin.add_argument("trace", nargs="?", metavar="TRACE", help="job history file or stored id")
    twin.add_argument("--nodes", metavar="NODE_LIST_FILE", help="the history's node list")
    twin.add_argument("--scenario", type=Path, metavar="FILE.yaml", help="scenario file")
    twin.add_argument(
        "--fit-until",
        type=_fit_until,
        metavar="T",
        help="end of the fit window, from the trace start: seconds, or 12h, 30d (default: "
        "when 60%% of the jobs had been submitted)",
    )
    twin.add_argument(
        "--bin",
        type=bin_width,
        default=3600.0,
        metavar="WIDTH",
        help="allocated-GPU series bin, e.g. 900, 15m, 1h (default), 1d",
    )
    twin.add_argument("--out", type=Path, metavar="FILE.csv", help="write the per-job table")
    twin.add_argument(
        "--save-scenario", type=Path, metavar="FILE.yaml", help="write the calibrated scenario"
    )
    read_options(twin)
    twin.set_defaults(run=lambda args: _twin(args, options(args)))


def _twin(args: argparse.Namespace, options: "IngestOptions") -> int:
    from planner.engine.scenario import ClusterSpec, Scenario
    from planner.service.replay import load_scenario
    from planner.service.twin import twin_check, write_rows

    scenario = load_scenario(args.scenario) if args.scenario else Scenario()
    update: dict[str, Any] = {}
    if args.trace:
        update["trace"] = args.trace
    if args.nodes:
        update["cluster"] = ClusterSpec(node_list=args.nodes)
    scenario = scenario.model_copy(update=update)
    with database(args.db) as con, status_line() as line:
        result = twin_check(
            con,
            scenario,
            options,
            _progress(line),
            files=LOCAL_FILES,
            fit_until_s=args.fit_until,
            bin_s=args.bin,
        )
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.out:
        write_rows(result.run.rows, args.out)
    if args.save_scenario:
        from planner.service.twin import save_calibrated

        save_calibrated(scenario, result, args.save_scenario)
    report = result.run.report
    if args.json:
        print(json.dumps(to_json(report), indent=2))
    else:
        print("\n".join(twin_lines(report)))
    return 0


def _progress(line: StatusLine) -> "Listener":
    """Every change on a terminal's line; in a pipe or a log, a line per replay finished and
    the last one (the plan shrinking as the search skips capacities adds nothing there)."""
    shown = (0, -1)

    def tell(now: "TwinProgress") -> None:
        nonlocal shown
        counts = (now.done, now.total)
        if line.in_place or (counts != shown and (now.done > shown[0] or now.done == now.total)):
            line.show(progress_text(now))
            shown = counts

    return tell


def progress_text(now: "TwinProgress") -> str:
    """'twin: 12 of 31 replays, 1.2 min so far, about 2.0 min left': the Replay page's
    estimate (the mean replay so far times the replays left), once a replay has finished."""
    left = now.left_s
    if left is None:
        return f"twin: replay 1 of {now.total} running; the time left shows once it is done"
    return (
        f"twin: {now.done} of {now.total} replays, {seconds_text(now.elapsed_s)} so far, "
        f"about {seconds_text(left)} left"
    )


def _fit_until(text: str) -> float:
    return duration_s(text, "a time from the trace start")


def twin_lines(r: "TwinReport") -> list[str]:
    cal = r.calibration
    lines = [
        f"twin check: {r.trace} on {r.cluster}: {r.jobs:,} jobs, "
        f"{r.jobs_with_observed_start:,} with an observed start",
        f"fit window: jobs submitted before {_when(cal.fit_until_s)}; validation: the rest",
        f"the history's own jobs held {r.history_gpu_share:.2%} of the "
        f"{r.node_gpus:,} GPUs on average",
    ]
    lines += [f"note: {note}" for note in r.notes]
    if r.arrival_shift is not None:
        lines.append(f"note: {_shift_words(r.arrival_shift)}")
    lines.append(
        f"calibrated: effective capacity {cal.effective_gpu_share:.1%} of the node list "
        f"({cal.effective_gpus:,} GPUs{_floor_words(cal, r.node_gpus)}); "
        f"policy {cal.policy.admission} admission, "
        f"{cal.policy.queueing} (score {cal.policy.score:.3f}; "
        + ", ".join(f"{p.admission}/{p.queueing} {p.score:.3f}" for p in cal.policy_scores)
        + "; score = wait score + 1 - start-order rank correlation"
        + ")"
    )
    lines.append("start latency by pod-size class (fit window, uncontended starts):")
    lines.append(f"  {'class':<60} {'jobs':>6} {'p50 s':>8} {'p90 s':>8} {'never placed':>13}")
    for c in cal.latency:
        lines.append(
            f"  {c.description:<60} {c.jobs:>6,} {c.p50_s:>8,.0f} {c.p90_s:>8,.0f} "
            f"{c.never_placed_share:>13.1%}"
        )
    lines.append(
        f"validation window ({r.after.jobs:,} jobs):  observed | before calibration | "
        "calibrated | naive (the fit window's own waits, no replay)"
    )
    lines += _table(r.before, r.after, r.fit)
    lines.append(f"fit window ({r.fit.jobs:,} jobs), calibrated: {_short(r.fit)}")
    lines.append("by GPU-size class (validation, observed -> calibrated p50/p90/p99 s):")
    lines += _groups(r.after.by_size)
    lines.append("by team (validation, observed -> calibrated p50/p90/p99 s):")
    lines += _groups(r.after.by_team)
    lines.append(f"verdict: {r.verdict}")
    return lines


def _shift_words(shift: "ArrivalShift") -> str:
    """What the held-back window's arrivals did (issue 31, item 4)."""
    day = shift.at_s / DAY_S
    (before, after), (b50, a50), (b90, a90) = shift.per_day, shift.p50_s, shift.p90_s
    return (
        f"arrivals in the validation window went from {before:,.0f} a day before day "
        f"{day:,.1f} to {after:,.0f} a day from it; observed waits p50 / p90 {_s(b50)} / "
        f"{_s(b90)} s before, {_s(a50)} / {_s(a90)} s after. A calibration fitted on the "
        "earlier jobs cannot know load that comes later."
    )


def _floor_words(cal: "Calibration", node_gpus: int) -> str:
    """The capacity's floor: what the history held at once (issue 31, item 2)."""
    pools = ", ".join(f"{p} {g:,.0f}" for p, g in sorted(cal.peak_gpus_by_pool.items()))
    by_pool = f", by GPU type {pools}" if pools else ""
    if cal.peak_gpus > node_gpus:
        return (
            f"; the history held {cal.peak_gpus:,.0f} at once{by_pool}, more than the node "
            "list has: the node list is not all the cluster it ran on"
        )
    said = f", never below the {cal.peak_gpus:,.0f} the history held at once{by_pool}"
    return said + (": the fit would have gone lower" if cal.floored else "")


def _table(before: "Comparison", after: "Comparison", fit: "Comparison") -> list[str]:
    rows: list[tuple[str, ...]] = []
    for name in ("p50", "p90", "p99", "mean"):
        o = getattr(after.observed, name)
        rows.append(
            (
                f"wait {name} (s)",
                _s(o),
                _s(getattr(before.replayed, name)),
                _s(getattr(after.replayed, name)),
                _s(getattr(fit.observed, name)),
            )
        )
    rows += [
        (
            "waited > 0 s",
            f"{after.waited_share[0]:.1%}",
            f"{before.waited_share[1]:.1%}",
            f"{after.waited_share[1]:.1%}",
            f"{fit.waited_share[0]:.1%}",
        ),
        (
            "waiting GPU-hours",
            f"{after.waiting_gpu_hours[0]:,.1f}",
            f"{before.waiting_gpu_hours[1]:,.1f}",
            f"{after.waiting_gpu_hours[1]:,.1f}",
        ),
        (
            "withdrawn jobs",
            f"{after.withdrawn[0]:,}",
            f"{before.withdrawn[1]:,}",
            f"{after.withdrawn[1]:,}",
        ),
        ("KS distance of waits", "", _f(before.ks_distance), _f(after.ks_distance)),
        ("Wasserstein distance (s)", "", _s(before.wasserstein_s), _s(after.wasserstein_s)),
        (
            f"allocated GPUs: correlation ({_when(after.allocation_bin_s)} bins)",
            "",
            _f(before.allocation_correlation),
            _f(after.allocation_correlation),
        ),
        (
            "allocated GPUs: mean error / mean",
            "",
            _pct(before.allocation_error),
            _pct(after.allocation_error),
        ),
        (
            "allocated GPU-hours over the window: error",
            "",
            _pct(before.allocation_level_error),
            _pct(after.allocation_level_error),
        ),
    ]
    padded = [(*row, "")[:5] for row in rows]  # the naive column: waits only
    return [f"  {a:<44} {b:>10} {c:>12} {d:>12} {e:>12}".rstrip() for a, b, c, d, e in padded]


def _short(c: "Comparison") -> str:
    o, r = c.observed, c.replayed
    return (
        f"p50 {_s(o.p50)} -> {_s(r.p50)}, p90 {_s(o.p90)} -> {_s(r.p90)}, p99 {_s(o.p99)} -> "
        f"{_s(r.p99)} s; withdrawn {c.withdrawn[0]:,} -> {c.withdrawn[1]:,}"
    )


def _groups(groups: "tuple[GroupWaits, ...]") -> list[str]:
    return [
        f"  {g.group:<12} {g.observed.jobs:>6,} jobs  "
        f"{_s(g.observed.p50)}/{_s(g.observed.p90)}/{_s(g.observed.p99)} -> "
        f"{_s(g.replayed.p50)}/{_s(g.replayed.p90)}/{_s(g.replayed.p99)}"
        for g in groups
    ]


def _s(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def _f(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _when(seconds: float) -> str:
    if seconds >= DAY_S:
        return f"{seconds / DAY_S:,.1f} d"
    if seconds >= 3600:
        return f"{seconds / 3600:,.1f} h"
    return f"{seconds:,.0f} s"
