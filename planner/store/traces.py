"""The SQL of stored traces and clusters: staging an import, writing it, reading jobs back.

`planner.service.importer` drives an import (reading the file, the report); the statements
are here. Chunks land in temporary staging tables; checks that need the whole file
(duplicate job ids, Slurm steps without their job, the trace's window) run as SQL at the
end, then the canonical jobs are written with times relative to the trace start. A DuckDB
error becomes the `PlannerError` of the step in progress (`planner.store.sql.doing`).
"""

from collections.abc import Iterator
from dataclasses import astuple, dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from planner.core.errors import StoreError
from planner.store.sql import (
    Columns,
    Connection,
    Row,
    append_frame,
    count,
    fetch_all,
    fetch_columns,
    fetch_frame,
    fetch_one,
    run,
)

if TYPE_CHECKING:
    # annotations only: reading jobs back imports neither (`job_row_chunks`)
    import pandas as pd

_STAGING = """
CREATE OR REPLACE TEMP TABLE staging_jobs (
    row_number BIGINT, job_id VARCHAR, submit_t DOUBLE, duration_s DOUBLE, pods BIGINT,
    gpus DOUBLE, cpu DOUBLE, mem_gib DOUBLE, gpu_types VARCHAR, queue VARCHAR,
    user_name VARCHAR, priority BIGINT, status VARCHAR, start_t DOUBLE, end_t DOUBLE,
    flags VARCHAR, gpu_util DOUBLE);
CREATE OR REPLACE TEMP TABLE staging_steps (row_number BIGINT, parent VARCHAR);
"""
_DUPLICATES = """
WITH ranked AS (
    SELECT row_number, job_id,
           min(row_number) OVER (PARTITION BY job_id) AS first_row
    FROM staging_jobs)
SELECT row_number AS "row", 'duplicate_job_id' AS reason, 'job_id' AS column_name,
       job_id AS value, 'job id already used at row ' || first_row AS message, '' AS raw_json
FROM ranked WHERE row_number <> first_row
"""
_ORPHANS = """
SELECT s.row_number AS "row", 'orphan_step' AS reason, 'JobID' AS column_name,
       s.parent AS value, 'no job line for step of job ' || s.parent AS message,
       '' AS raw_json
FROM staging_steps s ANTI JOIN (SELECT DISTINCT job_id FROM staging_jobs) j
     ON s.parent = j.job_id
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
       submit_t IS NULL,
       CASE WHEN status <> 'withdrawn' THEN gpu_util END
FROM staging_jobs ORDER BY coalesce(submit_t, $start), row_number
"""
_REJECTED_COLUMNS = ["row", "reason", "column_name", "value", "message", "raw_json"]
_QUOTED = [f'"{column}"' for column in _REJECTED_COLUMNS]
JOB_COLUMNS = (
    "job_id, submit_s, duration_s, pods, gpus, cpu, mem_gib, gpu_types, queue, user_name, "
    "priority, status, start_s, end_s, withdraw_after_s, running_at_start"
)


@dataclass(frozen=True, slots=True)
class Window:
    """The export's window in the file's time: the earliest and latest time any row knows
    of (0 and 0 for a file without times)."""

    first: float
    last: float


@dataclass(frozen=True, slots=True)
class TraceRow:
    """One row of `traces`, in its column order (`imported_at` is set when written)."""

    trace_id: str
    name: str
    source_file: str
    source_format: str
    content_sha256: str
    options_json: str
    time_base: str
    start_utc: datetime | None
    timezone: str
    horizon_s: float
    jobs: int
    rows_read: int
    gpu_hours: float
    report_json: str


@dataclass(frozen=True, slots=True)
class ClusterRow:
    """One row of `clusters`, in its column order (`imported_at` is set when written)."""

    cluster_id: str
    name: str
    source_file: str
    content_sha256: str
    nodes: int
    gpus: int
    config_json: str
    report_json: str


@dataclass(frozen=True, slots=True)
class JobTotals:
    gpu_hours: float
    gpu_total: float
    running_at_start: int
    running_at_end: int
    withdrawn: int
    busy_gpu_hours: float
    """GPU-hours x busy share, over the jobs with a busy share (`gpu_util`)."""
    known_gpu_hours: float
    """GPU-hours of the jobs with a busy share."""


def trace_options_by_name(con: Connection) -> dict[str, str]:
    """Each stored trace's name and the options it was read with (their `identity` JSON)."""
    rows = fetch_all(con, "SELECT name, options_json FROM traces ORDER BY imported_at", [])
    return {str(name): str(options) for name, options in rows}


def stored_report(con: Connection, trace_id: str) -> str | None:
    """The ingest report (JSON) of a stored trace, or None if it is not stored."""
    row = fetch_one(con, "SELECT report_json FROM traces WHERE trace_id = ?", [trace_id])
    return None if row is None else str(row[0])


def stored_cluster_report(con: Connection, cluster_id: str) -> str | None:
    """The ingest report (JSON) of a stored cluster, or None if it is not stored."""
    row = fetch_one(con, "SELECT report_json FROM clusters WHERE cluster_id = ?", [cluster_id])
    return None if row is None else str(row[0])


