"""`planner replay`, `planner fill` and `planner schema`: parsing and printing only."""

import argparse
import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli.db import database
from planner.core.errors import ScenarioError
from planner.core.file_access import LOCAL_FILES
from planner.core.serialize import to_json
from planner.engine.calibration import error_bar_text
from planner.engine.cluster import PLACEMENTS
from planner.engine.fill import MAX_SEEDS, FillResult, PodRequest, fill
from planner.engine.overhead import NETWORK_HELP, STORAGE_HELP
from planner.engine.policy import (
    ADMISSION_HELP,
    ADMISSIONS,
    MAX_SIMULATED_S,
    PLACEMENT_HELP,
    QUEUEING_HELP,
    QUEUEINGS,
)
from planner.engine.scenario import ClusterSpec, OverheadSpec, PolicySpec, Scenario
from planner.engine.summary import PoolSharing, ReplayReport, ReplaySummary, Stats
from planner.engine.wait_scope import ALL_JOBS, GPU_JOBS, WAIT_SCOPE_HELP, check_wait_scope
from planner.engine.waits import WAIT_REASONS

_SEED_RANGE = re.compile(r"\s*(-?\d{1,18})\s*-\s*(-?\d{1,18})\s*")
_BIN = re.compile(r"\s*(\d{1,12}(?:\.\d{1,6})?)\s*([smhd]?)\s*", re.IGNORECASE)
_UNIT_S = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
AUTO_BIN = 0.0
"""`--timeline` without a width: the engine picks the bin."""
_SHOWN_CHARS = 40

if TYPE_CHECKING:
    from planner.ingest import IngestOptions, IngestReport

ReadOptions = Callable[[argparse.Namespace], "IngestOptions"]


def add_commands(
    sub: Any, read_options: Callable[[argparse.ArgumentParser], None], options: ReadOptions
) -> None:
    replay = sub.add_parser(
        "replay",
        help="replay a trace through the embedded scheduler on a cluster",
        description=_choices_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    replay.add_argument(
        "trace", nargs="?", metavar="TRACE", help="job history file or stored trace id"
    )
    _cluster_flags(replay)
    replay.add_argument("--admission", choices=ADMISSIONS)
    replay.add_argument("--placement", choices=PLACEMENTS)
    replay.add_argument("--queueing", choices=QUEUEINGS)
    replay.add_argument("--seed", type=int)
    replay.add_argument("--estimate-factor", type=float, help="backfill estimate = run time x this")
    replay.add_argument(
        "--pod-timeout-s", type=float, help="pod admission: release partial jobs after"
    )
    replay.add_argument("--horizon-s", type=float, help="stop the replay at this time")
    replay.add_argument(
        "--scenario", type=Path, metavar="FILE.yaml", help="scenario file; flags override it"
    )
    replay.add_argument(
        "--schedule-out", type=Path, metavar="FILE.csv", help="write one row per job run"
    )
    replay.add_argument(
        "--queues", type=Path, metavar="FILE.yaml", help="Kueue or Volcano YAML (queues)"
    )
    replay.add_argument("--network", choices=tuple(NETWORK_HELP), help="container network class")
    replay.add_argument("--storage", choices=tuple(STORAGE_HELP), help="storage class")
    replay.add_argument(
        "--timeline",
        nargs="?",
        const=AUTO_BIN,
        type=bin_width,
        metavar="BIN",
        help="include the timeline in --json, in bins of BIN (900, 15m, 1h, 1d; default: "
        "about 400 bins over the trace)",
    )
    replay.add_argument(
        "--waits", default=GPU_JOBS, metavar="SCOPE", type=_wait_scope, help=WAIT_SCOPE_HELP
    )
    read_options(replay)
    replay.set_defaults(run=lambda args: _replay(args, options(args)))

    stress = sub.add_parser("fill", help="how full can the cluster get? (the FGD study's protocol)")
    stress.add_argument("trace", metavar="TRACE", help="pod or job list file, or stored trace id")
    stress.add_argument("--nodes", required=True, type=Path, metavar="NODE_LIST_FILE")
    stress.add_argument("--placement", required=True, choices=PLACEMENTS)
    stress.add_argument("--seeds", default="42-51", help="e.g. 42-51 or 1,2,3 (default 42-51)")
    stress.add_argument("--until", type=float, default=1.3, help="arrived GPU demand / capacity")
    read_options(stress)
    stress.set_defaults(run=lambda args: _fill(args, options(args)))

    schema = sub.add_parser("schema", help="print the JSON schema of scenario files")
    schema.set_defaults(run=_schema)


def _cluster_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--nodes",
        metavar="NODE_LIST_FILE|N",
        help="a node list file, or a node count with --gpus-per-node",
    )
    parser.add_argument("--gpus-per-node", type=int, default=8)
    parser.add_argument("--gpu-type", default="A100")
    parser.add_argument(
        "--cpu-per-node", type=float, default=0.0, help="cores per node (0 = not limited)"
    )
    parser.add_argument(
        "--mem-gib-per-node", type=float, default=0.0, help="GiB per node (0 = not limited)"
    )


