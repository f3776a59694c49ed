"""`planner montecarlo`: each option's NPV of costs as a distribution over seeded price paths
and the probability that owning beats renting, for a scenario or every stored point of a
sweep (`--sweep`); the draws re-price the recorded inputs, they never replay."""

import argparse
import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli.db import database
from planner.core.errors import PlannerError
from planner.core.file_access import LOCAL_FILES

if TYPE_CHECKING:
    from planner.cost.montecarlo import OwningWins
    from planner.cost.montecarlo_paths import PathSpec
    from planner.ingest import IngestOptions
    from planner.service.montecarlo import McReport, McSettings

ReadOptions = Callable[[argparse.Namespace], "IngestOptions"]
AddReadOptions = Callable[[argparse.ArgumentParser], None]

DESCRIPTION = """\
Replay the scenario once (or read every stored point of a sweep), then re-price it under
--draws seeded price paths: cloud prices and electricity move as geometric Brownian motions
(a trend and a volatility a year), the servers' price at purchase and the demand (the replay's
calibration error) get one spread each. The demand's spread is the scenario's twin check (its
calibrated replay's allocation error e, as e x sqrt(pi/2)) when it has one, else 10%; a note
says which. Prints each option's NPV of costs (mean, p5, p50,
p95) per horizon and, for each owned option against each cloud option, the probability that
owning costs less. The same seed gives the same numbers.

defaults (see docs/montecarlo.md): cloud -20%/yr, volatility 15%/yr; electricity
+3%/yr, volatility 10%/yr; server price spread 10%; demand spread from the twin check, else
10%.
"""
EPILOG = """\
examples:
  planner montecarlo --scenario data/scenarios/worked-example-h100.yaml --draws 1000 --seed 7
  planner sweep --scenario data/scenarios/sample-tco.yaml --vary servers=1,2,4
  planner montecarlo --scenario data/scenarios/sample-tco.yaml --sweep --seed 7 --json
"""


