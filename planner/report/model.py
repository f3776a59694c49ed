"""The report Finance receives, as plain tables: built once from TCO reports (`TcoReport`,
what `planner tco --json` prints; one scenario or several saved ones), then written as xlsx,
PDF or CSV.

Labels are in the chosen language; cells are plain numbers (money in the report currency,
shares 0-1, waits in hours) so each writer formats them its own way. Nothing here writes
files or imports Streamlit.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from planner.core.i18n import Language
from planner.core.notes import worded
from planner.cost.ledger import SERVED, UNSERVED, Balance
from planner.cost.lines import CATEGORIES as OWNED_CATEGORIES
from planner.cost.lines import CLOUD_CATEGORIES, END_CATEGORIES
from planner.cost.results import Horizon, TcoReport
from planner.cost.tco import EQUAL_SERVICE
from planner.report.cells import Cell, Kind
from planner.report.headline import Headline, Named, headline, option_name
from planner.report.names import in_language
from planner.report.text import text

CATEGORIES = (
    *OWNED_CATEGORIES[:-1],  # capex .. bridge
    "cloud_burst",
    *EQUAL_SERVICE,
    "tax_shield",
    *END_CATEGORIES,
    *CLOUD_CATEGORIES,
)
"""Cost categories in the order the options table shows them (others follow, as found)."""


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    """Language-independent name (the CSV round-trip and the tests use the labels)."""
    label: str
    kind: Kind


@dataclass(frozen=True, slots=True)
class Table:
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def column(self, key: str) -> list[Cell]:
        k = [c.key for c in self.columns].index(key)
        return [row[k] for row in self.rows]


@dataclass(frozen=True, slots=True)
class Series:
    """One line or bar group of a chart."""

    name: str
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Report:
    lang: Language
    currency: str
    generated: date
    scenarios: tuple[str, ...]
    headlines: tuple[Headline, ...]
    options: Table
    """Every scenario, horizon and option."""
    cash: Table
    """Month rows, one column per option (the chosen horizon)."""
    sensitivity: Table
    prices: Table
    ledger: Table
    """Where each option serves the demand, per scenario, horizon, option and unit."""
    notes: tuple[str, ...]
    cumulative_cash: tuple[Series, ...]
    break_even: tuple[tuple[str, float | None, float], ...]
    """(cloud option, break-even allocation or None for never, current allocation)."""
    sources: tuple[Named, ...]
    horizon_index: int


def build_report(
    reports: Sequence[Named],
    horizon_index: int = 0,
    lang: Language = "en",
    generated: date | None = None,
) -> Report:
    """The report for one or several scenarios, with the headline and monthly cash of the
    horizon `horizon_index` (a scenario with fewer horizons shows its last one)."""
    if not reports:
        raise ValueError("a report needs at least one TCO report")
    reports = [(name, in_language(r, lang)) for name, r in reports]  # our option names
    notes: list[str] = []
    currencies = list(dict.fromkeys(str(r.currency) for _, r in reports))
    if len(currencies) > 1:
        notes.append(text("report.note.currencies", lang, currencies=", ".join(currencies)))
    picked = [_horizon(name, r, horizon_index, lang, notes) for name, r in reports]
    day = generated or date.today()
    many = len(reports) > 1
    cash_columns = [
        (_option_label(name, option_name(o.name, lang), many), o.monthly_cash)
        for (name, _), h in zip(reports, picked, strict=True)
        for o in h.options
    ]
    notes.append(text("report.note.pnl", lang))
    for name, r in reports:
        said = [worded(n, lang) for n in r.notes]
        notes += [f"{name}: {n}" if many else n for n in said]
    return Report(
        lang=lang,
        currency=currencies[0],
        generated=day,
        scenarios=tuple(name for name, _ in reports),
        headlines=tuple(
            headline(name, r, h, lang) for (name, r), h in zip(reports, picked, strict=True)
        ),
        options=_options(reports, lang),
        cash=_cash(cash_columns, lang),
        sensitivity=_sensitivity(reports, lang),
        prices=_prices(reports, lang),
        ledger=_ledger(reports, lang),
        notes=tuple(dict.fromkeys(notes)),
        cumulative_cash=tuple(Series(n, _cumulative(v)) for n, v in cash_columns),
        break_even=tuple(
            (_option_label(name, cloud, many), be, float(r.allocation or 0.0))
            for name, r in reports
            for cloud, be in r.break_even_utilization.items()
        ),
        sources=tuple((name, r) for name, r in reports),
        horizon_index=horizon_index,
    )


def _horizon(name: str, report: TcoReport, index: int, lang: Language, notes: list[str]) -> Horizon:
    horizons = report.horizons
    if index < len(horizons):
        return horizons[index]
    last = horizons[-1]
    notes.append(
        text("report.note.horizon", lang, scenario=name, wanted=index + 1, years=last.years)
    )
    return last


def _option_label(scenario: str, option: str, many: bool) -> str:
    return f"{scenario} · {option}" if many else option


def _cumulative(values: Sequence[float]) -> tuple[float, ...]:
    total, out = 0.0, []
    for v in values:
        total += v
        out.append(total)
    return tuple(out)


def _col(key: str, label_key: str, kind: Kind, lang: Language) -> Column:
    return Column(key, text(label_key, lang), kind)


def categories(reports: Sequence[Named]) -> list[str]:
    """Every cost category any option has, the known ones in `CATEGORIES` order."""
    return ordered({k for _, r in reports for h in r.horizons for o in h.options for k in o.totals})


def ordered(found: set[str]) -> list[str]:
    """Cost categories in `CATEGORIES` order, others after (sorted)."""
    return [c for c in CATEGORIES if c in found] + sorted(found - set(CATEGORIES))


def category_label(key: str, lang: Language) -> str:
    """A cost category's label (`report.cat.<key>`), or the key for one the texts lack."""
    return _label("cat", key, lang)


