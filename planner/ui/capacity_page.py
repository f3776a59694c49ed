"""The Capacity page's steps: pick a scenario (saved, working or bundled) and a stored
trace, check the sweep's inputs, run the sweep with a progress bar (its points priced and
stored as `planner sweep` stores them: `capacity_store`; points stored before are read back),
and show its answer. Each draws its output and calls `capacity_view` (the rows' answers),
`capacity_store` (the stored points) or `capacity_sources` (what can be swept).
"""

from dataclasses import dataclass
from typing import Any

import streamlit as st

from planner.core.errors import PlannerError
from planner.cost.scenario import TcoScenario
from planner.engine.scenario import Scenario
from planner.service.scenario_store import SavedScenario
from planner.ui import capacity_sources as sources
from planner.ui import capacity_store as store
from planner.ui import capacity_view as view
from planner.ui import scenario_box, state, trace_choice, working_names
from planner.ui.i18n import MISSING, Language, fmt_number, reporting_currency, t
from planner.ui.overview_view import fx_rate
from planner.ui.replay_view import default_scenario
from planner.ui.safe import md
from planner.ui.widgets import plot

RESULT = "capacity_result"  # the last sweep: (inputs, rows, currency)
COUNTS, THRESHOLDS = "capacity_range", "capacity_thresholds"  # the sweep's text inputs
DEFAULTS = "capacity_defaults"  # the defaults the inputs were last filled with


@dataclass(frozen=True, slots=True)
class Inputs:
    """What a sweep's rows depend on: the scenario (on its trace), the pool sized, the server
    counts and burst thresholds."""

    scenario: TcoScenario
    pool: int
    counts: tuple[int, ...]
    thresholds: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Source:
    """The scenario to sweep on the chosen trace, with the words that name both."""

    scenario: TcoScenario
    label: str
    trace: dict[str, Any]
    """The stored trace's row (trace_id, name, jobs, gpu_hours, ...)."""

    def origin(self, lang: Language) -> str:
        """'Swept: NAME (saved), replaying TRACE · ID (N jobs).', user names escaped."""
        trace = f"{self.trace['name']} · {self.trace['trace_id']}"
        return t(
            "capacity.swept_from",
            lang,
            scenario=md(self.label),
            trace=md(trace),
            jobs=fmt_number(self.trace["jobs"]),
        )


def source_or_stop(lang: Language) -> Source:
    """The scenario and trace picked side by side (the trace the session's chosen one);
    stops with the reason when nothing can be swept."""
    saved = _saved_or_stop()
    working = own_working()
    options = sources.choices(saved, working)
    names = sources.labels(options, lang, working.name if working is not None else "")
    scenario_col, trace_col = st.columns(2)
    choice = scenario_col.selectbox(
        t("capacity.scenario"), options, format_func=names.__getitem__,
        help=t("capacity.scenario_help"), key="capacity_scenario",
    )  # fmt: skip
    with trace_col:
        trace = trace_or_stop()
    try:
        scenario = sources.load(choice, saved, trace["trace_id"], working)
    except PlannerError as err:
        error = t("capacity.cannot_load", source=md(names[choice]), error=md(err))
        st.error(error, icon=":material/error:")
        st.stop()
    if not scenario.self_hosted:
        st.info(t("capacity.no_servers", source=md(names[choice])), icon=":material/info:")
        st.stop()
    return Source(scenario, names[choice], trace)


def own_working() -> Scenario | None:
    """The working scenario of the Cluster & policy page, named for what is in use, once the
    user has changed it (the untouched sample is not theirs: the bundled scenarios hold it)."""
    working = state.working_scenario()
    if working == default_scenario() or working.cluster is None:
        return None
    return working_names.in_use(working)


def _saved_or_stop() -> list[SavedScenario]:
    try:
        return scenario_box.saved_scenarios()
    except PlannerError as err:
        st.error(md(err), icon=":material/error:")
        st.stop()


