"""The PDF's appendix: every figure of the summary page, and how it is recomputed.

A1 inputs and headline facts, A2 options, A3 buying against each cloud option (NPV, IRR,
payback and break-even month, with the formula), A4 the monthly cash flow with the
discounted cumulative saving, A5 sensitivity, A6 prices (each once), A7 ledger, A8 notes.
"""

from collections.abc import Sequence

from planner.cost.ledger import SERVED, UNSERVED
from planner.cost.results import TcoReport
from planner.cost.tco import Comparison
from planner.report.cells import Cell, Kind, cell_text
from planner.report.headline import option_name
from planner.report.model import Report, Table, category_label, ordered
from planner.report.pdf_charts import Pen, break_even_chart
from planner.report.pdf_summary import (
    Decision,
    assumptions,
    discounted_savings,
    output_text,
    price_text,
    rate_text,
    unique_prices,
)
from planner.report.pdf_tables import grid, paragraph, section
from planner.report.text import text

WIDTH = 180.0
"""The A4 text width at 15 mm margins."""
OPTION_KEYS = (
    "horizon_years",
    "option",
    "total",
    "useful_gpu_hours",
    "cost_per_useful_gpu_hour",
    "equivalent_annual_cost",
    "wait_p95_h",
)
OPTION_WIDTHS = (14.0, 56.0, 26.0, 24.0, 20.0, 24.0, 16.0)
CASH_COLUMNS = 6
"""Option columns per cash-flow table (more options: another table below)."""


def appendix(pen: Pen, report: Report, decisions: Sequence[Decision]) -> None:
    pen.pdf.add_page()
    pen.font(14, bold=True)
    pen.pdf.cell(
        0, 8, pen.safe(text("report.pdf.appendix", pen.lang)), new_x="LMARGIN", new_y="NEXT"
    )
    _inputs(pen, report, decisions)
    _options(pen, report)
    for d in decisions:
        _categories(pen, d)
    _comparisons(pen, report, decisions)
    for d in decisions:
        _cash(pen, d)
    _sensitivity(pen, report)
    _prices(pen, report)
    _ledger(pen, report)
    section(pen, text("report.pdf.a8", pen.lang), 16)
    for note in report.notes or (text("report.note.none", pen.lang),):
        paragraph(pen, f"- {note}", 6.5)


def _cell(pen: Pen, value: Cell, kind: Kind) -> str:
    return cell_text(value, kind, pen.currency, text("report.na", pen.lang))


def _inputs(pen: Pen, report: Report, decisions: Sequence[Decision]) -> None:
    section(pen, text("report.pdf.a1", pen.lang))
    many = len(decisions) > 1
    for named, d, head in zip(report.sources, decisions, report.headlines, strict=True):
        rows = dict(assumptions(named, d, pen.lang))
        for fact in head.facts[3:]:
            rows.setdefault(fact.label, _cell(pen, fact.value, fact.kind))
        if many:
            paragraph(pen, d.scenario, 7.5)
        headers = (text("report.col.item", pen.lang), text("report.col.value", pen.lang))
        grid(pen, headers, list(rows.items()), (100.0, 80.0), left="LL")


def _options(pen: Pen, report: Report) -> None:
    section(pen, text("report.pdf.a2", pen.lang))
    table = report.options
    keys = [c.key for c in table.columns]
    columns = [table.columns[keys.index(k)] for k in OPTION_KEYS]
    many = len(report.scenarios) > 1
    rows = []
    for row in table.rows:
        cells = [_cell(pen, row[keys.index(c.key)], c.kind) for c in columns]
        cells[1] = option_name(cells[1], pen.lang)
        if many:
            cells[1] = f"{row[keys.index('scenario')]} · {cells[1]}"
        rows.append(cells)
    grid(pen, [c.label for c in columns], rows, OPTION_WIDTHS, left="LL")