def _label(kind: str, key: str, lang: Language) -> str:
    """The text `report.<kind>.<key>`, or the key itself for one the texts do not name."""
    try:
        return text(f"report.{kind}.{key}", lang)
    except KeyError:
        return key


def _options(reports: Sequence[Named], lang: Language) -> Table:
    cats = categories(reports)
    busy = any(r.busy for _, r in reports)
    columns = (
        _col("scenario", "report.col.scenario", "text", lang),
        _col("horizon_years", "report.col.horizon", "years", lang),
        _col("option", "report.col.option", "text", lang),
        *(Column(c, _label("cat", c, lang), "money") for c in cats),
        _col("total", "report.col.total", "money", lang),
        _col("cost_per_useful_gpu_hour", "report.col.per_useful", "rate", lang),
        *([_col("cost_per_busy_gpu_hour", "report.col.per_busy", "rate", lang)] if busy else []),
        _col("cost_per_installed_gpu_hour", "report.col.per_installed", "rate", lang),
        _col("cost_per_allocated_gpu_hour", "report.col.per_allocated", "rate", lang),
        _col("useful_gpu_hours", "report.col.useful_hours", "number", lang),
        _col("equivalent_annual_cost", "report.col.eac", "money", lang),
        _col("idle_cost", "report.col.idle", "money", lang),
        _col("wait_mean_h", "report.col.wait_mean", "hours", lang),
        _col("wait_p95_h", "report.col.wait_p95", "hours", lang),
        _col("served_share", "report.col.served_share", "percent", lang),
    )
    rows = tuple(
        (
            name,
            float(h.years),
            option_name(o.name, lang),
            *(o.totals.get(c) for c in cats),
            o.total,
            o.cost_per_useful_gpu_hour,
            *([_per_busy(r, h.years, o.name)] if busy else []),
            o.cost_per_installed_gpu_hour,
            o.cost_per_allocated_gpu_hour,
            o.useful_gpu_hours,
            o.equivalent_annual_cost,
            o.idle_cost,
            _hours(o.wait_mean_s),
            _hours(o.wait_p95_s),
            o.served_share,
        )
        for name, r in reports
        for h in r.horizons
        for o in h.options
    )
    return Table(text("report.sheet.options", lang), columns, rows)


def _per_busy(report: TcoReport, years: float, option: str) -> float | None:
    """An option's cost per busy GPU-hour (None: its scenario's busy share is unknown)."""
    cost = report.busy.cost(years, option) if report.busy else None
    return None if cost is None else cost.cost_per_busy_gpu_hour


