"""Job history: upload an export (or read one from Prometheus), check its format and columns,
import it, and look at it."""

import streamlit as st

from planner.ui import frame, trace_choice
from planner.ui import history_page as section
from planner.ui import history_prometheus as prometheus
from planner.ui import history_view as view
from planner.ui.i18n import t
from planner.ui.uploader import MIB, file_uploader

frame.require_menu()

st.title(t("history.title"))
st.caption(t("history.caption"))

upload = file_uploader(
    t("history.upload"),
    view.UPLOAD_TYPES,
    key="history_upload",
    max_bytes=view.MAX_UPLOAD_MB * MIB,
    help_text=t("history.upload_help"),
)
if upload is not None:
    section.upload_panel(upload)
prometheus.prometheus_panel()

st.header(t("history.stored"))
sample_id, traces = trace_choice.stored_or_stop("history")
trace_id = section.pick_trace(traces, sample_id)
section.trace_overview(trace_id)
