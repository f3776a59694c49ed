"""Capacity: how many servers? For a saved or bundled scenario on a stored trace, with demand
growing or not: cost against p95 wait over a grid of one pool's sizes (and of the hybrid's
burst threshold), the fewest servers meeting a wait target by search, and a Monte Carlo of
the stored points' NPVs over price paths."""

from dataclasses import replace

import streamlit as st

from planner.ui import capacity_growth as growth
from planner.ui import capacity_mc as mc
from planner.ui import capacity_mix as mix
from planner.ui import capacity_page as step
from planner.ui import capacity_search as search
from planner.ui import frame
from planner.ui.i18n import language, t

frame.require_menu()

lang = language()  # bound here: widgets' format functions also run outside this script

st.title(t("capacity.title"))
st.caption(t("capacity.caption"))
source = step.source_or_stop(lang)
pool_index = step.pool_picked(source.scenario, lang)
rate_col, seed_col, horizon_col = st.columns(3)
source = replace(source, scenario=growth.grown_or_stop(source.scenario, rate_col, seed_col))
scenario = source.scenario
years = horizon_col.selectbox(
    t("capacity.horizon"),
    scenario.horizons_years,
    format_func=lambda y: t("capacity.years", lang, years=f"{y:g}"),
    key="capacity_horizon",
)
st.caption(growth.replayed(scenario, lang))
grid_tab, search_tab, mc_tab = st.tabs(
    [t("capacity.tab_grid"), t("capacity.tab_search"), t("capacity.tab_mc")]
)
with grid_tab:
    inputs = step.grid(source, pool_index, years, lang)
with search_tab:
    mix.section(search.tab(source, pool_index, lang), lang)
with mc_tab:
    mc.tab(scenario, source.trace["trace_id"], inputs, years, lang)