def _hours(seconds: float | None) -> float | None:
    return None if seconds is None else seconds / 3600


def _cash(columns: Sequence[tuple[str, Sequence[float]]], lang: Language) -> Table:
    months = max((len(v) for _, v in columns), default=0)
    header = (
        _col("month", "report.col.month", "int", lang),
        *(Column(name, name, "money") for name, _ in columns),
    )
    rows = tuple(
        (m + 1, *(v[m] if m < len(v) else None for _, v in columns)) for m in range(months)
    )
    return Table(text("report.sheet.cash", lang), header, rows)


def _sensitivity(reports: Sequence[Named], lang: Language) -> Table:
    columns = (
        _col("scenario", "report.col.scenario", "text", lang),
        _col("output", "report.col.output", "text", lang),
        _col("driver", "report.col.driver", "text", lang),
        _col("low", "report.col.low", "money", lang),
        _col("high", "report.col.high", "money", lang),
        _col("swing", "report.col.swing", "money", lang),
        _col("base", "report.col.base", "money", lang),
    )
    rows = []
    for name, r in reports:
        s = r.sensitivity
        if not s:
            continue
        for b in s.bars:
            label = _label("driver", b.driver, lang)
            output = worded(s.output, lang)
            rows.append((name, output, label, b.low, b.high, b.swing, s.base))
    return Table(text("report.sheet.sensitivity", lang), columns, tuple(rows))


LEDGER_LINES = ("demanded", *SERVED, *UNSERVED, "imbalance")


def _ledger(reports: Sequence[Named], lang: Language) -> Table:
    """The reports' ledgers as rows: one per scenario, horizon, option and unit."""
    columns = (
        _col("scenario", "report.col.scenario", "text", lang),
        _col("horizon_years", "report.col.horizon", "years", lang),
        _col("option", "report.col.option", "text", lang),
        _col("unit", "report.col.unit", "text", lang),
        *(_col(k, f"report.ledger.{k}", "number", lang) for k in LEDGER_LINES),
        _col("cloud_per_job_sum", "report.ledger.cloud_per_job_sum", "money", lang),
    )
    rows = []
    for name, r in reports:
        for h in r.horizons:
            for o in h.options:
                if o.ledger is None:
                    continue
                units = (("gpu_hours", o.ledger.gpu_hours), ("cpu_hours", o.ledger.cpu_hours))
                for unit, balance in units:
                    if balance is not None:
                        money = o.ledger.cloud_per_job_sum if unit == "gpu_hours" else None
                        label = text(f"report.ledger.{unit}", lang)
                        values = _ledger_values(balance)
                        option = option_name(o.name, lang)
                        rows.append((name, float(h.years), option, label, *values, money))
    return Table(text("report.sheet.ledger", lang), columns, tuple(rows))


def _ledger_values(lines: Balance) -> list[float]:
    flat = {
        **lines.cloud,
        **lines.unserved,
        "demanded": lines.demanded,
        "owned": lines.owned,
        "imbalance": lines.imbalance,
    }
    return [float(flat.get(k, 0.0)) for k in LEDGER_LINES]


def _prices(reports: Sequence[Named], lang: Language) -> Table:
    columns = (
        _col("scenario", "report.col.scenario", "text", lang),
        _col("price", "report.col.price", "text", lang),
        _col("per_gpu_hour", "report.col.per_gpu_hour", "decimal", lang),
        _col("per_server", "report.col.per_server", "decimal", lang),
        _col("currency", "report.col.currency", "text", lang),
        _col("as_of", "report.col.as_of", "text", lang),
        _col("confidence", "report.col.confidence", "text", lang),
        _col("stale", "report.col.stale", "text", lang),
        _col("source", "report.col.source", "text", lang),
    )
    yes, no = text("report.yes", lang), text("report.no", lang)
    rows = tuple(
        (
            name,
            worded(p.price, lang),
            p.per_gpu_hour,
            p.per_server,
            p.currency,
            p.as_of,
            p.confidence,
            yes if p.stale else no,
            p.source,
        )
        for name, r in reports
        for p in r.prices_used
    )
    return Table(text("report.sheet.prices", lang), columns, rows)
