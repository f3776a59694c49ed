"""Capacity: how many servers? Cost against p95 wait over a sweep of the cluster's size (and
of the hybrid's burst threshold)."""

import streamlit as st

from planner.core.errors import PlannerError
from planner.ui import capacity_view as view
from planner.ui import frame
from planner.ui.i18n import fmt_number, language, reporting_currency, t
from planner.ui.overview_view import fx_rate
from planner.ui.safe import md
from planner.ui.widgets import plot

frame.require_menu()

lang = language()  # bound here: widgets' format functions also run outside this script
RESULT = "capacity_result"  # the last sweep: (inputs, rows, currency)

st.title(t("capacity.title"))
st.caption(t("capacity.caption"))
source = st.selectbox(t("capacity.scenario"), view.scenarios(), key="capacity_scenario")
try:
    scenario = view.compare_view.load_bundled(source)
except PlannerError as err:
    st.error(md(err), icon=":material/error:")
    st.stop()
for missing, key in ((not scenario.trace, "no_trace"), (not scenario.self_hosted, "no_servers")):
    if missing:
        st.info(t(f"capacity.{key}", source=source), icon=":material/info:")
        st.stop()

pool_index = 0
if len(scenario.self_hosted) > 1:
    pool_index = st.selectbox(
        t("capacity.pool"),
        range(len(scenario.self_hosted)),
        format_func=lambda k: view.pool_label(scenario, k, lang),
        help=t("capacity.pool_help"),
        key="capacity_pool",
    )
pool = scenario.self_hosted[pool_index]
counts_col, target_col, horizon_col = st.columns([2, 1, 1])
text = counts_col.text_input(
    t("capacity.counts", gpu=pool.gpu, servers=fmt_number(pool.servers)),
    ", ".join(str(n) for n in view.default_counts(pool.servers)),
    help=t("capacity.counts_help", max=view.MAX_POINTS),
    key="capacity_range",
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
        ", ".join(f"{h:g}" for h in view.default_thresholds(scenario.hybrid.burst_after_s / 3600)),
        help=t("capacity.burst_help", max=view.MAX_POINTS),
        key="capacity_thresholds",
    )

try:
    counts = view.parse_counts(text)
    thresholds = [] if burst_text is None else view.parse_thresholds(burst_text)
    view.check_runs(counts, thresholds)
except PlannerError as err:
    st.error(md(err), icon=":material/error:")
    st.stop()

st.caption(view.runs_note(counts, thresholds, lang))
inputs = (source, pool_index, tuple(counts), tuple(thresholds))
if st.button(t("capacity.run"), type="primary", key="capacity_run"):
    bar = st.progress(0.0, text=t("capacity.progress_start"))

    def advance(done: int, total: int) -> None:
        bar.progress(done / total, text=t("capacity.progress", done=done, total=total))

    try:
        rows, currency = view.sweep(scenario, counts, thresholds, on_point=advance, pool=pool_index)
    except PlannerError as err:
        bar.empty()
        st.error(t("capacity.sweep_failed", error=md(err)), icon=":material/error:")
        st.stop()
    bar.empty()
    st.session_state[RESULT] = (inputs, rows, currency)

result = st.session_state.get(RESULT)
if result is None or result[0] != inputs:
    st.info(t("capacity.press_run"), icon=":material/play_arrow:")
    st.stop()

_, all_rows, swept_in = result
reporting = reporting_currency()
rate = fx_rate(swept_in, reporting, scenario.fx_date)
currency = reporting if rate is not None else swept_in
rows = view.convert(view.for_horizon(all_rows, years), rate or 1.0)
fixed = view.held_fixed(scenario, pool_index, lang)
answer = view.sentence(rows, target, currency, lang, swept=pool.gpu if fixed else "", fixed=fixed)
st.info(answer, icon=":material/lightbulb:")
if swept_in != reporting:
    key = "capacity.converted" if rate is not None else "capacity.not_converted"
    st.caption(t(key, source=swept_in, target=reporting))
plot(st, view.chart(rows, target, currency, years, lang), key="capacity_chart")
st.dataframe(view.table(rows, years, currency, lang), hide_index=True, key="capacity_points")