def trace_or_stop() -> dict[str, Any]:
    """The stored trace picked (starting at the session's chosen one); stops when none is
    stored or the one picked has no GPU jobs to replay."""
    sample_id, traces = trace_choice.stored_or_stop("capacity")
    labels = trace_choice.labels(traces, "capacity")
    picked = trace_choice.select(t("capacity.trace"), labels, sample_id, "capacity_trace")
    row = next(r for r in traces if r["trace_id"] == picked)
    name = md(f"{row['name']} · {row['trace_id']}")
    for empty, key in ((not row["jobs"], "no_jobs"), (not row["gpu_hours"], "no_gpu_jobs")):
        if empty:
            st.info(t(f"capacity.{key}", trace=name), icon=":material/info:")
            st.stop()
    return row


def pool_picked(scenario: TcoScenario, lang: Language) -> int:
    """The self-hosted pool to size: the only one, or the one picked, the others said to be
    held as they are."""
    if len(scenario.self_hosted) == 1:
        return 0
    index: int = st.selectbox(
        t("capacity.pool"), range(len(scenario.self_hosted)),
        format_func=lambda k: view.pool_label(scenario, k, lang),
        help=t("capacity.pool_help"), key="capacity_pool",
    )  # fmt: skip
    st.caption(t("capacity.held", fixed=md(view.held_fixed(scenario, index, lang))))
    return index


def fill_defaults(scenario: TcoScenario, pool: int) -> None:
    """Start the server counts (halvings of the pool's servers) and the hybrid's thresholds
    afresh when another scenario or pool changes them: 1 to 128 servers makes no
    sense for a pool of 4. A user's own edits stay while the defaults do."""
    counts = ", ".join(str(n) for n in view.default_counts(scenario.self_hosted[pool].servers))
    hybrid = scenario.hybrid
    hours = view.default_thresholds(hybrid.burst_after_s / 3600) if hybrid is not None else []
    thresholds = ", ".join(f"{h:g}" for h in hours)
    changed = st.session_state.get(DEFAULTS) != (counts, thresholds)
    st.session_state[DEFAULTS] = (counts, thresholds)
    # a widget's value is forgotten in runs that do not draw it (no hybrid, another page)
    for key, value in ((COUNTS, counts), (THRESHOLDS, thresholds)):
        if value and (changed or key not in st.session_state):
            st.session_state[key] = value


def points_or_none(text: str, burst_text: str | None) -> tuple[list[int], list[float]] | None:
    """Server counts and burst thresholds read from their inputs; None (the error shown) on a
    bad input or a sweep too large."""
    try:
        counts = view.parse_counts(text)
        thresholds = [] if burst_text is None else view.parse_thresholds(burst_text)
        view.check_runs(counts, thresholds)
    except PlannerError as err:
        st.error(md(err), icon=":material/error:")
        return None
    return counts, thresholds


def grid(source: Source, pool_index: int, years: float, lang: Language) -> Inputs | None:
    """The grid sweep's inputs, its Run button and its answer; the inputs (None when they
    are wrong, the reason shown)."""
    scenario = source.scenario
    pool = scenario.self_hosted[pool_index]
    fill_defaults(scenario, pool_index)
    counts_col, target_col = st.columns([3, 1])
    text = counts_col.text_input(
        t("capacity.counts", gpu=md(pool.gpu), servers=fmt_number(pool.servers)),
        help=t("capacity.counts_help", max=view.MAX_POINTS), key=COUNTS,
    )  # fmt: skip
    target = target_col.number_input(
        t("capacity.target"), min_value=0.0, value=1.0, step=0.25,
        help=t("capacity.target_help"), key="capacity_target",
    )  # fmt: skip
    burst_text = None
    if scenario.hybrid is not None:
        burst_text = st.text_input(
            t("capacity.burst"), help=t("capacity.burst_help", max=view.MAX_POINTS), key=THRESHOLDS
        )
    reopen(scenario, pool_index)
    points = points_or_none(text, burst_text)
    if points is None:
        return None
    counts, thresholds = points
    st.caption(view.runs_note(counts, thresholds, lang))
    inputs = Inputs(scenario, pool_index, tuple(counts), tuple(thresholds))
    if st.button(t("capacity.run"), type="primary", key="capacity_run") and not run_sweep(inputs):
        return inputs
    answer(source, inputs, target, years, lang)
    return inputs


