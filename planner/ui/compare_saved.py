"""Several saved scenarios side by side: each priced on one trace over one horizon (replay
scenarios as owning their cluster, with their whole scheduling set-up), one table, one cash
chart, the break-even and sensitivity of the first owned servers, and a conclusion.

Each scenario is priced by `compare_view.run` (cached `run_tco`), so its numbers are those
`planner tco --scenario` prints for the same file with the same trace and horizon.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

import pandas as pd

from planner.core.errors import ScenarioError
from planner.core.file_access import BUNDLED_FILES
from planner.core.notes import scenario_option
from planner.cost.finance import break_even_utilization
from planner.cost.pair import as_built
from planner.cost.results import Horizon, TcoReport, plain_report
from planner.cost.scenario import TcoScenario, tco_from_replay
from planner.cost.tco import OptionReport
from planner.engine.summary import CalibrationNote
from planner.service import scenario_store
from planner.service.replay import cluster_nodes
from planner.service.scenario_store import Kind, SavedScenario
from planner.ui import compare_view
from planner.ui.busy_view import per_busy
from planner.ui.compare_view import OWNED, BreakEven, CompareRun
from planner.ui.cost_charts import option_label
from planner.ui.i18n import Language, fmt_number, fmt_percent, note_text, t
from planner.ui.safe import md

SEPARATOR = " · "


@dataclass(frozen=True, slots=True)
class Priced:
    """One saved scenario priced on the chosen trace and horizon."""

    name: str
    kind: Kind
    scenario: TcoScenario
    run: CompareRun

    @property
    def report(self) -> TcoReport:
        return self.run.report

    @property
    def owns(self) -> bool:
        return self.report.owns_servers


def tco_of(saved: SavedScenario, trace_id: str, years: float) -> TcoScenario:
    """The TCO scenario that prices `saved` on `trace_id` over `years`."""
    parsed = scenario_store.parse(saved.yaml_text, saved.name, BUNDLED_FILES)
    if isinstance(parsed, TcoScenario):
        update = {"name": saved.name, "trace": trace_id, "horizons_years": (years,)}
        return TcoScenario.model_validate(parsed.model_dump() | update)
    if parsed.cluster is None:
        raise ScenarioError(f"'{saved.name}' has no cluster to price")
    _, nodes, _ = cluster_nodes(parsed.cluster, files=BUNDLED_FILES)
    renamed = parsed.model_copy(update={"name": saved.name})
    return tco_from_replay(renamed, nodes, trace=trace_id, horizons_years=[years])


def calibration_of(saved: SavedScenario) -> CalibrationNote | None:
    """The error bar a saved replay scenario's calibration carries (None without one)."""
    parsed = scenario_store.parse(saved.yaml_text, saved.name, BUNDLED_FILES)
    if isinstance(parsed, TcoScenario) or parsed.calibration is None:
        return None
    return parsed.calibration.error_bar()


def price(saved: Sequence[SavedScenario], trace_id: str, years: float) -> list[Priced]:
    priced = []
    for s in saved:
        scenario = tco_of(s, trace_id, years)
        priced.append(Priced(s.name, s.kind, scenario, compare_view.run(scenario)))
    return priced


def _options(p: Priced) -> tuple[OptionReport, ...]:
    return p.report.horizons[0].options


def built(p: Priced) -> tuple[OptionReport, ...]:
    """The options `p` builds, as the conclusion compares them: by the headline pair's rule
    (`planner.cost.pair.as_built`), a hybrid's owned part is not an option of its own."""
    return tuple(as_built(_options(p)))


def label(p: Priced, option: OptionReport) -> str:
    """'<scenario> · <option>' (`planner.core.notes.scenario_option`: an option name of
    ours stays coded in it, so `option_label` words it)."""
    return scenario_option(p.name, option.name)


def table(priced: Sequence[Priced], lang: Language | None = None) -> pd.DataFrame:
    """One row per scenario and option: cost per useful GPU-hour (and per busy GPU-hour when
    a scenario's busy share is known), total, waits (hours), the
    share of the demand it served and what it bought elsewhere, utilization of the owned
    GPUs (self-hosted only), currency."""
    rows = [
        {
            "scenario": p.name,
            "option": option_label(o.name, lang),
            "per_useful": o.cost_per_useful_gpu_hour,
            "per_busy": per_busy(p.report, p.report.horizons[0].years, o.name),
            "total": o.total,
            "mean_wait_h": _hours(o.wait_mean_s),
            "p95_wait_h": _hours(o.wait_p95_s),
            "served_share": o.served_share,
            "served_elsewhere": o.totals.get("served_elsewhere", 0.0),
            "utilization": p.report.allocation if o.name == "self-hosted" else None,
            "currency": p.report.currency,
        }
        for p in priced
        for o in _options(p)
    ]
    busy = ["per_busy"] if any(p.report.busy for p in priced) else []  # else no column
    columns = ["scenario", "option", "per_useful", *busy, "total", "mean_wait_h", "p95_wait_h"]
    columns += ["served_share", "served_elsewhere"]
    return pd.DataFrame(rows, columns=[*columns, "utilization", "currency"])


