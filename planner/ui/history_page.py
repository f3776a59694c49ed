"""The Job history page's sections: the upload (detect, map, import, report) and the stored
trace's summary. Each draws its widgets and calls `history_view`/`cache`.
"""

from typing import Any, Protocol

import streamlit as st

from planner.core.errors import PlannerError
from planner.ingest import IngestReport
from planner.report.csv_table import frame_csv
from planner.store.trace_stats import TraceStats
from planner.ui import cache, cluster_import, column_mapping, trace_choice, uploads
from planner.ui import history_view as view
from planner.ui.error_text import error_text, note_md
from planner.ui.i18n import MISSING, fmt_number, t
from planner.ui.safe import code, md
from planner.ui.state import FLASH_KEY, set_working_scenario, working_scenario
from planner.ui.text import CATALOGS
from planner.ui.widgets import plot

IMPORTED_KEY = "history_imported"  # (upload's file id, Imported or error text) of the last Import
TRACE_KEY = "history_trace"
MAPPING_KEY = "history_mapping"  # + the upload's digest (column_mapping.editor_key)


class UploadedFile(Protocol):
    """What these sections read of `st.file_uploader`'s file."""

    @property
    def name(self) -> str: ...
    @property
    def file_id(self) -> str: ...
    def getvalue(self) -> bytes: ...


def upload_panel(upload: UploadedFile) -> None:
    """Detect the uploaded file's format, let the user map its columns and import it, then
    show the last import's report while the same file stays uploaded."""
    detected = _detect(upload)
    if detected is not None:
        mapping, tz = _mapping_inputs(
            detected, column_mapping.editor_key(MAPPING_KEY, upload.file_id)
        )
        missing = column_mapping.warn_missing(detected, mapping)
        if st.button(
            t("history.import"),
            type="primary",
            icon=":material/upload:",
            key="history_import",
            disabled=bool(missing),
        ):
            _import(upload, detected, mapping, tz)
    last = st.session_state.get(IMPORTED_KEY)
    if last is not None and last[0] == upload.file_id:
        outcome = last[1]
        if isinstance(outcome, str):
            st.error(outcome, icon=":material/error:")
        else:
            import_report(outcome)
            if outcome.nodes:
                _offer_nodes(outcome)


def _file_error(upload: UploadedFile, err: PlannerError) -> str:
    """The error's text, naming the uploaded file when the error does not already."""
    text = error_text(err)
    if upload.name in text:
        return md(text)
    return md(t("history.file_error", name=upload.name, error=text))


def _detect(upload: UploadedFile) -> view.Detected | None:
    try:
        detected = view.detect(view.stage(upload.getvalue(), upload.name))
    except PlannerError as err:
        st.error(_file_error(upload, err))
        return None
    st.markdown(t("history.detected", format=detected.format, columns=len(detected.header)))
    return detected


def _mapping_inputs(detected: view.Detected, editor_key: str) -> tuple[dict[str, str], str]:
    """The column mapping as edited (only the changes) and the time zone (a node list's
    is UTC: it has no times)."""
    if detected.is_nodes:
        st.caption(t("history.node_list"))
    mapping = column_mapping.edited_mapping(detected, editor_key)
    if detected.is_nodes:
        return mapping, "UTC"
    tz = st.text_input(t("history.tz"), "UTC", help=t("history.tz_help"), key="history_tz")
    return mapping, tz


def _import(
    upload: UploadedFile, detected: view.Detected, mapping: dict[str, str], tz: str
) -> None:
    try:
        outcome: view.Imported | str = view.import_upload(detected.path, mapping, tz)
    except PlannerError as err:
        outcome = _file_error(upload, err)
    finally:
        uploads.discard(detected.path)  # imported (or refused): the copy is not kept
    st.session_state[IMPORTED_KEY] = (upload.file_id, outcome)
    if isinstance(outcome, view.Imported) and outcome.report.nodes is None:
        trace_choice.choose(outcome.report.trace_id)  # show the new trace, on every page


def _offer_nodes(outcome: view.Imported) -> None:
    """The imported node list as the working scenario's cluster (pools by node shape, as
    the Cluster & policy page's own node import makes them), then that page."""
    nodes, gpus = len(outcome.nodes), sum(node.gpus for node in outcome.nodes)
    st.caption(t("history.nodes_stored", nodes=fmt_number(nodes), gpus=fmt_number(gpus)))
    if not st.button(t("history.use_nodes"), icon=":material/dns:", key="history_use_nodes"):
        return
    imported = cluster_import.NodeImport(outcome.report.file, outcome.nodes, (), ())
    try:
        updated = cluster_import.with_nodes(working_scenario(), imported, as_pools=True)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return
    set_working_scenario(updated)
    st.session_state[FLASH_KEY] = [t("history.nodes_used", file=md(outcome.report.file))]
    st.switch_page("pages/cluster.py")


