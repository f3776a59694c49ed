"""The Capacity page's steps: load a bundled scenario, check the sweep's inputs, run the sweep
with a progress bar, and show its answer. Each draws its output and calls `capacity_view`.
"""

from collections.abc import Sequence

import streamlit as st

from planner.core.errors import PlannerError
from planner.cost.scenario import TcoScenario
from planner.ui import capacity_view as view
from planner.ui import compare_view
from planner.ui.i18n import MISSING, Language, reporting_currency, t
from planner.ui.overview_view import fx_rate
from planner.ui.safe import md
from planner.ui.widgets import plot

RESULT = "capacity_result"  # the last sweep: (inputs, rows, currency)
Inputs = tuple[str, int, tuple[int, ...], tuple[float, ...]]
"""What a sweep's rows depend on: scenario file, pool number, server counts, thresholds."""


def scenario_or_stop(source: str) -> TcoScenario:
    """The bundled scenario `source`; stops the page on an error or when it has no trace or
    no self-hosted servers to sweep."""
    try:
        scenario = compare_view.load_bundled(source)
    except PlannerError as err:
        st.error(md(err), icon=":material/error:")
        st.stop()
    for missing, key in (
        (not scenario.trace, "no_trace"),
        (not scenario.self_hosted, "no_servers"),
    ):
        if missing:
            st.info(t(f"capacity.{key}", source=source), icon=":material/info:")
            st.stop()
    return scenario


def points_or_stop(text: str, burst_text: str | None) -> tuple[list[int], list[float]]:
    """Server counts and burst thresholds read from their inputs; stops on a bad input or a
    sweep too large."""
    try:
        counts = view.parse_counts(text)
        thresholds = [] if burst_text is None else view.parse_thresholds(burst_text)
        view.check_runs(counts, thresholds)
    except PlannerError as err:
        st.error(md(err), icon=":material/error:")
        st.stop()
    return counts, thresholds


def run_sweep(
    scenario: TcoScenario, counts: Sequence[int], thresholds: Sequence[float], inputs: Inputs
) -> None:
    """Price every point with a progress bar; keeps the rows for `inputs` in the session,
    or shows the error and stops."""
    bar = st.progress(0.0, text=t("capacity.progress_start"))

    def advance(done: int, total: int) -> None:
        bar.progress(done / total, text=t("capacity.progress", done=done, total=total))

    try:
        rows, currency = view.sweep(scenario, counts, thresholds, on_point=advance, pool=inputs[1])
    except PlannerError as err:
        bar.empty()
        st.error(t("capacity.sweep_failed", error=md(err)), icon=":material/error:")
        st.stop()
    bar.empty()
    st.session_state[RESULT] = (inputs, rows, currency)


def result_or_stop(inputs: Inputs) -> tuple[list[view.Row], str]:
    """The last sweep's rows and currency, if it was run on `inputs`; else ask for a run and
    stop."""
    result = st.session_state.get(RESULT)
    if result is None or result[0] != inputs:
        st.info(t("capacity.press_run"), icon=":material/play_arrow:")
        st.stop()
    _, rows, swept_in = result
    return rows, swept_in


def answer(
    scenario: TcoScenario, inputs: Inputs, target: float, years: float, lang: Language
) -> None:
    """The sweep's answer in a sentence, in the reporting currency where a rate allows, then
    its chart and table."""
    all_rows, swept_in = result_or_stop(inputs)
    pool_index = inputs[1]
    reporting = reporting_currency()
    rate = fx_rate(swept_in, reporting, scenario.fx_date)
    currency = reporting if rate is not None else swept_in
    rows = view.convert(view.for_horizon(all_rows, years), rate or 1.0)
    fixed = view.held_fixed(scenario, pool_index, lang)
    swept = scenario.self_hosted[pool_index].gpu if fixed else ""
    text = view.sentence(rows, target, currency, lang, swept=swept, fixed=fixed)
    st.info(text, icon=":material/lightbulb:")
    if swept_in != reporting:
        key = "capacity.converted" if rate is not None else "capacity.not_converted"
        st.caption(t(key, source=swept_in, target=reporting))
    plot(st, view.chart(rows, target, currency, years, lang), key="capacity_chart")
    st.dataframe(
        view.table(rows, years, currency, lang),
        hide_index=True,
        key="capacity_points",
        placeholder=MISSING,
    )
