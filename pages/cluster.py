"""Cluster & policy: edit the working scenario the Replay page runs (nodes, scheduler,
queues, priorities, GPU sharing, colocation), import nodes or queues, see it as YAML."""

import streamlit as st

from planner.ui import cluster_queues, frame, scenario_box, working_names
from planner.ui import cluster_sections as sections
from planner.ui import cluster_view as view
from planner.ui.cluster_build import build_scenario
from planner.ui.i18n import language, t
from planner.ui.replay_view import default_scenario
from planner.ui.safe import md
from planner.ui.state import replace_and_rerun, show_flash, working_scenario

frame.require_menu()

lang = language()
base = working_scenario()
st.title(t("cluster.title"))
st.caption(t("cluster.intro"))
st.info(md(view.scenario_summary(base, lang)), icon=":material/lan:")
show_flash()

tabs = st.tabs([t(f"cluster.tab.{name}") for name in view.TABS])
with tabs[0]:
    pools, nodes = sections.pools(base)
gpus = view.gpu_totals(pools, nodes)
gpu_types = list(gpus)
with tabs[1]:
    policy = sections.policy(base)
with tabs[2]:
    queues = cluster_queues.queues(base, gpus, policy)
with tabs[3]:
    priorities = sections.priorities(base)
with tabs[4]:
    sharing = sections.sharing(base, gpu_types)
with tabs[5]:
    colocation = sections.colocation(base, gpu_types)
    overhead = sections.overhead(base)
edits = view.Edits(
    pools=pools,
    nodes=nodes,
    policy=policy,
    sharing=sharing,
    colocation=colocation,
    overhead=overhead,
    **queues,
    **priorities,
)

apply_col, reset_col = st.columns([1, 4])
if apply_col.button(
    t("cluster.apply"), type="primary", icon=":material/done_all:", key="cluster_apply"
):
    scenario, problems = build_scenario(base, edits)
    for problem in problems:
        st.error(problem, icon=":material/error:")
    if scenario is not None:
        replace_and_rerun(scenario, t("cluster.applied"))
if reset_col.button(t("cluster.reset"), icon=":material/restart_alt:", key="cluster_reset"):
    replace_and_rerun(default_scenario(), t("cluster.reset_done"))

with st.expander(t("cluster.saved.title"), icon=":material/bookmarks:"):
    st.caption(t("cluster.saved.caption"))
    named = working_names.in_use(base)  # the trace and cluster in use, not the sample's names
    scenario_box.save_form("replay", view.scenario_yaml(named), None, named.trace, "cluster_save")
    scenario_box.library("cluster_library")

with st.expander(t("cluster.yaml.title"), icon=":material/code:"):
    st.caption(t("cluster.yaml.caption"))
    text = view.scenario_yaml(working_names.in_use(base))
    st.code(text, language="yaml")
    st.download_button(
        t("cluster.yaml.download"),
        text,
        file_name="scenario.yaml",
        mime="application/yaml",
        on_click="ignore",
        icon=":material/download:",
        key="cluster_download",
    )
