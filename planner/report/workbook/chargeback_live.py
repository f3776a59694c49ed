"""The Chargeback sheet's amounts as formulas (`planner.cost.chargeback.allocate` in cells):
under the table, each team's GPU-hours a month on each option (the replay's, fixed) and its
quota, and each option's idle cost from its sheet; above, each amount

    used part   (total - idle) x the team's GPU-hours / the option's GPU-hours
    idle part   use: idle x the same share; quota: idle x quota / all quotas; idle: none
                (the idle rule's idle cost on the idle line)

with the option's total and idle cost read from its sheet, so an edited Assumptions sheet
moves every amount and the columns still add up to the options' totals. The amounts are
exact shares, not the model's whole cents (which the CSV and the app show): each is within a
cent of the model's. An option no team used puts its whole cost on the idle line, as the
model does.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from planner.core.i18n import Language
from planner.report.chargeback_table import Chargeback, OptionColumn
from planner.report.model import Report
from planner.report.text import text
from planner.report.workbook.book import BOLD, put_text
from planner.report.workbook.owned import COL as OWN
from planner.report.workbook.owned import figure
from planner.report.workbook.rented import rented_figure
from planner.report.workbook.scenario import Live

Key = tuple[str, str]
"""A column's scenario and option (the model's name)."""


@dataclass(frozen=True, slots=True)
class LiveColumn:
    """Where an option's total and idle cost are (formulas; "0" for a cloud option's idle),
    and the GPU-hours a month each team used on it and the teams' quotas."""

    total: str
    idle: str
    usage: Mapping[str, float]
    quotas: Mapping[str, float]


def live_amounts(
    sheet: Worksheet,
    cb: Chargeback,
    table: tuple[int, int],
    live: Mapping[Key, LiveColumn],
    style: tuple[str, Language],
) -> None:
    """Rewrite the amounts of the table (header row and row count) as formulas over the
    weights written under it, for every column `live` has; `style`: the money format and
    the language."""
    header, count = table
    money, lang = style
    teams = {team: header + 1 + k for k, team in enumerate(cb.teams)}
    idle_row = header + len(cb.teams) + 1 if cb.has_idle_line else None
    model_row = header + count + 2
    weights = _weights_block(sheet, cb, model_row + 3, lang)
    for j, col in enumerate(cb.columns, start=2):
        found = live.get((col.scenario, col.charges.option))
        if found is None:
            continue
        column = _Column(j, weights, len(cb.columns) + 2, found)
        column.write_weights(sheet, cb, col.label, money)
        for team, row in teams.items():
            formula = column.charge(weights[0] + cb.teams.index(team), col)
            sheet.cell(row, j, f"={formula}").number_format = money
        if idle_row is not None:
            sheet.cell(idle_row, j, f"={column.idle_line(col)}").number_format = money
        sheet.cell(model_row, j, f"=ROUND({found.total},2)").number_format = money


def _weights_block(sheet: Worksheet, cb: Chargeback, top: int, lang: Language) -> tuple[int, int]:
    """The weights block's title and labels from row `top`; its team rows (first, last)."""
    put_text(sheet.cell(top, 1), text("report.chargeback.weights", lang)).font = BOLD
    put_text(sheet.cell(top + 1, 1), text("report.chargeback.team", lang)).font = BOLD
    quota = put_text(
        sheet.cell(top + 1, len(cb.columns) + 2), text("report.chargeback.quota", lang)
    )
    quota.font = BOLD
    for k, team in enumerate(cb.teams):
        put_text(sheet.cell(top + 2 + k, 1), team)
    idle_at = top + 2 + len(cb.teams)
    put_text(sheet.cell(idle_at, 1), text("report.chargeback.idle_cost", lang))
    return top + 2, idle_at - 1


@dataclass(frozen=True, slots=True)
class _Column:
    """One option's column: its sheet column, the weights' rows, the quota column."""

    j: int
    rows: tuple[int, int]
    quota_column: int
    live: LiveColumn

    def write_weights(self, sheet: Worksheet, cb: Chargeback, label: str, money: str) -> None:
        """Its label, each team's GPU-hours a month and quota, and its idle cost."""
        first, last = self.rows
        put_text(sheet.cell(first - 1, self.j), label).font = BOLD
        for k, team in enumerate(cb.teams):
            used = sheet.cell(first + k, self.j, max(self.live.usage.get(team, 0.0), 0.0))
            quota = max(self.live.quotas.get(team, 0.0), 0.0)
            used.number_format = sheet.cell(first + k, self.quota_column, quota).number_format = (
                "#,##0.0"
            )
        idle = f"=MIN(MAX({self.live.idle},0),MAX({self.live.total},0))"
        sheet.cell(last + 1, self.j, idle).number_format = money

    def cell(self, column: int, row: int) -> str:
        return f"{get_column_letter(column)}{row}"

    def span(self, column: int) -> str:
        first, last = self.rows
        return f"{self.cell(column, first)}:{self.cell(column, last)}"

    @property
    def idle(self) -> str:
        return self.cell(self.j, self.rows[1] + 1)

    def used_by_nobody(self) -> bool:
        return not any(v > 0 for v in self.live.usage.values())

    def charge(self, row: int, col: OptionColumn) -> str:
        """A team's amount (the team's weights on `row`)."""
        if self.used_by_nobody():
            return "0"
        total = self.live.total
        share = f"{self.cell(self.j, row)}/SUM({self.span(self.j)})"
        used = f"({total}-{self.idle})*{share}"
        rule = col.charges.rule
        if rule == "use":
            return f"{used}+{self.idle}*{share}"
        if rule == "quota":
            quotas = f"SUM({self.span(self.quota_column)})"
            quota = self.cell(self.quota_column, row)
            return f"{used}+IF({quotas}>0,{self.idle}*{quota}/{quotas},0)"
        return used

    def idle_line(self, col: OptionColumn) -> str:
        if self.used_by_nobody():
            return self.live.total
        return self.idle if col.charges.rule == "idle" else "0"


def chargeback_columns(report: Report, live: Sequence[Live | None]) -> dict[Key, LiveColumn]:
    """Each live option of the report's horizon: where its total and idle cost are, and the
    replay's GPU-hours and quotas that split them (scenarios with per-team data only)."""
    out: dict[Key, LiveColumn] = {}
    for (name, tco), plan in zip(report.sources, live, strict=True):
        data = tco.chargeback
        if plan is None or data is None:
            continue
        for option, sheet, cash in plan.options:
            owned = cash == OWN["cash"]
            total = figure(sheet, "total_pnl") if owned else rented_figure(sheet, "total_pnl")
            idle = figure(sheet, "idle") if owned else "0"
            usage = data.usage.get(option, {})
            out[(name, option)] = LiveColumn(total, idle, usage, data.quotas)
    return out
