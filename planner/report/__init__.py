"""The TCO report for Finance: `build_report` turns TCO reports (`TcoReport`s) into plain
tables (`model`), which `excel`, `pdf` and `csv_table` write as xlsx, PDF and CSV bytes.

No Streamlit here (the CLI writes the same files); `planner/ui/downloads.py` offers them
in the app.
"""

from planner.report.model import Report, build_report

__all__ = ["Report", "build_report"]
