"""Stream an export into the store: one transaction, nothing half-written on failure.

Chunks from `planner.ingest` land in temporary staging tables; checks that need the whole
file (duplicate job ids, Slurm steps without their job, the trace's start and end) run as
SQL at the end, then the canonical jobs are written with times relative to the trace start.
The statements are `planner.store.traces`'; this module reads the file and keeps the report.
A database problem on the way is a `StoreError` that names the file being imported.
"""

import datetime as dt
import hashlib
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from planner.core.errors import TraceError
from planner.ingest import (
    IngestOptions,
    IngestReport,
    JobStream,
    ReportBuilder,
    Source,
    jobs_from,
    sniff,
)
from planner.ingest.formats import NODE_FORMATS
from planner.ingest.limits import shorten
from planner.ingest.nodes import read_cluster
from planner.ingest.normalize import JOB_COLUMNS
from planner.ingest.notes import ingest_note
from planner.ingest.report import EXAMPLES_PER_REASON
from planner.store import Connection, doing, transaction
from planner.store import traces as stored
from planner.store.traces import ClusterRow, TraceRow

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_IMPORT_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def trace_name(path: Path) -> str:
    """A file's name without its data and compression suffixes: jobs.csv.gz -> jobs.

    Control characters (a file name may hold a line break) are left out.
    """
    name = _CONTROL.sub("", path.name)
    for suffix in (".gz", ".csv", ".tsv", ".txt", ".xlsx"):
        name = name.removesuffix(suffix)
    return name or _CONTROL.sub("", path.name) or "trace"


def checked_name(name: str | None) -> str | None:
    """A name given for a trace or cluster, refused if it holds control characters."""
    if name is not None and _CONTROL.search(name):
        raise TraceError(
            f"the name '{shorten(name)}' holds control characters (shown escaped); give a "
            "name of printable characters"
        )
    return name


def trace_id_for(sha256: str, options: IngestOptions) -> str:
    """Same bytes read the same way give the same id; that is how re-imports are recognised."""
    return hashlib.sha256(f"{sha256}\n{options.identity()}".encode()).hexdigest()[:12]


def import_file(
    con: Connection, path: Path, options: IngestOptions, name: str | None = None
) -> IngestReport:
    """Import a job history or a node list, whichever the file is."""
    name = checked_name(name)
    with doing(f"import {path.name} into the planner database"):
        source, fmt = sniff(path, options)
        if fmt in NODE_FORMATS:
            return _store_cluster(con, source, fmt, options, name)
        return import_trace(con, jobs_from(source, fmt, options), name)


def distinct_name(con: Connection, name: str, options: IngestOptions) -> tuple[str, list[str]]:
    """`name`, or when a stored trace has it already (the same file read with another time
    zone, mapping or format), `name` with what differs, so a name finds one trace; the note
    saying so."""
    taken = stored.trace_options_by_name(con)
    if name not in taken:
        return name, []
    ours = json.loads(options.identity())
    theirs = json.loads(taken[name])
    differs = ", ".join(f"{k}={ours[k]}" for k in ours if ours[k] != theirs.get(k))
    renamed, k = (f"{name} ({differs})", 2) if differs else (f"{name} (2)", 3)
    while renamed in taken:
        renamed, k = f"{name} ({differs + ', ' if differs else ''}{k})", k + 1
    differs = differs or "contents"
    return renamed, [ingest_note("trace_renamed", name=name, differs=differs, renamed=renamed)]


def import_trace(con: Connection, stream: JobStream, name: str | None = None) -> IngestReport:
    name = checked_name(name)
    trace_id = trace_id_for(stream.source.sha256, stream.options)
    with doing(f"import {stream.name} into the planner database"), _importing(trace_id):
        known = stored.stored_report(con, trace_id)
        if known:
            return _already_imported(known)
        with transaction(con):
            report = _stream_into_staging(con, stream, trace_id)
            wanted = name or trace_name(stream.source.path)
            named, said = distinct_name(con, wanted, stream.options)
            report.warnings.extend(said)
            _write_trace(con, stream, report, named)
        stored.drop_staging(con)
    return report


@contextmanager
def _importing(trace_id: str) -> Iterator[None]:
    """Held while this process imports `trace_id`: two sessions of the app importing the
    same file (the bundled sample on a fresh server) take turns, and the second finds the
    first's trace instead of failing on its key. (Another process cannot write meanwhile:
    DuckDB locks the file.)"""
    with _LOCKS_GUARD:
        lock = _IMPORT_LOCKS.setdefault(trace_id, threading.Lock())
    with lock:
        yield


def _already_imported(report_json: str) -> IngestReport:
    report = IngestReport.model_validate_json(report_json)
    return report.model_copy(update={"already_imported": True})


