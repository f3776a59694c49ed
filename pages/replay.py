"""Replay: a stored job history on the working cluster and policy, and why jobs waited."""

import streamlit as st
from pydantic import ValidationError

from planner.core.errors import PlannerError
from planner.service.replay import validation_text
from planner.service.scenario_store import to_yaml
from planner.ui import cache, charts, cluster_view, frame, scenario_box, state
from planner.ui import replay_frames as frames
from planner.ui import replay_view as view
from planner.ui.i18n import fmt_duration, fmt_number, fmt_percent, language, t
from planner.ui.safe import md
from planner.ui.widgets import plot

frame.require_menu()

st.title(t("replay.title"))
st.caption(t("replay.caption"))
try:
    sample_id = cache.sample_trace()
    traces = cache.stored_traces()
    working = state.working_scenario()
except PlannerError as err:
    st.error(md(err), icon=":material/error:")
    st.stop()
if not traces:
    st.warning(t("replay.no_traces"))
    st.stop()

labels = view.trace_labels(traces)
ids = list(labels)
default = ids.index(sample_id) if sample_id in labels else 0
trace_id = st.selectbox(t("replay.trace"), ids, default, labels.__getitem__, key="replay_trace")
st.info(md(cluster_view.scenario_summary(working, language())), icon=":material/lan:")
st.page_link("pages/cluster.py", label=t("replay.edit_cluster"), icon=":material/tune:")
if st.button(t("replay.run"), type="primary", icon=":material/play_arrow:", key="replay_run"):
    view.request_run(view.scenario_on(trace_id, working))

scenario = view.requested_run()
if scenario is None:
    if view.was_cancelled():
        st.warning(t("replay.cancelled"), icon=":material/cancel:")
    else:
        st.info(t("replay.press_run"), icon=":material/play_arrow:")
    st.stop()
trace_label = labels.get(str(scenario.trace), str(scenario.trace))
try:
    run = view.replay_with_progress(scenario, trace_label)
except PlannerError as err:
    st.error(md(err), icon=":material/error:")
    st.stop()
except ValidationError as err:
    st.error(md(validation_text(err)), icon=":material/error:")
    st.stop()

s = run.summary
st.header(t("replay.results"))
st.caption(view.run_caption(trace_label, s))
if scenario != view.scenario_on(trace_id, working):
    st.info(t("replay.stale"), icon=":material/update:")
for note in run.notes:
    st.caption(t("replay.note", note=md(note)))
for alert in view.stop_alerts(s):
    st.error(alert, icon=":material/block:")
scope = st.selectbox(
    t("replay.wait_scope"),
    view.wait_scopes(s),
    format_func=view.wait_scope_label,
    help=t("replay.wait_scope_help"),
    key="replay_wait_scope",
)
waits = view.scoped_waits(s, scope)
util, completed, unschedulable, mean_wait, p95_wait = st.columns(5)
util.metric(t("replay.utilization"), fmt_percent(s["utilization"]))
completed.metric(
    t("replay.completed"),
    fmt_number(s["completed"]),
    help=t(
        "replay.completed_help",
        jobs=fmt_number(s["jobs"]),
        useful=fmt_number(s["useful_gpu_hours"], 1),
    ),
)
unschedulable.metric(
    t("replay.unschedulable"),
    fmt_number(s["unschedulable"]),
    help=t("replay.unschedulable_help"),
)
started = t("replay.wait_scope_started", jobs=fmt_number(waits["jobs"]))
mean_wait.metric(t("replay.mean_wait"), fmt_duration(waits["mean"]), help=started)
p95_wait.metric(t("replay.p95_wait"), fmt_duration(waits["p95"]), help=started)
withdrawn = view.withdrawn_caption(s)
if withdrawn is not None:
    st.caption(withdrawn)

allocation = frames.allocation_frame(run.timeline)
fig = charts.allocated_gpus(allocation, s["gpu_capacity_by_pool"])
plot(st, fig, key="replay_allocated")
plot(st, charts.queue_length(frames.queue_frame(run.timeline)), key="replay_queue")
fig = charts.fragmentation(frames.fragmentation_frame(run.timeline))
plot(st, fig, key="replay_fragmentation")
st.caption(t("replay.frag_caption"))

st.subheader(t("replay.waits"))
left, right = st.columns(2)
plot(left, charts.wait_by_size(frames.wait_by_size_frame(s)), key="replay_wait_size")
plot(right, charts.wait_by_team(frames.wait_by_team_frame(s)), key="replay_wait_team")

st.subheader(t("replay.why"))
reasons = frames.waiting_by_reason_frame(s)
if reasons.empty:
    st.success(t("replay.no_wait"), icon=":material/check_circle:")
else:
    left, right = st.columns(2)
    plot(left, charts.waiting_by_reason(reasons), key="replay_reasons")
    fig = charts.waiting_by_reason_per_team(frames.waiting_by_reason_team_frame(s))
    plot(right, fig, key="replay_reasons_team")

st.subheader(t("replay.queues"))
preemptions = frames.preemptions_frame(s)
if not frames.has_queues(s) and preemptions.empty:
    st.info(t("replay.no_queues"), icon=":material/info:")
else:
    left, right = st.columns(2)
    plot(left, charts.preemptions_by_queue(preemptions), key="replay_preemptions")
    if frames.has_queues(s):
        fig = charts.borrowing_by_queue(frames.borrowing_frame(s))
        plot(right, fig, key="replay_borrowing")
    else:
        right.info(t("replay.no_borrowing"), icon=":material/info:")

st.subheader(t("replay.save"))
st.caption(t("replay.save_caption"))
scenario_box.save_form("replay", to_yaml(scenario, run.trace_id), s, run.trace_id, "replay_save")

st.subheader(t("replay.jobs"))
jobs = run.schedule
by_queue, by_status, by_wait = st.columns(3)
keep = view.JobFilter(
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
            sorted(jobs["status"].unique()),
            placeholder=t("replay.filter_all"),
            key="replay_filter_status",
        )
    ),
    min_wait_s=60.0
    * by_wait.number_input(
        t("replay.filter_min_wait"), min_value=0.0, value=0.0, step=10.0, key="replay_filter_wait"
    ),
)
mask = view.job_mask(jobs, keep)
shown = jobs[mask] if keep.active else jobs
st.caption(t("replay.rows", shown=fmt_number(len(shown)), total=fmt_number(len(jobs))))
st.dataframe(shown, hide_index=True)
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
