"""The report as an A4 PDF (fpdf2): a one-page executive summary (`pdf_page_one`: the
decision, NPV of buying, break-even month, cost per useful GPU-hour, the cumulative cash and
tornado charts, key assumptions), then an appendix (`pdf_appendix`) where each of those
figures can be found and recomputed.

Fonts are found, never required (`pdf_fonts`): without a CJK font a Chinese report is
written in English, without any Unicode font in Helvetica; `PdfOutput.notes` says so.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, time

from fpdf import FPDF

from planner.report.model import Report, build_report
from planner.report.pdf_appendix import appendix
from planner.report.pdf_charts import Pen
from planner.report.pdf_fonts import Fonts, find_fonts, is_font
from planner.report.pdf_page_one import summary_page
from planner.report.pdf_summary import decide
from planner.report.text import text

FAMILY = "report"


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
    """Page 1 the summary (it must stay one page), then the appendix."""
    decisions = [decide(named, report.horizon_index) for named in report.sources]
    pen.pdf.set_auto_page_break(auto=False)
    summary_page(pen, report, decisions)
    pen.pdf.set_auto_page_break(auto=True, margin=15)
    appendix(pen, report, decisions)