def _replay(args: argparse.Namespace, options: "IngestOptions") -> int:
    from planner.engine.metrics import summarize
    from planner.service.replay import run_scenario, write_schedule

    scenario = _scenario(args)
    with database(args.db) as con:
        run = run_scenario(
            con, scenario, options, files=LOCAL_FILES, timeline_bin_s=args.timeline or None
        )
    result = run.result
    for note in run.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.schedule_out:
        write_schedule(result, args.schedule_out)
    summary = summarize(result, timeline=args.timeline is not None, wait_scope=args.waits)
    calibration = scenario.calibration.error_bar() if scenario.calibration else None
    report = ReplayReport(run.trace_id, run.cluster_name, summary, calibration)
    if args.json:
        print(json.dumps(to_json(report), indent=2))
    else:
        print("\n".join(replay_lines(report)))
    return 0


def bin_width(text: str) -> float:
    """`--timeline BIN`: seconds (900), or a number with s, m, h or d (15m, 1h, 1d)."""
    return duration_s(text, "a bin width")


def duration_s(text: str, what: str = "a duration") -> float:
    """A flag's seconds: a number (900), or a number with s, m, h or d (15m, 1h, 1d)."""
    match = _BIN.fullmatch(text)
    seconds = float(match[1]) * _UNIT_S[match[2].lower()] if match else 0.0
    if not 0 < seconds <= MAX_SIMULATED_S:
        shown = text if len(text) <= _SHOWN_CHARS else f"{text[:_SHOWN_CHARS]}…"
        raise argparse.ArgumentTypeError(
            f"expected {what} above 0 such as 900 (seconds), 15m, 1h or 1d, got '{shown}'"
        )
    return seconds


