"""The Capacity page's cheapest mix, under the sizing search: for a hybrid, the kept servers
of the pool picked, a cloud commitment sized from the replay's burst demand and on-demand (or
spot) overflow meeting the search's wait target, found as `planner sweep --target ... --mix`
finds it (`capacity_store.mix`), with a progress line per count tried."""

from dataclasses import replace

import streamlit as st

from planner.core.errors import PlannerError
from planner.service.sweep_mix import MixPoint
from planner.ui import capacity_mix_view as view
from planner.ui import capacity_store as store
from planner.ui.capacity_page import money_rate
from planner.ui.capacity_search import Asked
from planner.ui.capacity_search_view import scope_words, target_words
from planner.ui.i18n import Language, fmt_money, t
from planner.ui.safe import md
from planner.ui.widgets import plot

RESULT = "capacity_mix_result"  # the last mix: (Asked, Mix)


def section(asked: Asked, lang: Language) -> None:
    """The mix's button and its last answer for the search's target, or why it is not
    offered (no hybrid)."""
    scenario = asked.scenario
    st.subheader(t("capacity.mix_title"))
    if scenario.hybrid is None:
        st.caption(t("capacity.mix_no_hybrid"))
        return
    st.caption(t("capacity.mix_caption"))
    asked = replace(asked, target=replace(asked.target, option="hybrid"))
    if st.button(t("capacity.mix_run"), key="capacity_mix_run"):
        _run(asked, lang)
    _show(asked, lang)


def _run(asked: Asked, lang: Language) -> None:
    bar = st.progress(0.0, text=t("capacity.mix_progress_start"))
    count = 0

    def tried(point: MixPoint) -> None:
        nonlocal count
        count += 1
        total = fmt_money(point.total, point.result.currency, 0)
        verdict = t("capacity.search_meets" if point.meets else "capacity.search_misses", lang)
        text = t(
            "capacity.mix_progress", lang, points=count, servers=f"{point.servers:,}",
            committed=f"{point.committed_gpus:,}", total=total, verdict=verdict,
        )  # fmt: skip
        bar.progress(count / (count + 1), text=text)  # the refinement's length is not known

    try:
        found = store.mix(asked.scenario, asked.trace_id, asked.pool, asked.target, tried)
    except PlannerError as err:
        bar.empty()
        st.error(t("capacity.mix_failed", error=md(err)), icon=":material/error:")
        return
    bar.empty()
    st.session_state[RESULT] = (asked, found)


def _show(asked: Asked, lang: Language) -> None:
    result = st.session_state.get(RESULT)
    if result is None or result[0] != asked:
        st.info(t("capacity.mix_press"), icon=":material/play_arrow:")
        return
    mix = result[1]
    swept_in = mix.frontier[0].result.currency if mix.frontier else asked.scenario.currency
    currency, rate = money_rate(swept_in.upper(), asked.scenario)
    gpu = asked.scenario.self_hosted[asked.pool].gpu
    words = {
        "gpu": gpu,
        "target": target_words(asked.target, asked.unit, currency, lang),
        "scope": scope_words(asked.scenario.wait_scope, lang),
    }
    st.info(md(view.sentence(mix, words, currency, rate, lang)), icon=":material/lightbulb:")
    figure = view.chart(mix, asked.target, currency, rate, lang)
    if figure is None:
        st.caption(t("capacity.search_no_chart"))
    else:
        plot(st, figure, key="capacity_mix_chart")
    frame = view.table(mix, asked.target, currency, rate, lang, gpu=gpu)
    st.dataframe(frame, hide_index=True, key="capacity_mix_points")
    years = view.years_table(mix, currency, lang)
    if years is not None:
        st.caption(t("capacity.mix_growth"))
        st.dataframe(years, hide_index=True, key="capacity_mix_years")
