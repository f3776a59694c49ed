"""CSV import and export of cloud price points; an exported file imports back unchanged.

The columns are `key` plus the `price_points` columns (`origin` is written for information
and ignored on import). Imported rows become the user's only when they change something.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from planner.core import atomic_file
from planner.store import Connection, doing, transaction
from pricing.csv_rows import RowError, read_rows, write_rows
from pricing.errors import PricingError
from pricing.models import PriceQuote, future_date
from pricing.points import PriceFilter, PricePoint, list_prices
from pricing.rows import PRICE_COLUMNS, PRICE_POINTS, row_values, write_user_rows
from pricing.seed import ensure_seeded

CSV_COLUMNS = ("key", *PRICE_COLUMNS, "origin")


@dataclass(frozen=True, slots=True)
class ImportReport:
    rows: int
    added: int
    updated: int
    unchanged: int
    rejected: int
    errors: tuple[RowError, ...]

    def summary_lines(self) -> list[str]:
        head = (
            f"{self.rows} rows: {self.added} added, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.rejected} rejected"
        )
        return [head, *(f"  {error}" for error in self.errors)]


def prices_to_csv(points: Iterable[PricePoint | PriceQuote]) -> str:
    """CSV text of stored prices or quotes in `CSV_COLUMNS` order (quotes have no origin)."""
    return write_rows(CSV_COLUMNS, ([getattr(p, c, None) for c in CSV_COLUMNS] for p in points))


def quotes_from_csv(text: str) -> tuple[list[PriceQuote], tuple[RowError, ...]]:
    """The valid rows of `text` and the errors of the others (row, column, expected value)."""
    parsed = read_rows(text, PriceQuote, ignored=("origin",))
    return [quote for _, quote in parsed.rows], parsed.errors


def export_prices(con: Connection, path: Path, where: PriceFilter | None = None) -> int:
    """Write the (filtered) price points to `path`; the number of rows written."""
    points = list_prices(con, where)
    try:
        atomic_file.write_bytes(path, prices_to_csv(points).encode())
    except OSError as err:
        raise PricingError(f"Cannot write {path}: {err.strerror}.") from err
    return len(points)


def import_prices(con: Connection, path: Path) -> ImportReport:
    """Add or update the price points of a CSV file; bad rows are reported, good ones kept."""
    ensure_seeded(con)
    try:
        text = path.read_bytes().decode("utf-8-sig")  # bytes: line ends in cells stay as written
    except OSError as err:
        raise PricingError(f"Cannot read {path}: {err.strerror}.") from err
    except UnicodeDecodeError as err:
        raise PricingError(f"{path} is not UTF-8 text; save it as UTF-8 CSV.") from err
    parsed = read_rows(text, PriceQuote, ignored=("origin",))
    quotes, errors = [], list(parsed.errors)
    for number, quote in parsed.rows:
        future = future_date(quote)
        if future is None:
            quotes.append(quote)
        else:
            errors.append(RowError(number, future[0], str(quote.as_of), future[1]))
    rows = [(quote.key, row_values(PRICE_POINTS, quote)) for quote in quotes]
    with doing(f"import the prices of {path.name}", invalid=PricingError), transaction(con):
        changes = write_user_rows(con, PRICE_POINTS, rows)
    return ImportReport(
        rows=len(quotes) + len({error.row for error in errors}),
        added=changes.count("added"),
        updated=changes.count("updated"),
        unchanged=changes.count("unchanged"),
        rejected=len({error.row for error in errors}),
        errors=tuple(sorted(errors, key=lambda e: e.row)),
    )
