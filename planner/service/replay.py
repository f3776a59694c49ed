"""Edge of the replay: find the trace and cluster a scenario names, run it, write schedules.

Traces come from the store (a file is imported first, so a replay of a file and of its
stored id are the same replay); node lists are read from their files. Which files a scenario
may name is the caller's `FileAccess` (the CLI: any local file; the app: data/traces only).
The engine itself never sees a file or a connection.
"""

import csv
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from planner.core import atomic_file
from planner.core.config import ClusterConfig, NodeSpec
from planner.core.errors import ScenarioError, TraceError
from planner.core.file_access import FileAccess
from planner.core.model import Job
from planner.core.spreadsheet_text import safe_row
from planner.core.validation import problems_text, validated
from planner.core.yaml_text import load_yaml, read_yaml_text
from planner.engine import ReplayResult, simulate
from planner.engine.metrics import waited_s
from planner.engine.policy import Policy
from planner.engine.scenario import ClusterSpec, MigSpec, Scenario, SharingSpec
from planner.engine.sharing import mode_label
from planner.engine.volcano_queues import to_queues, volcano_notes
from planner.engine.waits import REASON_CODES
from planner.ingest import NODE_FORMATS, IngestOptions, sniff
from planner.ingest.kubectl import kubectl_sharing, looks_like_kubectl, read_kubectl_nodes
from planner.ingest.nodes import read_cluster
from planner.ingest.notes import ingest_note
from planner.service.importer import import_file
from planner.service.job_rows import load_jobs
from planner.store import Connection
from planner.store.trace_stats import find_trace

SCHEDULE_COLUMNS = (
    "job_id",
    "queue",
    "submit_s",
    "start_s",
    "end_s",
    "duration_s",
    "gpus",
    "cpu",
    "mem_gib",
    "status",
    "placement",
    "wait_s",
    "wait_reasons",
    "unschedulable_reason",
)


@dataclass(frozen=True, slots=True)
class ReplayRun:
    """A finished replay and what it ran on."""

    trace_id: str
    cluster_name: str
    result: ReplayResult
    notes: list[str]


def load_scenario(path: Path, files: FileAccess | None = None) -> Scenario:
    """Read a scenario YAML; by default (the CLI) relative file paths in it are made relative
    to the YAML file, else they are checked against `files` and kept as written."""
    document = load_yaml(read_yaml_text(path), str(path))
    scenario = validated(Scenario, document)
    return with_files(scenario, files or FileAccess.local(path.parent))


def with_files(scenario: Scenario, files: FileAccess) -> Scenario:
    """The scenario with its file references checked against `files`; local ones relative to
    `files.base` (the scenario's folder) are made usable from anywhere, the app's are kept
    as written (they are resolved again when read).

    Raises:
        ScenarioError: `trace:` or `cluster.node_list:` leads outside what `files` allows.
    """
    cluster = scenario.cluster
    if not files.is_local:
        if scenario.trace:
            files.inside(scenario.trace, "trace")
        if cluster and cluster.node_list:
            files.inside(cluster.node_list, "cluster.node_list")
        return scenario
    update: dict[str, object] = {}
    if scenario.trace and (found := files.file(scenario.trace, "trace")) is not None:
        update["trace"] = str(found)
    if cluster and cluster.node_list:
        path = files.inside(cluster.node_list, "cluster.node_list")
        update["cluster"] = cluster.model_copy(update={"node_list": str(path)})
    return scenario.model_copy(update=update) if update else scenario


def run_scenario(
    con: Connection,
    scenario: Scenario,
    options: IngestOptions | None = None,
    progress: Callable[[float], None] | None = None,
    *,
    files: FileAccess,
    timeline_bin_s: float | None = None,
) -> ReplayRun:
    """Replay the scenario's trace on its cluster; `progress` goes to `engine.simulate`;
    `files` says which files the scenario may name; `timeline_bin_s` (None: chosen from the
    trace's span) bins the timeline."""
    ready = prepare(con, scenario, options, files=files)
    result = simulate(
        ready.jobs, ready.nodes, ready.policy, progress, timeline_bin_s=timeline_bin_s
    )
    return ReplayRun(ready.trace_id, ready.cluster_name, result, ready.notes)


@dataclass(frozen=True, slots=True)
class ReplayInputs:
    """A scenario's trace, cluster and policy, read and checked: what a replay runs on."""

    trace_id: str
    cluster_name: str
    jobs: list[Job]
    nodes: list[NodeSpec]
    policy: Policy
    notes: list[str]


