"""Stream an export into the store: one transaction, nothing half-written on failure.

Chunks from `planner.ingest` land in temporary staging tables; checks that need the whole
file (duplicate job ids, Slurm steps without their job, the trace's start and end) run as
SQL at the end, then the canonical jobs are written with times relative to the trace start.
"""

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import duckdb
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
from planner.store import transaction

_STAGING = """
CREATE OR REPLACE TEMP TABLE staging_jobs (
    row_number BIGINT, job_id VARCHAR, submit_t DOUBLE, duration_s DOUBLE, pods BIGINT,
    gpus DOUBLE, cpu DOUBLE, mem_gib DOUBLE, gpu_types VARCHAR, queue VARCHAR,
    user_name VARCHAR, priority BIGINT, status VARCHAR, start_t DOUBLE, end_t DOUBLE,
    flags VARCHAR);
CREATE OR REPLACE TEMP TABLE staging_steps (row_number BIGINT, parent VARCHAR);
"""
_DUPLICATES = """
WITH ranked AS (
    SELECT row_number, job_id,
           min(row_number) OVER (PARTITION BY job_id) AS first_row
    FROM staging_jobs)
SELECT row_number AS "row", 'duplicate_job_id' AS reason, 'job_id' AS column_name,
       job_id AS value, 'job id already used at row ' || first_row AS message, '' AS raw_json
FROM ranked WHERE row_number <> first_row ORDER BY row_number
"""
_ORPHANS = """
SELECT s.row_number AS "row", 'orphan_step' AS reason, 'JobID' AS column_name,
       s.parent AS value, 'no job line for step of job ' || s.parent AS message,
       '' AS raw_json
FROM staging_steps s ANTI JOIN (SELECT DISTINCT job_id FROM staging_jobs) j
     ON s.parent = j.job_id
ORDER BY s.row_number
"""
# Canonical jobs from staging, times relative to the trace start. Left-censored rows (no
# start, no submit) start at the window start; rows with no end run to the window end; a
# row marked running that ended before the window end completed; withdrawn jobs did no work
# and wait at most until they were deleted (or the window end). See docs/status-mapping.md.
_INSERT_JOBS = """
INSERT INTO jobs
SELECT $trace, row_number, job_id, coalesce(submit_t, $start) - $origin,
       CASE WHEN status = 'withdrawn' THEN 0.0
            ELSE coalesce(duration_s,
                          greatest(coalesce(end_t, $end) - coalesce(start_t, submit_t, $start),
                                   0.0)) END,
       pods, gpus, cpu, mem_gib, gpu_types, queue, user_name, priority,
       CASE WHEN status = 'running-at-end' AND end_t < $end THEN 'completed' ELSE status END,
       coalesce(start_t, CASE WHEN submit_t IS NULL THEN $start END) - $origin,
       end_t - $origin,
       CASE WHEN status = 'running-at-end' AND end_t < $end
            THEN replace(flags, 'running_at_end', 'ended_while_running') ELSE flags END,
       CASE WHEN status = 'withdrawn' THEN greatest(coalesce(end_t, $end) - submit_t, 0.0) END,
       submit_t IS NULL
FROM staging_jobs ORDER BY coalesce(submit_t, $start), row_number
"""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class _Bounds:
    origin: float
    start: float
    end: float
    absolute: bool


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
    con: duckdb.DuckDBPyConnection, path: Path, options: IngestOptions, name: str | None = None
) -> IngestReport:
    """Import a job history or a node list, whichever the file is."""
    name = checked_name(name)
    source, fmt = sniff(path, options)
    if fmt in NODE_FORMATS:
        return _store_cluster(con, source, fmt, options, name)
    return import_trace(con, jobs_from(source, fmt, options), name)


def import_trace(
    con: duckdb.DuckDBPyConnection, stream: JobStream, name: str | None = None
) -> IngestReport:
    name = checked_name(name)
    trace_id = trace_id_for(stream.source.sha256, stream.options)
    known = con.execute("SELECT report_json FROM traces WHERE trace_id = ?", [trace_id]).fetchone()
    if known:
        report = IngestReport.model_validate_json(known[0])
        return report.model_copy(update={"already_imported": True})
    with transaction(con):
        report = _stream_into_staging(con, stream, trace_id)
        _write_trace(con, stream, report, name or trace_name(stream.source.path))
    con.execute("DROP TABLE IF EXISTS staging_jobs; DROP TABLE IF EXISTS staging_steps")
    return report