def start_staging(con: Connection) -> None:
    """Empty staging tables for one import (temporary: this connection only)."""
    run(con, _STAGING)


def drop_staging(con: Connection) -> None:
    run(con, "DROP TABLE IF EXISTS staging_jobs; DROP TABLE IF EXISTS staging_steps")


def stage_jobs(con: Connection, frame: "pd.DataFrame") -> None:
    """Append a chunk of normalised jobs (the staging table's columns, in order)."""
    append_frame(con, "staging_jobs", frame)


def stage_steps(con: Connection, frame: "pd.DataFrame") -> None:
    """Append a chunk's Slurm steps: (row_number, parent job id)."""
    append_frame(con, "staging_steps", frame)


def store_rejected(con: Connection, trace_id: str, rejected: "pd.DataFrame") -> None:
    """Append rejected rows (row, reason, column_name, value, message, raw_json)."""
    if rejected.empty:
        return
    frame = rejected.loc[:, _REJECTED_COLUMNS].fillna("")
    frame.insert(0, "trace_id", trace_id)
    append_frame(con, "rejected_rows", frame)


@dataclass(frozen=True, slots=True)
class Rejected:
    """Rows a whole-file check rejected: how many, and the first few (rejected-row columns)."""

    count: int
    examples: "pd.DataFrame"


def reject_duplicates(con: Connection, trace_id: str, examples: int) -> Rejected:
    """Reject the staged rows whose job id an earlier row has, and unstage them.

    All in SQL: a file of one id repeated millions of times must not come back to Python
    (fetched as a frame, 2.3 million duplicates held 1.8 GB).
    """
    found = _reject_found(con, trace_id, _DUPLICATES, examples)
    if found.count:
        run(
            con,
            'DELETE FROM staging_jobs WHERE row_number IN (SELECT "row" FROM found_rows)',
        )
    run(con, "DROP TABLE found_rows")
    return found


def reject_orphans(con: Connection, trace_id: str, examples: int) -> Rejected:
    """Reject the staged Slurm steps whose job has no line."""
    found = _reject_found(con, trace_id, _ORPHANS, examples)
    run(con, "DROP TABLE found_rows")
    return found


def _reject_found(con: Connection, trace_id: str, query: str, examples: int) -> Rejected:
    """The rows `query` finds, stored as rejected and kept in `found_rows` for the caller."""
    run(con, f"CREATE OR REPLACE TEMP TABLE found_rows AS {query}")
    run(
        con, f"INSERT INTO rejected_rows SELECT ?, {', '.join(_QUOTED)} FROM found_rows", [trace_id]
    )
    first = fetch_frame(con, f'SELECT * FROM found_rows ORDER BY "row" LIMIT {int(examples)}')
    return Rejected(count(con, "SELECT count(*) FROM found_rows"), first)


def staged_jobs(con: Connection) -> int:
    return count(con, "SELECT count(*) FROM staging_jobs")


def staged_steps(con: Connection) -> int:
    return count(con, "SELECT count(*) FROM staging_steps")


def staged_window(con: Connection) -> Window:
    row = fetch_one(
        con,
        "SELECT min(least(submit_t, start_t, end_t)), "
        "max(greatest(end_t, start_t + duration_s, start_t, submit_t)) FROM staging_jobs",
    )
    first = float(row[0]) if row and row[0] is not None else 0.0
    last = float(row[1]) if row and row[1] is not None else first
    return Window(first, last)


def write_jobs(con: Connection, trace_id: str, origin: float, window: Window) -> None:
    """The staged jobs as the trace's jobs, times relative to `origin` (see _INSERT_JOBS)."""
    params = {"trace": trace_id, "origin": origin, "start": window.first, "end": window.last}
    run(con, _INSERT_JOBS, params)


def write_trace(con: Connection, trace: TraceRow) -> None:
    values = list(astuple(trace))
    run(con, "INSERT INTO traces VALUES (?, ?, ?, ?, ?, ?, now(), ?, ?, ?, ?, ?, ?, ?, ?)", values)


def write_cluster(con: Connection, cluster: ClusterRow) -> None:
    values = list(astuple(cluster))
    run(con, "INSERT INTO clusters VALUES (?, ?, ?, ?, now(), ?, ?, ?, ?)", values)


def job_totals(con: Connection, trace_id: str) -> JobTotals:
    """GPU-hours, GPUs asked for, and the censored and withdrawn counts of a stored trace."""
    row = fetch_one(
        con,
        "SELECT coalesce(sum(pods * gpus * duration_s) / 3600, 0), coalesce(sum(pods * gpus), 0),"
        " count(*) FILTER (running_at_start), count(*) FILTER (status = 'running-at-end'),"
        " count(*) FILTER (status = 'withdrawn'),"
        " coalesce(sum(pods * gpus * duration_s * gpu_util) / 3600, 0),"
        " coalesce(sum(pods * gpus * duration_s) FILTER (gpu_util IS NOT NULL) / 3600, 0) "
        "FROM jobs WHERE trace_id = ?",
        [trace_id],
    )
    assert row is not None  # an aggregate always returns one row
    counts = (int(row[2]), int(row[3]), int(row[4]))
    return JobTotals(float(row[0]), float(row[1]), *counts, float(row[5]), float(row[6]))


