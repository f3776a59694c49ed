"""The Capacity page's Monte Carlo: the inputs of `planner montecarlo` (draws, seed, the
drivers' trends and spreads) read from widgets; on Run, the grid's points not stored yet are
priced and stored (with a progress bar), then every point stored for the scenario on the trace
today is re-priced over the same seeded price paths (`capacity_store.montecarlo`), and the
NPV distributions shown (`capacity_mc_view`)."""

from dataclasses import dataclass

import streamlit as st

from planner.core.errors import PlannerError
from planner.cost.montecarlo_paths import Driver, PathSpec
from planner.cost.scenario import TcoScenario
from planner.service.montecarlo import MAX_DRAWS, McReport, McSettings, SweepMc
from planner.service.sweep_keys import Point
from planner.ui import capacity_mc_view as view
from planner.ui import capacity_store as store
from planner.ui.capacity_page import Inputs, money_rate
from planner.ui.capacity_view import short
from planner.ui.i18n import Language, note_text, t
from planner.ui.safe import md
from planner.ui.widgets import plot

RESULT = "capacity_mc_result"  # the last Monte Carlo: (Asked, SweepMc)
# the drivers' inputs in percent a year: (key, default), the defaults `planner montecarlo`'s
_DRIVERS = (
    ("cloud_trend", -20.0),
    ("cloud_vol", 15.0),
    ("electricity_trend", 3.0),
    ("electricity_vol", 10.0),
    ("server_sd", 10.0),
    ("demand_sd", None),  # empty: the service's (the twin check's error, else its default)
)


@dataclass(frozen=True, slots=True)
class Asked:
    """What a Monte Carlo's figures depend on."""

    scenario: TcoScenario
    trace_id: str
    points: tuple[Point, ...]
    """The grid's points, stored before the Monte Carlo reads every stored point."""
    settings: McSettings


def tab(
    scenario: TcoScenario, trace_id: str, grid: Inputs | None, years: float, lang: Language
) -> None:
    """The Monte Carlo's inputs, its Run button and the last figures for these inputs."""
    st.caption(t("capacity.mc_caption"))
    settings = _settings_or_none()
    if settings is None:
        return
    points = (
        [] if grid is None else store.grid_points(scenario, grid.pool, grid.counts, grid.thresholds)
    )
    st.caption(t("capacity.mc_points", points=len(points)))
    asked = Asked(scenario, trace_id, tuple(points), settings)
    if st.button(t("capacity.mc_run"), type="primary", key="capacity_mc_run"):
        _run(asked)
    _show(asked, years, lang)


def _settings_or_none() -> McSettings | None:
    draws_col, seed_col = st.columns(2)
    draws = draws_col.number_input(
        t("capacity.mc_draws"), min_value=1, max_value=MAX_DRAWS, value=1000, step=100,
        key="capacity_mc_draws",
    )  # fmt: skip
    seed = seed_col.number_input(
        t("capacity.mc_seed"), min_value=0, value=0, step=1, key="capacity_mc_seed"
    )
    cells = [col for _ in range(2) for col in st.columns(3)]  # two rows of three
    given = {
        name: cell.number_input(
            t(f"capacity.mc_{name}"), value=default, step=1.0, key=f"capacity_mc_{name}",
            placeholder=t("capacity.mc_demand_default"),
        )
        for cell, (name, default) in zip(cells, _DRIVERS, strict=True)
    }  # fmt: skip
    percent = {name: value / 100 for name, value in given.items() if value is not None}
    demand = percent.get("demand_sd")
    try:
        paths = PathSpec(
            cloud=Driver(trend=percent["cloud_trend"], volatility=percent["cloud_vol"]),
            electricity=Driver(
                trend=percent["electricity_trend"], volatility=percent["electricity_vol"]
            ),
            server=Driver(level_sd=percent["server_sd"]),
            **({} if demand is None else {"demand": Driver(level_sd=demand)}),
        )
    except PlannerError as err:
        st.error(t("capacity.mc_bad_driver", error=md(err)), icon=":material/error:")
        return None
    return McSettings(int(draws), int(seed), paths)


def _run(asked: Asked) -> None:
    """Store the grid's points (a progress bar while they are priced), then the Monte Carlo
    of every stored point; keeps it for `asked` in the session, or shows why not."""
    bar = st.progress(0.0, text=t("capacity.mc_progress_start"))

    def advance(done: int, total: int) -> None:
        bar.progress(done / total, text=t("capacity.progress", done=done, total=total))

    try:
        store.store_points(asked.scenario, asked.trace_id, asked.points, advance)
        bar.progress(1.0, text=t("capacity.mc_progress_draws", draws=f"{asked.settings.draws:,}"))
        found = store.montecarlo(asked.scenario, asked.trace_id, asked.settings)
    except PlannerError as err:
        bar.empty()
        st.error(t("capacity.mc_failed", error=md(err)), icon=":material/error:")
        return
    bar.empty()
    st.session_state[RESULT] = (asked, found)


def _distribution(
    reports: list[McReport], years: float, money: tuple[str, float], lang: Language, gpu: str
) -> None:
    """One point's NPV histogram per option (the point picked), its caption and the chance
    owning beats renting in a sentence."""
    currency, rate = money
    labels = [view.point_label(r, currency, lang, gpu) for r in reports]
    index: int = st.selectbox(
        t("capacity.mc_point"), range(len(reports)), format_func=labels.__getitem__,
        key="capacity_mc_point",
    )  # fmt: skip
    report = reports[min(index, len(reports) - 1)]
    figure = view.histogram(report, years, currency, rate, lang)
    if figure is None:
        st.info(t("capacity.mc_no_draws", years=short(years, currency)), icon=":material/info:")
        return
    plot(st, figure, key="capacity_mc_histogram")
    st.caption(t("capacity.mc_hist_caption"))
    sentence = view.wins_sentence(report, years, currency, lang, first_gpu=gpu)
    if sentence:
        st.info(md(sentence), icon=":material/lightbulb:")  # option names are the user's


def _show(asked: Asked, years: float, lang: Language) -> None:
    result = st.session_state.get(RESULT)
    if result is None or result[0] != asked:
        st.info(t("capacity.mc_press"), icon=":material/play_arrow:")
        return
    found: SweepMc = result[1]
    for note in found.notes:
        st.caption(md(note_text(note, lang)))
    if not found.points:
        st.info(t("capacity.mc_nothing"), icon=":material/info:")
        return
    reports = view.ordered(found.points)
    currency, rate = money_rate(reports[0].currency, asked.scenario)
    gpu = asked.scenario.self_hosted[0].gpu  # whose servers a `servers` key counts
    figure = view.chart(reports, years, currency, rate, lang, first_gpu=gpu)
    if figure is None:
        st.info(t("capacity.mc_no_horizon", years=years), icon=":material/info:")
        return
    plot(st, figure, key="capacity_mc_chart")
    _distribution(reports, years, (currency, rate), lang, gpu)
    st.dataframe(
        view.quantiles(reports, years, currency, rate, lang, first_gpu=gpu),
        hide_index=True,
        key="capacity_mc_npv",
    )
    wins = view.owning_wins(reports, years, currency, rate, lang, first_gpu=gpu)
    if wins.empty:
        st.caption(t("capacity.mc_no_wins"))
    else:
        st.dataframe(wins, hide_index=True, key="capacity_mc_wins")
