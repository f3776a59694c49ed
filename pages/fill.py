"""Fill test: how full the working cluster gets with a workload's pods under each placement
(the fragmentation study's protocol, `planner fill`); pod lists without times work here."""

import streamlit as st

from planner.ui import fill_page as section
from planner.ui import fill_view as view
from planner.ui import frame
from planner.ui.i18n import t
from planner.ui.state import working_scenario

frame.require_menu()

st.title(t("fill.title"))
st.caption(t("fill.intro"))
working = working_scenario()
section.cluster_or_stop(working)
source = section.pods_source()
placements, seeds, until = section.settings()
if source is not None and working.cluster is not None:
    request = view.FillRequest(
        source=source[0],
        from_file=source[1],
        cluster_json=working.cluster.model_dump_json(),
        placements=placements,
        seeds=seeds,
        until=until,
    )
    shown = section.run_button(request)
    if shown is not None:
        section.results(shown)
