"""Job history: upload an export, check its format and columns, import it, and look at it."""

import streamlit as st

from planner.errors import PlannerError
from planner.ui import cache, frame
from planner.ui import history_view as view

frame.require_menu()

IMPORTED_KEY = "history_imported"  # (upload's file id, Imported or error text) of the last Import
TRACE_KEY = "history_trace"

st.title("Job history")
st.caption(
    "Upload a job history (CSV, TSV, TXT, XLSX, or any of them gzipped), check how its columns "
    "were read, import it, and look at the stored traces. The same import as `planner ingest`."
)

upload = st.file_uploader(
    f"Job history or node list (up to {view.MAX_UPLOAD_MB} MB)",
    type=view.UPLOAD_TYPES,
    max_upload_size=view.MAX_UPLOAD_MB,
    key="history_upload",
)
if upload is not None:
    try:
        detected = view.detect(view.stage(upload.getvalue(), upload.name))
    except PlannerError as err:
        st.error(f"{upload.name}: {err}" if upload.name not in str(err) else str(err))
        detected = None
    if detected is not None:
        st.markdown(f"**Detected format:** `{detected.format}` · {len(detected.header)} columns")
        mapping = view.mapping_overrides(detected, detected.mapping)
        tz = "UTC"
        if detected.is_nodes:
            st.caption("A node list: importing stores it as a cluster, not a job history.")
        else:
            st.caption(
                "Which column holds each field, with the first row's value. Change a column "
                "if it was read wrongly; fields left empty are not in the file."
            )
            edited = st.data_editor(
                detected.mapping,
                hide_index=True,
                disabled=["field", "preview"],
                column_config={
                    "field": st.column_config.TextColumn("Field"),
                    "column": st.column_config.SelectboxColumn(
                        "Column in the file", options=[view.NOT_MAPPED, *detected.header]
                    ),
                    "preview": st.column_config.TextColumn("First row (as detected)"),
                },
                key="history_mapping",
            )
            mapping = view.mapping_overrides(detected, edited)
            tz = st.text_input(
                "Time zone of dates without one",
                "UTC",
                help="an IANA name such as UTC, Asia/Shanghai or America/Los_Angeles",
                key="history_tz",
            )
        if st.button("Import", type="primary", icon=":material/upload:", key="history_import"):
            try:
                outcome: object = view.import_upload(detected.path, mapping, tz)
            except PlannerError as err:
                outcome = str(err) if upload.name in str(err) else f"{upload.name}: {err}"
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
            st.subheader("Ingest report")
            if report.already_imported:
                st.info("This file was imported before with the same options.")
            rows, accepted, rejected, gpu_hours = st.columns(4)
            rows.metric("Rows", f"{report.rows:,}")
            accepted.metric("Accepted", f"{report.accepted:,}")
            rejected.metric("Rejected", f"{report.rejected:,}")
            gpu_hours.metric("GPU-hours", f"{report.gpu_hours:,.1f}")
            if report.rejected:
                st.markdown("**Rejected rows by reason**")
                st.dataframe(view.reasons_frame(report), hide_index=True, key="history_reasons")
                st.markdown("**Examples** (row numbers as in a spreadsheet, header = row 1)")
                st.dataframe(view.examples_frame(report), hide_index=True, key="history_examples")
                if not outcome.rejected.empty:
                    st.download_button(
                        "Download the rejected rows (CSV)",
                        outcome.rejected.to_csv(index=False),
                        file_name=f"rejected-{report.trace_id}.csv",
                        mime="text/csv",
                        on_click="ignore",
                        icon=":material/download:",
                        key="history_rejected_download",
                    )
            for flag, count in sorted(report.flagged.items()):
                st.caption(f"flagged {count:,}: {flag}")

st.header("Stored traces")
try:
    sample_id = cache.sample_trace()
    traces = cache.stored_traces()
except PlannerError as err:
    st.error(str(err), icon=":material/error:")
    st.stop()
if not traces:
    st.warning("No job history is stored yet. Upload one above.")
    st.stop()

labels = {t["trace_id"]: f"{t['name']} · {t['jobs']:,} jobs · {t['trace_id']}" for t in traces}
ids = list(labels)
if st.session_state.get(TRACE_KEY) not in labels:
    st.session_state[TRACE_KEY] = sample_id if sample_id in labels else ids[0]
trace_id = st.selectbox("Trace", ids, format_func=labels.__getitem__, key=TRACE_KEY)
try:
    stats = cache.trace_summary(trace_id)
    arrivals = view.arrivals_frame(stats)
except PlannerError as err:
    st.error(str(err), icon=":material/error:")
    st.stop()

st.caption(
    f"{stats.source_file} · {stats.source_format} · "
    + (f"starts {stats.start_utc}" if stats.start_utc else "times relative to the trace start")
)
jobs, span, gpu_hours, rows = st.columns(4)
jobs.metric("Jobs", f"{stats.jobs:,}")
span.metric("Span", view.duration_text(stats.span_s))
gpu_hours.metric("GPU-hours", f"{stats.gpu_hours:,.0f}")
rows.metric("Rows read", f"{stats.rows_read:,}", help="accepted jobs plus rejected rows")

left, right = st.columns(2)
left.plotly_chart(
    view.arrivals_chart(arrivals, bool(stats.start_utc)), key="history_arrivals_chart"
)
right.plotly_chart(view.gpu_mix_chart(view.gpu_mix_frame(stats)), key="history_mix_chart")
left, right = st.columns(2)
left.plotly_chart(view.duration_chart(*view.duration_frame(stats)), key="history_duration_chart")
right.plotly_chart(view.demand_chart(view.demand_frame(stats)), key="history_demand_chart")
