"""The report as a short A4 PDF (fpdf2): title and date, each scenario's headline and
conclusion, the options table, the cumulative cash, break-even and tornado charts, then the
notes and the prices used.

Fonts are found, never required (`pdf_fonts`): without a CJK font a Chinese report is
written in English, without any Unicode font in Helvetica; `PdfOutput.notes` says so.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, time

from fpdf import FPDF

from planner.report.cells import cell_text
from planner.report.headline import Headline
from planner.report.model import Report, build_report
from planner.report.pdf_charts import Pen, break_even_chart, cash_chart, tornado_chart
from planner.report.pdf_fonts import Fonts, find_fonts, is_font
from planner.report.text import text

FAMILY = "report"
OPTION_COLUMNS = (
    "option",
    "total",
    "cost_per_useful_gpu_hour",
    "equivalent_annual_cost",
    "wait_p95_h",
)
MAX_SOURCE_CHARS = 240


@dataclass(frozen=True, slots=True)
class PdfOutput:
    data: bytes
    pages: int
    notes: tuple[str, ...]
    """Why the PDF differs from what was asked (a font was missing), in the asked language."""


def write_pdf(report: Report, fonts: Fonts | None = None) -> PdfOutput:
    """The PDF of `report`, in its language if a font for it is found (else in English)."""
    fonts = find_fonts() if fonts is None else fonts
    lang, notes = fonts.pdf_language(report.lang), fonts.notes(report.lang)
    if lang != report.lang:
        report = build_report(report.sources, report.horizon_index, lang, report.generated)
    pdf = _document(report)
    pen = Pen(pdf, "helvetica", lang, report.currency, core_font=True)
    try:
        _use_fonts(pen, fonts)
    except Exception:  # a broken or unsupported font file: Helvetica still works
        pen = Pen(pdf, "helvetica", lang, report.currency, core_font=True)
        notes += (text("report.pdf.font_fallback", report.lang),)
    _write(pen, report)
    return PdfOutput(bytes(pdf.output()), pdf.pages_count, tuple(dict.fromkeys(notes)))


def _document(report: Report) -> FPDF:
    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_margins(15, 15, 15)
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.set_title(text("report.title", report.lang))
    pdf.set_creator("GPU Capacity Planner")
    pdf.set_creation_date(datetime.combine(report.generated, time(), UTC))
    pdf.add_page()
    return pdf


def _use_fonts(pen: Pen, fonts: Fonts) -> None:
    pdf = pen.pdf
    given = [f for f in (fonts.regular, fonts.bold, fonts.cjk) if f is not None]
    if not all(is_font(f) for f in given):
        raise ValueError(f"not a font file: {', '.join(map(str, given))}")
    if pen.lang == "zh" and fonts.cjk is not None:
        pdf.add_font(FAMILY, "", fonts.cjk)
        pdf.add_font(FAMILY, "B", fonts.cjk)
    elif fonts.regular is not None:
        pdf.add_font(FAMILY, "", fonts.regular)
        pdf.add_font(FAMILY, "B", fonts.bold or fonts.regular)
        if fonts.cjk is not None:  # Chinese scenario or option names in an English report
            pdf.add_font("cjk", "", fonts.cjk)
            pdf.set_fallback_fonts(["cjk"])
    else:
        return
    pen.family, pen.core_font = FAMILY, False
    pen.font(9)


def _write(pen: Pen, report: Report) -> None:
    pdf, lang = pen.pdf, report.lang
    pen.font(16, bold=True)
    pdf.multi_cell(0, 8, pen.safe(text("report.title", lang)), new_x="LMARGIN", new_y="NEXT")
    pen.font(8)
    generated = text("report.generated", lang, date=report.generated.isoformat())
    pdf.cell(0, 5, pen.safe(generated), new_x="LMARGIN", new_y="NEXT")
    for head in report.headlines:
        _headline(pen, head)
        _options(pen, report, head)
    pdf.ln(2)
    cash_chart(pen, text("report.pdf.cash_chart", lang), report.cumulative_cash)
    pdf.ln(2)
    if report.break_even:
        share = _percent(pen, report.break_even[0][2])
        marker = text("report.pdf.allocation", lang, share=share)
        break_even_chart(pen, text("report.pdf.break_even_chart", lang), report.break_even, marker)
    _tornado(pen, report)
    _notes(pen, report)
    _prices(pen, report)


def _percent(pen: Pen, share: float) -> str:
    return cell_text(share, "percent", pen.currency, text("report.na", pen.lang))


def _headline(pen: Pen, head: Headline) -> None:
    pdf = pen.pdf
    pdf.ln(2)
    pen.room(40)
    pen.title(f"{text('report.pdf.headline', pen.lang)}: {head.scenario}")
    na = text("report.na", pen.lang)
    for fact in head.facts[3:]:  # the scenario, currency and horizon are in the titles
        pen.font(8)
        pdf.cell(110, 4.5, pen.safe(fact.label))
        value = cell_text(fact.value, fact.kind, pen.currency, na)
        pdf.cell(0, 4.5, pen.safe(value), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    pen.font(9, bold=True)
    pdf.multi_cell(0, 5, pen.safe(head.conclusion), align="L", new_x="LMARGIN", new_y="NEXT")


def _options(pen: Pen, report: Report, head: Headline) -> None:
    pdf, table = pen.pdf, report.options
    keys = [c.key for c in table.columns]
    rows = [
        r
        for r in table.rows
        if r[keys.index("scenario")] == head.scenario
        and r[keys.index("horizon_years")] == head.years
    ]
    columns = [table.columns[keys.index(k)] for k in OPTION_COLUMNS]
    pdf.ln(2)
    pen.room(8 + 5 * len(rows))
    pen.title(text("report.pdf.options", pen.lang, years=f"{head.years:g}"))
    widths = (56.0, 32.0, 32.0, 32.0, 28.0)
    pen.font(6.5, bold=True)
    for column, w in zip(columns, widths, strict=True):
        pdf.cell(w, 5, pen.safe(column.label), border="B", align="L" if w > 50 else "R")
    pdf.ln()
    pen.font(7)
    na = text("report.na", pen.lang)
    for row in rows:
        for column, w in zip(columns, widths, strict=True):
            value = cell_text(row[keys.index(column.key)], column.kind, pen.currency, na)
            pdf.cell(w, 4.5, pen.safe(value), align="L" if w > 50 else "R")
        pdf.ln()


def _tornado(pen: Pen, report: Report) -> None:
    table = report.sensitivity
    first = [r for r in table.rows if r[0] == report.scenarios[0]]
    if not first:
        return
    rows = [(str(r[2]), float(r[3] or 0.0), float(r[4] or 0.0)) for r in first]
    title = text("report.pdf.tornado_chart", pen.lang, output=str(first[0][1]))
    legend = (text("report.col.low", pen.lang), text("report.col.high", pen.lang))
    pen.pdf.ln(2)
    tornado_chart(pen, title, rows, float(first[0][6] or 0.0), legend)


def _notes(pen: Pen, report: Report) -> None:
    pdf = pen.pdf
    pdf.ln(2)
    pen.room(20)
    pen.title(text("report.pdf.notes", pen.lang))
    pen.font(7)
    for note in report.notes or (text("report.note.none", pen.lang),):
        pdf.multi_cell(0, 3.8, pen.safe(f"- {note}"), align="L", new_x="LMARGIN", new_y="NEXT")


def _prices(pen: Pen, report: Report) -> None:
    pdf, table = pen.pdf, report.prices
    if not table.rows:
        return
    pdf.ln(2)
    pen.room(20)
    pen.title(text("report.pdf.prices", pen.lang))
    keys = [c.key for c in table.columns]
    yes = text("report.yes", pen.lang)
    for row in table.rows:
        cell = dict(zip(keys, row, strict=True))
        price = cell["per_gpu_hour"] if cell["per_gpu_hour"] is not None else cell["per_server"]
        source = str(cell["source"])
        if len(source) > MAX_SOURCE_CHARS:
            source = source[: MAX_SOURCE_CHARS - 3] + "..."
        pen.font(7, bold=True)
        stale = f", {text('report.col.stale', pen.lang).lower()}" if cell["stale"] == yes else ""
        as_of = cell["as_of"] or text("report.no_source_date", pen.lang)
        head = f"{cell['price']}: {price:,.2f} {cell['currency']}, {as_of}{stale}"
        pdf.multi_cell(0, 3.8, pen.safe(head), align="L", new_x="LMARGIN", new_y="NEXT")
        pen.font(6.5)
        pdf.multi_cell(0, 3.4, pen.safe(source), align="L", new_x="LMARGIN", new_y="NEXT")
