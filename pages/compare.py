"""Compare: owning, renting and a hybrid side by side, from one TCO scenario."""

import streamlit as st

from planner.errors import PlannerError
from planner.ui import charts, frame
from planner.ui import compare_view as view

frame.require_menu()

UPLOAD = "Upload a scenario (YAML)…"

st.title("Compare")
st.caption(
    "Own, rent or both: every option of a TCO scenario priced on the same demand, over each "
    "horizon. The same numbers as `planner tco --scenario FILE`."
)
choices = [*view.bundled_scenarios(), UPLOAD]
source = st.selectbox("Scenario", choices, key="compare_scenario")
try:
    if source == UPLOAD:
        upload = st.file_uploader(
            "TCO scenario",
            type=["yaml", "yml"],
            max_upload_size=view.MAX_UPLOAD_MB,
            help="A relative `trace:` path is looked up beside the bundled scenarios.",
            key="compare_upload",
        )
        if upload is None:
            st.info("Upload a TCO scenario (`self_hosted:`, `cloud:`, ...).")
            st.stop()
        if upload.size > view.MAX_UPLOAD_MB * 1024 * 1024:
            st.error(f"{upload.name} is larger than {view.MAX_UPLOAD_MB} MB.")
            st.stop()
        scenario = view.parse_scenario(upload.getvalue().decode("utf-8", "replace"), upload.name)
    else:
        scenario = view.load_bundled(source)
    with st.spinner("Pricing the options…"):
        run = view.run(scenario)
except PlannerError as err:
    st.error(str(err), icon=":material/error:")
    st.stop()

report, cur = run.report, run.report["currency"]
years = [h["years"] for h in report["horizons"]]
horizon = st.selectbox(
    "Horizon", range(len(years)), format_func=lambda i: f"{years[i]:g} years", key="compare_horizon"
)
options = report["horizons"][horizon]["options"]
own, best = options[0], view.cheapest(options)
st.header(report["scenario"] or "TCO")
st.caption(
    f"{report['installed_gpus']:,} owned GPUs at {report['allocation']:.1%} allocation, "
    f"{report['useful_gpu_hours_per_month']:,.0f} useful GPU-hours a month."
)
installed, allocated, useful, cheapest = st.columns(4)
installed.metric("Per installed GPU-hour", view.money(own["cost_per_installed_gpu_hour"], cur))
allocated.metric("Per allocated GPU-hour", view.money(own["cost_per_allocated_gpu_hour"], cur))
useful.metric("Per useful GPU-hour", view.money(own["cost_per_useful_gpu_hour"], cur))
cheapest.metric(
    "Cheapest option",
    best["name"] if best else "n/a",
    help=None if best is None else view.money(best["cost_per_useful_gpu_hour"], cur),
)
st.info(view.conclusion(report, horizon), icon=":material/lightbulb:")
warnings, remarks = view.notes(report)
for warning in warnings:
    st.warning(warning, icon=":material/warning:")
for remark in remarks:
    st.caption(f"note: {remark}")

money = st.column_config.NumberColumn
st.dataframe(
    view.options_frame(report, horizon),
    hide_index=True,
    column_config={
        "Total": money(f"Total ({cur})", format="%,.0f"),
        "Per useful GPU-hour": money(f"Per useful GPU-hour ({cur})", format="%.2f"),
        "Mean wait (h)": money(format="%.2f"),
        "p95 wait (h)": money(format="%.2f"),
        "EAC (per year)": money(f"EAC ({cur} a year)", format="%,.0f"),
    },
    key="compare_options",
)
st.plotly_chart(charts.cumulative_cash(view.cash_frame(report, horizon), cur), key="compare_cash")
curve, clouds = view.break_even_frames(run, horizon)
if clouds.empty:
    st.caption("No cloud option: no break-even to draw.")
else:
    fig = charts.break_even(curve, clouds, report["allocation"], cur)
    st.plotly_chart(fig, key="compare_break_even")
sensitivity = report["sensitivity"]
if sensitivity:
    title = f"Sensitivity: {sensitivity['output']} (each driver ±{scenario.sensitivity_swing:.0%})"
    fig = charts.tornado(view.tornado_frame(report), sensitivity["base"], title, cur)
    st.plotly_chart(fig, key="compare_tornado")