def _stream_into_staging(con: Connection, stream: JobStream, trace_id: str) -> IngestReport:
    stored.start_staging(con)
    report = stream.new_report()
    report.trace_id = trace_id
    builder = ReportBuilder(report)
    absolute = relative = 0
    for result, steps in stream.chunks():
        stored.stage_jobs(con, _nan_as_null(result.jobs.loc[:, list(JOB_COLUMNS)]))
        stored.store_rejected(con, trace_id, result.rejected)
        stored.stage_steps(con, steps)
        builder.add_rejected(result.rejected)
        builder.add_flags(result.flags)
        absolute += result.absolute_times
        relative += result.relative_times
    if absolute and relative:
        raise TraceError(
            f"{absolute:,} jobs have dates but {relative:,} have seconds from the "
            "trace start; use one kind of time for the whole file",
            file=stream.name,
        )
    report.time_base = "absolute" if absolute else "relative"
    # orphans first: a step's job is found by its id, which a duplicate's first row keeps
    for found in (
        stored.reject_orphans(con, trace_id, EXAMPLES_PER_REASON),
        stored.reject_duplicates(con, trace_id, EXAMPLES_PER_REASON),
    ):
        builder.add_counted(found.count, found.examples)
    report.steps_folded = stored.staged_steps(con) - int(builder.reasons.get("orphan_step", 0))
    report.blank_lines = stream.problems.blank_lines
    report = builder.finish(accepted=stored.staged_jobs(con))
    if report.rows == 0:
        raise TraceError("the file has a header but no job rows", file=stream.name)
    return report


def _write_trace(con: Connection, stream: JobStream, report: IngestReport, name: str) -> None:
    """The staged jobs as the trace's jobs, relative to its start (0 without dates)."""
    window = stored.staged_window(con)
    if stream.window is not None:  # a queried window: pods before or after it are censored
        window = stored.Window(*stream.window)
    absolute = report.time_base == "absolute"
    origin = window.first if absolute else 0.0
    window = stored.Window(window.first, max(window.last, origin))
    stored.write_jobs(con, report.trace_id, origin, window)
    _count_outcomes(con, report)
    report.horizon_s = max(window.last - origin, 0.0)
    start = dt.datetime.fromtimestamp(origin, tz=dt.UTC) if absolute else None
    if start is not None:
        report.start_utc = start.isoformat()
    row = TraceRow(
        trace_id=report.trace_id,
        name=name,
        source_file=stream.name,
        source_format=stream.format,
        content_sha256=stream.source.sha256,
        options_json=stream.options.identity(),
        time_base=report.time_base,
        start_utc=None if start is None else start.replace(tzinfo=None),
        timezone=stream.options.tz,
        horizon_s=report.horizon_s,
        jobs=report.accepted,
        rows_read=report.rows,
        gpu_hours=report.gpu_hours,
        report_json=report.model_dump_json(),
    )
    stored.write_trace(con, row)


def _count_outcomes(con: Connection, report: IngestReport) -> None:
    """GPU-hours, censoring and withdrawal counts, and flags, as stored."""
    totals = stored.job_totals(con, report.trace_id)
    report.gpu_hours, report.gpu_total = totals.gpu_hours, totals.gpu_total
    report.busy_gpu_hours = totals.busy_gpu_hours
    report.busy_known_gpu_hours = totals.known_gpu_hours
    report.running_at_start = totals.running_at_start
    report.running_at_end = totals.running_at_end
    report.withdrawn = totals.withdrawn
    report.flagged = stored.job_flags(con, report.trace_id)
    report.pending_at_end = report.flagged.get("pending_at_end", 0)


def _nan_as_null(frame: pd.DataFrame) -> pd.DataFrame:
    """DuckDB keeps a float NaN as NaN; the nullable dtype makes it SQL NULL."""
    floats = frame.select_dtypes("float64").columns
    return frame.astype(dict.fromkeys(floats, "Float64"))


def import_cluster(
    con: Connection, path: Path, options: IngestOptions, name: str | None = None
) -> IngestReport:
    """Store a node list as a named cluster; the same file is recognised on re-import."""
    name = checked_name(name)
    with doing(f"import {path.name} into the planner database"):
        source, fmt = sniff(path, options)
        return _store_cluster(con, source, fmt, options, name)


def _store_cluster(
    con: Connection,
    source: Source,
    fmt: str,
    options: IngestOptions,
    name: str | None,
) -> IngestReport:
    cluster_id = trace_id_for(source.sha256, options)
    known = stored.stored_cluster_report(con, cluster_id)
    if known:
        report = IngestReport.model_validate_json(known)
        return report.model_copy(update={"already_imported": True})
    cluster, report = read_cluster(source, fmt, options.mapping)
    report.trace_id = cluster_id
    row = ClusterRow(
        cluster_id=cluster_id,
        name=name or trace_name(source.path),
        source_file=source.name,
        content_sha256=source.sha256,
        nodes=cluster.node_count,
        gpus=sum(cluster.gpus_by_type().values()),
        config_json=cluster.model_dump_json(),
        report_json=report.model_dump_json(),
    )
    with transaction(con):
        stored.write_cluster(con, row)
    return report


def rejected_rows(con: Connection, trace_id: str) -> pd.DataFrame:
    """Every rejected row of a trace with its reason and the original cells (as JSON)."""
    with doing(f"read the rejected rows of trace {trace_id}"):
        return stored.rejected_rows(con, trace_id)
