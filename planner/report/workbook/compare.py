"""Buying against renting, as formulas (`planner.cost.tco.compare`, `planner.cost.finance`):
the monthly saving (the cloud option's cash minus the self-hosted cash), its NPV at the
discount rate (month m discounted by (1 + r)^(m/12), month 1 undiscounted), IRR (monthly,
made yearly), payback month (the first month the cumulative saving is >= 0) and break-even
month (the same, discounted); months count from 1, the month of purchase, as the month
column and the planner report them. Break-even utilization is F / (C - V). A line chart
shows each discounted cumulative saving crossing zero at its break-even month.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING

from openpyxl.chart import LineChart, Reference
from openpyxl.worksheet.worksheet import Worksheet

from planner.cost.tco import Comparison
from planner.report.text import text
from planner.report.workbook.assumptions import Names
from planner.report.workbook.book import (
    TITLE,
    Book,
    header,
    npv_formula,
    put,
    put_formula,
    put_text,
    ref,
    span,
    widths,
)
from planner.report.workbook.owned import COL as OWN
from planner.report.workbook.owned import figure
from planner.report.workbook.rented import COL as RENT
from planner.report.workbook.rented import rented_figure
from planner.report.workbook.service import Served, service_rows, service_table

if TYPE_CHECKING:
    from planner.report.cells import Kind


_PER_CLOUD = ("saving", "cumulative", "discounted", "started", "paid", "even")
_SUMMARY = ("option", "npv", "irr", "payback", "break_even", "utilization", "npv_model")


def comparison_sheet(
    book: Book,
    sheet: Worksheet,
    *,
    names: Names,
    owned: Worksheet,
    clouds: Sequence[Worksheet],
    labels: Sequence[str],
    model: Sequence[Comparison],
    months: int,
    served: Sequence[Served] = (),
    title: str = "report.wb.compare_title",
) -> None:
    """Self-hosted (`owned`) against each cloud sheet; `model` the planner's comparisons;
    `served`: every option, for the equal-service table under the summary. The hybrid of a
    headline pair (`planner.cost.pair`) is weighed the same way on a sheet of its own,
    `title` saying so."""
    lang, cur = book.lang, book.currency
    put_text(sheet.cell(1, 1), text(title, lang)).font = TITLE
    header(sheet, 3, [text(f"report.wb.cmp.{k}", lang) for k in _SUMMARY])
    _, first, last = saving_cells(len(clouds), 0, months)
    top = first - 1
    header(sheet, top, [text("report.wb.cmp.month", lang), text("report.wb.cmp.factor", lang)])
    for r in range(first, last + 1):
        put_formula(sheet.cell(r, 1), f"{r - top}", "int", cur)
        factor = f"(1+{names.rate})^(-({ref(sheet, r, 1, sheet)}-1)/12)"
        put_formula(sheet.cell(r, 2), factor, "decimal", cur)
    never = text("report.wb.never", lang).replace('"', "'")
    for k, (cloud, label) in enumerate(zip(clouds, labels, strict=True)):
        base = 3 + k * len(_PER_CLOUD)
        heads = [text(f"report.wb.cmp.{key}", lang, name=label) for key in _PER_CLOUD]
        header(sheet, top, heads, base)
        _monthly(sheet, base, (first, last), owned, cloud)
        col = {key: base + j for j, key in enumerate(_PER_CLOUD)}
        savings = span(sheet, first, last, col["saving"], sheet)
        rest = span(sheet, first + 1, last, col["saving"], sheet)
        head = ref(sheet, first, col["saving"], sheet)
        row = 4 + k
        put_text(sheet.cell(row, 1), label)
        npv = npv_formula(head, rest if months > 1 else None, names.rate)
        margin = f"({rented_figure(cloud, 'per_gpu_hour')}-{figure(owned, 'variable')})"
        cells: dict[int, tuple[str, Kind]] = {
            2: (npv, "money"),
            3: (f'IFERROR((1+IRR({savings},{_guess(model, k)}))^12-1,"{never}")', "percent"),
            4: (_first(sheet, col["paid"], first, last, never), "int"),
            5: (_first(sheet, col["even"], first, last, never), "int"),
            6: (f'IF({margin}>0,{figure(owned, "fixed")}/{margin},"{never}")', "percent"),
        }
        for column, (formula, kind) in cells.items():
            put_formula(sheet.cell(row, column), formula, kind, cur)
        if k < len(model):
            put(sheet.cell(row, 7), model[k].npv_of_buying, "money", cur)
    sheet.freeze_panes = sheet.cell(first, 3).coordinate
    if served:
        service_table(book, sheet, len(clouds) + 5, served)
    widths(sheet, {1: 34, 2: 16, **dict.fromkeys(range(3, 3 + 6 * max(1, len(clouds))), 15.0)})
    _chart(sheet, clouds, top, last, lang)


def saving_cells(clouds: int, k: int, months: int) -> tuple[int, int, int]:
    """Where cloud option `k`'s monthly saving of buying is on the comparison sheet of
    `clouds` options: its column and first and last rows (row 4 + k holds its NPV; the
    equal-service table of at most `clouds` + 2 options is between)."""
    top = clouds + 6 + service_rows(clouds + 2) + 1
    return 3 + k * len(_PER_CLOUD), top + 1, top + months


def _monthly(
    sheet: Worksheet, base: int, rows: tuple[int, int], owned: Worksheet, cloud: Worksheet
) -> None:
    """One cloud option's monthly columns: saving, cumulative, discounted, flags."""
    first, last = rows
    cur = "USD"  # only int and decimal kinds below use no currency
    saving, cumulative, discounted, started, paid, even = range(base, base + 6)
    savings = span(sheet, first, last, saving, sheet)
    tolerance = f"1E-9*MAX(MAX({savings}),-MIN({savings}))"
    for r in range(first, last + 1):
        row_in_option = r - first + 2

        def c(column: int, row: int = r) -> str:
            return ref(sheet, row, column, sheet)

        own_cash = ref(owned, row_in_option, OWN["cash"])
        cloud_cash = ref(cloud, row_in_option, RENT["cash"])
        before = r > first
        cells = {
            saving: f"{cloud_cash}-{own_cash}",
            cumulative: f"{c(cumulative, r - 1)}+{c(saving)}" if before else c(saving),
            discounted: (
                f"{c(discounted, r - 1)}+{c(saving)}*{c(2)}" if before else f"{c(saving)}*{c(2)}"
            ),
            started: (
                f"IF(OR({c(started, r - 1)}=1,{c(saving)}<>0),1,0)"
                if before
                else f"IF({c(saving)}<>0,1,0)"
            ),
            paid: f"IF(AND({c(started)}=1,{c(cumulative)}>=-{tolerance}),1,0)",
            even: f"IF(AND({c(started)}=1,{c(discounted)}>=-{tolerance}),1,0)",
        }
        for column, formula in cells.items():
            kind: Kind = "int" if column in (started, paid, even) else "money"
            put_formula(sheet.cell(r, column), formula, kind, cur)
            if kind == "money":
                sheet.cell(r, column).number_format = "#,##0.00"