def job_flags(con: Connection, trace_id: str) -> dict[str, int]:
    """How many jobs of a stored trace carry each flag."""
    rows = fetch_all(
        con,
        "SELECT flag, count(*) FROM (SELECT unnest(string_split(flags, ',')) AS flag "
        "FROM jobs WHERE trace_id = ?) WHERE flag <> '' GROUP BY flag ORDER BY flag",
        [trace_id],
    )
    return {str(flag): int(n) for flag, n in rows}


def rejected_rows(con: Connection, trace_id: str) -> "pd.DataFrame":
    """Every rejected row of a trace with its reason and the original cells (as JSON)."""
    return fetch_frame(
        con,
        "SELECT row_number, reason, column_name, value, message, raw_json FROM rejected_rows "
        "WHERE trace_id = ? ORDER BY row_number",
        [trace_id],
    )


_JOBS_IN_ORDER = f"SELECT {JOB_COLUMNS} FROM jobs WHERE trace_id = ? ORDER BY submit_s, row_number"


def job_columns(con: Connection, trace_id: str) -> Columns:
    """A stored trace's jobs as one array per column of `JOB_COLUMNS`, in submit order (ties
    in file order)."""
    return fetch_columns(con, _JOBS_IN_ORDER, [trace_id])


_CHANGED = "the trace's jobs changed while they were read; read them again"
_CHUNK_FIRSTS = (
    "SELECT submit_s, row_number, jobs FROM (SELECT submit_s, row_number, count(*) OVER () AS jobs,"
    " row_number() OVER (ORDER BY submit_s, row_number) - 1 AS place"
    " FROM jobs WHERE trace_id = $trace) WHERE place % $rows = 0 ORDER BY place"
)
_CHUNK = (
    f"SELECT {JOB_COLUMNS} FROM jobs WHERE trace_id = $trace"
    " AND submit_s >= $submit AND (submit_s > $submit OR row_number >= $row){before}"
    " ORDER BY submit_s, row_number"
)
# the first clause of each bound alone lets DuckDB skip the row groups outside it
_BEFORE = " AND submit_s <= $next_submit AND (submit_s < $next_submit OR row_number < $next_row)"


CHUNK_QUERIES = 128
"""At most this many queries read a trace's chunks: a trace not stored in submit order is
scanned whole by each (1,000,000 shuffled jobs: about 25 ms a query here)."""


def job_row_chunks(
    con: Connection, trace_id: str, rows: int, *, queries: int = CHUNK_QUERIES
) -> Iterator[list[Row]]:
    """A stored trace's jobs as rows of `JOB_COLUMNS` (NULL as None) in submit order (ties in
    file order), `rows` at a time, or a multiple of `rows` where that takes more than
    `queries` queries.

    Each chunk is a query of its own over a range of (submit_s, row_number), found first from
    those two columns alone: DuckDB sorting the whole rows for one streamed result held about
    270 bytes a job until the last was read, and Arrow or NumPy chunks bring in pyarrow or
    NumPy (36 MiB) and a Python object per value to be dropped again.

    Raises:
        StoreError: a chunk has not the rows the ranges counted (the trace changed meanwhile).
    """
    every = fetch_all(con, _CHUNK_FIRSTS, {"trace": trace_id, "rows": rows})
    total = every[0][2] if every else 0
    stride = max(1, -(-len(every) // queries))
    firsts, size = every[::stride], rows * stride
    for at, (submit, row, _) in enumerate(firsts):
        params: dict[str, object] = {"trace": trace_id, "submit": submit, "row": row}
        if at + 1 < len(firsts):
            params |= {"next_submit": firsts[at + 1][0], "next_row": firsts[at + 1][1]}
        chunk = fetch_all(con, _CHUNK.format(before=_BEFORE if len(params) > 3 else ""), params)
        if len(chunk) != min(size, total - at * size):
            raise StoreError(_CHANGED)
        yield chunk


def busy_shares(con: Connection, trace_id: str) -> dict[str, float]:
    """Each job's busy share (`gpu_util`) by job id, for the jobs of a stored trace that have
    one (kept beside the jobs, never in the replay's)."""
    rows = fetch_all(
        con,
        "SELECT job_id, gpu_util FROM jobs WHERE trace_id = ? AND gpu_util IS NOT NULL",
        [trace_id],
    )
    return {str(job_id): float(util) for job_id, util in rows}


def arrivals_per_day(con: Connection, trace_id: str) -> "pd.DataFrame":
    """Jobs submitted per day of a stored trace: `day` (days since the start), `jobs`."""
    return fetch_frame(
        con,
        "SELECT CAST(floor(submit_s / 86400) AS BIGINT) AS day, count(*) AS jobs "
        "FROM jobs WHERE trace_id = ? GROUP BY day ORDER BY day",
        [trace_id],
    )
