"""`planner tco`: the cost of owning, renting or both, printed or as JSON."""

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli.db import database
from planner.core.file_access import LOCAL_FILES
from planner.core.serialize import to_json
from planner.cost.busy import BusyShare
from planner.cost.ledger import Balance
from planner.cost.results import TcoReport

if TYPE_CHECKING:
    from planner.ingest import IngestOptions

ReadOptions = Callable[[argparse.Namespace], "IngestOptions"]
AddReadOptions = Callable[[argparse.ArgumentParser], None]


def add_tco_command(sub: Any, add_read_options: AddReadOptions, read_options: ReadOptions) -> None:
    tco = sub.add_parser(
        "tco", help="own, rent or both: TCO, break-even, NPV from a scenario (and a trace)"
    )
    tco.add_argument("--scenario", type=Path, required=True, metavar="FILE.yaml")
    tco.add_argument("--trace", help="job history file or stored trace id (else `utilization`)")
    add_read_options(tco)  # --db, --json and how to read the trace
    tco.add_argument("--xlsx", type=Path, metavar="OUT.xlsx", help="write the Excel report")
    tco.add_argument("--pdf", type=Path, metavar="OUT.pdf", help="write the PDF report")
    tco.add_argument("--csv", type=Path, metavar="OUT.csv", help="write the options table")
    tco.add_argument("--lang", choices=("en", "zh"), default="en", help="report language")
    tco.set_defaults(run=lambda args: _tco(args, read_options))


def _tco(args: argparse.Namespace, read_options: ReadOptions) -> int:
    from planner.service.tco_files import load_tco_scenario  # pandas, DuckDB: run time only
    from planner.service.tco_run import run_tco

    scenario = load_tco_scenario(args.scenario)
    with database(args.db) as con:
        report = run_tco(
            con, scenario, files=LOCAL_FILES, trace=args.trace, options=read_options(args)
        )
    if args.json:
        print(json.dumps(to_json(report), indent=2, default=str))
    else:
        print("\n".join(tco_lines(report)))
    _write_files(args, report)
    return 0


def _write_files(args: argparse.Namespace, report: TcoReport) -> None:
    """The --xlsx/--pdf/--csv files; their paths go to stderr under --json."""
    from planner.report.files import (  # only report files pay for fpdf2
        ReportFiles,
        write_report_files,
    )

    files = ReportFiles(args.xlsx, args.pdf, args.csv)
    if files:
        name = report.scenario or args.scenario.stem
        lines = write_report_files(name, report, files, args.lang)
        print("\n".join(lines), file=sys.stderr if args.json else sys.stdout)


def tco_lines(r: TcoReport) -> list[str]:
    """`planner tco`'s text: the headline, each horizon's options and comparisons, notes."""
    cur = r.currency
    per_month = "GPU-h/month in year 1" if r.demand_by_year else "GPU-h/month"
    if r.allocation is None:  # cloud only
        lines = [
            f"{r.scenario or 'TCO'}: cloud only, useful "
            f"{r.useful_gpu_hours_per_month:,.0f} {per_month}"
        ]
    else:
        lines = [
            f"{r.scenario or 'TCO'}: {r.installed_gpus} owned GPUs, allocation "
            f"{r.allocation:.1%}, useful {r.useful_gpu_hours_per_month:,.0f} {per_month}",
            f"self-hosted: {_money(r.cost_per_installed_gpu_hour, cur)} per installed "
            f"GPU-hour, {_money(r.cost_per_allocated_gpu_hour, cur)} per allocated GPU-hour",
        ]
    lines += _demand_lines(r)
    lines += busy_lines(r.busy)
    for name, value in r.break_even_utilization.items():
        shown = "never" if value is None else f"{value:.1%}"
        lines.append(f"  break-even utilization vs {name}: {shown}")
    for horizon in r.horizons:
        lines.append(f"over {horizon.years:g} years:")
        for o in horizon.options:
            wait = "" if o.wait_p95_s is None else f", p95 wait {o.wait_p95_s:,.0f} s"
            wait += "" if o.served_share is None else f", served {o.served_share:.1%}"
            lines.append(
                f"  {o.name:<32} total {_money(o.total, cur)}, "
                f"{_money(o.cost_per_useful_gpu_hour, cur)} per useful GPU-hour{wait}"
            )
            if r.busy is not None and (b := r.busy.cost(horizon.years, o.name)):
                lines.append(
                    f"    {_money(b.cost_per_busy_gpu_hour, cur)} per busy GPU-hour "
                    f"(per useful / busy share {r.busy.share:.1%})"
                )
            if o.ledger is not None:
                lines.append(f"    ledger: {_ledger_line(o.ledger.gpu_hours)}")
            if r.demand_by_year:
                lines.append(f"    P&L by year: {_by_year(o.monthly_pnl)}")
        for c in horizon.comparisons:
            month = c.break_even_month
            lines.append(
                f"  buy vs {c.rented}: NPV {_money(c.npv_of_buying, cur)}, break-even "
                f"{'never' if month is None else f'month {month}'}"
            )
        if horizon.pair is not None:
            lines.append(f"  headline pair: {horizon.pair.owned} vs {horizon.pair.rented}")
    lines += _flip_lines(r)
    lines.append(f"scope: {_SCOPES.get(r.scope, r.scope)}")
    lines += [f"note: {n}" for n in r.notes]
    return lines


