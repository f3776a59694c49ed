"""The Fill test page's widgets: where the pods come from, the settings, the run and its
curves. Data and chart are in `planner.ui.fill_view`."""

from collections.abc import Sequence

import streamlit as st

from planner.core.errors import PlannerError
from planner.engine.cluster import PLACEMENTS, Placement
from planner.engine.fill import FillResult
from planner.engine.scenario import Scenario
from planner.ui import cache, history_view, trace_choice, uploads
from planner.ui import fill_view as view
from planner.ui.error_text import error_text, note_md
from planner.ui.i18n import MISSING, fmt_number, fmt_percent, t
from planner.ui.safe import md
from planner.ui.uploader import MIB, file_uploader
from planner.ui.widgets import plot

REQUEST_KEY = "fill_request"
MAX_SEEDS_HERE = 10
"""The study's count; the command line takes up to `planner.engine.fill.MAX_SEEDS`."""


def pods_source() -> tuple[str, bool] | None:
    """A stored trace's id, or a staged pod list's path (and True); None until there is one."""
    # Labels made now, in the session's language: Streamlit may call format_func later.
    names = {k: t(f"fill.source.{k}") for k in ("trace", "file")}
    kind = st.radio(
        t("fill.source"),
        tuple(names),
        format_func=names.__getitem__,
        horizontal=True,
        key="fill_source",
    )
    if kind == "trace":
        return _stored_trace()
    return _uploaded()


def _stored_trace() -> tuple[str, bool] | None:
    try:
        sample_id, traces = cache.sample_trace(), cache.stored_traces()
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return None
    if not traces:
        st.info(t("fill.no_traces"), icon=":material/info:")
        return None
    labels = trace_choice.labels(traces, "fill")
    return trace_choice.select(t("fill.trace"), labels, sample_id, "fill_trace"), False


def _uploaded() -> tuple[str, bool] | None:
    upload = file_uploader(
        t("fill.upload"),
        history_view.UPLOAD_TYPES,
        key="fill_upload",
        max_bytes=history_view.MAX_UPLOAD_MB * MIB,
        help_text=t("fill.upload_help"),
    )
    if upload is None:
        st.caption(t("fill.upload_first"))
        return None
    try:
        path = history_view.stage(upload.getvalue(), upload.name)
        try:
            pods, report = view.read_file(path)
        finally:
            uploads.discard(path)  # read (and kept in the cache by its path): not kept on disk
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return None
    st.caption(
        t("fill.read", file=md(upload.name), pods=fmt_number(pods), rejected=report.rejected)
    )
    for examples in report.examples.values():
        for example in examples:
            where = t(
                "fill.rejected",
                row=example.row,
                column=md(example.column),
                message=note_md(example.message),
            )
            st.caption(where)
    return str(path), True


def cluster_or_stop(working: Scenario) -> None:
    """Say which cluster the test fills; stop when the working scenario has none."""
    if working.cluster is None:
        st.warning(t("fill.no_cluster"), icon=":material/lan:")
        st.page_link("pages/cluster.py", label=t("fill.cluster_link"), icon=":material/tune:")
        st.stop()
    try:
        nodes = view.nodes_of(working.cluster)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        st.stop()
    gpus = fmt_number(sum(node[2] for node in nodes))
    groups = view.node_groups(nodes)
    st.info(
        md(t("fill.cluster", nodes=fmt_number(len(nodes)), gpus=gpus, groups=groups)),
        icon=":material/lan:",
    )
    st.page_link("pages/cluster.py", label=t("fill.cluster_link"), icon=":material/tune:")


def settings() -> tuple[tuple[Placement, ...], int, float]:
    names = {p: view.placement_name(p) for p in PLACEMENTS}
    placements = st.multiselect(
        t("fill.placements"),
        PLACEMENTS,
        default=view.DEFAULT_PLACEMENTS,
        format_func=names.__getitem__,
        help=t("fill.placements_help"),
        key="fill_placements",
    )
    left, right = st.columns(2)
    seeds = left.slider(
        t("fill.seeds"), 1, MAX_SEEDS_HERE, 3, help=t("fill.seeds_help"), key="fill_seeds"
    )
    until = right.number_input(
        t("fill.until"), 0.1, 3.0, 1.3, step=0.1, help=t("fill.until_help"), key="fill_until"
    )
    return tuple(placements), int(seeds), float(until)


def run_button(request: view.FillRequest) -> view.FillRequest | None:
    """The request to show: the one just asked for, else the last one (None: never run)."""
    if st.button(t("fill.run"), type="primary", icon=":material/play_arrow:", key="fill_run"):
        if not request.placements:
            st.warning(t("fill.pick_one"))
            return None
        st.session_state[REQUEST_KEY] = request
    shown: view.FillRequest | None = st.session_state.get(REQUEST_KEY)
    if shown is not None and shown != request:
        st.caption(t("fill.stale"))
    return shown


def results(request: view.FillRequest) -> None:
    """Peak allocation per placement, the chart, the table and the download."""
    try:
        with st.spinner(t("fill.running", percent=""), show_time=True):
            found = view.run(request)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return
    _peaks(found)
    plot(st, view.figure(view.curves(found)), key="fill_chart")
    st.caption(t("fill.table_caption"))
    st.dataframe(view.table(found), hide_index=True, placeholder=MISSING)
    st.download_button(
        t("fill.download"),
        view.curves_csv(found),
        file_name="fill-curves.csv",
        mime="text/csv",
        on_click="ignore",
        icon=":material/download:",
        key="fill_download",
    )


def _peaks(found: Sequence[FillResult]) -> None:
    columns = st.columns(len(found))
    for column, result in zip(columns, found, strict=True):
        column.metric(
            t("fill.peak", placement=view.placement_name(result.placement)),
            fmt_percent(view.peak(result), 1),
            help=t("fill.peak_help", skipped=fmt_number(result.skipped_pods, 1)),
        )