def _categories(pen: Pen, d: Decision) -> None:
    """Each option's total by cost category over the decision's horizon (what A2's totals
    add up), an option a column."""
    lang = pen.lang
    options = list(d.horizon.options)
    keys = ordered({k for o in options for k in o.totals})
    years = f"{d.horizon.years:g}"
    paragraph(pen, text("report.pdf.a2_categories", lang, scenario=d.scenario, years=years), 6.5)
    for start in range(0, len(options), CASH_COLUMNS):
        chunk = options[start : start + CASH_COLUMNS]
        headers = (text("report.col.category", lang), *(option_name(o.name, lang) for o in chunk))
        rows = [
            (category_label(k, lang), *(_cell(pen, o.totals.get(k), "money") for o in chunk))
            for k in keys
        ]
        width = (WIDTH - 44.0) / len(chunk)
        grid(pen, headers, rows, (44.0, *(width for _ in chunk)), size=6.0)


def _comparisons(pen: Pen, report: Report, decisions: Sequence[Decision]) -> None:
    lang = pen.lang
    section(pen, text("report.pdf.a3", lang))
    headers = (
        text("report.col.horizon", lang),
        text("report.pdf.col.against", lang),
        text("report.pdf.tile.npv", lang),
        text("report.pdf.col.irr", lang),
        text("report.pdf.col.payback", lang),
        text("report.pdf.col.break_even_month", lang),
        text("report.pdf.col.break_even_share", lang),
    )
    rows: list[tuple[str, ...]] = []
    for (name, r), d in zip(report.sources, decisions, strict=True):
        prefix = f"{name} · " if len(decisions) > 1 else ""
        rows += _comparison_rows(pen, prefix, r)
        paragraph(pen, prefix + text("report.pdf.a3_formula", lang, rate=rate_text(d, lang)), 6.5)
    if rows:
        grid(pen, headers, rows, (12.0, 52.0, 24.0, 16.0, 26.0, 26.0, 24.0), left="LL")
    if report.break_even:
        share = _cell(pen, report.break_even[0][2], "percent")
        marker = text("report.pdf.allocation", lang, share=share)
        break_even_chart(pen, text("report.pdf.break_even_chart", lang), report.break_even, marker)


def _comparison_rows(pen: Pen, prefix: str, report: TcoReport) -> list[tuple[str, ...]]:
    """Buying self-hosted against each cloud option, and a hybrid headline pair (page 1's
    NPV then) named as such."""
    return [
        (
            f"{h.years:g}",
            prefix + _against(pen, c),
            _cell(pen, c.npv_of_buying, "money"),
            _cell(pen, c.irr, "percent"),
            _month(pen, c.payback_month, round(h.years * 12)),
            _month(pen, c.break_even_month, round(h.years * 12)),
            _cell(pen, c.break_even_utilization, "percent"),
        )
        for h in report.horizons
        for c in (*h.comparisons, *([h.pair] if h.pair and h.pair not in h.comparisons else []))
    ]


def _against(pen: Pen, c: Comparison) -> str:
    if c.owned == "self-hosted":
        return c.rented
    owned = option_name(c.owned, pen.lang)
    return text("report.fact.pair_value", pen.lang, owned=owned, rented=c.rented)


def _month(pen: Pen, month: int | None, months: int) -> str:
    """The model's month, counted from 1 as the cash-flow table counts it."""
    if month is None:
        return text("report.pdf.break_even.never", pen.lang, months=months)
    return str(month)


def _cash(pen: Pen, d: Decision) -> None:
    lang = pen.lang
    years = f"{d.horizon.years:g}"
    section(pen, text("report.pdf.a4", lang, scenario=d.scenario, years=years), 60)
    saving = discounted_savings(d)
    if d.against is not None and not saving:
        paragraph(pen, text("report.pdf.no_rate", lang), 6.5)
    options = list(d.horizon.options)
    for start in range(0, len(options), CASH_COLUMNS):
        chunk = options[start : start + CASH_COLUMNS]
        last = start + CASH_COLUMNS >= len(options)
        columns = [(option_name(o.name, lang), o.monthly_cash) for o in chunk]
        if last and saving and d.against is not None:
            columns.append((text("report.pdf.a4_saving", lang, name=d.against.rented), saving))
        _cash_table(pen, columns)


