"""`planner ...` / `python -m planner ...`: argument parsing and printing only.

Every subcommand calls a library function; a `PlannerError` becomes one line on stderr and
exit status 2, never a traceback, and so does a failed internal check (a bug, with how to
report it).
"""

import argparse
import dataclasses
import errno
import importlib.metadata
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pydantic

from planner.cli.db import add_db_commands, database
from planner.cli.montecarlo import add_montecarlo_command
from planner.cli.output import visible_controls
from planner.cli.prices import add_price_commands
from planner.cli.prometheus import add_prometheus_arguments, check_source, import_from_prometheus
from planner.cli.replay import add_commands
from planner.cli.report import add_report_command
from planner.cli.scenarios import add_scenario_commands
from planner.cli.sweep import add_sweep_command
from planner.cli.tco import add_tco_command
from planner.cli.twin import add_twin_command
from planner.core import atomic_file
from planner.core.errors import InternalCheckError, PlannerError
from planner.ingest.columns import FIELDS, NODE_FIELDS
from planner.ingest.limits import MAX_UNPACKED_BYTES, shorten
from planner.ingest.options import CENSORED_CHOICES, FORMATS
from planner.synth.profiles import PROFILES

if TYPE_CHECKING:
    from planner.ingest import IngestOptions

# pandas, numpy and DuckDB take seconds to import, so the commands import what they use
# when they run: `planner --help` and a mistyped flag answer at once.

DESCRIPTION = (
    "Plan GPU capacity from your own job history: import it (or synthesize one), replay it "
    "on a cluster you describe to see queueing, waits and utilization, price owning servers "
    "against renting cloud GPUs (on-demand, reserved, spot or a hybrid of both), and write "
    "the results as text, JSON or report files."
)
EXIT_USER_ERROR = 2
GIB = 1 << 30
DISTRIBUTION = "gpu-capacity-planner"  # pyproject.toml's project name


def main(argv: Sequence[str] | None = None) -> int:
    with visible_controls():  # a name read from a file must not drive the terminal
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except PlannerError as err:
        print(f"error: {err}", file=sys.stderr)
    except pydantic.ValidationError as err:
        from planner.service.replay import validation_text

        print(f"error: {validation_text(err)}", file=sys.stderr)
    except AssertionError as err:  # a bug: said in one line with how to report it
        print(f"error: {InternalCheckError.from_assertion(err)}", file=sys.stderr)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader left (`planner ... | head`): stop quietly, as `cat` does. Point stdout at
        # devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a killed writer
    except OSError as err:
        # A full disk or temporary folder, a file-size limit, a permission refused inside a
        # library (openpyxl's temporary files): one line saying what and where.
        print(f"error: {os_error_text(err)}", file=sys.stderr)
    return EXIT_USER_ERROR


def os_error_text(err: OSError) -> str:
    """What failed and where, with what to do about a full disk."""
    where = f" ({shorten(str(err.filename))})" if err.filename else ""
    return f"{err.strerror or err}{where}{full_disk_hint(err)}"


def full_disk_hint(err: OSError) -> str:
    """What to do when `err` says the space ran out ('' otherwise)."""
    if err.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return ""
    return (
        ": the disk, the temporary folder ($TMPDIR) or a file-size limit is full; free space "
        "or choose another place, then run the command again (files already there were left "
        "as they were)"
    )


