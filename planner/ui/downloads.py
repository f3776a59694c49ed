"""The report downloads: four buttons (Excel, PDF, CSV, FOCUS) for one or several TCO
reports, labelled in the session's language.

The files are built when a button is pressed (Streamlit calls the `data` callable) and
cached by the reports' content, horizon, language and chargeback rule, so pressing again or
rerunning the page does not rebuild them. They come from `planner.report.render.render`, the
function `planner report` writes its files with: the same inputs give the same bytes. A note
about the PDF's fonts (no Chinese font here, so the PDF is in English) is shown under the
buttons; `table_downloads` offers the CSV report's chargeback and per-job files.
"""

import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import date

import streamlit as st

from planner.core.serialize import to_json
from planner.cost.chargeback import JOB_COLUMNS, Rule
from planner.cost.results import TcoReport
from planner.report.pdf_fonts import Fonts, find_fonts
from planner.report.render import CHARGEBACK, JOBS, FileKind, render
from planner.ui.i18n import Language, language, t

MIME: dict[FileKind, str] = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
    "csv": "text/csv",
    "focus": "text/csv",
}
SUFFIX: dict[FileKind, str] = {"xlsx": ".xlsx", "pdf": ".pdf", "csv": ".csv", "focus": ".focus.csv"}


def report_downloads(
    reports: Sequence[tuple[str, TcoReport]], horizon_index: int, key: str, rule: Rule = "use"
) -> None:
    """Excel, PDF, CSV and FOCUS buttons for `reports` ((scenario name, TCO report) pairs),
    the chargeback split by `rule`; `key` keeps the buttons' identities apart when a page
    shows several. The FOCUS rows start next month (`planner report`'s default)."""
    lang = language()
    digest, named = _digest(reports), list(reports)
    columns = st.columns(4)
    kinds: tuple[FileKind, ...] = ("xlsx", "pdf", "csv", "focus")
    for column, kind in zip(columns, kinds, strict=True):
        column.download_button(
            t(f"report.download.{kind}"),
            data=_builder(digest, named, (horizon_index, lang, kind, rule), ""),
            file_name=f"{_stem()}{SUFFIX[kind]}",
            mime=MIME[kind],
            key=f"{key}_{kind}",
            help=t("report.download.help", what=t(f"report.download.what_{kind}")),
            on_click="ignore",
            icon=":material/download:",
        )
    for note in _fonts().notes(lang):
        st.caption(note)


def table_downloads(
    reports: Sequence[tuple[str, TcoReport]], horizon_index: int, key: str, rule: Rule
) -> None:
    """The chargeback and per-job CSV buttons: the second and third files of the CSV report
    (`planner report --out FILE.csv` writes the same bytes as FILE-chargeback.csv and
    FILE-jobs.csv)."""
    digest, named = _digest(reports), list(reports)
    where: Where = (horizon_index, language(), "csv", rule)
    for column, suffix in zip(st.columns(2), (CHARGEBACK, JOBS), strict=True):
        name = suffix.strip("-")
        column.download_button(
            t(f"chargeback.download_{name}"),
            data=_builder(digest, named, where, suffix),
            file_name=f"{_stem()}{suffix}.csv",
            mime=MIME["csv"],
            key=f"{key}_{name}",
            on_click="ignore",
            icon=":material/download:",
        )


def _stem() -> str:
    return f"tco-report-{date.today().isoformat()}"


def _digest(reports: Sequence[tuple[str, TcoReport]]) -> str:
    """The reports' content hash (the files' cache key): their JSON, which leaves the per-job
    table out, and that table's columns as text (a walk into JSON would cost every rerun of
    the page more than the rest of the report)."""
    h = hashlib.sha256()
    for name, report in reports:
        if report.chargeback is not None:
            columns = tuple(getattr(report.chargeback.jobs, k) for k in JOB_COLUMNS)
            h.update(repr(columns).encode("utf-8"))
        h.update(json.dumps([name, to_json(report)], default=str).encode("utf-8"))
    return h.hexdigest()


Named = list[tuple[str, TcoReport]]
Where = tuple[int, Language, FileKind, Rule]
"""Horizon index, language, file kind and chargeback rule."""


def _builder(digest: str, reports: Named, where: Where, suffix: str) -> Callable[[], bytes]:
    def build() -> bytes:
        return report_files(digest, reports, where)[suffix]

    return build


@st.cache_data(show_spinner=False, max_entries=32)
def report_files(digest: str, _reports: Named, where: Where) -> dict[str, bytes]:
    """The files of one kind (`planner.report.render.render`) by suffix; cached by `digest`
    (the reports' content hash), not by `_reports`."""
    del digest  # the cache key for the reports
    horizon, lang, kind, rule = where
    files, _ = render(_reports, kind, horizon_index=horizon, lang=lang, rule=rule, fonts=_fonts())
    return files


@st.cache_resource(show_spinner=False)
def _fonts() -> Fonts:
    """The fonts this machine has (searched once per process)."""
    return find_fonts()
