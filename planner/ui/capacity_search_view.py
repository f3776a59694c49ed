"""What the Capacity page shows of a sizing search (`planner.service.sweep_search`): the answer
in a sentence (the pools held said), the points tried in the order the search tried them
(bracketing from the scenario's count, then bisecting) and a chart of their waits against
the target. Nothing here draws a widget."""

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from planner.cost.scenario import TcoScenario
from planner.service.sweep_bound import Bound
from planner.service.sweep_point import PointResult
from planner.service.sweep_search import GROWTH, Search, Target
from planner.ui.capacity_view import held_fixed, short
from planner.ui.charts import MEASURE, TEMPLATE
from planner.ui.cost_charts import option_label
from planner.ui.i18n import Language, fmt_money, fmt_number, t

UNITS = {"m": 60.0, "h": 3600.0, "d": 86_400.0}
"""The target's units on the page, in seconds."""
_MEETS, _MISSES = "#15803D", "#B91C1C"


@dataclass(frozen=True, slots=True)
class Found:
    """A search with what the page says about it."""

    search: Search
    target: Target
    unit: str
    """The unit the target was given in (a key of UNITS)."""
    steps: tuple[tuple[int, bool], ...]
    """Server counts in the order the search tried them, each with whether it met the
    target when tried."""
    scenario: TcoScenario
    """The scenario searched (its wait scope, its pools)."""
    pool: int
    bound: Bound | None = None
    """What binds the answer (None for a hybrid)."""


def servers_of(result: PointResult) -> int:
    """The count a search point sized (the search's key comes first)."""
    return int(result.point[0][1])  # type: ignore[arg-type]


def target_text(found: Found, currency: str, lang: Language) -> str:
    """'p95 wait of at most 1 h' in `lang`, the value written as it was given."""
    return target_words(found.target, found.unit, currency, lang)


def target_words(target: Target, unit: str, currency: str, lang: Language) -> str:
    """`target` in `lang` in the `unit` it was given in, decimals in `currency`'s style."""
    value = target.seconds / UNITS[unit]
    return t(
        "capacity.search_target_text",
        lang,
        stat=t(f"capacity.stat.{target.stat}", lang),
        value=short(round(value, 6), currency),
        unit=t(f"capacity.unit_short.{unit}", lang),
    )


def scope_words(wait_scope: str, lang: Language) -> str:
    """Whose waits: GPU jobs, all jobs, or one team's (the team's name as it is)."""
    if wait_scope.startswith("team:"):
        return t("capacity.scope_team", lang, team=wait_scope.removeprefix("team:"))
    return t(f"capacity.scope.{wait_scope}", lang)


def sentence(found: Found, currency: str, lang: Language) -> str:
    """The answer (or that no count up to the ceiling meets the target), how the search got
    there, the pools it held, and the jobs no count runs; user names as they are (escape
    the whole before Markdown)."""
    search, scenario = found.search, found.scenario
    gpu = scenario.self_hosted[found.pool].gpu
    words = {
        "gpu": gpu,
        "option": option_label(found.target.option, lang),
        "target": target_text(found, currency, lang),
        "scope": scope_words(scenario.wait_scope, lang),
    }
    if search.answer is None:
        text = t("capacity.search_none", lang, ceiling=f"{search.ceiling:,}", **words)
    else:
        text = t("capacity.search_found", lang, servers=f"{servers_of(search.answer):,}", **words)
    start = scenario.self_hosted[found.pool].servers
    text += t("capacity.search_how", lang, points=len(search.tried), start=start, growth=GROWTH)
    held = held_fixed(scenario, found.pool, lang)
    if held:
        text += t("capacity.search_held", lang, fixed=held)
    never = _never_ran(search.answer, found.target.option)
    if never:
        text += t("capacity.search_never", lang, jobs=f"{never:,}")
    return text


def _never_ran(result: PointResult | None, option: str) -> int:
    found = result.option(option) if result is not None else None
    return 0 if found is None or found.never_ran is None else found.never_ran