def import_report(outcome: view.Imported, key: str = "history", already: str = "") -> None:
    """Rows read, accepted and rejected, why rows were rejected, censored jobs, warnings.
    `key` prefixes the tables' keys (two reports on one page); `already` words a repeat."""
    report = outcome.report
    st.subheader(t("history.report"))
    if report.already_imported:
        st.info(already or t("history.already"))
    rows, accepted, rejected, gpu_hours = st.columns(4)
    rows.metric(t("history.rows"), fmt_number(report.rows))
    accepted.metric(t("history.accepted"), fmt_number(report.accepted))
    rejected.metric(t("history.rejected"), fmt_number(report.rejected))
    gpu_hours.metric(t("history.gpu_hours"), fmt_number(report.gpu_hours, 1))
    if report.unused_columns:
        shown = ", ".join(code(c) for c in report.unused_columns[:30])
        st.caption(t("history.unused_columns", columns=shown))
    if report.steps_folded:
        st.caption(t("history.steps_folded", count=fmt_number(report.steps_folded)))
    if report.rejected:
        _rejections(outcome, key)
    if report.nodes is None:
        _censored(report)
    for flag, count in sorted(report.flagged.items()):
        key = f"history.flag.{flag}"
        words = t(key) if key in CATALOGS["en"] else flag  # a flag with no words yet
        st.caption(t("history.flagged", count=fmt_number(count), flag=words))
    for warning in report.warnings:
        st.warning(note_md(warning), icon=":material/warning:")


def _rejections(outcome: view.Imported, key: str) -> None:
    report = outcome.report
    st.markdown(t("history.by_reason"))
    reasons = view.reasons_frame(report)
    headers = view.column_labels("history.col", reasons.columns)
    st.dataframe(
        reasons, hide_index=True, column_config=headers, key=f"{key}_reasons", placeholder=MISSING
    )
    st.markdown(t("history.examples"))
    examples = view.examples_frame(report)
    headers = view.column_labels("history.col", examples.columns)
    st.dataframe(
        examples,
        hide_index=True,
        column_config=headers,
        key=f"{key}_examples",
        placeholder=MISSING,
    )
    if not outcome.rejected.empty:
        st.download_button(
            t("history.download_rejected"),
            frame_csv(outcome.rejected),
            file_name=f"rejected-{report.trace_id}.csv",
            mime="text/csv",
            on_click="ignore",
            icon=":material/download:",
            key=f"{key}_rejected_download",
        )


def _censored(report: IngestReport) -> None:
    censored = view.censored_lines(report)
    st.markdown(t("history.censored"), help=t("history.censored_help"))
    lines = [f"- {line}" for line in censored] or [t("history.censored_none")]
    st.markdown("\n".join(lines))


def pick_trace(traces: list[dict[str, Any]], sample_id: str | None) -> str:
    """The stored trace to look at: the last imported, else the sample, else the first."""
    labels = trace_choice.labels(traces, "history")
    return trace_choice.select(t("history.trace"), labels, sample_id, TRACE_KEY)


def trace_overview(trace_id: str) -> None:
    """The stored trace's source, headline numbers and four charts; stops on a store error."""
    try:
        stats = cache.trace_summary(trace_id)
        arrivals = view.arrivals_frame(stats)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        st.stop()
    _headline(stats)
    left, right = st.columns(2)
    plot(left, view.arrivals_chart(arrivals, bool(stats.start_utc)), key="history_arrivals_chart")
    plot(right, view.gpu_mix_chart(view.gpu_mix_frame(stats)), key="history_mix_chart")
    left, right = st.columns(2)
    plot(left, view.duration_chart(*view.duration_frame(stats)), key="history_duration_chart")
    plot(right, view.demand_chart(view.demand_frame(stats)), key="history_demand_chart")


def _headline(stats: TraceStats) -> None:
    start = t("history.starts", start=stats.start_utc) if stats.start_utc else t("history.relative")
    st.caption(f"{md(stats.source_file)} · {code(stats.source_format)} · {start}")
    jobs, span, gpu_hours, rows = st.columns(4)
    jobs.metric(t("history.jobs"), fmt_number(stats.jobs))
    span.metric(t("history.span"), view.duration_text(stats.span_s))
    gpu_hours.metric(t("history.gpu_hours"), fmt_number(stats.gpu_hours))
    rows.metric(
        t("history.rows_read"), fmt_number(stats.rows_read), help=t("history.rows_read_help")
    )