def prepare(
    con: Connection, scenario: Scenario, options: IngestOptions | None, *, files: FileAccess
) -> ReplayInputs:
    """Find the scenario's trace (importing a file first) and read its cluster."""
    if scenario.trace is None:
        raise ScenarioError("no trace: give TRACE (a file or a stored trace id) or `trace:`")
    if scenario.cluster is None:
        raise ScenarioError(
            "no cluster: give --nodes NODE_LIST_FILE, --nodes N --gpus-per-node G, "
            "or `cluster:` in the scenario"
        )
    name, nodes, notes = cluster_nodes(scenario.cluster, files=files)
    trace_id = resolve_trace(con, scenario.trace, options, files=files)
    scenario, sharing_notes = with_node_sharing(scenario, files=files)
    installed = {gpu_type.upper() for _, gpu_type, _, _, _ in nodes}
    sharing_notes += [
        ingest_note("sharing_no_gpu", gpu_type=s.gpu_type)
        for s in scenario.sharing
        if s.gpu_type != "*" and s.gpu_type.upper() not in installed
    ]
    notes = [*notes, *sharing_notes]
    if scenario.volcano is not None:
        scenario, volcano = with_volcano_queues(scenario, nodes)
        notes = [*notes, *volcano]
    return ReplayInputs(
        trace_id, name, load_jobs(con, trace_id), nodes, scenario.to_policy(), notes
    )


def with_volcano_queues(scenario: Scenario, nodes: list[NodeSpec]) -> tuple[Scenario, list[str]]:
    """The scenario with its Volcano queues as ClusterQueues sized to these nodes, and notes
    on what of the Volcano set-up is not modelled."""
    assert scenario.volcano is not None
    gpus_by_type: dict[str, float] = {}
    for _, gpu_type, gpus, _, _ in nodes:
        gpus_by_type[gpu_type] = gpus_by_type.get(gpu_type, 0.0) + gpus
    queues = to_queues(scenario.volcano, gpus_by_type)
    notes = volcano_notes(scenario.volcano, gpus_by_type)
    policy = scenario.policy.model_copy(
        update={"enqueue_overcommit": scenario.volcano.overcommit_factor}
    )
    update = {"queues": queues, "volcano": None, "policy": policy}
    return scenario.model_copy(update=update), notes


def with_node_sharing(scenario: Scenario, *, files: FileAccess) -> tuple[Scenario, list[str]]:
    """The scenario with the MIG layouts a kubectl node list shows, for GPU types its own
    `sharing` does not set; and notes saying what was read."""
    cluster = scenario.cluster
    if cluster is None or not cluster.node_list:
        return scenario, []
    path = files.file(cluster.node_list, "cluster.node_list")
    if path is None or not looks_like_kubectl(path):
        return scenario, []
    with _quoting_nothing(files, path):
        setups, notes = kubectl_sharing(path)
    given = {s.gpu_type.upper() for s in scenario.sharing}
    added = [
        SharingSpec(gpu_type=gpu_type, mig=MigSpec(strategy=strategy, layout=layout or None))
        for gpu_type, (strategy, layout) in setups.items()
        if gpu_type.upper() not in given
    ]
    notes += [
        ingest_note("sharing_read", gpu_type=s.gpu_type, mode=mode_label(s.to_mode()))
        for s in added
    ]
    return scenario.model_copy(update={"sharing": (*scenario.sharing, *added)}), notes


def resolve_trace(
    con: Connection,
    ref: str,
    options: IngestOptions | None = None,
    *,
    files: FileAccess,
) -> str:
    """A stored trace id for `ref`: a file `files` allows is imported (once), else an id or
    name."""
    path = files.file(ref, "trace")
    if path is None:
        return find_trace(con, ref)
    with _quoting_nothing(files, path):
        report = import_file(con, path, options or IngestOptions())
    if report.trace_id is None:
        raise TraceError("this is a node list, not a job history", file=path.name).coded(
            "node_list_not_trace", file=path.name
        )
    return report.trace_id


def cluster_nodes(spec: ClusterSpec, *, files: FileAccess) -> tuple[str, list[NodeSpec], list[str]]:
    """(name, nodes, notes on what the node list holds that is not modelled)."""
    if spec.node_list:
        path = files.file(spec.node_list, "cluster.node_list")
        if path is None:
            raise ScenarioError(
                f"cluster.node_list: the node list {spec.node_list} does not exist"
            ).coded("node_list_missing", file=spec.node_list)
        with _quoting_nothing(files, path):
            nodes, notes = read_nodes(path)
        return Path(spec.node_list).stem, nodes, notes
    config = ClusterConfig(pools=spec.pools, nodes=spec.nodes)
    return "pools", config.node_specs(), []