def installed_version() -> str:
    """The installed package's version, as pip recorded it from pyproject.toml."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        # run from a checkout never installed (`pip install -e .` or `make` installs it)
        return "(unknown: not installed; run `make app` or `pip install -e .`)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="planner", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    ingest = sub.add_parser("ingest", help="import a job history or node list into the database")
    ingest.add_argument("path", type=Path, nargs="?", help="the export file (or --prometheus)")
    _read_options(ingest)
    add_prometheus_arguments(ingest)
    ingest.add_argument("--name", help="name for the stored trace (default: file name)")
    ingest.add_argument(
        "--rejected-out",
        type=Path,
        metavar="FILE.csv",
        help="also write the rejected rows with their reasons to this CSV",
    )
    ingest.set_defaults(run=_ingest)

    inspect = sub.add_parser("inspect", help="statistics of a stored trace or a file")
    inspect.add_argument("trace", metavar="TRACE_OR_ID")
    _read_options(inspect)
    inspect.set_defaults(run=_inspect)

    traces = sub.add_parser("traces", help="list the stored traces")
    traces.add_argument("--db", help="database file (default: $PLANNER_DB or data/planner.duckdb)")
    traces.add_argument("--json", action="store_true")
    traces.set_defaults(run=_traces)

    synth = sub.add_parser(
        "synth",
        help="write a synthetic job history (calibrated profiles)",
        description="Write a synthetic job history calibrated on a published cluster trace.",
        epilog=_profiles_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    synth.add_argument("--profile", required=True, help="one of the profiles listed below")
    synth.add_argument("--jobs", type=int, required=True)
    synth.add_argument("--seed", type=int, default=0)
    synth.add_argument("--out", type=Path, required=True)
    synth.add_argument("--json", action="store_true")
    synth.set_defaults(run=_synth)
    add_commands(sub, _read_options, _options)
    add_tco_command(sub, _read_options, _options)
    add_sweep_command(sub, _read_options, _options)
    add_montecarlo_command(sub, _read_options, _options)
    add_report_command(sub, _read_options, _options)
    add_twin_command(sub, _read_options, _options)
    add_price_commands(sub)
    add_scenario_commands(sub)
    add_db_commands(sub)
    return parser


def _profiles_text() -> str:
    """One line per profile of `planner.synth.profiles.PROFILES`, from its calibration."""
    lines = ["profiles:"]
    for name, p in sorted(PROFILES.items()):
        lines.append(
            f"  {name:<8} {p.jobs_per_day:,.0f} jobs/day, {p.gpu_mean:.1f} GPUs per job on average "
            f"(up to {p.gpu_max}), median run {p.run_median_s / 60:,.0f} min, {p.teams} teams"
        )
    return "\n".join(lines)


def _read_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, help="override format detection")
    parser.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="FIELD=COLUMN",
        help=f"use COLUMN for FIELD; job history fields: {', '.join(FIELDS)}; node list "
        f"fields: {', '.join(NODE_FIELDS)}",
    )
    parser.add_argument(
        "--tz", default="UTC", help="time zone of dates written without an offset (default UTC)"
    )
    parser.add_argument(
        "--max-gpus-per-pod",
        type=int,
        default=8,
        help="split jobs without a pod count into pods of at most this many GPUs",
    )
    parser.add_argument(
        "--censored",
        choices=CENSORED_CHOICES,
        default="window",
        help="rows with no start and no run time (not pending): 'window' (default) runs them "
        "from the export window's start, flagged running_at_start; 'reject' rejects them",
    )
    parser.add_argument(
        "--max-unpacked-gib",
        type=float,
        default=MAX_UNPACKED_BYTES / GIB,
        metavar="N",
        help="refuse a gzip or .xlsx file whose content unpacks to more than N GiB "
        f"(default {MAX_UNPACKED_BYTES / GIB:g})",
    )
    parser.add_argument("--db", help="database file (default: $PLANNER_DB or data/planner.duckdb)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def _options(args: argparse.Namespace) -> "IngestOptions":
    from planner.ingest import IngestOptions, ReadLimits
    from planner.ingest.limits import shorten

    mapping: dict[str, str] = {}
    for item in args.map:
        field, sep, column = item.partition("=")
        if not sep or not field.strip() or not column.strip():
            raise PlannerError(f"--map expects FIELD=COLUMN, got '{shorten(item)}'")
        mapping[field.strip()] = column.strip()
    if not args.max_unpacked_gib > 0:
        raise PlannerError(f"--max-unpacked-gib must be above 0, got {args.max_unpacked_gib:g}")
    return IngestOptions(
        format=args.format,
        mapping=mapping,
        tz=args.tz,
        max_gpus_per_pod=args.max_gpus_per_pod,
        censored=args.censored,
        limits=ReadLimits(max_unpacked_bytes=int(min(args.max_unpacked_gib, 1e6) * GIB)),
    )


def _check_output(path: Path, flag: str) -> None:
    """PlannerError unless `path` can be created: checked before any work is done."""
    from planner.ingest.limits import shorten

    folder = path.parent
    if not folder.is_dir():
        raise PlannerError(
            f"{flag} {shorten(str(path))}: the folder {shorten(str(folder))} does not exist; "
            "create it or choose another path"
        )
    if path.is_dir():
        raise PlannerError(f"{flag} {shorten(str(path))} is a directory; give a file name")
    if not os.access(folder, os.W_OK):
        raise PlannerError(f"{flag} {shorten(str(path))}: the folder is not writable")


def _write_rejected(path: Path, text: str) -> None:
    try:
        atomic_file.write_text(path, text)
    except OSError as err:
        raise PlannerError(f"cannot write the rejected rows to {path}: {err.strerror}") from err


def _ingest(args: argparse.Namespace) -> int:
    from planner.report.csv_table import frame_csv
    from planner.service.importer import import_file, rejected_rows

    check_source(args)
    if args.rejected_out:
        _check_output(args.rejected_out, "--rejected-out")
    with database(args.db, writes=True) as con:
        if args.prometheus:
            report = import_from_prometheus(con, args, _options(args))
        else:
            report = import_file(con, args.path, _options(args), args.name)
        if args.rejected_out and report.rejected:
            _write_rejected(args.rejected_out, frame_csv(rejected_rows(con, report.trace_id)))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print("\n".join(report.summary_lines()))
    return 0


def _inspect(args: argparse.Namespace) -> int:
    from planner.service.importer import import_file
    from planner.store.trace_stats import find_trace, trace_stats

    with database(args.db) as con:
        ref = args.trace
        if Path(ref).is_file():
            ref = import_file(con, Path(ref), _options(args)).trace_id
        stats = trace_stats(con, find_trace(con, ref))
    if args.json:
        print(stats.model_dump_json(indent=2))
        return 0
    print(
        f"{stats.name} ({stats.trace_id}): {stats.jobs:,} jobs from {stats.source_file} "
        f"[{stats.source_format}]"
    )
    start = stats.start_utc or "relative times"
    print(f"span {stats.span_s / 86400:,.1f} days from {start}; GPU-hours {stats.gpu_hours:,.1f}")
    for title, groups in (
        ("GPUs per job", stats.by_gpu_count),
        ("queue", stats.by_queue),
        ("status", stats.by_status),
    ):
        print(f"by {title}:")
        for key, group in list(groups.items())[:15]:
            print(f"  {key:>16}  {group.jobs:>10,} jobs  {group.gpu_hours:>14,.1f} GPU-h")
    print("run time (s): " + "  ".join(f"{k} {v:,.0f}" for k, v in stats.duration_s.items()))
    if stats.wait_s:
        print("observed wait (s): " + "  ".join(f"{k} {v:,.0f}" for k, v in stats.wait_s.items()))
    if stats.wait_left_out_running_at_start:
        print(
            f"  ({stats.wait_left_out_running_at_start:,} jobs already running when the "
            "export's window opened are left out: their submit, so their wait, is unknown)"
        )
    return 0


def _traces(args: argparse.Namespace) -> int:
    from planner.store.trace_stats import list_traces

    with database(args.db) as con:
        rows = list_traces(con)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        print(
            f"{row['trace_id']}  {row['jobs']:>10,} jobs  {row['gpu_hours']:>14,.1f} GPU-h  "
            f"{row['format']:<10}  {row['name']}  ({row['imported']})"
        )
    if not rows:
        print("no traces yet: `planner ingest FILE` imports one")
    return 0


def _synth(args: argparse.Namespace) -> int:
    from planner.ingest.limits import shorten
    from planner.synth import write_trace

    _check_output(args.out, "--out")
    try:
        summary = write_trace(args.out, profile=args.profile, jobs=args.jobs, seed=args.seed)
    except OSError as err:
        raise PlannerError(
            f"--out {shorten(str(args.out))}: cannot write ({err.strerror}){full_disk_hint(err)}"
        ) from err
    data = dataclasses.asdict(summary)
    if args.json:
        # ISO 8601 times (with the profile's UTC offset), the path as text
        print(json.dumps(data, indent=2, default=lambda v: getattr(v, "isoformat", v.__str__)()))
    else:
        print("  ".join(f"{k}={v}" for k, v in data.items()))
    return 0
