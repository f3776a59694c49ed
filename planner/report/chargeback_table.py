"""The chargeback as the report shows it: each option of the chosen horizon split over the
teams by one rule (`planner.cost.chargeback`), as a wide table (team rows x option columns,
the xlsx sheet and the app) and as tidy rows (the CSV).

Amounts stay whole cents until they are shown, so every column adds up to its option's total
to the cent. Labels are in the report's language; team names are the trace's own (the
writers make them spreadsheet-safe).
"""

from collections.abc import Sequence
from dataclasses import dataclass

from planner.core.i18n import Language
from planner.cost.chargeback import OptionCharges, Rule, charge_options
from planner.cost.results import Horizon, TcoReport
from planner.report.cells import Cell
from planner.report.headline import Named, option_name
from planner.report.text import text

SEPARATOR = " · "


@dataclass(frozen=True, slots=True)
class OptionColumn:
    """One option's split: `label` names it in the report's language (with its scenario when
    there are several); `charges.option` is the model's name."""

    scenario: str
    years: float
    label: str
    charges: OptionCharges
    currency: str


@dataclass(frozen=True, slots=True)
class Chargeback:
    """Every option's split by one rule, with the teams in row order."""

    rule: Rule
    columns: tuple[OptionColumn, ...]
    teams: tuple[str, ...]
    statement: tuple[str, ...]
    """The rule stated, and what the reader needs to know about it (fallbacks, rounding)."""

    @property
    def has_idle_line(self) -> bool:
        return any(c.charges.idle_cents for c in self.columns)

    @property
    def fell_back(self) -> bool:
        """Whether an option was split by another rule than the one asked for (`quota`
        without quotas splits by `use`)."""
        return any(c.charges.rule != self.rule for c in self.columns)

    def cents(self, team: str, column: OptionColumn) -> int | None:
        found = column.charges.charge(team)
        return None if found is None else found.cents


def chargeback(
    sources: Sequence[Named], horizon_index: int, rule: Rule, lang: Language
) -> Chargeback:
    """The chargeback of the scenarios that carry per-team data (none: no columns)."""
    many = len(sources) > 1
    columns: list[OptionColumn] = []
    found_sources: list[str] = []
    for name, report in sources:
        data = report.chargeback
        if data is None or not report.horizons:
            continue
        horizon = _horizon(report, horizon_index)
        options = [(o.name, o.total, o.idle_cost) for o in horizon.options]
        for charges in charge_options(options, data, rule):
            shown = option_name(charges.option, lang)  # self-hosted, hybrid in `lang`
            label = f"{name}{SEPARATOR}{shown}" if many else shown
            columns.append(OptionColumn(name, horizon.years, label, charges, report.currency))
        if data.quota_source:
            found_sources.append(data.quota_source)
    teams = sorted({c.team for col in columns for c in col.charges.charges})
    fell_back = any(c.charges.rule != rule for c in columns)
    return Chargeback(
        rule, tuple(columns), tuple(teams), _statement(rule, fell_back, found_sources, lang)
    )


def _horizon(report: TcoReport, index: int) -> Horizon:
    """The report's horizon `index` (its last when it has fewer), as `build_report` picks."""
    return report.horizons[min(index, len(report.horizons) - 1)]


def _statement(rule: Rule, fell_back: bool, sources: list[str], lang: Language) -> tuple[str, ...]:
    named = ", ".join(text(f"report.chargeback.source.{s}", lang) for s in dict.fromkeys(sources))
    lines = [
        text(
            f"report.chargeback.rule.{rule}",
            lang,
            source=named or text("report.chargeback.source.none", lang),
        )
    ]
    if fell_back:
        lines.append(text("report.chargeback.fallback", lang))
    lines.append(text("report.chargeback.rounding", lang))
    return tuple(lines)


def wide_rows(cb: Chargeback, lang: Language) -> list[tuple[str, list[float | None]]]:
    """Team rows, then the idle line (when any option has one): (label, amount per column)."""
    rows: list[tuple[str, list[float | None]]] = [
        (team, [_money(cb.cents(team, col)) for col in cb.columns]) for team in cb.teams
    ]
    if cb.has_idle_line:
        idle = [c.charges.idle_cents / 100 for c in cb.columns]
        rows.append((text("report.chargeback.idle_line", lang), list(idle)))
    return rows


def totals(cb: Chargeback) -> list[float]:
    """Each option's total, rounded to the cent (what its column adds up to)."""
    return [c.charges.total_cents / 100 for c in cb.columns]


def _money(value: int | None) -> float | None:
    return None if value is None else value / 100


TIDY_COLUMNS = (
    "scenario", "horizon_years", "option", "team", "rule", "used_cost", "idle_share", "charge",
    "currency",
)  # fmt: skip


def tidy_rows(cb: Chargeback, lang: Language) -> list[tuple[Cell, ...]]:
    """One row per option and team (and idle line): amounts in the option's currency; the
    rule is the key of the one applied to that option (`use` where `quota` found no quotas)."""
    idle_label = text("report.chargeback.idle_line", lang)
    rows: list[tuple[Cell, ...]] = []
    for col in cb.columns:
        rule = col.charges.rule
        head = (col.scenario, col.years, col.charges.option)
        for c in col.charges.charges:
            amounts = (c.used_cents / 100, c.idle_cents / 100, c.cents / 100)
            rows.append((*head, c.team, rule, *amounts, col.currency))
        if col.charges.idle_cents:
            idle = col.charges.idle_cents / 100
            rows.append((*head, idle_label, rule, 0.0, idle, idle, col.currency))
    return rows
