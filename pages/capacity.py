"""Capacity: how many servers? Cost against p95 wait over a sweep of the cluster's size."""

import streamlit as st

from planner.errors import PlannerError
from planner.ui import capacity_view as view
from planner.ui import frame

frame.require_menu()

RESULT = "capacity_result"  # the last sweep: (inputs, rows, currency)

st.title("Capacity")
st.caption(
    "Sweep the servers of the first self-hosted pool, replay the trace at each size and "
    "price it: total cost against the 95th-percentile wait, with the cloud options beside."
)
source = st.selectbox("Scenario", view.scenarios(), key="capacity_scenario")
try:
    scenario = view.compare_view.load_bundled(source)
except PlannerError as err:
    st.error(str(err), icon=":material/error:")
    st.stop()
if not scenario.trace:
    st.info(
        f"{source} has no trace: waits come from replaying a job history, so there is "
        "nothing to sweep. Choose a scenario with `trace:` (sample-tco.yaml).",
        icon=":material/info:",
    )
    st.stop()

pool = scenario.self_hosted[0]
counts_col, target_col, horizon_col = st.columns([2, 1, 1])
text = counts_col.text_input(
    f"{pool.gpu} servers to try (the scenario has {pool.servers:,})",
    ", ".join(str(n) for n in view.default_counts(pool.servers)),
    help=f"Up to {view.MAX_POINTS} whole numbers, separated by commas.",
    key="capacity_range",
)
target = target_col.number_input(
    "p95 wait target (hours)", min_value=0.0, value=1.0, step=0.25, key="capacity_target"
)
years = horizon_col.selectbox(
    "Horizon",
    scenario.horizons_years,
    format_func=lambda y: f"{y:g} years",
    key="capacity_horizon",
)
burst_s = None
if scenario.hybrid is not None:
    burst_h = st.number_input(
        "Hybrid: burst a job to the cloud after waiting (hours)",
        min_value=0.0,
        value=scenario.hybrid.burst_after_s / 3600,
        step=0.25,
        key="capacity_burst",
    )
    burst_s = burst_h * 3600

try:
    counts = view.parse_counts(text)
except PlannerError as err:
    st.error(str(err), icon=":material/error:")
    st.stop()

inputs = (source, tuple(counts), burst_s)
if st.button("Run sweep", type="primary", key="capacity_run"):
    bar = st.progress(0.0, text="Pricing the first size…")

    def advance(done: int, total: int) -> None:
        bar.progress(done / total, text=f"{done} of {total} sizes priced")

    try:
        rows, currency = view.sweep(scenario, counts, burst_s, on_point=advance)
    except PlannerError as err:
        bar.empty()
        st.error(str(err), icon=":material/error:")
        st.stop()
    bar.empty()
    st.session_state[RESULT] = (inputs, rows, currency)

result = st.session_state.get(RESULT)
if result is None or result[0] != inputs:
    st.info("Press **Run sweep** to price each size.", icon=":material/play_arrow:")
    st.stop()

_, all_rows, currency = result
rows = view.for_horizon(all_rows, years)
st.info(view.sentence(rows, target, currency), icon=":material/lightbulb:")
st.plotly_chart(view.chart(rows, target, currency, years), key="capacity_chart")
money = st.column_config.NumberColumn
st.dataframe(
    view.table(rows),
    hide_index=True,
    column_config={
        "Total": money(f"Total over {years:g} years ({currency})", format="%,.0f"),
        "Per useful GPU-hour": money(f"Per useful GPU-hour ({currency})", format="%.2f"),
        "p95 wait (h)": money(format="%.2f"),
    },
    key="capacity_points",
)
