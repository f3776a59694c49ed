"""The PDF's first page, the executive summary: the decision, three figures (NPV of buying,
break-even month, cost per useful GPU-hour), the conclusion, what would flip the verdict,
the cumulative cash and tornado charts and the key assumptions. The NPV, the flips and the
tornado are all of the headline pair (`planner.cost.pair`). Everything on it is in the
appendix.

The page is laid out to fit A4 for one scenario or a few; charts are kept short for that.
"""

from collections.abc import Sequence
from itertools import accumulate

from planner.report import flips
from planner.report.headline import Headline, option_name
from planner.report.model import Report, Series
from planner.report.pdf_charts import Pen, cash_chart, tornado_chart
from planner.report.pdf_service import service_block
from planner.report.pdf_summary import (
    Decision,
    assumptions,
    break_even_text,
    decision_text,
    figures,
    npv_text,
    output_text,
    per_useful_text,
    price_text,
    unique_prices,
)
from planner.report.pdf_tables import grid
from planner.report.text import text

BANNER = (226, 236, 248)
TILE = (244, 246, 249)
GREY = (90, 90, 90)
TORNADO_BARS = 6
"""The widest swings shown on the summary (the appendix lists every driver)."""
MIN_BARS = 3
"""The tornado keeps this many bars before the cash chart gives up its room."""
SCENARIO_ROWS = 6
MAX_ASSUMPTIONS = 12
MAX_CASH, MIN_CASH = 40.0, 18.0
"""The cumulative cash chart's plot height (mm), as room allows; below the least, none."""
CASH_EXTRA = 28.0
"""The cash chart's title, month labels and legend (mm)."""
"""The inputs and prices listed on the summary (A1 and A6 list them all)."""


def summary_page(pen: Pen, report: Report, decisions: Sequence[Decision]) -> None:
    """Page 1 (the cursor is at its top). The charts share what room is left: the cash
    chart shrinks first, then the tornado loses its narrowest bars down to `MIN_BARS`, then
    the cash chart goes (the tornado says what moves the verdict), so the page stays one."""
    first, head = decisions[0], report.headlines[0]
    _title(pen, report, first)
    _banner(pen, first, len(decisions) > 1)
    _tiles(pen, first)
    _conclusion(pen, head)
    if len(decisions) > 1:
        _scenarios(pen, decisions)
    service_block(pen, report.sources[0][1], first.horizon)
    _flips(pen, report)
    items = _assumption_items(pen, report, first)
    bars, output, base = _tornado_rows(report)
    room = pen.pdf.page_break_trigger - pen.pdf.get_y() - (12 + 3.7 * len(items)) - 10
    while len(bars) > MIN_BARS and room - _tornado_height(bars) - CASH_EXTRA < MIN_CASH:
        bars = bars[:-1]
    while bars and room < _tornado_height(bars):
        bars = bars[:-1]
    cash_height = min(MAX_CASH, room - _tornado_height(bars) - CASH_EXTRA)
    if cash_height >= MIN_CASH:
        _cash(pen, first, cash_height)
    if bars:
        title = text("report.pdf.tornado_chart", pen.lang, output=output_text(output, pen.lang))
        legend = (text("report.col.low", pen.lang), text("report.col.high", pen.lang))
        tornado_chart(pen, title, bars, base, legend)
    _assumptions(pen, items)
    pen.font(6.5)
    pen.pdf.set_text_color(*GREY)
    pen.pdf.multi_cell(0, 3.2, pen.safe(text("report.pdf.see_appendix", pen.lang)))
    pen.pdf.set_text_color(0, 0, 0)


def _cash(pen: Pen, d: Decision, height: float) -> None:
    years = f"{d.horizon.years:g}"
    series = [
        Series(option_name(o.name, pen.lang), tuple(accumulate(o.monthly_cash)))
        for o in d.horizon.options
    ]
    cash_chart(pen, text("report.pdf.summary_cash_chart", pen.lang, years=years), series, height)


def _title(pen: Pen, report: Report, d: Decision) -> None:
    pdf, lang = pen.pdf, pen.lang
    pen.font(15, bold=True)
    pdf.multi_cell(0, 7.5, pen.safe(text("report.title", lang)), new_x="LMARGIN", new_y="NEXT")
    pen.font(8)
    many = len(report.scenarios)
    scenario = d.scenario if many == 1 else text("report.pdf.scenarios", lang, count=many)
    subtitle = text(
        "report.pdf.subtitle",
        lang,
        scenario=scenario,
        years=f"{d.horizon.years:g}",
        currency=report.currency,
        date=report.generated.isoformat(),
    )
    line = f"{text('report.pdf.summary', lang)} · {subtitle}"
    pdf.multi_cell(0, 4.5, pen.safe(line), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)


def _banner(pen: Pen, d: Decision, many: bool) -> None:
    pdf = pen.pdf
    label, value, why = figures(d, pen.lang)[0]
    label = f"{label} · {d.scenario}" if many else label
    x, y, w = pdf.l_margin, pdf.get_y(), pdf.epw
    pdf.set_fill_color(*BANNER)
    pdf.rect(x, y, w, 17, style="F")
    pdf.set_xy(x + 3, y + 1.5)
    pen.font(7.5)
    pdf.cell(0, 4, pen.safe(label), new_x="LEFT", new_y="NEXT")
    pen.font(14, bold=True)
    pdf.cell(w - 6, 6.5, pen.safe(value), new_x="LEFT", new_y="NEXT")
    pen.font(7)
    pdf.cell(w - 6, 4, pen.safe(why))
    pdf.set_xy(x, y + 19)


