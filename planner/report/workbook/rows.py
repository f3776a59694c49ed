"""The Assumptions sheet's row writer: one input a row (label, value, unit, source, as of,
confidence, defined name), its value cell a workbook name the formula sheets use."""

from openpyxl.worksheet.worksheet import Worksheet

from planner.core.notes import worded
from planner.report.cells import Kind
from planner.report.text import text
from planner.report.workbook.book import BOLD, INPUT, Book, put, put_text

Source = tuple[str, str, str]
"""Source, as of, confidence."""
NO_SOURCE: Source = ("", "", "")


class Writer:
    """Rows of the Assumptions sheet: input, value, unit, source, as of, confidence, name."""

    def __init__(self, book: Book, sheet: Worksheet, prefix: str) -> None:
        self.book, self.sheet, self.prefix, self.row = book, sheet, prefix, 1

    def section(self, key: str, **values: str) -> None:
        self.row += 1
        put_text(self.sheet.cell(self.row, 1), text(key, self.book.lang, **values)).font = BOLD
        self.row += 1

    def input(
        self,
        label: str,
        value: float | str,
        kind: Kind,
        name: str,
        *,
        unit: str = "",
        source: Source = NO_SOURCE,
    ) -> str:
        """One input row, its value cell named `prefix + name`; returns the defined name."""
        r, sheet = self.row, self.sheet
        put_text(sheet.cell(r, 1), label)
        put(sheet.cell(r, 2), value, kind, self.book.currency).font = INPUT
        for k, item in enumerate((unit, *source), start=3):
            put_text(sheet.cell(r, k), worded(item, self.book.lang))  # a coded source note
        defined = self.book.define(self.prefix + name, sheet, sheet.cell(r, 2))
        put_text(sheet.cell(r, 7), defined)
        self.row += 1
        return defined

    def unit(self, key: str) -> str:
        return text(f"report.wb.unit.{key}", self.book.lang, currency=self.book.currency)

    def source(self, key: str) -> Source:
        """One of the report's own sources (`report.wb.source.<key>`)."""
        return (text(f"report.wb.source.{key}", self.book.lang), "", "")
