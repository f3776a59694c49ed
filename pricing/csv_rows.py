"""CSV text of price-book rows: read with an error per bad cell, write so reading gives them back.

Rows are numbered as in a spreadsheet: the header is row 1, the first data row is row 2.
Empty cells mean "not given" (the model's default). Good rows are kept when others fail.
Text a spreadsheet would run as a formula is written with a leading `'` and read back without
it (`planner.core.spreadsheet_text`), so exports open safely and still import unchanged.
"""

import csv
import io
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from planner.core.spreadsheet_text import restore_text, safe_text
from pricing.errors import PricingError
from pricing.problems import problems

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class RowError:
    """One bad cell: `message` says what was expected and what was found."""

    row: int
    column: str
    value: str
    message: str

    def __str__(self) -> str:
        column = f", column {self.column}" if self.column else ""
        return f"row {self.row}{column}: {self.message}"


@dataclass(frozen=True, slots=True)
class ParsedRows(Generic[M]):
    rows: tuple[tuple[int, M], ...]
    """(row number, validated row) of every good row, in file order."""
    errors: tuple[RowError, ...]


def read_rows(text: str, model: type[M], *, ignored: Collection[str] = ()) -> ParsedRows[M]:
    """Validate every data row of `text` as a `model`; duplicate keys are errors too."""
    reader = csv.DictReader(io.StringIO(text))
    _check_header(reader.fieldnames or [], model, ignored)
    good: list[tuple[int, M]] = []
    errors: list[RowError] = []
    first_row_of: dict[str, int] = {}
    for number, record in enumerate(reader, start=2):
        row, row_errors = _validate(number, record, model)
        errors.extend(row_errors)
        if row is None:
            continue
        key = str(getattr(row, "key", ""))
        if key in first_row_of:
            errors.append(RowError(number, "key", key, f"duplicate of row {first_row_of[key]}"))
            continue
        first_row_of[key] = number
        good.append((number, row))
    return ParsedRows(tuple(good), tuple(errors))


def _check_header(header: Sequence[str], model: type[BaseModel], ignored: Collection[str]) -> None:
    fields = model.model_fields
    unknown = [name for name in header if name not in fields and name not in ignored]
    if unknown:
        raise PricingError(
            f"Unknown column(s) {', '.join(unknown)}; the columns are {', '.join(fields)}."
        )
    missing = [name for name, info in fields.items() if info.is_required() and name not in header]
    if missing:
        raise PricingError(f"Missing column(s) {', '.join(missing)}.")


def _validate(
    number: int, record: dict[str | None, str | list[str] | None], model: type[M]
) -> tuple[M | None, list[RowError]]:
    if record.get(None):
        return None, [RowError(number, "", "", "more cells than columns in the header")]
    data = {
        name: restore_text(value.strip())
        for name, value in record.items()
        if name in model.model_fields and isinstance(value, str) and value.strip()
    }
    try:
        return model.model_validate(data), []
    except ValidationError as err:
        return None, [RowError(number, p.field, p.value, p.message) for p in problems(err)]


def write_rows(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """CSV text with a header; None is an empty cell, floats keep every digit."""
    out = io.StringIO()
    # RFC 4180 line ends: the writer then quotes cells holding \r as well as \n.
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    writer.writerows([_cell(value) for value in row] for row in rows)
    return out.getvalue()


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, date):
        return value.isoformat()
    return safe_text(str(value))