def _tiles(pen: Pen, d: Decision) -> None:
    pdf = pen.pdf
    tiles = figures(d, pen.lang)[1:]
    gap = 3.0
    w = (pdf.epw - gap * (len(tiles) - 1)) / len(tiles)
    top = pdf.get_y()
    for k, (label, value, sub) in enumerate(tiles):
        x = pdf.l_margin + k * (w + gap)
        pdf.set_fill_color(*TILE)
        pdf.rect(x, top, w, 21, style="F")
        pdf.set_xy(x + 2, top + 1.5)
        pen.font(7)
        pdf.cell(w - 4, 4, pen.safe(label), new_x="LEFT", new_y="NEXT")
        pen.font(13, bold=True)
        pdf.cell(w - 4, 6.5, pen.safe(value), new_x="LEFT", new_y="NEXT")
        pen.font(6.2)
        pdf.set_text_color(*GREY)
        pdf.multi_cell(w - 4, 3, pen.safe(sub), align="L", max_line_height=3)
        pdf.set_text_color(0, 0, 0)
    pdf.set_xy(pdf.l_margin, top + 23)


def _conclusion(pen: Pen, head: Headline) -> None:
    pen.font(7.5)
    pen.pdf.multi_cell(0, 3.8, pen.safe(head.conclusion), align="L", new_x="LMARGIN", new_y="NEXT")
    pen.pdf.ln(1)


def _scenarios(pen: Pen, decisions: Sequence[Decision]) -> None:
    lang = pen.lang
    pen.font(9, bold=True)
    pen.pdf.cell(
        0, 5, pen.safe(text("report.pdf.all_scenarios", lang)), new_x="LMARGIN", new_y="NEXT"
    )
    headers = (
        text("report.col.scenario", lang),
        text("report.pdf.tile.decision", lang),
        text("report.pdf.tile.npv", lang),
        text("report.pdf.tile.break_even", lang),
        text("report.pdf.tile.per_useful", lang),
    )
    rows = [
        (
            d.scenario,
            decision_text(d, lang),
            npv_text(d, lang),
            break_even_text(d, lang),
            per_useful_text(d, lang),
        )
        for d in decisions[:SCENARIO_ROWS]
    ]
    grid(pen, headers, rows, (40.0, 56.0, 28.0, 28.0, 28.0), left="LL")
    if len(decisions) > SCENARIO_ROWS:
        more = text("report.pdf.more_scenarios", lang, count=len(decisions) - SCENARIO_ROWS)
        pen.font(6.5)
        pen.pdf.cell(0, 3.5, pen.safe(more), new_x="LMARGIN", new_y="NEXT")


def _flips(pen: Pen, report: Report) -> None:
    """What would flip the first scenario's verdict: its headline pair's flip values, two
    drivers a row to keep the page one."""
    _, first = report.sources[0]
    rows = flips.rows(first, pen.lang)
    if first.verdict is None or not rows:
        return
    lang = pen.lang
    pen.font(8, bold=True)
    line = flips.title(first.verdict, lang)
    pen.pdf.cell(0, 5, pen.safe(line), new_x="LMARGIN", new_y="NEXT")
    heads = (text("report.flip.driver", lang), text("report.flip.today", lang))
    headers = (*heads, text("report.flip.at", lang)) * 2
    half = (len(rows) + 1) // 2
    paired = [
        (*rows[k], *(rows[k + half] if k + half < len(rows) else ("", "", ""))) for k in range(half)
    ]
    grid(pen, headers, paired, (28.0, 16.0, 46.0) * 2, left="LRLLRL")
    pen.font(6.2)
    pen.pdf.set_text_color(*GREY)
    pen.pdf.multi_cell(0, 3, pen.safe(text("report.flip.how", lang)), new_x="LMARGIN", new_y="NEXT")
    pen.pdf.set_text_color(0, 0, 0)
    pen.pdf.ln(1)


def _tornado_rows(report: Report) -> tuple[list[tuple[str, float, float]], str, float]:
    """The first scenario's widest swings (driver, NPV low, NPV high), output and base."""
    first = [r for r in report.sensitivity.rows if r[0] == report.scenarios[0]]
    if not first:
        return [], "", 0.0
    rows = [(str(r[2]), float(r[3] or 0.0), float(r[4] or 0.0)) for r in first[:TORNADO_BARS]]
    return rows, str(first[0][1]), float(first[0][6] or 0.0)


def _tornado_height(bars: Sequence[object]) -> float:
    """What `tornado_chart` takes: title, a 6 mm row per bar, scale and legend."""
    return 6.0 * len(bars) + 26.0 if bars else 0.0


def _assumption_items(pen: Pen, report: Report, d: Decision) -> list[tuple[str, str]]:
    items = assumptions(report.sources[0], d, pen.lang)
    items += [(str(c["price"]), price_text(c, pen.lang)) for c in unique_prices(report.prices)]
    return items[:MAX_ASSUMPTIONS]


def _assumptions(pen: Pen, items: Sequence[tuple[str, str]]) -> None:
    pdf = pen.pdf
    pen.title(text("report.pdf.key_assumptions", pen.lang))
    for label, value in items:
        pen.font(6.8, bold=True)
        pdf.cell(70, 3.7, pen.safe(label))
        pen.font(6.8)
        pdf.cell(0, 3.7, pen.safe(value), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
