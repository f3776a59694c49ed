"""Overview: what the planner will answer, and the job histories stored so far."""

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from planner.errors import PlannerError
from planner.trace_stats import GroupStats
from planner.ui import cache, frame

frame.require_menu()

DAY_S = 86_400


def group_table(where: DeltaGenerator, groups: dict[str, GroupStats], label: str) -> None:
    # st.dataframe, not st.table: st.table renders cells as Markdown (">64", "team_a_b").
    rows = [
        {label: key, "Jobs": group.jobs, "GPU-hours": round(group.gpu_hours)}
        for key, group in groups.items()
    ]
    number = st.column_config.NumberColumn(format="localized")
    where.dataframe(rows, hide_index=True, column_config={"Jobs": number, "GPU-hours": number})


st.title("GPU Capacity Planner")
st.markdown(
    "Should you **buy** GPU servers, **rent** cloud GPUs, or run a **hybrid** of both? "
    "The planner answers from your own job history: it replays the jobs you actually ran on "
    "candidate clusters and prices each option."
)
st.info(
    "Upload a job history (Job history), replay it on a candidate cluster (Replay), keep "
    "the price book (Prices), price owning, renting or both (Compare) and size the cluster "
    "(Capacity); the command line does the same (`planner ingest`, `replay`, `prices`, "
    "`tco`). The cluster and policy editor and saved scenarios arrive next.",
    icon=":material/construction:",
)

st.header("Stored job histories")
try:
    sample_id = cache.sample_trace()
    traces = cache.stored_traces()
except PlannerError as err:
    st.error(str(err))
    st.stop()

if not traces:
    st.warning(
        "No job history is stored yet. Import one with `planner ingest FILE` "
        "(CSV, TSV, XLSX, Slurm sacct or openb exports)."
    )
    st.stop()

labels = {t["trace_id"]: f"{t['name']} · {t['jobs']:,} jobs · {t['trace_id']}" for t in traces}
ids = list(labels)
trace_id = st.selectbox(
    "Trace",
    ids,
    index=ids.index(sample_id) if sample_id in labels else 0,
    format_func=labels.__getitem__,
    key="trace_select",
)
try:
    stats = cache.trace_summary(trace_id)
except PlannerError as err:
    st.error(str(err))
    st.stop()

if trace_id == sample_id:
    st.caption("The bundled sample: a synthetic job history, imported on first run.")
jobs, gpu_hours, span = st.columns(3)
jobs.metric("Jobs", f"{stats.jobs:,}")
gpu_hours.metric("GPU-hours", f"{stats.gpu_hours:,.0f}")
span.metric("Span (days)", f"{stats.span_s / DAY_S:,.1f}")

by_size, by_queue = st.columns(2)
by_size.subheader("By GPUs per job")
group_table(by_size, stats.by_gpu_count, "GPUs per job")
by_queue.subheader("By queue")
group_table(by_queue, stats.by_queue, "Queue")