def _stream_into_staging(
    con: duckdb.DuckDBPyConnection, stream: JobStream, trace_id: str
) -> IngestReport:
    con.execute(_STAGING)
    report = stream.new_report()
    report.trace_id = trace_id
    builder = ReportBuilder(report)
    absolute = relative = 0
    for result, steps in stream.chunks():
        _append(con, "staging_jobs", _nan_as_null(result.jobs.loc[:, list(JOB_COLUMNS)]))
        _append_rejected(con, trace_id, result.rejected)
        _append(con, "staging_steps", steps)
        builder.add_rejected(result.rejected)
        builder.add_flags(result.flags)
        absolute += result.absolute_times
        relative += result.relative_times
    if absolute and relative:
        raise TraceError(
            f"{absolute:,} jobs have dates but {relative:,} have seconds from the "
            "trace start; use one kind of time for the whole file",
            file=stream.source.name,
        )
    report.time_base = "absolute" if absolute else "relative"
    duplicates = con.execute(_DUPLICATES).df()
    orphans = con.execute(_ORPHANS).df()
    for found in (duplicates, orphans):
        _append_rejected(con, trace_id, found)
        builder.add_rejected(found)
    if not duplicates.empty:
        con.register("duplicate_rows", duplicates.loc[:, ["row"]])
        con.execute("DELETE FROM staging_jobs WHERE row_number IN (SELECT row FROM duplicate_rows)")
        con.unregister("duplicate_rows")
    report.steps_folded = _count(con, "SELECT count(*) FROM staging_steps") - int(
        builder.reasons.get("orphan_step", 0)
    )
    report.blank_lines = stream.problems.blank_lines
    accepted = _count(con, "SELECT count(*) FROM staging_jobs")
    report = builder.finish(accepted=accepted)
    if report.rows == 0:
        raise TraceError("the file has a header but no job rows", file=stream.source.name)
    return report


def _write_trace(
    con: duckdb.DuckDBPyConnection, stream: JobStream, report: IngestReport, name: str
) -> None:
    bounds = _bounds(con, report.time_base == "absolute")
    con.execute(
        _INSERT_JOBS,
        {
            "trace": report.trace_id,
            "origin": bounds.origin,
            "start": bounds.start,
            "end": bounds.end,
        },
    )
    _count_outcomes(con, report)
    report.horizon_s = max(bounds.end - bounds.origin, 0.0)
    if bounds.absolute:
        report.start_utc = dt.datetime.fromtimestamp(bounds.origin, tz=dt.UTC).isoformat()
    con.execute(
        "INSERT INTO traces VALUES (?, ?, ?, ?, ?, ?, now(), ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            report.trace_id,
            name,
            stream.source.name,
            stream.format,
            stream.source.sha256,
            stream.options.identity(),
            report.time_base,
            dt.datetime.fromtimestamp(bounds.origin, tz=dt.UTC).replace(tzinfo=None)
            if bounds.absolute
            else None,
            stream.options.tz,
            report.horizon_s,
            report.accepted,
            report.rows,
            report.gpu_hours,
            report.model_dump_json(),
        ],
    )


def _count_outcomes(con: duckdb.DuckDBPyConnection, report: IngestReport) -> None:
    """GPU-hours, censoring and withdrawal counts, and flags, as stored."""
    totals = con.execute(
        "SELECT coalesce(sum(pods * gpus * duration_s) / 3600, 0), coalesce(sum(pods * gpus), 0),"
        " count(*) FILTER (running_at_start), count(*) FILTER (status = 'running-at-end'),"
        " count(*) FILTER (status = 'withdrawn') "
        "FROM jobs WHERE trace_id = ?",
        [report.trace_id],
    ).fetchone()
    assert totals is not None  # an aggregate always returns one row
    report.gpu_hours, report.gpu_total = float(totals[0]), float(totals[1])
    report.running_at_start, report.running_at_end, report.withdrawn = map(int, totals[2:])
    flags = con.execute(
        "SELECT flag, count(*) FROM (SELECT unnest(string_split(flags, ',')) AS flag "
        "FROM jobs WHERE trace_id = ?) WHERE flag <> '' GROUP BY flag ORDER BY flag",
        [report.trace_id],
    ).fetchall()
    report.flagged = {str(flag): int(count) for flag, count in flags}
    report.pending_at_end = report.flagged.get("pending_at_end", 0)


