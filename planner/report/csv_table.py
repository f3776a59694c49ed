"""The report's options table as CSV: one row per scenario, horizon and option, every cost
category, the per-GPU-hour costs and the waits; UTF-8 with a byte-order mark so Excel opens
Chinese headers correctly. Numbers are written plainly (full precision, "." decimals)."""

import csv
from io import StringIO

from planner.report.model import Report


def write_csv(report: Report) -> bytes:
    out = StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([c.label for c in report.options.columns])
    for row in report.options.rows:
        writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else v for v in row])
    return out.getvalue().encode("utf-8-sig")
