"""Overview: what the planner answers, the working scenario, the last comparison's headline
answer, the next step, and the job histories stored so far."""

import streamlit as st

from planner.core.errors import PlannerError
from planner.ui import cache, compare_kept, compare_view, frame, state, trace_choice, working_names
from planner.ui import overview_view as view
from planner.ui.i18n import MISSING, fmt_number, language, t
from planner.ui.safe import md

frame.require_menu()

DAY_S = 86_400
LINKS = ("history", "cluster", "replay", "compare", "capacity")
SAMPLE_TCO = "sample-tco.yaml"  # priced for the headline until this session compares


st.title(t("overview.title"))
st.markdown(t("overview.intro"))

st.header(t("overview.scenario_header"))
st.markdown(view.scenario_summary(working_names.in_use(state.working_scenario()), language()))

st.header(t("overview.answer_header"))
last = st.session_state.get(view.COMPARE_KEY)
if last is None:  # a new session: the comparison kept from an earlier one, if any
    with st.spinner(t("overview.kept_pricing")):
        last = compare_kept.priced()
    if last is not None:
        st.session_state[view.COMPARE_KEY] = last
if last is None:
    # No comparison of the user's own yet: a big answer for the synthetic sample would read
    # as theirs, so the sample's answer stays a labelled example, folded away.
    st.info(t("overview.no_answer"), icon=":material/info:")
    if cache.SAMPLE_TRACE.is_file():
        with st.expander(t("overview.sample_example", file=SAMPLE_TCO)):
            try:
                with st.spinner(t("overview.sample_pricing")):
                    sample = compare_view.run(compare_view.load_bundled(SAMPLE_TCO))
                view.show_example(sample.report)
            except PlannerError as err:
                st.caption(t("overview.sample_failed", error=md(err)))
    answered = False
else:
    answered = view.show_headline(last)

st.header(t("overview.next_header"))
st.markdown(t("overview.next.with_answer" if answered else "overview.next.no_answer"))
for name in LINKS:
    st.page_link(f"pages/{name}.py", label=t(f"overview.link.{name}"))

st.header(t("overview.traces_header"))
sample_id, traces = trace_choice.stored_or_stop("overview", error_key="overview.db_error")
labels = trace_choice.labels(traces, "overview")
trace_id = trace_choice.select(t("overview.trace"), labels, sample_id, "trace_select")
try:
    stats = cache.trace_summary(trace_id)
except PlannerError as err:
    st.error(t("overview.db_error", error=md(err)), icon=":material/error:")
    st.stop()

if trace_id == sample_id:
    st.caption(t("overview.sample_caption"))
jobs, gpu_hours, span = st.columns(3)
jobs.metric(t("overview.jobs"), fmt_number(stats.jobs))
gpu_hours.metric(t("overview.gpu_hours"), fmt_number(stats.gpu_hours))
span.metric(t("overview.span_days"), fmt_number(stats.span_s / DAY_S, 1))

by_size, by_queue = st.columns(2)
by_size.subheader(t("overview.by_size"))
by_size.dataframe(
    view.group_rows(stats.by_gpu_count, t("overview.gpus_per_job")),
    hide_index=True,
    placeholder=MISSING,
)
by_queue.subheader(t("overview.by_queue"))
by_queue.dataframe(
    view.group_rows(stats.by_queue, t("overview.queue")), hide_index=True, placeholder=MISSING
)
