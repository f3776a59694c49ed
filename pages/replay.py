"""Replay: a stored job history on a candidate cluster, and why jobs waited."""

import streamlit as st

from planner.cluster import PLACEMENTS
from planner.errors import PlannerError
from planner.policy import ADMISSION_HELP, ADMISSIONS, PLACEMENT_HELP, QUEUEING_HELP, QUEUEINGS
from planner.ui import cache, charts, frame, widgets
from planner.ui import replay_view as view

frame.require_menu()

SCENARIO_KEY = "replay_scenario"  # the scenario of the last Run, shown until the next one

st.title("Replay")
st.caption(
    "Replay a job history through the scheduler on a cluster you describe: how busy the "
    "GPUs are, how long jobs wait, and why. The same run as `planner replay`."
)
try:
    sample_id = cache.sample_trace()
    traces = cache.stored_traces()
    base = view.default_scenario()
except PlannerError as err:
    st.error(str(err), icon=":material/error:")
    st.stop()
if not traces:
    st.warning("No job history is stored yet. Import one with `planner ingest FILE`.")
    st.stop()

labels = {t["trace_id"]: f"{t['name']} · {t['jobs']:,} jobs · {t['trace_id']}" for t in traces}
ids = list(labels)
with st.form("replay_form", border=False):
    trace_id = st.selectbox(
        "Trace",
        ids,
        ids.index(sample_id) if sample_id in labels else 0,
        labels.__getitem__,
        key="replay_trace",
    )
    st.markdown("**Node pools**")
    pools = widgets.pool_editor(view.pool_rows(base.cluster), key="replay_pools")
    admission, placement, queueing, seed = st.columns(4)
    b = base.policy
    policy = {
        "admission": widgets.choice(
            admission, "Admission", ADMISSIONS, b.admission, ADMISSION_HELP, key="replay_admission"
        ),
        "placement": widgets.choice(
            placement, "Placement", PLACEMENTS, b.placement, PLACEMENT_HELP, key="replay_placement"
        ),
        "queueing": widgets.choice(
            queueing, "Queueing", QUEUEINGS, b.queueing, QUEUEING_HELP, key="replay_queueing"
        ),
        "seed": seed.number_input(
            "Seed",
            min_value=0,
            value=b.seed,
            step=1,
            help="random placement and backoff jitter draw from this seed",
            key="replay_seed",
        ),
    }
    if st.form_submit_button("Run", type="primary", icon=":material/play_arrow:", key="replay_run"):
        try:
            st.session_state[SCENARIO_KEY] = view.build_scenario(trace_id, pools, policy, base)
        except PlannerError as err:
            st.session_state.pop(SCENARIO_KEY, None)
            st.error(str(err), icon=":material/error:")
            st.stop()

scenario = st.session_state.get(SCENARIO_KEY)
if scenario is None:
    st.info("Describe the cluster and press **Run**.", icon=":material/play_arrow:")
    st.stop()
try:
    with st.spinner(f"Replaying {labels.get(scenario.trace, scenario.trace)}…"):
        run = view.replay(scenario)
except PlannerError as err:
    st.error(str(err), icon=":material/error:")
    st.stop()

s = run.summary
st.header("Results")
st.caption(view.run_caption(labels.get(scenario.trace, scenario.trace), s))
for note in run.notes:
    st.caption(f"note: {note}")
util, completed, unschedulable, mean_wait, p95_wait = st.columns(5)
util.metric("Utilization", "n/a" if s["utilization"] is None else f"{s['utilization']:.1%}")
completed.metric("Completed", f"{s['completed']:,}", help=f"of {s['jobs']:,} jobs")
unschedulable.metric("Unschedulable", f"{s['unschedulable']:,}", help="can never fit")
mean_wait.metric("Mean wait", view.duration_text(s["wait_s"]["mean"]))
p95_wait.metric("p95 wait", view.duration_text(s["wait_s"]["p95"]))

allocation = view.allocation_frame(run.timeline)
fig = charts.allocated_gpus(allocation, s["gpu_capacity_by_pool"])
st.plotly_chart(fig, key="replay_allocated")
st.plotly_chart(charts.queue_length(view.queue_frame(run.timeline)), key="replay_queue")
left, right = st.columns(2)
left.plotly_chart(charts.wait_by_size(view.wait_by_size_frame(s)), key="replay_wait_size")
reasons = view.waiting_by_reason_frame(s)
if reasons.empty:
    right.success("No job waited.", icon=":material/check_circle:")
else:
    right.plotly_chart(charts.waiting_by_reason(reasons), key="replay_reasons")

st.subheader("Jobs")
st.dataframe(run.schedule, hide_index=True)
st.download_button(
    "Download the schedule (CSV)",
    run.schedule_csv,
    file_name=f"schedule-{run.trace_id}.csv",
    mime="text/csv",
    on_click="ignore",
    icon=":material/download:",
    key="replay_download",
)
