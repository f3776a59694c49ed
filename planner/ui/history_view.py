"""Glue for the job-history page: stage an upload, detect its format and columns, import it,
and turn a stored trace's statistics into plot-ready tables and figures.

Writes go through `planner.service.importer.import_file` (one transaction) on this session's own
cursor, so concurrent sessions importing files do not interfere.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from planner.core.config import Node
from planner.core.errors import PlannerError
from planner.ingest import NODE_FORMATS, IngestOptions, IngestReport, Source, sniff
from planner.ingest.columns import FIELDS, NODE_FIELDS, ColumnMap, resolve_columns
from planner.ingest.nodes import missing_fields, node_columns, read_cluster
from planner.ingest.source import LineProblems, iter_frames
from planner.service.importer import import_file, rejected_rows
from planner.store import database_path
from planner.store.trace_stats import CLASS_ORDER, TraceStats
from planner.store.traces import arrivals_per_day
from planner.ui.cache import cursor
from planner.ui.charts import MEASURE, TEMPLATE, count_axis, day_bars, top_of
from planner.ui.error_text import note_words, reason_words
from planner.ui.i18n import Language, fmt_number, number_style, t
from planner.ui.uploads import write_once

MAX_UPLOAD_MB = 200
UPLOAD_TYPES = ["csv", "tsv", "txt", "xlsx", "gz"]
NOT_MAPPED = ""  # the mapping editor's "no column" choice


@dataclass(frozen=True, slots=True)
class Detected:
    """What the page shows before importing: the format and each field's column."""

    path: Path
    format: str
    header: tuple[str, ...]
    mapping: pd.DataFrame  # field, column, preview
    first_row: Mapping[str, str] = field(default_factory=dict)
    """Every column's value in the first row (previews for a column the user picks)."""
    notes: tuple[str, ...] = ()
    """Choices worth checking (a node list with two columns that could be its GPUs)."""

    def preview(self, column: str) -> str:
        return self.first_row.get(column, "")

    @property
    def is_nodes(self) -> bool:
        return self.format in NODE_FORMATS


@dataclass(frozen=True, slots=True)
class Imported:
    report: IngestReport
    rejected: pd.DataFrame  # every rejected row (row_number, reason, ..., raw_json)
    nodes: tuple[Node, ...] = ()  # a node list's nodes, to offer as the working cluster


def check_size(size: int, name: str) -> None:
    """PlannerError naming the file when it is over the page's upload limit."""
    if size > MAX_UPLOAD_MB * 1024 * 1024:
        size_mb = fmt_number(size / 1024 / 1024, 1)
        raise PlannerError(t("history.too_big", name=name, size=size_mb, max=MAX_UPLOAD_MB))


def stage(data: bytes, name: str) -> Path:
    """Write an upload to a temporary folder under its original name (formats and trace
    names come from it); the same bytes land in the same place, written once."""
    check_size(len(data), name)
    return write_once(data, name, "upload.csv")


def detect(path: Path) -> Detected:
    """The file's format and each field's column (a job history's or a node list's) with
    its first value; a field with no column is left empty, never an error here."""
    source, fmt = sniff(path, IngestOptions())
    notes: list[str] = []
    if fmt in NODE_FORMATS:
        columns, notes = node_columns(source.header, {}, file=source.name)
        fields = NODE_FIELDS
    else:
        columns, fields = resolve_columns(source.header, {}, file=source.name), FIELDS
    first_row = _first_row(source)
    rows = []
    for name in fields:
        column = columns.get(name) or NOT_MAPPED
        rows.append({"field": name, "column": column, "preview": first_row.get(column, "")})
    return Detected(path, fmt, source.header, pd.DataFrame(rows), first_row, tuple(notes))


def _first_row(source: Source) -> dict[str, str]:
    first = next(iter_frames(source, LineProblems(), 5), pd.DataFrame())
    row = first.iloc[0] if not first.empty else pd.Series(dtype=str)
    return {column: str(row.get(column, "")) for column in source.header}


def with_previews(detected: Detected, edits: object) -> pd.DataFrame:
    """The mapping table with each edited field's preview taken from its new column
    (`edits`: the editor's state, `{"edited_rows": {row: {"column": ...}}}`), so the
    preview follows a remap; the editor keeps the edits as the data's shape is unchanged."""
    table = detected.mapping.copy()
    rows = edits.get("edited_rows", {}) if isinstance(edits, Mapping) else {}
    for row, cells in rows.items():
        if isinstance(cells, Mapping) and "column" in cells and int(row) in table.index:
            column = cells["column"]
            text = "" if column is None or pd.isna(column) else str(column)
            table.loc[int(row), "preview"] = detected.preview(text) if text else ""
    return table


