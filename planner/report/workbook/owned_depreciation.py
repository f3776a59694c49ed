"""An owned option's block on the Depreciation sheet: month, book charge, accumulated, net
book value, tax charge, accumulated, net book value, as formulas over the option sheet's key
figures (`planner.cost.depreciation` and `planner.cost.refresh` say the same in Python)."""

from dataclasses import dataclass

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from planner.report.text import text
from planner.report.workbook.assumptions import Names
from planner.report.workbook.book import Book, header, put_formula, ref
from planner.report.workbook.timing import charge, generation_age


@dataclass(frozen=True, slots=True)
class DepreciationRefs:
    """The option sheet's key figures the schedules read (cell references)."""

    cost: str
    lead: str
    book_life: str
    book_residual: str
    tax_life: str
    tax_residual: str


def depreciation_block(
    book: Book,
    where: tuple[Worksheet, int],
    option: str,
    refs: DepreciationRefs,
    *,
    names: Names,
    months: int,
) -> None:
    """The schedules from delivery, by the methods stated, each generation of servers
    (`planner.cost.refresh`) from its own delivery; `where` is the Depreciation sheet and the
    block's first column, `option` the option sheet's title."""
    dep, first_column = where
    lang, cur = book.lang, book.currency
    keys = ("month", "book", "book_acc", "book_nbv", "tax", "tax_acc", "tax_nbv")
    labels = [text(f"report.wb.dep.{k}", lang, option=option) for k in keys]
    header(dep, 1, labels, first_column)
    ledgers = (
        (names.methods[0], refs.book_life, refs.book_residual),
        (names.methods[1], refs.tax_life, refs.tax_residual),
    )
    for r in range(2, months + 2):
        month = ref(dep, r, first_column, dep)
        put_formula(dep.cell(r, first_column), f"{r - 1}", "int", cur)
        age = generation_age(month, refs.lead, refs.book_life)
        for j, (method, ledger_life, residual) in enumerate(ledgers):
            column = first_column + 1 + 3 * j
            amount = charge(method, refs.cost, residual, ledger_life, age)
            put_formula(dep.cell(r, column), amount, "money", cur)
            charged = ref(dep, r, column, dep)
            # accumulated within the generation in service: a new one starts from 0
            before = f"IF({age}=0,0,{ref(dep, r - 1, column + 1, dep)})+" if r > 2 else ""
            put_formula(dep.cell(r, column + 1), f"{before}{charged}", "money", cur)
            value = f"{refs.cost}-{ref(dep, r, column + 1, dep)}"
            put_formula(dep.cell(r, column + 2), value, "money", cur)
    dep.freeze_panes = "B2"
    for c in range(first_column, first_column + 7):
        dep.column_dimensions[get_column_letter(c)].width = 15
