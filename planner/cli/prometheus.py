"""`planner ingest --prometheus URL --window START..END`: a job history from kube-state-metrics.

Only the flags and the dispatch are here (`planner --help` imports no pandas); the import is
`planner.service.prometheus_import`'s.
"""

import argparse
from typing import TYPE_CHECKING

from planner.core.errors import PlannerError

if TYPE_CHECKING:
    from planner.ingest import IngestOptions, IngestReport
    from planner.store import Connection


def add_prometheus_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "from Prometheus",
        "build the job history from kube-state-metrics series instead of a file "
        "(docs/input-formats.md, section Prometheus)",
    )
    group.add_argument(
        "--prometheus", metavar="URL", help="the Prometheus server, e.g. http://prometheus:9090"
    )
    group.add_argument(
        "--window",
        metavar="START..END",
        help="the history's window: dates or times (UTC unless an offset is given) or epoch "
        "seconds, e.g. 2026-11-01..2026-12-01",
    )
    group.add_argument("--namespace", help="only the pods of this namespace (default: all)")
    group.add_argument(
        "--step",
        type=float,
        metavar="SECONDS",
        help="query step: a pod whose end is not recorded is placed within one step of it "
        "(default: the window / 5,000, at least 60 s)",
    )


def check_source(args: argparse.Namespace) -> None:
    """A file or --prometheus with --window, never both; PlannerError saying what to give."""
    if args.prometheus is None:
        if args.path is None:
            raise PlannerError("give the file to import, or --prometheus URL --window START..END")
        for flag in ("window", "namespace", "step"):
            if getattr(args, flag) is not None:
                raise PlannerError(f"--{flag} goes with --prometheus URL, not with a file")
        return
    if args.path is not None:
        raise PlannerError(f"give a file ({args.path}) or --prometheus, not both")
    if args.format is not None or args.map:
        raise PlannerError("--format and --map read a file's columns; --prometheus has none")
    if args.window is None:
        raise PlannerError("--prometheus needs --window START..END, e.g. 2026-11-01..2026-12-01")


def import_from_prometheus(
    con: "Connection", args: argparse.Namespace, options: "IngestOptions"
) -> "IngestReport":
    from planner.ingest.prometheus import parse_window
    from planner.service.prometheus_import import import_prometheus

    window = parse_window(args.window, args.step)
    return import_prometheus(
        con,
        args.prometheus,
        window,
        options,
        namespace=args.namespace,
        name=args.name,
    )
