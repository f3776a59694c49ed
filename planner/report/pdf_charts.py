"""Charts for the PDF report drawn with fpdf2's lines and rectangles (no browser, no
image export): cumulative cash by option, break-even utilization against each cloud option,
and the sensitivity tornado. `Pen` is the page plus the font in use."""

from collections.abc import Sequence
from dataclasses import dataclass

from fpdf import FPDF

from planner.core.i18n import Language, fmt_money, fmt_percent
from planner.report.model import Series

PALETTE = (
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
)
LATIN_1_SUBSTITUTES = str.maketrans(
    {"–": "-", "—": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "…": "...", "€": "EUR", "≥": ">="}
)
LABEL_W = 48.0


@dataclass(slots=True)
class Pen:
    pdf: FPDF
    family: str
    lang: Language
    currency: str
    core_font: bool
    """Helvetica: only Latin-1 can be written."""

    def safe(self, value: str) -> str:
        if not self.core_font:
            return value
        return value.translate(LATIN_1_SUBSTITUTES).encode("latin-1", "replace").decode("latin-1")

    def font(self, size: float, bold: bool = False) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)

    def text_at(self, x: float, y: float, value: str, size: float = 7) -> None:
        self.font(size)
        self.pdf.text(x, y, self.safe(value))

    def width(self, value: str) -> float:
        return float(self.pdf.get_string_width(self.safe(value)))

    def room(self, height: float) -> None:
        """A new page unless `height` mm fit below the cursor."""
        if self.pdf.get_y() + height > self.pdf.page_break_trigger:
            self.pdf.add_page()

    def money(self, value: float | None) -> str:
        return fmt_money(value, self.currency, 0)

    def title(self, value: str) -> None:
        self.font(10, bold=True)
        self.pdf.cell(0, 7, self.safe(value), new_x="LMARGIN", new_y="NEXT")


