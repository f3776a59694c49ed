"""The Replay page's sections: each draws its widgets and calls `replay_view`/`replay_frames`.

`pages/replay.py` calls these in order; the run itself and its tables live in `replay_view`.
"""

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import ValidationError

from planner.core.errors import PlannerError
from planner.engine.scenario import Scenario
from planner.engine.summary import ReplaySummary
from planner.ui import charts, state, trace_choice
from planner.ui import replay_frames as frames
from planner.ui import replay_view as view
from planner.ui.error_text import error_text, note_md
from planner.ui.i18n import MISSING, fmt_duration, fmt_number, fmt_percent, t
from planner.ui.safe import md
from planner.ui.text import CATALOGS
from planner.ui.widgets import plot


def stored_or_stop() -> tuple[str | None, list[dict[str, Any]], Scenario]:
    """The sample trace's id, the stored traces and the working scenario; stops the page on
    a store error or when no trace is stored."""
    try:
        working = state.working_scenario()
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        st.stop()
    sample_id, traces = trace_choice.stored_or_stop("replay")
    return sample_id, traces, working


def pick_trace(labels: Mapping[str, str], sample_id: str | None) -> str:
    """The trace to replay: the session's chosen one (picked or imported on any page), else
    the sample's."""
    return trace_choice.select(t("replay.trace"), labels, sample_id, "replay_trace")


def requested_or_stop() -> Scenario:
    """The scenario of the last Run; without one, say why nothing shows and stop."""
    scenario = view.requested_run()
    if scenario is None:
        if view.was_cancelled():
            st.warning(t("replay.cancelled"), icon=":material/cancel:")
        else:
            st.info(t("replay.press_run"), icon=":material/play_arrow:")
        st.stop()
    return scenario


def replay_or_stop(scenario: Scenario, trace_label: str) -> view.ReplayView:
    """The (cached) replay of `scenario`; on an error, show it and stop."""
    try:
        return view.replay_with_progress(scenario, trace_label)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        st.stop()
    except ValidationError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        st.stop()


def results_header(run: view.ReplayView, trace_label: str, *, stale: bool) -> None:
    """Heading, caption, notes and stop alerts of the run shown."""
    s = run.summary
    st.header(t("replay.results"))
    st.caption(view.run_caption(trace_label, s))
    if stale:
        st.info(t("replay.stale"), icon=":material/update:")
    cpu_jobs = view.cpu_only_started(s)
    if cpu_jobs:
        st.caption(t("replay.cpu_jobs_scope", jobs=fmt_number(cpu_jobs)))
    for note in run.notes:
        st.caption(t("replay.note", note=note_md(note)))
    for alert in view.stop_alerts(s):
        st.error(alert, icon=":material/block:")


def headline(s: ReplaySummary) -> None:
    """Whose waits to show, then the row of headline metrics."""
    # Labels made now, in the session's language: Streamlit may call format_func later.
    names = {scope: view.wait_scope_label(scope) for scope in view.wait_scopes(s)}
    scope = st.selectbox(
        t("replay.wait_scope"),
        list(names),
        format_func=names.__getitem__,
        help=t("replay.wait_scope_help"),
        key="replay_wait_scope",
    )
    waits = view.scoped_waits(s, scope)
    util, completed, unschedulable, mean_wait, p95_wait = st.columns(5)
    util.metric(
        t("replay.utilization"), fmt_percent(s.utilization), help=t("replay.utilization_help")
    )
    completed.metric(
        t("replay.completed"),
        fmt_number(s.completed),
        help=t(
            "replay.completed_help",
            jobs=fmt_number(s.jobs),
            useful=fmt_number(s.useful_gpu_hours, 1),
        ),
    )
    unschedulable.metric(
        t("replay.unschedulable"),
        fmt_number(s.unschedulable),
        help=t("replay.unschedulable_help"),
    )
    started = t("replay.wait_scope_started", jobs=fmt_number(waits.jobs))
    mean_wait.metric(t("replay.mean_wait"), fmt_duration(waits.mean), help=started)
    p95_wait.metric(t("replay.p95_wait"), fmt_duration(waits.p95), help=started)
    withdrawn = view.withdrawn_caption(s)
    if withdrawn is not None:
        st.caption(withdrawn)


