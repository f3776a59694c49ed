"""The report's files as bytes: the one function `planner report` and the Compare page's
download buttons both call, so the same reports, horizon, language and chargeback rule give
the same bytes (the report's `generated` date is the only clock it reads).

An xlsx or PDF is one file. A CSV report is three files: the tidy cost rows under the name
asked for, the per-job replay table with `-jobs` before the extension and the chargeback table
with `-chargeback` (FILE.csv, FILE-jobs.csv, FILE-chargeback.csv). A FOCUS export is one
file of FOCUS cost-and-usage rows (`planner.report.focus`), its months from `start` (default:
the month after the report's date, said in a note).
"""

from collections.abc import Sequence
from datetime import date
from typing import Literal

from planner.core.i18n import Language
from planner.cost.chargeback import Rule
from planner.report.chargeback_table import chargeback
from planner.report.csv_tidy import write_chargeback_csv, write_jobs_csv, write_tidy_csv
from planner.report.excel import write_xlsx
from planner.report.focus import next_month, write_focus
from planner.report.headline import Named
from planner.report.model import build_report
from planner.report.pdf import write_pdf
from planner.report.pdf_fonts import Fonts
from planner.report.text import text

FileKind = Literal["xlsx", "pdf", "csv", "focus"]
KINDS: tuple[FileKind, ...] = ("xlsx", "pdf", "csv", "focus")
JOBS, CHARGEBACK = "-jobs", "-chargeback"
"""Suffixes (before the extension) of the CSV report's second and third files."""


def render(
    reports: Sequence[Named],
    kind: FileKind,
    *,
    horizon_index: int = 0,
    lang: Language = "en",
    rule: Rule = "use",
    generated: date | None = None,
    fonts: Fonts | None = None,
    start: date | None = None,
) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """The files of `kind` by suffix ("" for the main one), and notes to show (the PDF's
    fonts; the chargeback's rule when `quota` found no quotas and split by use; the FOCUS
    export's first month)."""
    if kind == "focus":
        first = start or next_month(generated or date.today())
        data = write_focus(reports, first, horizon_index=horizon_index, lang=lang)
        return {"": data}, (text("report.focus.start", lang, month=f"{first:%Y-%m}"),)
    report = build_report(reports, horizon_index, lang, generated)
    split = chargeback(reports, horizon_index, rule, lang)
    said = (text("report.chargeback.fallback", lang),) if split.fell_back else ()
    if kind == "xlsx":
        return {"": write_xlsx(report, chargeback=rule)}, said
    if kind == "pdf":
        pdf = write_pdf(report, fonts)
        return {"": pdf.data}, (*pdf.notes, *said)
    files = {
        "": write_tidy_csv(reports, lang),
        JOBS: write_jobs_csv(reports),
        CHARGEBACK: write_chargeback_csv(split, lang),
    }
    return files, said
