"""The compare page's glue for one TCO scenario: a bundled file or an upload, a cached
`run_tco`, plot-ready tables and the plain-language conclusion (in the language asked for).

The report is `planner tco --json`'s, so the page and the CLI show the same numbers; it
carries F (fixed cost per installed GPU-hour) and V (energy per busy GPU-hour), the two
numbers the break-even chart draws. Several saved scenarios side by side: `compare_saved`.
"""

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd
import streamlit as st

from planner.core.errors import ScenarioError
from planner.core.file_access import BUNDLED_FILES
from planner.cost.pair import as_built, pair_of
from planner.cost.results import Horizon, TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.tco import Comparison, OptionReport
from planner.report import flips, headline
from planner.report.model import categories, category_label
from planner.report.text import text as report_text
from planner.service.tco_files import tco_scenario_from_text
from planner.service.tco_run import run_tco
from planner.store import database_path
from planner.ui.busy_view import per_busy
from planner.ui.cache import cursor
from planner.ui.cost_charts import option_label
from planner.ui.i18n import Language, fmt_money, fmt_number, fmt_percent, language, note_text, t
from planner.ui.ledger_view import is_scope_note
from planner.ui.safe import md

SCENARIOS = Path(__file__).resolve().parents[2] / "data" / "scenarios"
DEFAULT_SCENARIO = "worked-example-h100.yaml"
MAX_UPLOAD_MB = 1
WARNING_CODES = frozenset({"short_trace"})  # notes shown as warnings whatever their wording
OWNED = ("self-hosted", "hybrid")  # the report's names of the options that own servers
DRIVERS = (
    "cloud_price",
    "commit_price",
    "utilization",
    "server_price",
    "life",
    "electricity",
    "pue",
    "staff",
    "rate",
    "resale_share",
    "fx",
)
# Columns of the options table (labels come from the language catalog, `column_labels`).
COLUMNS = (
    "option",
    "total",
    "per_useful",
    "per_busy",
    "mean_wait_h",
    "p95_wait_h",
    "served_share",
    "served_elsewhere",
    "packing_overhead",
    "price_floor",
    "eac",
)


@dataclass(frozen=True, slots=True)
class CompareRun:
    """A TCO report and the break-even formula's F and V (reporting currency)."""

    report: TcoReport
    fixed_per_gpu_hour: float | None
    variable_per_gpu_hour: float | None


@dataclass(frozen=True, slots=True)
class ShownReport:
    """The report the Compare page shows and its horizon (an index into its horizons), kept
    in the session for the Overview page's headline."""

    report: TcoReport
    horizon: int = 0


def bundled_scenarios(folder: Path = SCENARIOS) -> list[str]:
    """File names of the bundled TCO scenarios (those with `self_hosted:`), default first."""
    names = sorted(
        p.name for p in folder.glob("*.yaml") if "\nself_hosted:" in p.read_text(encoding="utf-8")
    )
    return sorted(names, key=lambda name: name != DEFAULT_SCENARIO)


def bundled_files(folder: Path = SCENARIOS) -> list[str]:
    """Every bundled TCO scenario, cloud-only ones included (those with `cloud:` and no
    `cluster:`), default first."""
    names = sorted(p.name for p in folder.glob("*.yaml") if _is_tco(p.read_text(encoding="utf-8")))
    return sorted(names, key=lambda name: name != DEFAULT_SCENARIO)


def _is_tco(text: str) -> bool:
    return "\ncluster:" not in text and ("\nself_hosted:" in text or "\ncloud:" in text)


def load_bundled(name: str, folder: Path = SCENARIOS) -> TcoScenario:
    """A bundled scenario, read as `planner tco --scenario` reads it (under the app's file
    policy: its `../traces/...` stays relative to the bundled scenarios)."""
    try:
        text = (folder / name).read_text(encoding="utf-8")
    except OSError as err:
        raise ScenarioError(f"{name}: cannot read the TCO scenario: {err.strerror}") from err
    return parse_scenario(text, name)


