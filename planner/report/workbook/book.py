"""The workbook's cell writers: text always text, numbers with the report's formats, formulas
only where this package writes them, and the defined names formulas refer to.

A user's string (a team, job or option name) is never a formula: `put_text` stores it as a
string, with Excel's quote prefix when a spreadsheet would run it (`planner.core.
spreadsheet_text`). Formulas go through `put_formula` alone.
"""

import re
from dataclasses import dataclass, field

from openpyxl import Workbook
from openpyxl.cell import Cell, MergedCell
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.worksheet import Worksheet

from planner.core.i18n import Language, number_style
from planner.core.notes import worded
from planner.core.spreadsheet_text import is_formula_like
from planner.report.cells import Kind
from planner.report.text import text

BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
INPUT = Font(color="0000CC")
"""Inputs a reader may change are blue, the spreadsheet convention for assumptions."""
NOTE = Font(italic=True, color="C00000")
"""A warning a reader must see beside an input (what changing it does not move)."""
WRAP = Alignment(wrap_text=True, vertical="top")
HEAD = Alignment(wrap_text=True, vertical="bottom")
MAX_WIDTH = 60
_NOT_IN_NAMES = re.compile(r"[^A-Za-z0-9_]+")
AnyCell = Cell | MergedCell
"""What `Worksheet.cell` returns (this package merges no cells)."""


def number_format(kind: Kind, currency: str) -> str:
    """Excel's number format for a cell kind; money in the report currency."""
    style = number_style(currency)
    formats = {
        "money": style.excel_format(2),
        "rate": style.excel_format(),
        "percent": "0.0%",
        "number": "#,##0",
        "decimal": "#,##0.00",
        "hours": "#,##0.0",
        "int": "0",
    }
    return formats.get(kind, "General")


@dataclass
class Book:
    """The workbook being written, with its currency, language and defined names."""

    wb: Workbook
    currency: str
    lang: Language
    names: set[str] = field(default_factory=set)

    def sheet(self, title: str) -> Worksheet:
        sheet: Worksheet = self.wb.create_sheet(self.title(title))
        return sheet

    def title(self, wanted: str) -> str:
        """A valid, unused sheet name: 31 characters, none of []:*?/\\ or control
        characters, no quote at either end."""
        bad = set("[]:*?/\\")
        clean = "".join("-" if c in bad or c < " " else c for c in wanted)
        clean = clean.strip("' ")[:31].strip("' ") or "-"
        taken = {s.title.lower() for s in self.wb.worksheets}
        title, k = clean, 2
        while title.lower() in taken:
            suffix = f" ({k})"
            title, k = clean[: 31 - len(suffix)] + suffix, k + 1
        return title

    def name(self, wanted: str) -> str:
        """A valid, unused defined name made of `wanted` (letters, digits, underscores; it
        starts with a letter and contains an underscore or is long, so it is never a cell
        reference such as A100 or R1C1)."""
        base = _NOT_IN_NAMES.sub("_", wanted).strip("_") or "Input"
        if not base[0].isalpha():
            base = "N_" + base
        if "_" not in base and re.fullmatch(r"[A-Za-z]{1,3}[0-9]+|[RrCc][0-9]*", base):
            base += "_"
        name, k = base, 2
        while name.lower() in self.names:
            name, k = f"{base}_{k}", k + 1
        self.names.add(name.lower())
        return name

    def define(
        self, wanted: str, sheet: Worksheet, first: AnyCell, last: AnyCell | None = None
    ) -> str:
        """Define a workbook name for `first` (or the range first:last); returns the name."""
        name = self.name(wanted)
        target = absolute(first) + ("" if last is None else ":" + absolute(last))
        self.wb.defined_names[name] = DefinedName(name, attr_text=f"{quote(sheet)}!{target}")
        return name


OWNED = ("self-hosted", "hybrid")
"""The model's names of the options that own servers."""


def option_label(name: str, lang: Language) -> str:
    """The model's own option names (self-hosted, hybrid, and the pricing model of a cloud
    option we named) in `lang`; a cloud option's as the user named it."""
    return text(f"report.pdf.option.{name}", lang) if name in OWNED else worded(name, lang)


def quote(sheet: Worksheet) -> str:
    return "'" + sheet.title.replace("'", "''") + "'"


def absolute(cell: AnyCell) -> str:
    return f"${get_column_letter(cell.column or 1)}${cell.row}"


def ref(sheet: Worksheet, row: int, column: int, here: Worksheet | None = None) -> str:
    """A reference to a cell, with its sheet unless it is `here`."""
    cell = f"{get_column_letter(column)}{row}"
    return cell if sheet is here else f"{quote(sheet)}!{cell}"


def span(sheet: Worksheet, first: int, last: int, column: int, here: Worksheet | None) -> str:
    """A column range first..last rows, with its sheet unless it is `here`."""
    letter = get_column_letter(column)
    cells = f"{letter}{first}:{letter}{last}"
    return cells if sheet is here else f"{quote(sheet)}!{cells}"


def npv_formula(first: str, rest: str | None, rate: str) -> str:
    """NPV at the start of month 1 of monthly cash (`first` undiscounted, `rest` a range or
    None), the yearly `rate` made monthly: the planner's `finance.npv`."""
    return first + (f"+NPV((1+{rate})^(1/12)-1,{rest})" if rest else "")


def eac_formula(npv: str, rate: str, months: str) -> str:
    """Equivalent annual cost: NPV x r / (1 - (1 + r)^-years) (NPV / years at r = 0)."""
    years = f"({months}/12)"
    return f"IF({rate}=0,{npv}/{years},{npv}*{rate}/(1-(1+{rate})^(-{years})))"


def put_text(cell: AnyCell, value: str) -> AnyCell:
    """`value` as a string cell, never a formula."""
    cell.value = value
    cell.data_type = "s"
    if is_formula_like(value):
        cell.quotePrefix = True
    return cell


def put(cell: AnyCell, value: str | float | int | None, kind: Kind, currency: str) -> AnyCell:
    """A value cell: text as text, numbers with `kind`'s format."""
    if isinstance(value, str):
        return put_text(cell, value)
    cell.value = value
    if kind != "text":
        cell.number_format = number_format(kind, currency)
    return cell


def put_formula(cell: AnyCell, formula: str, kind: Kind, currency: str) -> AnyCell:
    cell.value = "=" + formula
    if kind != "text":
        cell.number_format = number_format(kind, currency)
    return cell


def header(sheet: Worksheet, row: int, labels: list[str], first_column: int = 1) -> None:
    for k, label in enumerate(labels, start=first_column):
        cell = put_text(sheet.cell(row, k), label)
        cell.font, cell.alignment = BOLD, HEAD


def widths(sheet: Worksheet, sizes: dict[int, float]) -> None:
    for column, size in sizes.items():
        sheet.column_dimensions[get_column_letter(column)].width = min(MAX_WIDTH, size)


def display_width(value: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if ord(c) > 0x2E80 else 1 for c in value)
