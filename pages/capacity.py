"""Capacity: how many servers? Cost against p95 wait over a sweep of one pool's size (and of
the hybrid's burst threshold), for a saved or bundled scenario on a stored trace."""

import streamlit as st

from planner.ui import capacity_page as step
from planner.ui import capacity_view as view
from planner.ui import frame
from planner.ui.i18n import fmt_number, language, t
from planner.ui.safe import md

frame.require_menu()

lang = language()  # bound here: widgets' format functions also run outside this script

st.title(t("capacity.title"))
st.caption(t("capacity.caption"))
source = step.source_or_stop(lang)
scenario = source.scenario
pool_index = step.pool_picked(scenario, lang)
pool = scenario.self_hosted[pool_index]
step.fill_defaults(scenario, pool_index)
counts_col, target_col, horizon_col = st.columns([2, 1, 1])
text = counts_col.text_input(
    t("capacity.counts", gpu=md(pool.gpu), servers=fmt_number(pool.servers)),
    help=t("capacity.counts_help", max=view.MAX_POINTS),
    key=step.COUNTS,
)
target = target_col.number_input(
    t("capacity.target"),
    min_value=0.0,
    value=1.0,
    step=0.25,
    help=t("capacity.target_help"),
    key="capacity_target",
)
years = horizon_col.selectbox(
    t("capacity.horizon"),
    scenario.horizons_years,
    format_func=lambda y: t("capacity.years", lang, years=f"{y:g}"),
    key="capacity_horizon",
)
burst_text = None
if scenario.hybrid is not None:
    burst_text = st.text_input(
        t("capacity.burst"),
        help=t("capacity.burst_help", max=view.MAX_POINTS),
        key=step.THRESHOLDS,
    )

counts, thresholds = step.points_or_stop(text, burst_text)
st.caption(view.runs_note(counts, thresholds, lang))
inputs = step.Inputs(scenario, pool_index, tuple(counts), tuple(thresholds))
if st.button(t("capacity.run"), type="primary", key="capacity_run"):
    step.run_sweep(inputs)
step.answer(source, inputs, target, years, lang)
