"""The Capacity page's sizing search: a wait target (p95, mean or p99 wait of the scenario's
scope or of one team) read from widgets, the fewest servers of the pool picked meeting it
found by `planner sweep --target`'s search (`capacity_store.search`), with a progress line
per point tried, and its answer, points and chart (`capacity_search_view`)."""

import math
from dataclasses import dataclass

import streamlit as st

from planner.core.errors import PlannerError
from planner.cost.scenario import MAX_SERVERS, TcoScenario
from planner.service.sweep_point import PointResult
from planner.service.sweep_search import GROWTH, STATS, Target
from planner.ui import capacity_bound_view as bound_view
from planner.ui import capacity_search_view as view
from planner.ui import capacity_store as store
from planner.ui.cache import trace_summary
from planner.ui.capacity_page import Source, money_rate
from planner.ui.cost_charts import option_label
from planner.ui.i18n import Language, fmt_number, t
from planner.ui.safe import md
from planner.ui.widgets import plot

RESULT = "capacity_search_result"  # the last search: (Asked, Found)
TEAM_OWN = ""  # the team picker's "the scenario's own scope"


@dataclass(frozen=True, slots=True)
class Asked:
    """What a search's answer depends on."""

    scenario: TcoScenario
    """The scenario, its wait scope set to the team picked."""
    trace_id: str
    pool: int
    target: Target
    unit: str


def tab(source: Source, pool: int, lang: Language) -> Asked:
    """The search's inputs, its Search button and the last answer for these inputs; the
    inputs (the cheapest mix below meets the same target)."""
    st.caption(t("capacity.search_caption", growth=GROWTH))
    asked = _asked(source, pool, lang)
    if st.button(t("capacity.search_run"), type="primary", key="capacity_search_run"):
        _run(asked, lang)
    _show(asked, lang)
    return asked


def _asked(source: Source, pool: int, lang: Language) -> Asked:
    scenario = source.scenario
    stat_col, value_col, unit_col, option_col, team_col = st.columns([2, 1, 1, 2, 2])
    stat = stat_col.selectbox(
        t("capacity.search_stat"), list(STATS),
        format_func=lambda s: t(f"capacity.stat.{s}", lang), key="capacity_search_stat",
    )  # fmt: skip
    value = value_col.number_input(
        t("capacity.search_value"), min_value=0.0, value=1.0, step=0.5,
        key="capacity_search_value",
    )  # fmt: skip
    unit = unit_col.selectbox(
        t("capacity.search_unit"), list(view.UNITS), index=1,
        format_func=lambda u: t(f"capacity.unit.{u}", lang), key="capacity_search_unit",
    )  # fmt: skip
    owned = ["self-hosted", *(["hybrid"] if scenario.hybrid is not None else [])]
    option = option_col.selectbox(
        t("capacity.search_option"), owned,
        format_func=lambda o: option_label(o, lang), key="capacity_search_option",
    )  # fmt: skip
    teams = [TEAM_OWN, *sorted(trace_summary(source.trace["trace_id"]).by_queue)]
    own = t("capacity.search_team_own", lang, scope=view.scope_words(scenario.wait_scope, lang))
    team = team_col.selectbox(
        t("capacity.search_team"), teams, help=t("capacity.search_team_help"),
        format_func=lambda q: own if q == TEAM_OWN else q, key="capacity_search_team",
    )  # fmt: skip
    if team != TEAM_OWN:
        scenario = scenario.model_copy(update={"wait_scope": f"team:{team}"})
    target = Target(stat, value * view.UNITS[unit], option)
    return Asked(scenario, source.trace["trace_id"], pool, target, unit)


def _run(asked: Asked, lang: Language) -> None:
    """Search with a progress line per point tried; keeps the answer for `asked` in the
    session, or shows why there is none."""
    steps: list[tuple[int, bool]] = []
    ceiling = min(asked.scenario.self_hosted[asked.pool].servers * GROWTH, MAX_SERVERS)
    most = int(math.log2(GROWTH)) + 1 + math.ceil(math.log2(max(ceiling, 2)))
    bar = st.progress(0.0, text=t("capacity.search_progress_start"))

    def tried(result: PointResult, met: bool) -> None:
        steps.append((view.servers_of(result), met))
        wait = asked.target.wait_of(result)
        text = t(
            "capacity.search_progress",
            lang,
            points=len(steps),
            servers=f"{steps[-1][0]:,}",
            wait="–" if wait is None else fmt_number(wait / 3600, 2),
            verdict=t("capacity.search_meets" if met else "capacity.search_misses", lang),
        )
        bar.progress(min(len(steps) / most, 1.0), text=text)

    try:
        found, bound = store.search(asked.scenario, asked.trace_id, asked.pool, asked.target, tried)
    except PlannerError as err:
        bar.empty()
        st.error(t("capacity.search_failed", error=md(err)), icon=":material/error:")
        return
    bar.empty()
    mine = tuple(steps[: len(found.tried)])  # then the search without the largest jobs'
    shown = view.Found(found, asked.target, asked.unit, mine, asked.scenario, asked.pool, bound)
    st.session_state[RESULT] = (asked, shown)


def _show(asked: Asked, lang: Language) -> None:
    result = st.session_state.get(RESULT)
    if result is None or result[0] != asked:
        st.info(t("capacity.search_press"), icon=":material/play_arrow:")
        return
    found: view.Found = result[1]
    tried = found.search.tried
    swept_in = tried[0].currency if tried else asked.scenario.currency.upper()
    currency, rate = money_rate(swept_in, asked.scenario)
    st.info(md(view.sentence(found, currency, lang)), icon=":material/lightbulb:")
    if found.bound is not None:
        st.info(md(bound_view.sentence(found.bound, lang)), icon=":material/straighten:")
        if found.bound.aside:
            st.dataframe(
                bound_view.aside_table(found.bound, lang),
                hide_index=True,
                key="capacity_search_aside",
            )
    st.caption(md(view.steps_note(found.steps, lang)))
    figure = view.chart(found, currency, lang)
    if figure is None:
        st.caption(t("capacity.search_no_chart"))
    else:
        plot(st, figure, key="capacity_search_chart")
    st.dataframe(
        view.table(found, currency, rate, lang), hide_index=True, key="capacity_search_points"
    )