def cash_chart(pen: Pen, title: str, series: Sequence[Series], height: float = 62) -> None:
    """Cumulative cash paid by month, one line per option, with a legend below."""
    if not series or not any(s.values for s in series):
        return
    pdf = pen.pdf
    pen.room(height + 24)
    pen.title(title)
    left, top = pdf.l_margin + 24, pdf.get_y() + 2
    width = pdf.w - pdf.r_margin - left
    low = min(0.0, *(v for s in series for v in s.values))
    high = max(1.0, *(v for s in series for v in s.values))
    months = max(len(s.values) for s in series)

    def y_of(v: float) -> float:
        return top + height - (v - low) / (high - low) * height

    _axes(pen, left, top, width, height)
    for k in range(5):
        v = low + (high - low) * k / 4
        pdf.set_draw_color(225, 225, 225)
        pdf.line(left, y_of(v), left + width, y_of(v))
        label = pen.money(v)
        pen.text_at(left - pen.width(label) - 1.5, y_of(v) + 1, label, 6)
    for m in sorted({1, months // 4, months // 2, 3 * months // 4, months} - {0}):
        x = left + (m - 1) / max(1, months - 1) * width
        pen.text_at(x - 1, top + height + 4, str(m), 6)
    pdf.set_line_width(0.5)
    for k, s in enumerate(series):
        pdf.set_draw_color(*PALETTE[k % len(PALETTE)])
        points = [(left + m / max(1, months - 1) * width, y_of(v)) for m, v in enumerate(s.values)]
        pdf.polyline(points)
    pdf.set_line_width(0.2)
    pdf.set_y(top + height + 6)
    _legend(pen, [s.name for s in series])


def _axes(pen: Pen, left: float, top: float, width: float, height: float) -> None:
    pen.pdf.set_draw_color(120, 120, 120)
    pen.pdf.line(left, top, left, top + height)
    pen.pdf.line(left, top + height, left + width, top + height)


def _legend(
    pen: Pen, names: Sequence[str], colours: Sequence[tuple[int, int, int]] = PALETTE
) -> None:
    pdf = pen.pdf
    x, y = pdf.l_margin, pdf.get_y()
    for k, name in enumerate(names):
        pen.font(6)
        w = pen.width(name) + 8
        if x + w > pdf.w - pdf.r_margin:
            x, y = pdf.l_margin, y + 4.5
        pdf.set_fill_color(*colours[k % len(colours)])
        pdf.rect(x, y + 0.8, 3, 2.4, style="F")
        pen.text_at(x + 4, y + 3, name, 6)
        x += w
    pdf.set_y(y + 7)


def break_even_chart(
    pen: Pen, title: str, bars: Sequence[tuple[str, float | None, float]], marker: str
) -> None:
    """One bar per cloud option: the allocation above which owning costs less than renting
    (capped at 100%); a line at the current allocation."""
    if not bars:
        return
    pdf = pen.pdf
    pen.room(7 * len(bars) + 16)
    pen.title(title)
    left = pdf.l_margin + LABEL_W
    width = pdf.w - pdf.r_margin - left - 22
    top = pdf.get_y() + 1
    for k, (name, share, _) in enumerate(bars):
        y = top + 7 * k
        pen.text_at(pdf.l_margin, y + 4, _clip(pen, name, LABEL_W - 2), 7)
        shown = fmt_percent(share, 1, pen.currency, "-")
        if share is not None:
            pdf.set_fill_color(*PALETTE[0])
            pdf.rect(left, y + 1, width * min(1.0, max(0.0, share)), 4, style="F")
            shown += "" if share <= 1 else " (>100%)"
        pen.text_at(left + width * min(1.0, max(0.0, share or 0.0)) + 1.5, y + 4, shown, 7)
    pdf.set_draw_color(214, 39, 40)
    pdf.set_line_width(0.4)
    for k, (_, _, allocation) in enumerate(bars):  # each scenario's own allocation
        x = left + width * min(1.0, allocation)
        pdf.line(x, top + 7 * k, x, top + 7 * k + 6)
    pdf.set_line_width(0.2)
    if len({a for _, _, a in bars}) == 1:
        x = left + width * min(1.0, bars[0][2])
        pen.text_at(x + 1, top + 7 * len(bars) + 3, marker, 6)
    pdf.set_y(top + 7 * len(bars) + 7)


def tornado_chart(
    pen: Pen,
    title: str,
    rows: Sequence[tuple[str, float, float]],
    base: float,
    legend: tuple[str, str],
) -> None:
    """The NPV of buying with each driver low and high (`legend` names the two); the widest
    swing on top."""
    if not rows:
        return
    pdf = pen.pdf
    pen.room(6 * len(rows) + 16)
    pen.title(title)
    left = pdf.l_margin + LABEL_W
    width = pdf.w - pdf.r_margin - left - 4
    lo = min(base, *(min(a, b) for _, a, b in rows))
    hi = max(base, *(max(a, b) for _, a, b in rows))
    span = (hi - lo) or 1.0

    def x_of(v: float) -> float:
        return left + (v - lo) / span * width

    top = pdf.get_y() + 1
    for k, (driver, low, high) in enumerate(rows):
        y = top + 6 * k
        pen.text_at(pdf.l_margin, y + 3.5, _clip(pen, driver, LABEL_W - 2), 7)
        for value, colour in ((low, PALETTE[3]), (high, PALETTE[2])):
            pdf.set_fill_color(*colour)
            start, end = sorted((x_of(base), x_of(value)))
            pdf.rect(start, y + 0.8, max(end - start, 0.3), 4, style="F")
    pdf.set_draw_color(60, 60, 60)
    pdf.line(x_of(base), top, x_of(base), top + 6 * len(rows))
    bottom = top + 6 * len(rows) + 3.5
    for v in (lo, base, hi):
        label = pen.money(v)
        pen.font(6)
        x = min(x_of(v) - pen.width(label) / 2, pdf.w - pdf.r_margin - pen.width(label))
        pen.text_at(x, bottom, label, 6)
    pdf.set_y(bottom + 2)
    _legend(pen, legend, (PALETTE[3], PALETTE[2]))


def _clip(pen: Pen, value: str, width: float) -> str:
    pen.font(7)
    if pen.width(value) <= width:
        return value
    ellipsis = "..." if pen.core_font else "…"
    while len(value) > 1 and pen.width(value + ellipsis) > width:
        value = value[:-1]
    return value + ellipsis
