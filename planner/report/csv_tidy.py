"""The report's CSV files for BI tools: tidy cost rows, the per-job replay table and the
chargeback table; UTF-8 with a byte-order mark (Excel opens Chinese text correctly), CRLF
line ends, every text cell spreadsheet-safe (`planner.core.spreadsheet_text`).

Tidy rows are one amount each: scenario x horizon x option x month x view x category, in the
report currency, to the cent. The `pnl` view splits each month's P&L by cost category; the
`cash` view is each month's net cash (`net_cash`). Amounts are rounded along the running sum
(each cell is within a cent of its exact value), so an option's P&L rows add up to its total
rounded to the cent, and its cash rows to its cash total, exactly. Headers are fixed keys
(not translated) so a BI model survives a change of language; `category_label` is the
report language's name for the category.
"""

import csv
from collections.abc import Iterable, Sequence
from io import StringIO

from planner.core.i18n import Language
from planner.core.spreadsheet_text import safe_row
from planner.cost.chargeback import JOB_COLUMNS
from planner.cost.tco import OptionReport
from planner.report.cells import Cell
from planner.report.chargeback_table import TIDY_COLUMNS, Chargeback, tidy_rows
from planner.report.headline import Named
from planner.report.model import CATEGORIES
from planner.report.text import text

TIDY = (
    "scenario", "horizon_years", "option", "month", "view", "category", "category_label",
    "amount", "currency",
)  # fmt: skip
NET_CASH = "net_cash"


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """A CSV file: `header`, then `rows` with every text cell made safe."""
    out = StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(safe_row(header))
    writer.writerows(safe_row(row) for row in rows)
    return out.getvalue().encode("utf-8-sig")


def money_text(cents: int) -> str:
    """Whole cents as a plain decimal ("-12.05"), never float noise."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def running_cents(amounts: Sequence[float]) -> list[int]:
    """`amounts` in whole cents, rounded along their running sum: each is within a cent of
    its exact value and they add up to the sum rounded to the cent."""
    out, total, shown = [], 0.0, 0
    for amount in amounts:
        total += amount
        upto = round(total * 100)
        out.append(upto - shown)
        shown = upto
    return out


def pnl_by_category(option: OptionReport) -> dict[str, tuple[float, ...]]:
    """The option's monthly P&L per category: its own, or (a rented option, or a report
    saved before they were kept) its categories spread evenly when they add up to its P&L,
    else one `total` category."""
    if option.pnl_by_category:
        return dict(option.pnl_by_category)
    months = len(option.monthly_pnl)
    spread = {k: v for k, v in option.totals.items() if k != "tax_shield"}
    if months and abs(sum(spread.values()) - option.total) <= 0.005:
        return {k: (v / months,) * months for k, v in spread.items()}
    return {"total": tuple(option.monthly_pnl)}


def cost_rows(reports: Sequence[Named], lang: Language) -> list[tuple[Cell, ...]]:
    """Every scenario, horizon and option's tidy rows (P&L by category, then net cash)."""
    rows: list[tuple[Cell, ...]] = []
    for name, report in reports:
        for horizon in report.horizons:
            for option in horizon.options:
                head = (name, float(horizon.years), option.name)
                rows += _option_rows(head, option, report.currency, lang)
    return rows


def _option_rows(
    head: tuple[str, float, str], option: OptionReport, currency: str, lang: Language
) -> list[tuple[Cell, ...]]:
    by_category = pnl_by_category(option)
    months = len(option.monthly_pnl)
    order = _ordered(by_category)  # not the mapping's order: JSON round trips may sort it
    cells = [(m, k, by_category[k][m]) for m in range(months) for k in order]
    pnl = running_cents([v for _, _, v in cells])
    rows: list[tuple[Cell, ...]] = [
        (*head, m + 1, "pnl", k, _category(k, lang), money_text(c), currency)
        for (m, k, _), c in zip(cells, pnl, strict=True)
    ]
    cash_label = text("report.tidy.net_cash", lang)
    cash = running_cents(option.monthly_cash)
    rows += [
        (*head, m + 1, "cash", NET_CASH, cash_label, money_text(c), currency)
        for m, c in enumerate(cash)
    ]
    return rows


def _ordered(keys: Iterable[str]) -> list[str]:
    """Categories in the report's order (`planner.report.model.CATEGORIES`), others after."""
    found = set(keys)
    return [c for c in CATEGORIES if c in found] + sorted(found - set(CATEGORIES))


def _category(key: str, lang: Language) -> str:
    try:
        return text(f"report.cat.{key}", lang)
    except KeyError:
        return key


def write_tidy_csv(reports: Sequence[Named], lang: Language) -> bytes:
    return csv_bytes(TIDY, cost_rows(reports, lang))


def write_jobs_csv(reports: Sequence[Named]) -> bytes:
    """The replay's jobs of every scenario (none for a scenario without a trace)."""
    rows = (
        (name, *(round(v, 6) if isinstance(v, float) else v for v in line))
        for name, report in reports
        if report.chargeback is not None
        for line in report.chargeback.jobs.rows()
    )
    return csv_bytes(("scenario", *JOB_COLUMNS), rows)


def write_chargeback_csv(cb: Chargeback, lang: Language) -> bytes:
    """The chargeback as tidy rows, money to the cent."""
    rows = (
        [_cell(k, v) for k, v in zip(TIDY_COLUMNS, row, strict=True)] for row in tidy_rows(cb, lang)
    )
    return csv_bytes(TIDY_COLUMNS, rows)


_MONEY = frozenset({"used_cost", "idle_share", "charge"})


def _cell(key: str, value: Cell) -> Cell:
    return money_text(round(value * 100)) if key in _MONEY and isinstance(value, float) else value
