"""The CSV files the planner writes, every text cell spreadsheet-safe
(`planner.core.spreadsheet_text`).

`write_csv` is the report's options table (`planner tco --csv`): one row per scenario, horizon
and option, every cost category, the per-GPU-hour costs and the waits; UTF-8 with a byte-order
mark so Excel opens Chinese headers correctly. Numbers are written plainly ("." decimals):
money to the cent, rates and hours to six decimals, never float noise like 25611300.000000004.
`frame_csv` writes any other table (rejected rows, the Compare page's tables). The tidy,
per-job and chargeback CSVs of `planner report` are in `planner.report.csv_tidy`."""

import csv
from io import StringIO

import pandas as pd
from pandas.api.types import is_numeric_dtype

from planner.core.spreadsheet_text import safe_cell, safe_row
from planner.report.cells import Cell, Kind
from planner.report.csv_tidy import money_text
from planner.report.model import Report


def write_csv(report: Report) -> bytes:
    out = StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(safe_row(c.label for c in report.options.columns))
    kinds = [c.kind for c in report.options.columns]
    for row in report.options.rows:
        writer.writerow(safe_row(_plain(v, k) for v, k in zip(row, kinds, strict=True)))
    return out.getvalue().encode("utf-8-sig")


def _plain(value: Cell, kind: Kind) -> Cell:
    """A number as CSV text: money to the cent, other decimals to six places."""
    if value is None:
        return ""
    if not isinstance(value, float):
        return value
    if kind == "money":
        return money_text(round(value * 100))
    return repr(round(value, 6))


def frame_csv(frame: pd.DataFrame) -> str:
    """`frame.to_csv(index=False)` with the text cells (and headers) made safe; numeric
    columns are written as pandas writes them."""
    safe = pd.DataFrame(
        {
            k: column if is_numeric_dtype(column) else column.map(safe_cell, na_action="ignore")
            for k, (_, column) in enumerate(frame.items())
        }
    )
    safe.columns = pd.Index([safe_cell(str(name)) for name in frame.columns])
    return safe.to_csv(index=False)