def parse_scenario(text: str, source: str) -> TcoScenario:
    """A TCO scenario from YAML text, read as `planner tco --scenario` reads a file; its
    trace is a stored trace or a file under data/traces (a relative path starts at the
    bundled scenarios)."""
    return tco_scenario_from_text(text, source, BUNDLED_FILES)


def run(scenario: TcoScenario) -> CompareRun:
    """`run_tco` on the app's database, cached by the scenario's value, the trace file's
    content (a stored trace id is a content hash already) and today's date (prices age)."""
    return _run(str(database_path()), scenario, _trace_key(scenario.trace), date.today())


def _trace_key(trace: str | None) -> str:
    path = BUNDLED_FILES.file(trace, "trace") if trace else None
    if path is not None:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    return trace or ""


@st.cache_data(show_spinner=False, max_entries=16)
def _run(db_path: str, scenario: TcoScenario, trace_key: str, today: date) -> CompareRun:
    del trace_key  # part of the cache key only
    with cursor(db_path) as cur:
        report = run_tco(cur, scenario, files=BUNDLED_FILES, today=today)
    return CompareRun(
        report, report.fixed_per_installed_gpu_hour, report.variable_per_busy_gpu_hour
    )


def options_frame(report: TcoReport, horizon: int) -> pd.DataFrame:
    """One row per option over the horizon: total, per useful GPU-hour, waits (hours), the
    share of the demand it served and what it bought elsewhere, a cloud option's packing
    overhead and per-GPU price floor a month, EAC; the cost per busy GPU-hour when the busy
    share is known."""
    years = report.horizons[horizon].years
    clouds = report.inputs.clouds if report.inputs else ()
    packing = {c.rented.name: c.packing for c in clouds if c.packing is not None}
    rows = [
        {
            "option": note_text(o.name),  # a frame keeps no coded note: worded here
            "total": o.total,
            "per_useful": o.cost_per_useful_gpu_hour,
            "per_busy": per_busy(report, years, o.name),
            "mean_wait_h": _hours(o.wait_mean_s),
            "p95_wait_h": _hours(o.wait_p95_s),
            "served_share": o.served_share,
            "served_elsewhere": o.totals.get("served_elsewhere", 0.0),
            "packing_overhead": packing[o.name].overhead if o.name in packing else None,
            "price_floor": packing[o.name].price_floor if o.name in packing else None,
            "eac": o.equivalent_annual_cost,
        }
        for o in report.horizons[horizon].options
    ]
    # no busy share known: no column for it (the report's note says how to add one)
    return pd.DataFrame(rows, columns=[c for c in COLUMNS if c != "per_busy" or report.busy])


def category_frame(report: TcoReport, horizon: int, lang: Language) -> pd.DataFrame:
    """Each option's total by cost category over the horizon (`planner.report.model`'s
    categories and labels, as the PDF and CSV show them): one row a category."""
    options = report.horizons[horizon].options
    shown = categories([(report.scenario, report)])
    rows = [
        {
            "category": category_label(c, lang),
            **{option_label(o.name, lang): o.totals.get(c) for o in options},
        }
        for c in shown
    ]
    return pd.DataFrame(rows, columns=["category", *(option_label(o.name, lang) for o in options)])


def column_labels(currency: str) -> dict[str, str]:
    """The table's column headers in the session's language."""
    return {
        "scenario": t("compare.col_scenario"),
        "option": t("compare.col_option"),
        "total": t("compare.col_total", currency=currency),
        "per_useful": t("compare.col_per_useful", currency=currency),
        "per_busy": t("compare.col_per_busy", currency=currency),
        "mean_wait_h": t("compare.col_mean_wait"),
        "p95_wait_h": t("compare.col_p95_wait"),
        "served_share": t("compare.col_served_share"),
        "served_elsewhere": t("compare.col_served_elsewhere", currency=currency),
        "packing_overhead": t("compare.col_packing_overhead"),
        "price_floor": t("compare.col_price_floor", currency=currency),
        "eac": t("compare.col_eac", currency=currency),
        "utilization": t("compare.col_utilization"),
        "currency": t("compare.col_currency"),
    }