def _hours(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / 3600


def cash_frame(priced: Sequence[Priced]) -> pd.DataFrame:
    """Cumulative cash out by month for every option of every scenario."""
    rows = []
    for p in priced:
        for o in _options(p):
            total = 0.0
            for month, cash in enumerate(o.monthly_cash, start=1):
                total += cash
                shown = note_text(label(p, o))  # a frame keeps no coded note: worded here
                rows.append({"option": shown, "month": month, "cumulative": total})
    return pd.DataFrame(rows, columns=["option", "month", "cumulative"])


def first_owned(priced: Sequence[Priced]) -> Priced | None:
    return next((p for p in priced if p.owns), None)


def break_even_run(priced: Sequence[Priced]) -> BreakEven | None:
    """The first owned servers' F and V against every rented option of every scenario (named
    `scenario · option`), as `compare_view.break_even_frames` draws it (None without owned
    servers)."""
    owner = first_owned(priced)
    if owner is None:
        return None
    f = owner.report.fixed_per_installed_gpu_hour
    v = owner.report.variable_per_busy_gpu_hour
    prices = {
        label(p, o): o.cost_per_useful_gpu_hour
        for p in priced
        for o in _options(p)
        if o.name not in OWNED and o.cost_per_useful_gpu_hour is not None
    }
    # an owning report has both (None only where nothing is owned)
    fixed, variable = f or 0.0, v or 0.0
    evens = {name: break_even_utilization(fixed, variable, p) for name, p in prices.items()}
    return BreakEven(f, v, prices, evens)


def tornado_run(priced: Sequence[Priced]) -> CompareRun | None:
    """The sensitivity of buying the first owned servers: their own scenario's headline pair
    (`planner.cost.pair`), else against the first cloud option of another scenario."""
    owner = first_owned(priced)
    if owner is None:
        return None
    if owner.report.sensitivity:
        return owner.run
    cloud = next((c for p in priced for c in p.scenario.cloud), None)
    if cloud is None:
        return None
    with_cloud = owner.scenario.model_copy(update={"cloud": (cloud,), "hybrid": None})
    return compare_view.run(with_cloud)


def combined_report(priced: Sequence[Priced]) -> TcoReport:
    """One report holding every scenario's options (each with its `scenario`) and each
    scenario's own report (`scenarios`), for the Overview page's headline and the ledger."""
    owner = first_owned(priced)
    be = break_even_run(priced)
    options = tuple(replace(o, scenario=p.name) for p in priced for o in _options(p))
    years = priced[0].report.horizons[0].years if priced else 0.0
    found = be.break_even_utilization if be else {}
    # by the option's own name (a coded one stays coded, as the options' names are)
    evens = {
        o.name: found[label(p, o)] for p in priced for o in _options(p) if label(p, o) in found
    }
    report = plain_report(
        (Horizon(years, options, ()),),
        scenario=" vs ".join(p.name for p in priced),
        currency=priced[0].report.currency if priced else "USD",
        allocation=owner.report.allocation if owner else None,
        break_even_utilization=evens,
    )
    return replace(report, scenarios=tuple(p.report for p in priced))


def conclusion(priced: Sequence[Priced], lang: Language | None = None) -> str:
    """The cheapest option per useful GPU-hour over the horizon, by how much against the
    next, what it does to waits, and where owning breaks even; options as `built`."""
    ranked = sorted(
        (
            (o.cost_per_useful_gpu_hour, p, o)
            for p in priced
            for o in built(p)
            if o.cost_per_useful_gpu_hour is not None
        ),
        key=lambda row: row[0],
    )
    if not ranked:
        return ""
    cost, best, top = ranked[0]
    cur = best.report.currency
    years = best.report.horizons[0].years
    text = [
        t(
            "compare.m_cheapest",
            lang,
            years=fmt_number(years, 0 if years == int(years) else 1, cur),
            name=md(option_label(top.name, lang)),
            scenario=md(best.name),
            cost=compare_view.money(cost, cur),
            total=compare_view.money(top.total, cur, 0),
        )
    ]
    if len(ranked) == 1:
        text.append(t("compare.m_alone", lang))
    else:
        next_cost, runner, second = ranked[1]
        gap = next_cost - cost
        text.append(
            t(
                "compare.m_next",
                lang,
                gap=compare_view.money(gap, cur),
                share=fmt_percent(gap / next_cost if next_cost else None, 0, cur),
                name=md(option_label(second.name, lang)),
                scenario=md(runner.name),
                cost=compare_view.money(next_cost, cur),
            )
        )
        text += _waits(top, second, lang)
    text += _break_even(priced, lang)
    return " ".join(text)


def _waits(top: OptionReport, second: OptionReport, lang: Language | None) -> list[str]:
    mine, other = top.wait_p95_s, second.wait_p95_s
    if mine is None or other is None or abs(mine - other) < 60:
        return []
    key = "compare.m_wait_worse" if mine > other else "compare.m_wait_better"
    return [t(key, lang, wait=_duration(mine, lang), other=_duration(other, lang))]


def _duration(seconds: float, lang: Language | None) -> str:
    if seconds < 3600:
        return f"{fmt_number(seconds / 60, 0)} {t('unit.min', lang)}"
    return f"{fmt_number(seconds / 3600, 1)} {t('unit.h', lang)}"


def _break_even(priced: Sequence[Priced], lang: Language | None) -> list[str]:
    owner, run = first_owned(priced), break_even_run(priced)
    if owner is None or run is None:
        return []
    known = [
        (price, k, name) for k, (name, price) in enumerate(run.prices.items()) if price is not None
    ]
    if not known:
        return []
    rival = min(known)[2]  # the cheapest cloud option, the first of equals
    be = run.break_even_utilization[rival]
    cur = owner.report.currency
    shown = md(option_label(rival, lang))
    if be is None:
        return [t("compare.m_break_even_never", lang, owner=md(owner.name), name=shown)]
    return [
        t(
            "compare.m_break_even",
            lang,
            owner=md(owner.name),
            share=fmt_percent(be, 0, cur),
            name=shown,
            allocation=fmt_percent(owner.report.allocation, 1, cur),
        )
    ]
