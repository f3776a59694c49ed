"""`planner report`: one or several TCO scenarios priced and written as one report file
(xlsx, PDF, CSV or FOCUS CSV), the same bytes the Compare page's downloads give."""

import argparse
import json
import os
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from planner.cli.db import database
from planner.core import atomic_file
from planner.core.errors import PlannerError
from planner.core.file_access import LOCAL_FILES

if TYPE_CHECKING:
    from planner.cli.tco import AddReadOptions, ReadOptions
    from planner.cost.results import TcoReport
    from planner.report.render import FileKind

RULES = ("use", "quota", "idle")
EXTENSIONS = (".xlsx", ".pdf", ".csv")
FOCUS = ".focus.csv"


def add_report_command(
    sub: Any, add_read_options: "AddReadOptions", read_options: "ReadOptions"
) -> None:
    report = sub.add_parser(
        "report",
        help="write the TCO report of one or several scenarios as xlsx, PDF or CSV",
        description="Price each scenario (on its trace, or --trace) and write one report. "
        "A .csv report is three files: FILE.csv (tidy cost rows: month x category x option), "
        "FILE-jobs.csv (the replay's jobs) and FILE-chargeback.csv (cost by team). "
        "A FILE.focus.csv is the plan as FinOps FOCUS 1.0 cost-and-usage rows.",
    )
    report.add_argument(
        "--scenario", type=Path, action="append", required=True, metavar="FILE.yaml",
        help="a TCO scenario file; repeat to compare several",
    )  # fmt: skip
    report.add_argument("--trace", help="job history file or stored trace id for every scenario")
    report.add_argument("--out", type=Path, required=True, metavar="FILE.{xlsx,pdf,csv,focus.csv}")
    report.add_argument(
        "--start-month", type=_start_month, metavar="YYYY-MM",
        help="FOCUS export: the calendar month of the plan's month 1 (default: next month)",
    )  # fmt: skip
    report.add_argument("--lang", choices=("en", "zh"), default="en", help="report language")
    report.add_argument(
        "--horizon", type=float, metavar="YEARS",
        help="the horizon the headline, cash flow and chargeback show (one of the first "
        "scenario's horizons_years; default its first)",
    )  # fmt: skip
    report.add_argument(
        "--chargeback", choices=RULES, default="use",
        help="idle cost by team: shared by use (default), by quota, or kept as an idle line",
    )  # fmt: skip
    add_read_options(report)  # --db, --json and how to read the trace
    report.set_defaults(run=lambda args: _report(args, read_options))


def _report(args: argparse.Namespace, read_options: "ReadOptions") -> int:
    from planner.report.render import render  # fpdf2, openpyxl: run time only

    kind = _kind(args.out)
    _check_folder(args.out)
    reports = _priced(args, read_options)
    index = _horizon_index(reports[0][1], args.horizon)
    files, notes = render(
        reports,
        kind,
        horizon_index=index,
        lang=args.lang,
        rule=args.chargeback,
        start=args.start_month,
    )
    written = [_save(_path(args.out, suffix), data) for suffix, data in files.items()]
    if args.json:
        print(json.dumps({"files": [str(p) for p in written], "notes": list(notes)}, indent=2))
    else:
        print("\n".join([*(f"wrote {p}" for p in written), *(f"note: {n}" for n in notes)]))
    return 0


def _horizon_index(first: "TcoReport", years: float | None) -> int:
    """The index of `years` among the first scenario's horizons (0 without `--horizon`)."""
    if years is None:
        return 0
    found = [h.years for h in first.horizons]
    for k, horizon in enumerate(found):
        if abs(horizon - years) < 1e-9:
            return k
    shown = ", ".join(f"{y:g}" for y in found)
    raise PlannerError(f"--horizon {years:g}: the first scenario's horizons are {shown} years")


def _start_month(value: str) -> date:
    """`YYYY-MM` as the first day of that month."""
    try:
        year, month = (int(part) for part in value.split("-"))
        return date(year, month, 1)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a month; write it as YYYY-MM, e.g. 2027-01"
        ) from None


def _kind(out: Path) -> "FileKind":
    if out.name.lower().endswith(FOCUS):
        return "focus"
    suffix = out.suffix.lower()
    if suffix not in EXTENSIONS:
        raise PlannerError(
            f"--out {out}: the file name must end in .xlsx, .pdf, .csv or .focus.csv (got "
            f"'{suffix or 'no extension'}')"
        )
    return cast("FileKind", suffix[1:])


def _check_folder(out: Path) -> None:
    """PlannerError unless `out` can be written: checked before any pricing is done."""
    if not out.parent.is_dir():
        raise PlannerError(f"--out {out}: the folder {out.parent} does not exist; create it first")
    if out.is_dir():
        raise PlannerError(f"--out {out} is a directory; give a file name")
    if not os.access(out.parent, os.W_OK):
        raise PlannerError(f"--out {out}: the folder {out.parent} is not writable")


def _priced(args: argparse.Namespace, read_options: "ReadOptions") -> list[tuple[str, "TcoReport"]]:
    """Each scenario's TCO report, named by its scenario (file name when it has none)."""
    from planner.service.tco_files import load_tco_scenario  # pandas, DuckDB: run time only
    from planner.service.tco_run import run_tco

    scenarios = [(path, load_tco_scenario(path)) for path in args.scenario]
    options = read_options(args)
    named: list[tuple[str, TcoReport]] = []
    with database(args.db) as con:
        for path, scenario in scenarios:
            report = run_tco(con, scenario, files=LOCAL_FILES, trace=args.trace, options=options)
            named.append((_unique(report.scenario or path.stem, named), report))
    return named


def _unique(name: str, taken: list[tuple[str, "TcoReport"]]) -> str:
    """`name`, or `name (2)`, ... when another scenario of the report has it."""
    names = {n for n, _ in taken}
    found, k = name, 2
    while found in names:
        found, k = f"{name} ({k})", k + 1
    return found


def _path(out: Path, suffix: str) -> Path:
    return out.with_name(f"{out.stem}{suffix}{out.suffix}") if suffix else out


def _save(path: Path, data: bytes) -> Path:
    try:
        atomic_file.write_bytes(path, data)
    except OSError as err:
        raise PlannerError(f"cannot write the report to {path}: {err.strerror or err}") from err
    return path