def _bounds(con: duckdb.DuckDBPyConnection, absolute: bool) -> _Bounds:
    """The export's window: the earliest and latest time any row knows of."""
    row = con.execute(
        """
        SELECT min(least(submit_t, start_t, end_t)),
               max(greatest(end_t, start_t + duration_s, start_t, submit_t))
        FROM staging_jobs
        """
    ).fetchone()
    first = float(row[0]) if row and row[0] is not None else 0.0
    last = float(row[1]) if row and row[1] is not None else first
    origin = first if absolute else 0.0
    return _Bounds(origin=origin, start=first, end=max(last, origin), absolute=absolute)


def _nan_as_null(frame: pd.DataFrame) -> pd.DataFrame:
    """DuckDB keeps a float NaN as NaN; the nullable dtype makes it SQL NULL."""
    floats = frame.select_dtypes("float64").columns
    return frame.astype(dict.fromkeys(floats, "Float64"))


def _append(con: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame) -> None:
    if frame.empty:
        return
    con.register("chunk_frame", frame)
    try:
        con.execute(f"INSERT INTO {table} SELECT * FROM chunk_frame")
    finally:
        con.unregister("chunk_frame")


def _append_rejected(con: duckdb.DuckDBPyConnection, trace_id: str, rejected: pd.DataFrame) -> None:
    if rejected.empty:
        return
    frame = rejected.loc[:, ["row", "reason", "column_name", "value", "message", "raw_json"]]
    _append_with_trace(con, trace_id, frame.fillna(""))


def _append_with_trace(con: duckdb.DuckDBPyConnection, trace_id: str, frame: pd.DataFrame) -> None:
    con.register("chunk_frame", frame)
    try:
        con.execute("INSERT INTO rejected_rows SELECT ?, * FROM chunk_frame", [trace_id])
    finally:
        con.unregister("chunk_frame")


def _count(con: duckdb.DuckDBPyConnection, query: str) -> int:
    row = con.execute(query).fetchone()
    return int(row[0]) if row else 0


def import_cluster(
    con: duckdb.DuckDBPyConnection, path: Path, options: IngestOptions, name: str | None = None
) -> IngestReport:
    """Store a node list as a named cluster; the same file is recognised on re-import."""
    name = checked_name(name)
    source, fmt = sniff(path, options)
    return _store_cluster(con, source, fmt, options, name)


def _store_cluster(
    con: duckdb.DuckDBPyConnection,
    source: Source,
    fmt: str,
    options: IngestOptions,
    name: str | None,
) -> IngestReport:
    cluster_id = trace_id_for(source.sha256, options)
    known = con.execute(
        "SELECT report_json FROM clusters WHERE cluster_id = ?", [cluster_id]
    ).fetchone()
    if known:
        report = IngestReport.model_validate_json(known[0])
        return report.model_copy(update={"already_imported": True})
    cluster, report = read_cluster(source, fmt)
    report.trace_id = cluster_id
    with transaction(con):
        con.execute(
            "INSERT INTO clusters VALUES (?, ?, ?, ?, now(), ?, ?, ?, ?)",
            [
                cluster_id,
                name or trace_name(source.path),
                source.name,
                source.sha256,
                cluster.node_count,
                sum(cluster.gpus_by_type().values()),
                cluster.model_dump_json(),
                report.model_dump_json(),
            ],
        )
    return report


def rejected_rows(con: duckdb.DuckDBPyConnection, trace_id: str) -> pd.DataFrame:
    """Every rejected row of a trace with its reason and the original cells (as JSON)."""
    return con.execute(
        "SELECT row_number, reason, column_name, value, message, raw_json FROM rejected_rows "
        "WHERE trace_id = ? ORDER BY row_number",
        [trace_id],
    ).df()