def _flip_lines(r: TcoReport) -> list[str]:
    """What would flip the headline pair's verdict (`docs/verdict.md`), driver by driver."""
    from planner.report import flips

    if r.verdict is None:
        return []
    v = r.verdict
    lines = [f"what would flip the verdict ({v.owned} vs {v.rented}, {v.years:g} years):"]
    for driver, today, at in flips.rows(r, "en"):
        lines.append(f"  {driver}: today {today}, flips at {at}")
    return lines


def _demand_lines(r: TcoReport) -> list[str]:
    """Each year's demand when the scenario grows it (`growth:`), so a user can recompute."""
    lines = ["demand by year (jobs in scope, GPU-hours over the trace's span, a month of it):"]
    for y in r.demand_by_year or ():
        team = f", {y.team_jobs:,} of a synthetic team" if y.team_jobs else ""
        warp = f", time-warp x{y.time_warp:g}" if y.time_warp != 1.0 else ""
        lines.append(
            f"  year {y.year}: arrival rate x{y.arrival_rate:g}{warp}, {y.jobs:,} jobs{team}, "
            f"{y.gpu_hours:,.1f} GPU-h, {y.gpu_hours_per_month:,.0f} GPU-h/month"
        )
    return lines if r.demand_by_year else []


def busy_lines(busy: BusyShare | None) -> list[str]:
    """The busy share, its coverage and each team's GPU-hours allocated and busy."""
    if busy is None:
        return []
    h = busy.hours
    lines = [
        f"busy share {busy.share:.1%}: {h.busy_gpu_hours:,.1f} GPU-h busy of the "
        f"{h.known_gpu_hours:,.1f} GPU-h with a share (known for {busy.jobs_known:,} of "
        f"{busy.jobs:,} jobs, {busy.known_hours_share:.1%} of {h.allocated_gpu_hours:,.1f} "
        "GPU-h allocated)"
    ]
    for t in busy.teams:
        share = "unknown" if t.hours.share is None else f"{t.hours.share:.1%}"
        lines.append(
            f"  {t.team or '(no team)'}: allocated {t.hours.allocated_gpu_hours:,.1f} GPU-h, "
            f"busy {t.hours.busy_gpu_hours:,.1f} GPU-h, busy share {share}"
        )
    return lines


def _by_year(monthly: tuple[float, ...]) -> str:
    """'1: 1,200.00, 2: 2,400.00': the monthly P&L summed year by year."""
    years = (monthly[k : k + 12] for k in range(0, len(monthly), 12))
    return ", ".join(f"{n}: {sum(part):,.2f}" for n, part in enumerate(years, start=1))


_SCOPES = {
    "gpu-jobs": "gpu-jobs (jobs with GPUs; CPU-only jobs are left out of every option)",
    "all-jobs": "all-jobs (CPU-only jobs too, on CPU instances and owned CPUs)",
}


def _ledger_line(lines: Balance) -> str:
    """'demanded 1,000 GPU-h = owned 800 + cloud 150 (bridge 150) + unserved 50 (lead_time 50)'."""

    def part(name: str, parts: Mapping[str, float]) -> str:
        shown = ", ".join(f"{k} {v:,.0f}" for k, v in parts.items() if v)
        return f"{name} {sum(parts.values()):,.0f}" + (f" ({shown})" if shown else "")

    elsewhere = f"; bought elsewhere {lines.elsewhere:,.0f}" if lines.elsewhere else ""
    return (
        f"demanded {lines.demanded:,.0f} GPU-h = owned {lines.owned:,.0f} + "
        f"{part('cloud', lines.cloud)} + {part('unserved', lines.unserved)}{elsewhere}"
    )


def _money(value: float | None, currency: str) -> str:
    return "n/a" if value is None else f"{value:,.2f} {currency}"
