"""The CSV files the planner writes, every text cell spreadsheet-safe
(`planner.core.spreadsheet_text`).

`write_csv` is the report's options table: one row per scenario, horizon and option, every
cost category, the per-GPU-hour costs and the waits; UTF-8 with a byte-order mark so Excel
opens Chinese headers correctly. Numbers are written plainly (full precision, "." decimals).
`frame_csv` writes any other table (rejected rows, the Compare page's tables)."""

import csv
from io import StringIO

import pandas as pd
from pandas.api.types import is_numeric_dtype

from planner.core.spreadsheet_text import safe_cell, safe_row
from planner.report.model import Report


def write_csv(report: Report) -> bytes:
    out = StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(safe_row(c.label for c in report.options.columns))
    for row in report.options.rows:
        cells = ["" if v is None else repr(v) if isinstance(v, float) else v for v in row]
        writer.writerow(safe_row(cells))
    return out.getvalue().encode("utf-8-sig")


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
