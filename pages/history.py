"""Job history: upload an export, check its format and columns, import it, and look at it."""

import streamlit as st

from planner.core.errors import PlannerError
from planner.report.csv_table import frame_csv
from planner.ui import cache, frame
from planner.ui import history_view as view
from planner.ui.i18n import fmt_number, t
from planner.ui.safe import code, md
from planner.ui.widgets import plot

frame.require_menu()

IMPORTED_KEY = "history_imported"  # (upload's file id, Imported or error text) of the last Import
TRACE_KEY = "history_trace"

st.title(t("history.title"))
st.caption(t("history.caption"))

upload = st.file_uploader(
    t("history.upload", mb=view.MAX_UPLOAD_MB),
    type=view.UPLOAD_TYPES,
    max_upload_size=view.MAX_UPLOAD_MB,
    key="history_upload",
)
if upload is not None:
    try:
        detected = view.detect(view.stage(upload.getvalue(), upload.name))
    except PlannerError as err:
        named = upload.name in str(err)
        st.error(md(err) if named else md(t("history.file_error", name=upload.name, error=err)))
        detected = None
    if detected is not None:
        st.markdown(t("history.detected", format=detected.format, columns=len(detected.header)))
        mapping = view.mapping_overrides(detected, detected.mapping)
        tz = "UTC"
        if detected.is_nodes:
            st.caption(t("history.node_list"))
        else:
            st.caption(t("history.mapping_caption"))
            edited = st.data_editor(
                detected.mapping,
                hide_index=True,
                disabled=["field", "preview"],
                column_config={
                    "field": st.column_config.TextColumn(t("history.col.field")),
                    "column": st.column_config.SelectboxColumn(
                        t("history.col.column"), options=[view.NOT_MAPPED, *detected.header]
                    ),
                    "preview": st.column_config.TextColumn(t("history.col.preview")),
                },
                key="history_mapping",
            )
            mapping = view.mapping_overrides(detected, edited)
            for field, column in mapping.items():  # the preview column shows detection only
                value = detected.preview(column)
                st.caption(
                    t(
                        "history.mapping_changed",
                        field=field,
                        column=code(column),
                        value=code(value),
                    )
                )
            tz = st.text_input(
                t("history.tz"),
                "UTC",
                help=t("history.tz_help"),
                key="history_tz",
            )
        if st.button(
            t("history.import"), type="primary", icon=":material/upload:", key="history_import"
        ):
            try:
                outcome: object = view.import_upload(detected.path, mapping, tz)
            except PlannerError as err:
                named = upload.name in str(err)
                outcome = md(
                    str(err) if named else t("history.file_error", name=upload.name, error=err)
                )
            st.session_state[IMPORTED_KEY] = (upload.file_id, outcome)
            if isinstance(outcome, view.Imported) and outcome.report.nodes is None:
                st.session_state[TRACE_KEY] = outcome.report.trace_id  # show the new trace

    last = st.session_state.get(IMPORTED_KEY)
    if last is not None and last[0] == upload.file_id:
        outcome = last[1]
        if isinstance(outcome, str):
            st.error(outcome, icon=":material/error:")
        else:
            report = outcome.report
            st.subheader(t("history.report"))
            if report.already_imported:
                st.info(t("history.already"))
            rows, accepted, rejected, gpu_hours = st.columns(4)
            rows.metric(t("history.rows"), fmt_number(report.rows))
            accepted.metric(t("history.accepted"), fmt_number(report.accepted))
            rejected.metric(t("history.rejected"), fmt_number(report.rejected))
            gpu_hours.metric(t("history.gpu_hours"), fmt_number(report.gpu_hours, 1))
            if report.rejected:
                st.markdown(t("history.by_reason"))
                reasons = view.reasons_frame(report)
                headers = view.column_labels("history.col", reasons.columns)
                st.dataframe(reasons, hide_index=True, column_config=headers, key="history_reasons")
                st.markdown(t("history.examples"))
                examples = view.examples_frame(report)
                headers = view.column_labels("history.col", examples.columns)
                st.dataframe(
                    examples, hide_index=True, column_config=headers, key="history_examples"
                )
                if not outcome.rejected.empty:
                    st.download_button(
                        t("history.download_rejected"),
                        frame_csv(outcome.rejected),
                        file_name=f"rejected-{report.trace_id}.csv",
                        mime="text/csv",
                        on_click="ignore",
                        icon=":material/download:",
                        key="history_rejected_download",
                    )
            if report.nodes is None:
                censored = view.censored_lines(report)
                st.markdown(t("history.censored"), help=t("history.censored_help"))
                lines = [f"- {line}" for line in censored] or [t("history.censored_none")]
                st.markdown("\n".join(lines))
            for flag, count in sorted(report.flagged.items()):
                st.caption(t("history.flagged", count=fmt_number(count), flag=flag))
            for warning in report.warnings:
                st.warning(md(warning), icon=":material/warning:")

st.header(t("history.stored"))
try:
    sample_id = cache.sample_trace()
    traces = cache.stored_traces()
except PlannerError as err:
    st.error(md(err), icon=":material/error:")
    st.stop()
if not traces:
    st.warning(t("history.no_traces"))
    st.stop()

labels = {
    tr["trace_id"]: t(
        "history.trace_label", name=tr["name"], jobs=fmt_number(tr["jobs"]), trace_id=tr["trace_id"]
    )
    for tr in traces
}
ids = list(labels)
if st.session_state.get(TRACE_KEY) not in labels:
    st.session_state[TRACE_KEY] = sample_id if sample_id in labels else ids[0]
trace_id = st.selectbox(t("history.trace"), ids, format_func=labels.__getitem__, key=TRACE_KEY)
try:
    stats = cache.trace_summary(trace_id)
    arrivals = view.arrivals_frame(stats)
except PlannerError as err:
    st.error(md(err), icon=":material/error:")
    st.stop()

start = t("history.starts", start=stats.start_utc) if stats.start_utc else t("history.relative")
st.caption(f"{md(stats.source_file)} · {md(stats.source_format)} · {start}")
jobs, span, gpu_hours, rows = st.columns(4)
jobs.metric(t("history.jobs"), fmt_number(stats.jobs))
span.metric(t("history.span"), view.duration_text(stats.span_s))
gpu_hours.metric(t("history.gpu_hours"), fmt_number(stats.gpu_hours))
rows.metric(t("history.rows_read"), fmt_number(stats.rows_read), help=t("history.rows_read_help"))

left, right = st.columns(2)
plot(left, view.arrivals_chart(arrivals, bool(stats.start_utc)), key="history_arrivals_chart")
plot(right, view.gpu_mix_chart(view.gpu_mix_frame(stats)), key="history_mix_chart")
left, right = st.columns(2)
plot(left, view.duration_chart(*view.duration_frame(stats)), key="history_duration_chart")
plot(right, view.demand_chart(view.demand_frame(stats)), key="history_demand_chart")