def _guess(model: Sequence[Comparison], k: int) -> str:
    """Where IRR's search starts: the planner's rate a month (a spreadsheet's Newton search
    from 1% can miss a rate far below it); 1% without one."""
    rate = model[k].irr if k < len(model) else None
    if rate is None or rate <= -1:
        return "0.01"
    return f"{(1 + rate) ** (1 / 12) - 1:.6f}"


def _first(sheet: Worksheet, column: int, first: int, last: int, never: str) -> str:
    """The first month (from 1, as the month column) whose flag is 1, else `never`."""
    flags = span(sheet, first, last, column, sheet)
    return f'IFERROR(MATCH(1,{flags},0),"{never}")'


def _chart(sheet: Worksheet, clouds: Sequence[Worksheet], top: int, last: int, lang: str) -> None:
    if not clouds:
        return
    chart = LineChart()
    chart.title = text("report.wb.chart.break_even", lang)  # type: ignore[arg-type]
    chart.y_axis.title = text("report.wb.chart.saving_axis", lang)  # type: ignore[arg-type]
    chart.x_axis.title = text("report.wb.chart.month_axis", lang)  # type: ignore[arg-type]
    for k in range(len(clouds)):
        column = 3 + k * len(_PER_CLOUD) + 2
        data = Reference(sheet, min_col=column, min_row=top, max_row=last)
        chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(sheet, min_col=1, min_row=top + 1, max_row=last))
    chart.height, chart.width = 9, 22
    sheet.add_chart(chart, "I2")


def cash_chart(sheet: Worksheet, series: int, months: int, lang: str) -> None:
    """Cumulative cash of every option (columns after the monthly ones) over the months."""
    chart = LineChart()
    chart.title = text("report.wb.chart.cumulative", lang)  # type: ignore[arg-type]
    chart.y_axis.title = text("report.wb.chart.cash_axis", lang)  # type: ignore[arg-type]
    chart.x_axis.title = text("report.wb.chart.month_axis", lang)  # type: ignore[arg-type]
    first = 2 + series
    data = Reference(
        sheet, min_col=first, max_col=first + series - 1, min_row=1, max_row=months + 1
    )
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(sheet, min_col=1, min_row=2, max_row=months + 1))
    chart.height, chart.width = 10, 24
    sheet.add_chart(chart, sheet.cell(2, first + series + 1).coordinate)
