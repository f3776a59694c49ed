"""The overview page's glue: the working scenario in one line and the headline answer of the
last comparison (buy, rent or hybrid; cost per useful GPU-hour; break-even allocation).

`headline()` and `headline_lines()` are pure: they read a `TcoReport` (the one
the Compare page leaves in the session) and write sentences in the language asked for, so
tests check them on hand-made reports in both languages.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

import streamlit as st

from planner.cost.results import TcoReport
from planner.engine.scenario import Scenario
from planner.store.trace_stats import GroupStats
from planner.ui import cluster_view, ledger_view
from planner.ui.cache import cursor
from planner.ui.compare_view import ShownReport
from planner.ui.i18n import (
    Language,
    fmt_money,
    fmt_number,
    fmt_percent,
    language,
    reporting_currency,
    t,
)
from planner.ui.safe import md
from pricing import PricingError, fx_table

OWNED = ("self-hosted", "hybrid")  # the report's names of the options that own servers
COMPARE_KEY = "compare_last_report"  # a compare_view.ShownReport, from Compare
Verdict = Literal["buy", "rent", "hybrid"]


@dataclass(frozen=True, slots=True)
class Headline:
    """The cheapest option of one horizon and how owning fares against the cloud."""

    verdict: Verdict
    option: str
    per_useful_gpu_hour: float
    years: float
    scenario: str
    allocation: float | None
    rival: str | None  # the cloud option the break-even is against
    break_even: float | None  # allocation at which owning costs the same as `rival`


def headline(report: TcoReport, horizon: int = 0) -> Headline | None:
    """The answer of `report` over its `horizon`-th horizon (None when no option is priced).

    The verdict is the cheapest option per useful GPU-hour: "buy" for self-hosted, "hybrid"
    for the hybrid, "rent" for a cloud option. An option's own `scenario` (the Compare page's
    report of several saved scenarios has one per option) names it, else the report's. The
    break-even is against that cloud option when renting wins, else against the cheapest
    cloud option; none when the report has no break-even for it (no owned servers).
    """
    horizons = report.horizons
    if not 0 <= horizon < len(horizons):
        return None
    options = horizons[horizon].options
    priced = [(o.cost_per_useful_gpu_hour, k) for k, o in enumerate(options)]
    costs = sorted((cost, k) for cost, k in priced if cost is not None)
    if not costs:
        return None
    cost, first = costs[0]
    best = options[first]
    name = best.name
    verdict: Verdict = "buy" if name == "self-hosted" else "hybrid" if name == "hybrid" else "rent"
    rented = [options[k] for _, k in costs if options[k].name not in OWNED]
    rival = best if verdict == "rent" else (rented[0] if rented else None)
    break_evens = report.break_even_utilization
    rival_name = None if rival is None or rival.name not in break_evens else rival.name
    return Headline(
        verdict=verdict,
        option=name,
        per_useful_gpu_hour=float(cost),
        years=float(horizons[horizon].years),
        scenario=best.scenario or report.scenario or "",
        allocation=report.allocation,
        rival=rival_name,
        break_even=None if rival_name is None else break_evens.get(rival_name),
    )


def headline_lines(h: Headline, currency: str, lang: Language, rate: float = 1.0) -> list[str]:
    """The answer as sentences in `lang`; money times `rate`, written in `currency`."""
    cost = fmt_money(h.per_useful_gpu_hour * rate, currency)
    years = fmt_number(h.years, 0 if h.years == int(h.years) else 1, currency)
    lines = [
        t(
            f"overview.answer.{h.verdict}",
            lang,
            option=md(h.option),
            years=years,
            cost=cost,
            scenario=md(h.scenario),
        )
    ]
    if h.rival is None or h.allocation is None:
        return lines
    values = {
        "rival": md(h.rival),
        "break_even": fmt_percent(h.break_even, 1, currency),
        "allocation": fmt_percent(h.allocation, 1, currency),
    }
    if h.break_even is None:
        key = "never"
    elif h.break_even > 1:
        key = "above_full"
    else:
        key = "met" if h.allocation >= h.break_even else "short"
    lines.append(t(f"overview.be.{key}", lang, **values))
    return lines


def fx_rate(source: str, target: str, on_date: date | None = None) -> float | None:
    """How many `target` one `source` buys at the stored rates (None without a rate)."""
    if source.upper() == target.upper():
        return 1.0
    with cursor() as cur:
        table = fx_table(cur)
    try:
        return table.conversion(source, target, on_date or date.today()).rate
    except PricingError:
        return None


def scenario_summary(scenario: Scenario, lang: Language) -> str:
    """One line: the scenario's name and trace, then the Cluster & policy page's summary of its
    cluster and scheduling policy."""
    line = t(
        "overview.scenario_line",
        lang,
        trace=Path(scenario.trace).name if scenario.trace else t("overview.no_trace", lang),
        details=cluster_view.scenario_summary(scenario, lang),
    )
    if scenario.name:
        return t("overview.scenario_named", lang, name=md(scenario.name), summary=md(line))
    return md(line)


def group_rows(groups: Mapping[str, GroupStats], label: str) -> list[dict[str, object]]:
    """A trace's jobs and GPU-hours per group, with translated column names."""
    jobs, hours = t("overview.jobs"), t("overview.gpu_hours")
    return [
        {label: key, jobs: fmt_number(group.jobs), hours: fmt_number(group.gpu_hours)}
        for key, group in groups.items()
    ]


def show_headline(last: object) -> bool:
    """Show the last comparison's answer (`COMPARE_KEY`'s value); whether there was one."""
    answer = headline(last.report, last.horizon) if isinstance(last, ShownReport) else None
    if answer is None or not isinstance(last, ShownReport):
        st.info(t("overview.no_answer"), icon=":material/info:")
        return False
    report = last.report
    st.caption(t("overview.answer_from", names=md(comparison_names(report))))
    source, target = report.currency.upper(), reporting_currency()
    rate = fx_rate(source, target)
    currency = target if rate is not None else source
    verdict, cost, break_even = st.columns(3)
    verdict.metric(t("overview.verdict_label"), t(f"overview.verdict.{answer.verdict}"))
    cost.metric(
        t("overview.per_hour_label"), fmt_money(answer.per_useful_gpu_hour * (rate or 1), currency)
    )
    if answer.rival is not None:
        be = answer.break_even
        break_even.metric(
            t("overview.break_even_label"),
            t("overview.break_even_never") if be is None else fmt_percent(be, 1, currency),
            delta=None
            if answer.allocation is None
            else t("overview.allocation_delta", allocation=fmt_percent(answer.allocation)),
            delta_color="off",
            delta_arrow="off",  # a reference value, not a change
        )
    st.success("\n\n".join(headline_lines(answer, currency, language(), rate or 1)))
    if source != target:
        key = "overview.converted" if rate is not None else "overview.not_converted"
        st.caption(t(key, source=source, target=target))
    ledger_view.show_scope(report)
    if any(o.ledger is not None for h in report.horizons for o in h.options):
        with st.expander(t("overview.ledger")):
            ledger_view.show_ledger(report, last.horizon, "overview_ledger")
    return True


def comparison_names(report: TcoReport) -> str:
    """The scenario(s) a comparison priced, as the Compare page named them."""
    names = [r.scenario for r in report.scenarios] if report.scenarios else [report.scenario]
    return ", ".join(name or "-" for name in names)


def show_example(report: TcoReport) -> None:
    """The bundled sample's answer as plain sentences: an example, never a headline."""
    answer = headline(report)
    if answer is None:
        return
    st.markdown("\n\n".join(headline_lines(answer, report.currency.upper(), language())))