def _cash_table(pen: Pen, columns: Sequence[tuple[str, Sequence[float]]]) -> None:
    months = max(len(v) for _, v in columns)
    headers = (text("report.col.month", pen.lang), *(name for name, _ in columns))
    rows = [
        (str(m + 1), *(_cell(pen, v[m] if m < len(v) else None, "money") for _, v in columns))
        for m in range(months)
    ]
    width = (WIDTH - 12.0) / len(columns)
    grid(pen, headers, rows, (12.0, *(width for _ in columns)), size=6.0)


def _sensitivity(pen: Pen, report: Report) -> None:
    rows = report.sensitivity.rows
    if not rows:
        return
    lang = pen.lang
    section(pen, text("report.pdf.a5", lang, output=output_text(str(rows[0][1]), lang)))
    headers = (
        text("report.col.driver", lang),
        text("report.col.low", lang),
        text("report.col.high", lang),
        text("report.col.swing", lang),
        text("report.col.base", lang),
    )
    many = len(report.scenarios) > 1
    body = [
        (
            f"{r[0]} · {output_text(str(r[1]), lang)} · {r[2]}" if many else str(r[2]),
            *(_cell(pen, v, "money") for v in r[3:7]),
        )
        for r in rows
    ]
    grid(pen, headers, body, (60.0, 30.0, 30.0, 30.0, 30.0))


def _prices(pen: Pen, report: Report) -> None:
    cells = unique_prices(report.prices)
    if not cells:
        return
    lang = pen.lang
    section(pen, text("report.pdf.a6", lang))
    headers = (
        text("report.col.price", lang),
        text("report.col.value", lang),
        text("report.col.confidence", lang),
        text("report.col.source", lang),
    )
    rows = [
        (str(c["price"]), price_text(c, lang), str(c["confidence"]), str(c["source"]))
        for c in cells
    ]
    grid(pen, headers, rows, (40.0, 50.0, 16.0, 74.0), size=6.0, left="LLLL")


def _ledger(pen: Pen, report: Report) -> None:
    table: Table = report.ledger
    if not table.rows:
        return
    lang = pen.lang
    section(pen, text("report.pdf.a7", lang))
    keys = [c.key for c in table.columns]
    headers = (
        text("report.col.option", lang),
        text("report.col.horizon", lang),
        text("report.col.unit", lang),
        text("report.ledger.demanded", lang),
        text("report.ledger.owned", lang),
        text("report.pdf.col.cloud", lang),
        text("report.pdf.col.unserved", lang),
        text("report.ledger.imbalance", lang),
    )
    many = len(report.scenarios) > 1
    rows = []
    for row in table.rows:
        cell = dict(zip(keys, row, strict=True))
        cloud = sum(float(cell[k] or 0.0) for k in SERVED if k != "owned")
        unserved = sum(float(cell[k] or 0.0) for k in UNSERVED)
        option = cell["option"]  # a coded note (our cloud option name) is worded in `lang`
        name = option_name(option if isinstance(option, str) else str(option), lang)
        name = f"{cell['scenario']} · {name}" if many else name
        numbers = (cell["demanded"], cell["owned"], cloud, unserved, cell["imbalance"])
        rows.append(
            (
                name,
                _cell(pen, cell["horizon_years"], "years"),
                str(cell["unit"]),
                *(_cell(pen, v, "number") for v in numbers),
            )
        )
    grid(pen, headers, rows, (48.0, 14.0, 22.0, 20.0, 20.0, 18.0, 18.0, 20.0), left="LRL")
