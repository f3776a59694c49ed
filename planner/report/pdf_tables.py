"""Tables and small text blocks for the PDF report, on fpdf2's table API: headers repeat on
each page, long cells wrap (by character in Chinese, where words have no spaces)."""

from collections.abc import Sequence

from fpdf.enums import TableBordersLayout, WrapMode
from fpdf.fonts import FontFace

from planner.report.pdf_charts import Pen

HEADER_FILL = (234, 239, 246)


def grid(
    pen: Pen,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    widths: Sequence[float],
    *,
    size: float = 6.5,
    left: str = "L",
) -> None:
    """A table of text cells; the columns marked "L" in `left` (by position) are
    left-aligned, the others (numbers) right-aligned."""
    pdf = pen.pdf
    pen.font(size)
    aligns = tuple("LEFT" if left[k : k + 1] == "L" else "RIGHT" for k in range(len(widths)))
    pdf.set_fill_color(255, 255, 255)  # the charts leave their last colours set
    pdf.set_draw_color(170, 170, 170)
    wrap = WrapMode.CHAR if pen.lang == "zh" else WrapMode.WORD
    style = FontFace(emphasis="BOLD", fill_color=HEADER_FILL)
    with pdf.table(
        col_widths=tuple(widths),
        width=sum(widths),
        align="LEFT",
        text_align=aligns,
        line_height=size * 0.5,
        borders_layout=TableBordersLayout.HORIZONTAL_LINES,
        headings_style=style,
        wrapmode=wrap,
        padding=(0.6, 0.8),
    ) as table:
        for row in (headers, *rows):
            line = table.row()
            for value in row:
                line.cell(pen.safe(value))
    pdf.ln(2)


def section(pen: Pen, title: str, room: float = 24) -> None:
    """A section title, on a new page unless `room` mm fit below it."""
    pen.room(room)
    pen.pdf.ln(1)
    pen.title(title)


def paragraph(pen: Pen, value: str, size: float = 7) -> None:
    pen.font(size)
    pen.pdf.multi_cell(0, size * 0.5, pen.safe(value), align="L", new_x="LMARGIN", new_y="NEXT")
    pen.pdf.ln(1)