def _hours(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / 3600


def cash_frame(report: TcoReport, horizon: int) -> pd.DataFrame:
    """Cumulative cash paid by the end of each month, per option: option, month, cumulative."""
    rows = []
    for o in report.horizons[horizon].options:
        total = 0.0
        for month, cash in enumerate(o.monthly_cash, start=1):
            total += cash
            rows.append({"option": note_text(o.name), "month": month, "cumulative": total})
    return pd.DataFrame(rows, columns=["option", "month", "cumulative"])


@dataclass(frozen=True, slots=True)
class BreakEven:
    """What the break-even chart draws: owning's F and V, and each cloud option's price per
    useful GPU-hour with the allocation at which owning costs the same (None: never)."""

    fixed_per_gpu_hour: float | None
    variable_per_gpu_hour: float | None
    prices: Mapping[str, float | None]
    break_even_utilization: Mapping[str, float | None]


def break_even_of(run: CompareRun, horizon: int) -> BreakEven:
    """The break-even chart's numbers of one report (its cloud options over `horizon`)."""
    prices = {o.name: o.cost_per_useful_gpu_hour for o in _rented(run.report, horizon)}
    be = run.report.break_even_utilization
    return BreakEven(run.fixed_per_gpu_hour, run.variable_per_gpu_hour, prices, be)


def break_even_frames(
    run: CompareRun | BreakEven, horizon: int = 0
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The self-hosted cost per allocated GPU-hour F/u + V for u in 2..100% (u, cost), and
    each cloud option's price with its break-even allocation from the report (option,
    price, break_even, cost_at_break_even; the last two empty when owning never pays)."""
    even = run if isinstance(run, BreakEven) else break_even_of(run, horizon)
    f, v = even.fixed_per_gpu_hour or 0.0, even.variable_per_gpu_hour or 0.0
    u = [k / 100 for k in range(2, 101)]
    curve = pd.DataFrame({"u": u, "cost": [f / x + v for x in u]})
    rows = []
    for name, price in even.prices.items():
        be = even.break_even_utilization.get(name)
        shown = be if be is not None and 0 < be <= 1 else None
        cost = None if shown is None else f / shown + v
        shown_name = note_text(name)
        rows.append({"option": shown_name, "price": price, "break_even": shown, "cost": cost})
    return curve, pd.DataFrame(rows, columns=["option", "price", "break_even", "cost"])


def tornado_frame(report: TcoReport) -> pd.DataFrame:
    """The sensitivity bars, widest first: driver (readable), low, high (NPV), swing."""
    bars = report.sensitivity.bars if report.sensitivity else ()
    rows = [
        {"driver": _driver(b.driver), "low": b.low, "high": b.high, "swing": b.swing} for b in bars
    ]
    return pd.DataFrame(rows, columns=["driver", "low", "high", "swing"])


def _driver(name: str) -> str:
    return t(f"compare.driver.{name}") if name in DRIVERS else name


def notes(report: TcoReport) -> tuple[list[str], list[str]]:
    """(warnings, remarks): stale prices and placeholder rates are warnings."""
    stale = [p for p in report.prices_used if p.stale]
    warnings = [t("compare.stale_price", price=note_text(p.price), as_of=p.as_of) for p in stale]
    said = {f"{p.price}: " for p in stale}  # in the page's language, just above
    remarks: list[str] = []
    for note in report.notes:
        if is_scope_note(note) or note.startswith(tuple(said)):
            continue  # the scope line says it (`ledger_view.show_scope`), or the line above
        serious = getattr(note, "code", "") in WARNING_CODES or any(
            word in note for word in ("stale", "placeholder", "unsourced", "future")
        )
        (warnings if serious else remarks).append(note)
    return list(dict.fromkeys(warnings)), remarks


def _rented(report: TcoReport, horizon: int) -> list[OptionReport]:
    names = {c.rented for c in report.horizons[horizon].comparisons}
    return [o for o in report.horizons[horizon].options if o.name in names]


def cheapest(options: Sequence[OptionReport]) -> OptionReport | None:
    """The option with the lowest cost per useful GPU-hour (None if none has one)."""
    return headline.cheapest(options)


def money(value: float | None, currency: str, digits: int | None = None) -> str:
    """An amount in `currency`, written the way that currency is ("$7.13", "7,13 €")."""
    return fmt_money(value, currency, digits)


def conclusion(report: TcoReport, horizon: int = 0, lang: Language | None = None) -> str:
    """A few plain sentences from the numbers, in `lang` (default: the session's): what
    owning costs, the cheapest option as built, how buying fares in the headline pair
    (`planner.cost.pair`: break-even allocation, NPV) and the driver nearest to flipping it."""
    cur, h = report.currency, report.horizons[horizon]
    years = fmt_number(h.years, 0 if h.years == int(h.years) else 1)
    best = cheapest(h.options)
    pair = pair_of(h)
    owners = [o for o in as_built(h.options) if o.name in OWNED]
    owned = next((o for o in owners if pair is None or o.name == pair.owned), None)
    text = [] if report.allocation is not None else [t("compare.c_cloud_only", lang, years=years)]
    if owned is not None:
        key = "compare.c_own" if owned.name == "self-hosted" else "compare.c_hybrid"
        allocation = fmt_percent(report.allocation, 0, cur)
        cost = money(owned.cost_per_useful_gpu_hour, cur)
        text.append(t(key, lang, allocation=allocation, cost=cost, years=years))
    if best is not None:
        text.append(
            t(
                "compare.c_cheapest",
                lang,
                name=md(option_label(best.name, lang)),
                cost=money(best.cost_per_useful_gpu_hour, cur),
                total=money(best.total, cur, 0),
                wait=_wait(best, cur, lang),
            )
        )
    if pair is not None:
        text += _against(report, h, pair, lang) + _flip(report, lang)
    return " ".join(text)


def _wait(option: OptionReport, currency: str, lang: Language | None) -> str:
    p95 = option.wait_p95_s
    return t("compare.c_wait", lang, hours=fmt_number(p95 / 3600, 1, currency)) if p95 else ""


def _against(report: TcoReport, h: Horizon, pair: Comparison, lang: Language | None) -> list[str]:
    cur, npv = report.currency, pair.npv_of_buying
    shown = md(option_label(pair.rented, lang))
    years = fmt_number(h.years, 0 if h.years == int(h.years) else 1)
    amount = money(abs(npv), cur, 0)
    if pair.owned == "hybrid":
        key = "compare.c_hybrid_gains" if npv >= 0 else "compare.c_hybrid_loses"
        return [t(key, lang, years=years, amount=amount, name=shown)]
    be = report.break_even_utilization.get(pair.rented)
    if be is None:
        text = [t("compare.c_never", lang, name=shown)]
    else:
        allocation = report.allocation or 0.0
        key = "c_over_full" if be > 1 else "c_pays" if allocation >= be else "c_pays_only"
        text = [t(f"compare.{key}", lang, name=shown, share=fmt_percent(be, 0, cur))]
    key = "compare.c_npv_gains" if npv >= 0 else "compare.c_npv_loses"
    return [*text, t(key, lang, years=years, amount=amount)]


def _flip(report: TcoReport, lang: Language | None) -> list[str]:
    """The driver nearest to flipping the verdict (the first horizon's pair)."""
    f = flips.nearest(report)
    if f is None or report.verdict is None:
        return []
    words = lang or language()
    cur = report.currency
    return [
        t(
            "compare.c_flip",
            lang,
            driver=t(f"compare.driver.{f.driver}", lang),
            value=flips.flip_text(f, report.verdict.allocation, cur, words),
            base=flips.value_text(f, f.base, cur, words),
        )
    ]


def flips_frame(report: TcoReport, lang: Language) -> pd.DataFrame:
    """What would flip the verdict: driver, today, where it flips (empty without a pair)."""
    columns = [report_text(f"report.flip.{k}", lang) for k in ("driver", "today", "at")]
    return pd.DataFrame(flips.rows(report, lang), columns=columns)
