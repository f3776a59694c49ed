"""Statistics of a stored trace, computed in SQL so 10-million-job traces stay cheap.

`planner inspect` and the app's job-history page show these.
"""

from typing import Any

from pydantic import BaseModel

from planner.core.errors import TraceError
from planner.store.sql import Connection, Row, doing, fetch_all, fetch_one

_CLASSES = """
CASE WHEN pods * gpus = 0 THEN '0'
     WHEN pods * gpus < 1 THEN '<1'
     WHEN pods * gpus = 1 THEN '1'
     WHEN pods * gpus <= 7 THEN '2-7'
     WHEN pods * gpus <= 8 THEN '8'
     WHEN pods * gpus <= 64 THEN '9-64'
     ELSE '>64' END
"""
CLASS_ORDER = ("0", "<1", "1", "2-7", "8", "9-64", ">64")


class GroupStats(BaseModel):
    jobs: int
    gpu_hours: float


class TraceStats(BaseModel):
    trace_id: str
    name: str
    source_file: str
    source_format: str
    jobs: int
    rows_read: int
    time_base: str
    start_utc: str | None
    timezone: str
    span_s: float
    gpu_hours: float
    by_gpu_count: dict[str, GroupStats]
    by_queue: dict[str, GroupStats]
    by_status: dict[str, GroupStats]
    duration_s: dict[str, float]
    wait_s: dict[str, float] | None
    """Observed waits of the jobs that started, as the twin check counts them: a job already
    running when the export's window opened has no known submit, so no wait."""
    wait_left_out_running_at_start: int = 0


def find_trace(con: Connection, ref: str) -> str:
    """The trace id for an id, a unique id prefix or a trace name."""
    with doing(f"look up the trace '{ref}'"):
        rows = fetch_all(
            con,
            "SELECT trace_id FROM traces WHERE trace_id = $r OR name = $r "
            "OR (length($r) >= 4 AND starts_with(trace_id, $r)) ORDER BY imported_at DESC",
            {"r": ref},
        )
    if not rows:
        raise TraceError(
            f"no stored trace has the id or name '{ref}'; `planner traces` lists "
            "them, or pass a file to import it"
        )
    ids = {row[0] for row in rows}
    if len(ids) > 1 and ref not in ids:
        raise TraceError(
            f"'{ref}' matches several traces ({', '.join(sorted(ids))}); use the full id"
        )
    return ref if ref in ids else str(rows[0][0])


def trace_stats(con: Connection, trace_id: str) -> TraceStats:
    with doing(f"read the statistics of trace {trace_id}"):
        return _trace_stats(con, trace_id)


def _trace_stats(con: Connection, trace_id: str) -> TraceStats:
    meta = _one(
        con,
        "SELECT name, source_file, source_format, jobs, rows_read, time_base, "
        "strftime(start_utc, '%Y-%m-%dT%H:%M:%SZ'), timezone FROM traces "
        "WHERE trace_id = ?",
        [trace_id],
    )
    span = _one(
        con,
        "SELECT coalesce(max(greatest(coalesce(end_s, submit_s), submit_s)) "
        "- min(submit_s), 0), coalesce(sum(pods * gpus * duration_s) / 3600, 0) "
        "FROM jobs WHERE trace_id = ?",
        [trace_id],
    )
    return TraceStats(
        trace_id=trace_id,
        name=meta[0],
        source_file=meta[1],
        source_format=meta[2],
        jobs=meta[3],
        rows_read=meta[4],
        time_base=meta[5],
        start_utc=meta[6],
        timezone=meta[7],
        span_s=float(span[0]),
        gpu_hours=float(span[1]),
        by_gpu_count=_ordered(_groups(con, trace_id, _CLASSES), CLASS_ORDER),
        by_queue=_groups(con, trace_id, "queue"),
        by_status=_groups(con, trace_id, "status"),
        duration_s=_percentiles(con, trace_id, "duration_s"),
        wait_s=_percentiles(con, trace_id, "start_s - submit_s", _OBSERVED_WAIT) or None,
        wait_left_out_running_at_start=int(
            _one(
                con,
                "SELECT count(*) FROM jobs WHERE trace_id = ? AND running_at_start "
                "AND start_s IS NOT NULL",
                [trace_id],
            )[0]
        ),
    )


def _one(con: Connection, sql: str, params: list[Any]) -> Row:
    row = fetch_one(con, sql, params)
    if row is None:
        raise TraceError(f"trace {params[0]} is not in the database")
    return row


def _groups(con: Connection, trace_id: str, key: str) -> dict[str, GroupStats]:
    rows = fetch_all(
        con,
        f"SELECT {key} AS k, count(*), sum(pods * gpus * duration_s) / 3600 FROM jobs "
        "WHERE trace_id = ? GROUP BY k ORDER BY 3 DESC, 1",
        [trace_id],
    )
    return {str(k): GroupStats(jobs=int(n), gpu_hours=float(h or 0)) for k, n, h in rows}


def _ordered(groups: dict[str, GroupStats], order: tuple[str, ...]) -> dict[str, GroupStats]:
    return {label: groups[label] for label in order if label in groups}


_OBSERVED_WAIT = "NOT running_at_start AND status <> 'withdrawn'"
"""The rows whose wait the history knows (`planner.twin.compare.observed_wait`'s rule)."""


def _percentiles(
    con: Connection, trace_id: str, expr: str, where: str = "true"
) -> dict[str, float]:
    row = fetch_one(
        con,
        f"SELECT quantile_cont(v, [0.5, 0.9, 0.95, 0.99]), avg(v), max(v) FROM "
        f"(SELECT {expr} AS v FROM jobs WHERE trace_id = ? AND {where}) WHERE v IS NOT NULL",
        [trace_id],
    )
    if row is None or row[0] is None:
        return {}
    p50, p90, p95, p99 = row[0]
    return {"p50": p50, "p90": p90, "p95": p95, "p99": p99, "mean": row[1], "max": row[2]}


def list_traces(con: Connection) -> list[dict[str, Any]]:
    with doing("list the stored traces"):
        rows = fetch_all(
            con,
            "SELECT trace_id, name, source_file, source_format, jobs, rows_read, gpu_hours, "
            "strftime(imported_at, '%Y-%m-%d %H:%M') FROM traces ORDER BY imported_at DESC",
        )
    keys = ("trace_id", "name", "source_file", "format", "jobs", "rows", "gpu_hours", "imported")
    return [dict(zip(keys, row, strict=True)) for row in rows]