def missing_node_fields(detected: Detected, mapping: Mapping[str, str]) -> list[str]:
    """A node list's required fields (node id, GPUs per node) still without a column
    once the user's `mapping` is applied; [] for a job history."""
    if not detected.is_nodes:
        return []
    found = dict(zip(detected.mapping["field"], detected.mapping["column"], strict=True))
    chosen = {f: c for f, c in {**found, **mapping}.items() if c and c != NOT_MAPPED}
    return missing_fields(ColumnMap(chosen))


def mapping_overrides(detected: Detected, edited: pd.DataFrame) -> dict[str, str]:
    """The fields the user mapped differently from detection (field -> column).

    Only changes are passed to the importer, so an unedited file gets the same trace id
    as `planner ingest FILE`. A field cleared in the editor cannot be unmapped (the
    importer would find it again by name); it is left as detected.
    """
    found = dict(zip(detected.mapping["field"], detected.mapping["column"], strict=True))
    changes: dict[str, str] = {}
    for name, column in zip(edited["field"], edited["column"], strict=True):
        text = "" if column is None or pd.isna(column) else str(column)
        if text and text != found.get(str(name), NOT_MAPPED):
            changes[str(name)] = text
    return changes


def import_upload(path: Path, mapping: Mapping[str, str], tz: str) -> Imported:
    """Import a staged file; its report and rejected rows. PlannerError if unusable."""
    options = IngestOptions(mapping=dict(mapping), tz=tz)
    with cursor() as cur:
        report = import_file(cur, path, options)
        if report.nodes is not None:  # a node list's rejected rows are the report's examples
            cluster, _ = read_cluster(*sniff(path, options), options.mapping)
            return Imported(report, pd.DataFrame(), cluster.nodes)
        rejected = rejected_rows(cur, report.trace_id) if report.rejected else pd.DataFrame()
    return Imported(report, rejected)


def reasons_frame(report: IngestReport) -> pd.DataFrame:
    """Rejected rows per reason, with what the reason means in the session's language,
    most common first."""
    rows = [
        {"reason": reason, "rows": count, "meaning": reason_words(reason)}
        for reason, count in sorted(report.rejected_by_reason.items(), key=lambda kv: -kv[1])
    ]
    return pd.DataFrame(rows, columns=["reason", "rows", "meaning"])


def examples_frame(report: IngestReport) -> pd.DataFrame:
    """Example rejected rows with their spreadsheet row numbers."""
    rows = [
        {
            "row": ex.row,
            "reason": reason,
            "column": ex.column,
            "value": ex.value,
            "why": note_words(ex.message),
        }
        for reason, examples in report.examples.items()
        for ex in examples
    ]
    frame = pd.DataFrame(rows, columns=["row", "reason", "column", "value", "why"])
    return frame.sort_values("row", kind="stable").reset_index(drop=True)


def censored_lines(report: IngestReport, lang: Language | None = None) -> list[str]:
    """The jobs the export window cut off or that never ran, one sentence each (all four
    when any is non-zero, none otherwise). Withdrawn jobs deleted while they waited and
    those still waiting at the end are counted apart (the report's `withdrawn` holds both)."""
    deleted = report.withdrawn - report.pending_at_end
    counts = {
        "start": report.running_at_start,
        "end": report.running_at_end,
        "withdrawn": deleted,
        "pending": report.pending_at_end,
    }
    if not any(counts.values()):
        return []
    return [
        t(f"history.censored.{name}", lang, count=fmt_number(count))
        for name, count in counts.items()
    ]


def duration_text(seconds: float) -> str:
    """A span in the largest unit that keeps it readable, in the session's language."""
    if seconds < 120:
        return f"{fmt_number(seconds)} {t('unit.s')}"
    if seconds < 2 * 3600:
        return f"{fmt_number(seconds / 60, 1)} {t('unit.min')}"
    if seconds < 3 * 86400:
        return f"{fmt_number(seconds / 3600, 1)} {t('unit.h')}"
    return f"{fmt_number(seconds / 86400, 1)} {t('unit.d')}"


def column_labels(prefix: str, columns: Iterable[str]) -> dict[str, ColumnConfig]:
    """Translated headers for a table's columns (`history.col.<column>`)."""
    return {c: st.column_config.Column(t(f"{prefix}.{c}")) for c in columns}


def _styled(fig: go.Figure) -> go.Figure:
    fig.update_layout(separators=number_style().plotly_separators)
    return fig