def add_montecarlo_command(
    sub: Any, add_read_options: AddReadOptions, read_options: ReadOptions
) -> None:
    mc = sub.add_parser(
        "montecarlo",
        help="NPV distributions over price paths and the chance owning beats renting",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mc.add_argument("--scenario", type=Path, required=True, metavar="FILE.yaml")
    mc.add_argument("--trace", help="job history file or stored trace id (else the scenario's)")
    mc.add_argument("--draws", type=int, default=1000, help="price paths (default 1000)")
    mc.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    mc.add_argument(
        "--sweep",
        action="store_true",
        help="every point `planner sweep` stored today for this scenario and trace",
    )
    _driver_options(mc)
    add_read_options(mc)  # --db, --json and how to read the trace
    mc.set_defaults(run=lambda args: _montecarlo(args, read_options))


def _driver_options(mc: argparse.ArgumentParser) -> None:
    for flag, kind, what in (
        ("--cloud-trend", "trend", "cloud prices' expected change a year, e.g. -0.2"),
        ("--cloud-vol", "volatility", "cloud prices' volatility a year, e.g. 0.15"),
        ("--electricity-trend", "trend", "electricity's expected change a year, e.g. 0.03"),
        ("--electricity-vol", "volatility", "electricity's volatility a year, e.g. 0.1"),
        ("--server-sd", "level_sd", "spread of the servers' price at purchase, e.g. 0.1"),
        (
            "--demand-sd",
            "level_sd",
            "spread of the demand (default: the twin check's error, else 0.1)",
        ),
    ):
        mc.add_argument(flag, type=_bounded(kind), metavar="X", help=what)
    mc.add_argument("--flat", action="store_true", help="no uncertainty: the model's own NPVs")


def _bounded(kind: str) -> Callable[[str], float]:
    """A number inside the driver's sane range (`montecarlo_paths.BOUNDS`), else argparse's
    one-line refusal naming the flag."""

    def number(text: str) -> float:
        from planner.cost.montecarlo_paths import bounds_text, within  # numpy: not for --help

        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got '{text[:40]}'") from None
        if not within(kind, value):
            raise argparse.ArgumentTypeError(f"must be {bounds_text(kind)}, got {text[:40]}")
        return value

    return number


def path_spec(args: argparse.Namespace) -> "PathSpec":
    """The drivers: the defaults (or none with --flat), with each option given replacing one."""
    from dataclasses import replace

    from planner.cost.montecarlo_paths import FLAT, Driver, PathSpec

    spec = FLAT if args.flat else PathSpec()
    cloud = replace(spec.cloud, **_given(args, trend="cloud_trend", volatility="cloud_vol"))
    power = _given(args, trend="electricity_trend", volatility="electricity_vol")
    return PathSpec(
        cloud=cloud,
        electricity=replace(spec.electricity, **power),
        server=replace(spec.server, **_given(args, level_sd="server_sd")),
        # None: the scenario's twin check, else the default (planner.service.montecarlo)
        demand=spec.demand if args.demand_sd is None else Driver(level_sd=args.demand_sd),
    )


def _given(args: argparse.Namespace, **names: str) -> dict[str, float]:
    return {
        field: getattr(args, name)
        for field, name in names.items()
        if getattr(args, name) is not None
    }


def _montecarlo(args: argparse.Namespace, read_options: ReadOptions) -> int:
    from planner.core.serialize import to_json
    from planner.service.montecarlo import MAX_DRAWS, McSettings, run_montecarlo
    from planner.service.tco_files import load_tco_scenario

    if not 1 <= args.draws <= MAX_DRAWS:
        raise PlannerError(
            f"--draws must be between 1 and {MAX_DRAWS:,} (got {args.draws:,}), as in the app"
        )
    settings = McSettings(args.draws, args.seed, path_spec(args))
    scenario = load_tco_scenario(args.scenario)
    if args.sweep:
        return _sweep(args, read_options, settings)
    with database(args.db) as con:
        report = run_montecarlo(
            con,
            scenario,
            settings,
            files=LOCAL_FILES,
            trace=args.trace,
            today=date.today(),
            options=read_options(args),
        )
    if args.json:
        print(json.dumps(to_json(report), indent=2, default=str))
    else:
        print("\n".join(report_lines(report)))
    return 0


def _sweep(args: argparse.Namespace, read_options: ReadOptions, settings: "McSettings") -> int:
    from planner.core.serialize import to_json
    from planner.service.montecarlo import sweep_montecarlo
    from planner.service.replay import resolve_trace
    from planner.service.sweep_run import Sweep
    from planner.service.tco_files import load_tco_scenario

    scenario = load_tco_scenario(args.scenario)
    ref = args.trace or scenario.trace
    if ref is None:
        raise PlannerError("a sweep replays a trace: give --trace or `trace:` in the scenario")
    with database(args.db) as con:
        trace_id = resolve_trace(con, ref, read_options(args), files=LOCAL_FILES)
        found = sweep_montecarlo(con, Sweep(scenario, [], trace_id, date.today()), settings)
    if args.json:
        print(json.dumps(to_json(found), indent=2, default=str))
        return 0
    for report in found.points:
        print("\n".join(report_lines(report, notes=False)))
    print("\n".join(f"note: {n}" for n in found.notes))
    return 0


def report_lines(r: "McReport", *, notes: bool = True) -> list[str]:
    """Per horizon: each option's NPV of costs, then how often owning beats each cloud."""
    from planner.service.sweep_keys import shown

    cur = r.currency
    point = ", ".join(f"{k}={shown(v)}" for k, v in (r.point or {}).items())
    lines = [f"{r.scenario}{f' [{point}]' if point else ''}: {r.draws:,} draws, seed {r.seed}"]
    for h in r.horizons:
        lines.append(f"over {h.years:g} years, NPV of costs ({cur}):")
        lines.append(f"  {'option':<32} {'mean':>15} {'p5':>15} {'p50':>15} {'p95':>15}")
        for o in h.options:
            cells = " ".join(f"{v:>15,.0f}" for v in (o.mean, o.p5, o.p50, o.p95))
            lines.append(f"  {o.option:<32} {cells}")
        lines += [_wins_line(w) for w in h.owning_wins]
    return lines + ([f"note: {n}" for n in r.notes] if notes else [])


def _wins_line(w: "OwningWins") -> str:
    return (
        f"  {w.owned} beats {w.rented}: {w.probability:.1%} of draws (NPV of buying mean "
        f"{w.npv_of_buying_mean:,.0f}, p5 {w.npv_of_buying_p5:,.0f}, "
        f"p95 {w.npv_of_buying_p95:,.0f})"
    )