def timeline_charts(run: view.ReplayView) -> None:
    """Allocated GPUs, queue length and fragmentation over time."""
    allocation = frames.allocation_frame(run.timeline)
    fig = charts.allocated_gpus(allocation, run.summary.gpu_capacity_by_pool)
    plot(st, fig, key="replay_allocated")
    plot(st, charts.queue_length(frames.queue_frame(run.timeline)), key="replay_queue")
    fig = charts.fragmentation(frames.fragmentation_frame(run.timeline))
    plot(st, fig, key="replay_fragmentation")
    st.caption(t("replay.frag_caption"))


def wait_charts(s: ReplaySummary) -> None:
    """Waits by job size and by team, then why jobs waited."""
    st.subheader(t("replay.waits"))
    left, right = st.columns(2)
    plot(left, charts.wait_by_size(frames.wait_by_size_frame(s)), key="replay_wait_size")
    plot(right, charts.wait_by_team(frames.wait_by_team_frame(s)), key="replay_wait_team")

    st.subheader(t("replay.why"))
    reasons = frames.waiting_by_reason_frame(s)
    if reasons.empty:
        st.success(t("replay.no_wait"), icon=":material/check_circle:")
        return
    left, right = st.columns(2)
    plot(left, charts.waiting_by_reason(reasons), key="replay_reasons")
    fig = charts.waiting_by_reason_per_team(frames.waiting_by_reason_team_frame(s))
    plot(right, fig, key="replay_reasons_team")


def queue_charts(s: ReplaySummary) -> None:
    """Preemptions and borrowing by Kueue queue, or why there are none."""
    st.subheader(t("replay.queues"))
    preemptions = frames.preemptions_frame(s)
    if not frames.has_queues(s) and preemptions.empty:
        st.info(t("replay.no_queues"), icon=":material/info:")
        return
    left, right = st.columns(2)
    plot(left, charts.preemptions_by_queue(preemptions), key="replay_preemptions")
    if frames.has_queues(s):
        fig = charts.borrowing_by_queue(frames.borrowing_frame(s))
        plot(right, fig, key="replay_borrowing")
    else:
        right.info(t("replay.no_borrowing"), icon=":material/info:")


def job_filter(jobs: pd.DataFrame) -> view.JobFilter:
    """The per-job table's filters: queues, statuses and a least wait in minutes."""
    by_queue, by_status, by_wait = st.columns(3)
    # Labels made now, in the session's language: Streamlit may call format_func later.
    statuses = {status: _status(status) for status in sorted(jobs["status"].unique())}
    return view.JobFilter(
        queues=tuple(
            by_queue.multiselect(
                t("replay.filter_queue"),
                sorted(jobs["queue"].unique()),
                placeholder=t("replay.filter_all"),
                key="replay_filter_queue",
            )
        ),
        statuses=tuple(
            by_status.multiselect(
                t("replay.filter_status"),
                list(statuses),
                format_func=statuses.__getitem__,
                placeholder=t("replay.filter_all"),
                key="replay_filter_status",
            )
        ),
        min_wait_s=60.0
        * by_wait.number_input(
            t("replay.filter_min_wait"),
            min_value=0.0,
            value=0.0,
            step=10.0,
            key="replay_filter_wait",
        ),
    )


def _status(status: str) -> str:
    """A job status in the session's language (the table and CSV keep the code)."""
    key = f"labels.status.{status}"
    return t(key) if key in CATALOGS["en"] else status


def job_table(run: view.ReplayView) -> None:
    """The per-job table, filtered, with the full and the filtered schedule as CSV."""
    jobs = run.schedule
    keep = job_filter(jobs)
    mask = view.job_mask(jobs, keep)
    shown = jobs[mask] if keep.active else jobs
    st.caption(t("replay.rows", shown=fmt_number(len(shown)), total=fmt_number(len(jobs))))
    headers = {c: st.column_config.Column(t(f"labels.job.{c}")) for c in shown.columns}
    st.dataframe(shown, hide_index=True, column_config=headers, placeholder=MISSING)
    full, filtered = st.columns(2)
    full.download_button(
        t("replay.download_full"),
        run.schedule_csv,
        file_name=f"schedule-{run.trace_id}.csv",
        mime="text/csv",
        on_click="ignore",
        icon=":material/download:",
        key="replay_download",
    )
    if keep.active:
        filtered.download_button(
            t("replay.download_filtered", rows=fmt_number(len(shown))),
            view.filtered_csv(run.schedule_csv, mask),
            file_name=f"schedule-{run.trace_id}-filtered.csv",
            mime="text/csv",
            on_click="ignore",
            icon=":material/filter_alt:",
            key="replay_download_filtered",
        )