@contextmanager
def _quoting_nothing(files: FileAccess, path: Path) -> Iterator[None]:
    """Outside the CLI, a file that cannot be read is named but never quoted (readers' errors
    may show a header line)."""
    try:
        yield
    except TraceError as err:
        if files.is_local:
            raise
        raise TraceError("cannot be read as a job history or node list", file=path.name).coded(
            "unreadable_trace_or_nodes", file=path.name
        ) from err


def load_nodes(path: Path, options: IngestOptions | None = None) -> list[NodeSpec]:
    """Every usable node of a node list file (openb or generic)."""
    if not path.is_file():
        raise ScenarioError(f"node list {path} does not exist")
    return read_nodes(path, options)[0]


def read_nodes(
    path: Path, options: IngestOptions | None = None
) -> tuple[list[NodeSpec], list[str]]:
    """A node list's nodes and notes on what was not modelled (kubectl JSON or a table, its
    columns found by name or given by `options.mapping`)."""
    if not path.is_file():
        raise ScenarioError(f"node list {path} does not exist")
    if looks_like_kubectl(path):
        nodes, notes = read_kubectl_nodes(path)
        return ClusterConfig(nodes=tuple(nodes)).node_specs(), notes
    options = options or IngestOptions()
    source, fmt = sniff(path, options)
    if fmt not in NODE_FORMATS:
        raise TraceError(f"this is a job history ({fmt}), not a node list", file=source.name).coded(
            "jobs_not_node_list", file=source.name, format=fmt
        )
    cluster, report = read_cluster(source, fmt, options.mapping)
    if report.rejected and not cluster.nodes:
        raise TraceError("no usable node in the node list", file=source.name).coded(
            "no_usable_node", file=source.name, rejected=report.rejected
        )
    notes = [
        ingest_note(
            "node_row_skipped",
            file=source.name,
            row=example.row,
            reason=reason,
            message=example.message,
        )
        for reason, examples in report.examples.items()
        for example in examples
    ]
    if report.rejected > len(notes):
        notes.append(ingest_note("node_rows_skipped", file=source.name, count=report.rejected))
    return cluster.node_specs(), notes


def schedule_rows(result: ReplayResult) -> Iterator[tuple[object, ...]]:
    """One row per run segment, in `SCHEDULE_COLUMNS` order (submit order of jobs)."""
    for i, job in enumerate(result.jobs):
        queue = result.cluster_queue[i] if result.cluster_queue is not None else job.queue
        for begin, stop, placed in result.segments.get(i, ()):
            yield _row(result, i, queue, (begin, stop, "preempted", placed), ("", "", ""))
        start, end = result.start_s[i], result.end_s[i]
        waited = result.wait_by_reason[i]
        reasons = ";".join(
            f"{code}:{_number(s)}" for code, s in zip(REASON_CODES, waited or (), strict=False) if s
        )
        wait = _number(waited_s(result, i)) if start is not None else ""
        run = (start, end, result.status[i], result.placement[i])
        yield _row(result, i, queue, run, (wait, reasons, result.unschedulable_reason.get(i, "")))


def _row(
    result: ReplayResult,
    i: int,
    queue: str,
    run: tuple[float | None, float | None, str, tuple[tuple[int, float], ...]],
    waits: tuple[str, str, str],
) -> tuple[object, ...]:
    job, node_ids = result.jobs[i], result.node_ids
    start, end, status, placed = run
    return (
        job.job_id,
        queue,
        _number(job.submit_s),
        _number(start) if start is not None else "",
        _number(end) if end is not None else "",
        _number(job.duration_s),
        _number(job.total_gpus),
        _number(job.pods * job.cpu),
        _number(job.pods * job.mem_gib),
        status,
        ";".join(f"{node_ids[n]}:{_number(g)}" for n, g in placed),
        *waits,
    )


def write_schedule(result: ReplayResult, path: Path) -> int:
    try:
        with atomic_file.opened(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(SCHEDULE_COLUMNS)
            rows = 0
            for row in schedule_rows(result):
                writer.writerow(safe_row(row))
                rows += 1
    except OSError as err:
        raise ScenarioError(f"cannot write the schedule to {path}: {err.strerror}") from err
    return rows


def _number(value: float) -> str:
    """Integers without a decimal point, others to the microsecond / micro-GPU."""
    if value == int(value):
        return str(int(value))
    return f"{value:.6f}".rstrip("0").rstrip(".")


def validation_text(err: ValidationError) -> str:
    """pydantic's problems as one line: `field.path: message; ...`."""
    return problems_text(err)