def table(found: Found, currency: str, rate: float, lang: Language) -> pd.DataFrame:
    """One row per point tried, in the order tried: the count, the target's wait, the jobs
    never run, the option's total and cost per useful GPU-hour over the first horizon (in
    `currency` at `rate`), and whether it met the target."""
    by_count = {servers_of(r): r for r in found.search.tried}
    option, stat = found.target.option, found.target.stat
    rows = [(n, met, by_count[n].option(option)) for n, met in found.steps]
    years = next((o.years for _, _, o in rows if o is not None), 0.0)
    gpu = found.scenario.self_hosted[found.pool].gpu

    def money(value: float | None, digits: int) -> str:
        return fmt_money(None if value is None else value * rate, currency, digits)

    return pd.DataFrame(
        {
            t("capacity.search_col.step", lang): list(range(1, len(rows) + 1)),
            t("capacity.search_col.servers", lang, gpu=gpu): [n for n, _, _ in rows],
            t("capacity.search_col.wait", lang, stat=t(f"capacity.stat.{stat}", lang)): [
                _hours(found.target, by_count[n], currency) for n, _, _ in rows
            ],
            t("capacity.search_col.never", lang): [
                "" if o is None or o.never_ran is None else f"{o.never_ran:,}" for _, _, o in rows
            ],
            t("capacity.col.total", lang, years=short(years, currency)): [
                money(o.total if o else None, 0) for _, _, o in rows
            ],
            t("capacity.col.per_hour", lang): [
                money(o.per_useful_gpu_hour if o else None, 2) for _, _, o in rows
            ],
            t("capacity.search_col.meets", lang): [
                t("capacity.yes" if met else "capacity.no", lang) for _, met, _ in rows
            ],
        }
    )


def _hours(target: Target, result: PointResult, currency: str) -> str:
    wait = target.wait_of(result)
    return "" if wait is None else fmt_number(wait / 3600, 2, currency)


def chart(found: Found, currency: str, lang: Language) -> go.Figure | None:
    """The target's wait (hours) of each count tried, those meeting it apart from those
    missing it, numbered in the order tried, the target as a line; None when no point has a
    wait to draw (no job of the scope ran)."""
    waits = {servers_of(r): found.target.wait_of(r) for r in found.search.tried}
    if all(w is None for w in waits.values()):
        return None
    stat = t(f"capacity.stat.{found.target.stat}", lang)
    gpu = found.scenario.self_hosted[found.pool].gpu
    fig = go.Figure(layout={"template": TEMPLATE})
    verdicts = ((True, "capacity.search_meets", _MEETS), (False, "capacity.search_misses", _MISSES))
    for met, name, color in verdicts:
        steps = [(k, n) for k, (n, m) in enumerate(found.steps, start=1) if m == met]
        drawn = [(k, n) for k, n in steps if waits[n] is not None]
        if not drawn:
            continue
        fig.add_scatter(
            x=[n for _, n in drawn],
            y=[(waits[n] or 0.0) / 3600 for _, n in drawn],
            mode="markers+text",
            text=[str(k) for k, _ in drawn],
            textposition="top center",
            name=t(name, lang),
            marker={"color": color, "size": 11},
        )
    hours = found.target.seconds / 3600
    fig.add_hline(y=hours, line_dash="dot", line_color="#6B7280")
    fig.update_layout(title=t("capacity.search_chart_title", lang, stat=stat, gpu=gpu))
    fig.update_xaxes(title=t("capacity.search_col.servers", lang, gpu=gpu), rangemode="tozero")
    fig.update_yaxes(
        title=t("capacity.search_y_title", lang, stat=stat), rangemode="tozero", tickformat=MEASURE
    )
    return fig


def steps_note(steps: Sequence[tuple[int, bool]], lang: Language) -> str:
    """The counts in the order tried, each with its verdict: '128 meets → 64 misses → …'."""
    verdicts = {True: t("capacity.search_meets", lang), False: t("capacity.search_misses", lang)}
    return " → ".join(f"{n:,} {verdicts[met]}" for n, met in steps)