def _wait_scope(text: str) -> str:
    try:
        return check_wait_scope(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from err


def _scenario(args: argparse.Namespace) -> Scenario:
    from planner.service.replay import load_scenario

    scenario = load_scenario(args.scenario) if args.scenario else Scenario()
    update: dict[str, Any] = {}
    if args.trace:
        update["trace"] = args.trace
    if args.nodes:
        update["cluster"] = _cluster_from_flags(args)
    if args.network or args.storage:
        current = scenario.overhead or OverheadSpec()
        update["overhead"] = OverheadSpec(
            network=args.network or current.network, storage=args.storage or current.storage
        )
    if args.queues:
        notes = _queues_file(args.queues, update)
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    flags = {
        "admission": args.admission,
        "placement": args.placement,
        "queueing": args.queueing,
        "seed": args.seed,
        "estimate_factor": args.estimate_factor,
        "pod_timeout_s": args.pod_timeout_s,
        "horizon_s": args.horizon_s,
    }
    changed = {k: v for k, v in flags.items() if v is not None}
    if changed:
        update["policy"] = PolicySpec.model_validate(scenario.policy.model_dump() | changed)
    return scenario.model_copy(update=update)


def _queues_file(path: Path, update: dict[str, Any]) -> list[str]:
    """`--queues`: a Kueue or a Volcano YAML replaces the scenario's queues of either kind."""
    from planner.ingest.kueue_yaml import read_kueue
    from planner.ingest.volcano_yaml import looks_like_volcano, read_volcano

    if looks_like_volcano(path):
        update["volcano"], notes = read_volcano(path)
        update["queues"] = None
    else:
        update["queues"], notes = read_kueue(path)
        update["volcano"] = None
    return notes


def _cluster_from_flags(args: argparse.Namespace) -> ClusterSpec:
    value = str(args.nodes)
    if value.isdigit():
        pool = {
            "gpu_type": args.gpu_type if args.gpus_per_node else "",
            "gpus_per_node": args.gpus_per_node,
            "cpu": args.cpu_per_node,
            "mem_gib": args.mem_gib_per_node,
            "count": int(value),
        }
        return ClusterSpec.model_validate({"pools": [pool]})
    if not Path(value).is_file():
        raise ScenarioError(f"--nodes {value}: no such node list file (or give a node count)")
    return ClusterSpec(node_list=value)


def _wait_lines(s: ReplaySummary) -> list[str]:
    """The headline waits (of the scope asked for), and all jobs' when they differ."""
    wait, scope = s.wait_s, s.wait_scope
    every = s.wait_s_by_scope[ALL_JOBS]
    shown = {GPU_JOBS: "GPU jobs", ALL_JOBS: "all jobs"}.get(scope, scope.replace(":", " "))
    lines = [f"wait (s) of {shown} ({wait.jobs:,} started): " + _stats_text(wait)]
    if scope != ALL_JOBS and every.jobs != wait.jobs:
        lines.append(f"wait (s) of all jobs ({every.jobs:,} started): " + _stats_text(every))
    return lines


def _stats_text(wait: Stats) -> str:
    if not wait.jobs:
        return "none started"
    shown = (
        ("mean", wait.mean),
        ("p50", wait.p50),
        ("p90", wait.p90),
        ("p95", wait.p95),
        ("p99", wait.p99),
        ("max", wait.max),
    )
    return "  ".join(f"{k} {v:,.0f}" for k, v in shown if v is not None)


def replay_lines(report: ReplayReport) -> list[str]:
    """`planner replay`'s text: what the run was, then its figures."""
    s = report.summary
    policy = s.policy
    held = s.idle_gpu_hours_held_by_partial_gangs
    lines = [
        f"trace {report.trace_id} on {report.cluster} ({s.gpu_capacity:,} GPUs): "
        f"{policy.admission} admission, {policy.placement}, {policy.queueing}",
        f"jobs {s.jobs:,}: completed {s.completed:,}, unschedulable {s.unschedulable:,}, "
        f"unfinished {s.unfinished:,}, withdrawn {s.withdrawn:,} (observed "
        f"{s.withdrawn_observed:,}; {s.withdrawn_after_start:,} started, then deleted)",
        f"horizon {s.horizon_s / 86400:,.2f} days; allocated "
        f"{s.allocated_gpu_hours:,.1f} GPU-h (useful work of completed jobs "
        f"{s.useful_gpu_hours:,.1f}); utilization {_pct(s.utilization)}",
    ]
    lines.extend(_wait_lines(s))
    if report.calibration is not None:
        lines.append(error_bar_text(report.calibration))
    waiting = {k: v for k, v in s.waiting_gpu_hours_by_reason.items() if v}
    if waiting:
        lines.append("GPU-hours waiting, by reason:")
        lines.extend(f"  {k:<16} {v:>14,.1f}  ({WAIT_REASONS[k]})" for k, v in waiting.items())
    if held:
        lines.append(f"GPU-hours held idle by partly placed jobs: {held:,.1f}")
    lines.extend(_stop_lines(s))
    for reason, count in s.unschedulable_by_reason.items():
        lines.append(f"unschedulable: {count:,} jobs, {reason}")
    unmapped = s.queues.unmapped_queues if s.queues else {}
    if unmapped:
        named = ", ".join(f"{q or '(none)'} ({n:,})" for q, n in unmapped.items())
        lines.append(f"queue values no LocalQueue maps (default ClusterQueue, if any): {named}")
    lines.extend(_sharing_lines(s.sharing or {}))
    return lines


def _stop_lines(s: ReplaySummary) -> list[str]:
    """Why the replay stopped early, if it did."""
    if s.deadlock and not s.livelock:  # a livelock ends in jobs stuck: say the cause
        d = s.deadlock
        return [
            f"DEADLOCK at {d.at_s:,.0f} s: {d.jobs_waiting:.0f} jobs wait forever while "
            f"{d.gpus_held_idle:,.1f} GPUs are held by partly placed jobs"
        ]
    if s.livelock:
        k = s.livelock
        return [
            f"LIVELOCK: from {k.since_s:,.0f} s preemptions kept undoing all work and nothing "
            f"completed; the replay stopped at {k.at_s:,.0f} s with {k.jobs_waiting:.0f} "
            f"jobs waiting and {k.jobs_running:.0f} running (checkpoint jobs, set a minimum "
            "run time, or preempt less)"
        ]
    return []


def _sharing_lines(sharing: Mapping[str, PoolSharing]) -> list[str]:
    lines: list[str] = []
    for pool, p in sharing.items():
        lines.append(f"{pool}: {p.mode}; {p.gpus:,} GPUs advertised as {p.advertised:,} devices")
        lines.append(
            f"  requested {_pct(p.requested_share)} of its GPU-hours, granted "
            f"{p.granted_gpu_hours:,.1f} GPU-h, GPUs occupied {_pct(p.occupied_share)}"
            + (f", {p.relayouts:,} re-layouts" if p.relayouts else "")
            + (
                f", {p.slowdown_gpu_hours:,.1f} GPU-h lost to slowdown or re-layout"
                if p.slowdown_gpu_hours
                else ""
            )
        )
    return lines


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _fill(args: argparse.Namespace, options: "IngestOptions") -> int:
    from planner.service.replay import read_nodes

    seeds = parse_seeds(args.seeds)
    pods, report = _pods(args.trace, options, args.db)
    nodes, notes = read_nodes(args.nodes)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    result = fill(pods, nodes, placement=args.placement, seeds=seeds, until=args.until)
    if args.json:
        pod_file = {} if report is None else {"pod_file": _pod_file(report)}
        print(json.dumps(result.as_dict() | pod_file, indent=2))
        return 0
    if report is not None and report.rejected:
        # stderr, like the node list's notes: stdout stays the table scripts read
        print("\n".join(_rejection_summary(report)), file=sys.stderr)
    print(
        f"{result.pods_in_trace:,} pods on {len(nodes):,} nodes ({result.gpu_capacity:,.0f} GPUs), "
        f"{args.placement}, {len(seeds)} seeds"
    )
    print("\n".join(_fill_table(result)))
    return 0


def _fill_table(result: FillResult) -> list[str]:
    """The curve at every 10% of arrived demand: allocation and FGD fragmentation, as % of
    the cluster's GPUs, in GPUs, and as a share of the idle GPUs (the study's frag ratio)."""
    lines = [
        f"{'arrived %':>10} {'allocated %':>12} {'fragmented %':>13} {'frag GPUs':>10} "
        f"{'frag/idle %':>12}"
    ]
    for point in result.points[::10]:
        frag_gpus = point.frag_gpu_pct / 100 * result.gpu_capacity
        lines.append(
            f"{point.arrived_pct:>10} {point.gpu_allocation_pct:>12.2f} {point.frag_gpu_pct:>13.2f}"
            f" {frag_gpus:>10,.1f} {100 * point.frag_ratio:>12.2f}"
        )
    return lines


def _pods(
    ref: str, options: "IngestOptions", db: str | None
) -> tuple[list[PodRequest], "IngestReport | None"]:
    """The pods of a file (with the reader's report of rows it refused) or of a stored trace."""
    from planner.service.fill import file_pods, trace_pods

    if Path(ref).is_file():
        return file_pods(Path(ref), options)
    with database(db) as con:
        return trace_pods(con, ref), None


def _rejection_summary(report: "IngestReport") -> list[str]:
    """The rows of the pod file that were not read, as `planner ingest` lists them."""
    head = (
        f"{report.file}: rows {report.rows:,}  read {report.accepted:,}  "
        f"rejected {report.rejected:,} (not in the fill)"
    )
    return [head, *report.rejection_lines()]


def _pod_file(report: "IngestReport") -> dict[str, object]:
    return report.model_dump(
        include={"file", "format", "rows", "accepted", "rejected", "rejected_by_reason", "examples"}
    )


def parse_seeds(text: str) -> Sequence[int]:
    """`--seeds`: a range `42-51` (both ends included) or a list `1,2,3`; at most MAX_SEEDS,
    counted before any list is built."""
    shown = text if len(text) <= _SHOWN_CHARS else f"{text[:_SHOWN_CHARS]}…"
    if match := _SEED_RANGE.fullmatch(text):
        low, high = int(match[1]), int(match[2])
        if high - low + 1 > MAX_SEEDS:
            raise ScenarioError(f"--seeds gives more than {MAX_SEEDS} seeds ({shown}); use fewer")
        if high < low:
            raise ScenarioError(f"--seeds {shown} is empty; write the lower seed first")
        return range(low, high + 1)
    parts = text.split(",", MAX_SEEDS + 1)
    if len(parts) > MAX_SEEDS and any(p.strip() for p in parts[MAX_SEEDS:]):
        raise ScenarioError(f"--seeds gives more than {MAX_SEEDS} seeds ({shown}); use fewer")
    try:
        return tuple(int(part) for part in parts if part.strip())
    except ValueError as err:
        raise ScenarioError(
            f"--seeds expects a range like 42-51 or a list like 1,2,3, got '{shown}'"
        ) from err


def _schema(_: argparse.Namespace) -> int:
    print(json.dumps(Scenario.model_json_schema(), indent=2))
    return 0


def _choices_text() -> str:
    parts = ["admission:"]
    parts += [f"  {k:<12} {v}" for k, v in ADMISSION_HELP.items()]
    parts.append("placement:")
    parts += [f"  {k:<12} {v}" for k, v in PLACEMENT_HELP.items()]
    parts.append("queueing:")
    parts += [f"  {k:<12} {v}" for k, v in QUEUEING_HELP.items()]
    parts.append("container overhead of multi-pod jobs (--network, --storage):")
    parts += [f"  {k:<12} {v}" for k, v in {**NETWORK_HELP, **STORAGE_HELP}.items()]
    parts.append("why jobs waited (GPU-hours by reason):")
    parts += [f"  {k:<14} {v}" for k, v in WAIT_REASONS.items()]
    return "\n".join(parts)