# --- statistics and charts of a stored trace ------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _arrivals(db_path: str, trace_id: str) -> pd.DataFrame:
    with cursor(db_path) as cur:
        return arrivals_per_day(cur, trace_id)


def arrivals_frame(stats: TraceStats) -> pd.DataFrame:
    """Jobs submitted per day: `day` (a date when the trace has dates, else a day number)."""
    frame = _arrivals(str(database_path()), stats.trace_id).copy()
    if stats.start_utc:
        start = pd.Timestamp(stats.start_utc).normalize()
        frame["day"] = start + pd.to_timedelta(frame["day"], unit="D")
    return frame


def arrivals_chart(frame: pd.DataFrame, dated: bool) -> go.Figure:
    fig = px.bar(
        frame,
        x="day",
        y="jobs",
        template=TEMPLATE,
        title=t("history.chart.arrivals"),
        labels={
            "day": t("history.axis.date" if dated else "history.axis.day"),
            "jobs": t("history.axis.jobs_per_day"),
        },
    )
    fig.update_traces(hovertemplate=t("history.hover.arrivals") + "<extra></extra>")
    fig.update_yaxes(rangemode="tozero")
    count_axis(fig, "y", top_of(frame["jobs"]))
    if dated:
        day_bars(fig, frame["day"])
    else:
        count_axis(fig, "x", top_of(frame["day"]))
    return _styled(fig)


def gpu_mix_frame(stats: TraceStats) -> pd.DataFrame:
    rows = [
        {"size": size, "jobs": g.jobs, "gpu_hours": g.gpu_hours}
        for size, g in stats.by_gpu_count.items()
    ]
    return pd.DataFrame(rows, columns=["size", "jobs", "gpu_hours"])


def gpu_mix_chart(frame: pd.DataFrame) -> go.Figure:
    fig = px.bar(
        frame,
        x="size",
        y="jobs",
        custom_data=["gpu_hours"],
        category_orders={"size": list(CLASS_ORDER)},
        template=TEMPLATE,
        title=t("history.chart.mix"),
        labels={"size": t("history.axis.gpus_per_job"), "jobs": t("history.axis.jobs")},
    )
    fig.update_traces(hovertemplate=t("history.hover.mix") + "<extra></extra>")
    fig.update_xaxes(type="category")
    fig.update_yaxes(rangemode="tozero")
    count_axis(fig, "y", top_of(frame["jobs"]))
    return _styled(fig)


def duration_frame(stats: TraceStats) -> tuple[pd.DataFrame, str]:
    """Duration percentiles in one readable unit; (frame, unit in the session's language)."""
    keys = [k for k in ("p50", "p90", "p95", "p99", "max") if k in stats.duration_s]
    top = max((stats.duration_s[k] for k in keys), default=0.0)
    name, scale = ("hours", 3600.0) if top >= 3 * 3600 else ("minutes", 60.0)
    unit = t(f"history.unit.{name}")
    values = [stats.duration_s[k] / scale for k in keys]
    shown = [t("labels.max") if k == "max" else k for k in keys]
    return pd.DataFrame({"percentile": shown, "value": values}), unit


def duration_chart(frame: pd.DataFrame, unit: str) -> go.Figure:
    fig = px.bar(
        frame,
        x="percentile",
        y="value",
        template=TEMPLATE,
        title=t("history.chart.duration"),
        labels={
            "percentile": t("history.axis.percentile"),
            "value": t("history.axis.run_time", unit=unit),
        },
    )
    fig.update_traces(hovertemplate=f"{t('history.hover.duration')} {unit}<extra></extra>")
    fig.update_xaxes(type="category")
    fig.update_yaxes(rangemode="tozero", tickformat=MEASURE)
    return _styled(fig)


def demand_frame(stats: TraceStats) -> pd.DataFrame:
    rows = [
        {"queue": queue, "gpu_hours": g.gpu_hours, "jobs": g.jobs}
        for queue, g in stats.by_queue.items()
    ]
    return pd.DataFrame(rows, columns=["queue", "gpu_hours", "jobs"])


def demand_chart(frame: pd.DataFrame) -> go.Figure:
    fig = px.bar(
        frame,
        x="gpu_hours",
        y="queue",
        orientation="h",
        custom_data=["jobs"],
        template=TEMPLATE,
        title=t("history.chart.demand"),
        labels={"gpu_hours": t("history.axis.gpu_hours"), "queue": t("history.axis.queue")},
    )
    fig.update_traces(hovertemplate=t("history.hover.demand"))
    fig.update_layout(hovermode="closest")
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(tickformat=MEASURE)
    return _styled(fig)