def reopen(scenario: TcoScenario, pool: int) -> None:
    """Say which grid points are stored today for the scenario on its trace, with a button
    filling the inputs with them (Run then reads them back, pricing none)."""
    counts, hours = store.stored_grid(scenario, str(scenario.trace), pool)
    if not counts:
        st.caption(t("capacity.stored_none"))
        return
    counts_text = ", ".join(str(n) for n in counts)
    hours_text = ", ".join(f"{h:g}" for h in hours)
    key = "capacity.stored_hybrid" if hours else "capacity.stored"
    st.caption(t(key, counts=counts_text, hours=hours_text))
    fill = {COUNTS: counts_text} | ({THRESHOLDS: hours_text} if hours and scenario.hybrid else {})
    # a callback: it runs before the inputs are drawn, the only time their values may change
    st.button(t("capacity.reopen"), key="capacity_reopen", on_click=_fill, args=(fill,))


def _fill(values: dict[str, str]) -> None:
    st.session_state.update(values)


def run_sweep(inputs: Inputs) -> bool:
    """Price the points not stored yet with a progress bar, read every point back and keep
    their rows for `inputs` in the session, or show the error (False)."""
    bar = st.progress(0.0, text=t("capacity.progress_start"))

    def advance(done: int, total: int) -> None:
        bar.progress(done / total, text=t("capacity.progress", done=done, total=total))

    scenario = inputs.scenario
    points = store.grid_points(scenario, inputs.pool, inputs.counts, inputs.thresholds)
    try:
        outcome = store.store_points(scenario, str(scenario.trace), points, advance)
    except PlannerError as err:
        bar.empty()
        st.error(t("capacity.sweep_failed", error=md(err)), icon=":material/error:")
        return False
    bar.empty()
    own = scenario.hybrid.burst_after_s / 3600 if scenario.hybrid is not None else None
    rows = view.rows_of(outcome.results, own)
    currency = outcome.results[0].currency if outcome.results else scenario.currency.upper()
    stored = len(points) - outcome.computed
    st.session_state[RESULT] = (inputs, rows, currency, (outcome.computed, stored))
    return True


def result_for(inputs: Inputs) -> tuple[list[view.Row], str, tuple[int, int]] | None:
    """The last sweep's rows, currency and (points priced, points read back), if it was run
    on `inputs`."""
    result = st.session_state.get(RESULT)
    if result is None or result[0] != inputs:
        return None
    _, rows, swept_in, counted = result
    return rows, swept_in, counted


def money_rate(swept_in: str, scenario: TcoScenario) -> tuple[str, float]:
    """The currency amounts swept in `swept_in` are shown in (the reporting one where a rate
    is stored) and the rate to it."""
    reporting = reporting_currency()
    rate = fx_rate(swept_in, reporting, scenario.fx_date)
    return (reporting, rate) if rate is not None else (swept_in, 1.0)


def answer(source: Source, inputs: Inputs, target: float, years: float, lang: Language) -> None:
    """Where the sweep came from, its answer in a sentence, in the reporting currency where a
    rate allows, then its chart and table (or a prompt to run it)."""
    result = result_for(inputs)
    if result is None:
        st.info(t("capacity.press_run"), icon=":material/play_arrow:")
        return
    all_rows, swept_in, (computed, stored) = result
    scenario, pool_index = inputs.scenario, inputs.pool
    currency, rate = money_rate(swept_in, scenario)
    rows = view.convert(view.for_horizon(all_rows, years), rate)
    fixed = view.held_fixed(scenario, pool_index, lang)
    swept = scenario.self_hosted[pool_index].gpu if fixed else ""
    text = view.sentence(rows, target, currency, lang, swept=swept, fixed=fixed)
    st.caption(source.origin(lang))
    st.caption(t("capacity.priced_stored", computed=computed, stored=stored))
    st.info(md(text), icon=":material/lightbulb:")  # option names are the user's
    reporting = reporting_currency()
    if swept_in != reporting:
        key = "capacity.converted" if currency == reporting else "capacity.not_converted"
        st.caption(t(key, source=swept_in, target=reporting))
    plot(st, view.chart(rows, target, currency, years, lang), key="capacity_chart")
    st.dataframe(
        view.table(rows, years, currency, lang),
        hide_index=True,
        key="capacity_points",
        placeholder=MISSING,
    )
    st.caption(t("capacity.table_note"))
