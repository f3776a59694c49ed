"""Replay: a stored job history on the working cluster and policy, and why jobs waited."""

import streamlit as st

from planner.service.scenario_store import to_yaml
from planner.ui import cluster_view, frame, scenario_box, working_names
from planner.ui import replay_page as section
from planner.ui import replay_view as view
from planner.ui import twin_page as twin
from planner.ui.i18n import language, t
from planner.ui.safe import md

frame.require_menu()

st.title(t("replay.title"))
st.caption(t("replay.caption"))
sample_id, traces, working = section.stored_or_stop()
labels = view.trace_labels(traces)
trace_id = section.pick_trace(labels, sample_id)
st.info(md(cluster_view.scenario_summary(working, language())), icon=":material/lan:")
st.page_link("pages/cluster.py", label=t("replay.edit_cluster"), icon=":material/tune:")
if st.button(t("replay.run"), type="primary", icon=":material/play_arrow:", key="replay_run"):
    view.request_run(view.scenario_on(trace_id, working))

scenario = section.requested_or_stop()
trace_label = labels.get(str(scenario.trace), str(scenario.trace))
run = section.replay_or_stop(scenario, trace_label)
stale = scenario != view.scenario_on(trace_id, working)
section.results_header(run, trace_label, stale=stale)
twin.error_bar(scenario)
section.headline(run.summary)
section.timeline_charts(run)
section.wait_charts(run.summary)
section.queue_charts(run.summary)
twin.section(scenario, run.trace_id, trace_label)

st.subheader(t("replay.save"))
st.caption(t("replay.save_caption"))
yaml_text = to_yaml(working_names.in_use(scenario, run.trace_id), run.trace_id)
scenario_box.save_form("replay", yaml_text, run.summary_json, run.trace_id, "replay_save")

st.subheader(t("replay.jobs"))
section.job_table(run)
