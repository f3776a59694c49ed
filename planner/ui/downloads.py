"""The report downloads: three buttons (Excel, PDF, CSV) for one or several TCO reports,
labelled in the session's language.

The files are built when a button is pressed (Streamlit calls the `data` callable) and
cached by the reports' content, horizon and language, so pressing again or rerunning the
page does not rebuild them. A note about the PDF's fonts (no Chinese font here, so the PDF
is in English) is shown under the buttons.
"""

import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import date
from typing import Literal

import streamlit as st

from planner.core.serialize import from_json, to_json
from planner.cost.results import TcoReport
from planner.report import build_report
from planner.report.csv_table import write_csv
from planner.report.excel import write_xlsx
from planner.report.pdf import write_pdf
from planner.report.pdf_fonts import Fonts, find_fonts
from planner.ui.i18n import Language, language, t

FileKind = Literal["xlsx", "pdf", "csv"]
MIME: dict[FileKind, str] = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
    "csv": "text/csv",
}


def report_downloads(
    reports: Sequence[tuple[str, TcoReport]], horizon_index: int, key: str
) -> None:
    """Excel, PDF and CSV buttons for `reports` ((scenario name, TCO report) pairs); `key`
    keeps the buttons' identities apart when a page shows several."""
    lang = language()
    data = [[name, to_json(r)] for name, r in reports]
    payload = json.dumps(data, sort_keys=True, default=str)
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()
    stem = f"tco-report-{date.today().isoformat()}"
    columns = st.columns(3)
    kinds: tuple[FileKind, ...] = ("xlsx", "pdf", "csv")
    for column, kind in zip(columns, kinds, strict=True):
        column.download_button(
            t(f"report.download.{kind}"),
            data=_builder(digest, payload, horizon_index, lang, kind),
            file_name=f"{stem}.{kind}",
            mime=MIME[kind],
            key=f"{key}_{kind}",
            help=t("report.download.help", what=t(f"report.download.what_{kind}")),
            on_click="ignore",
            icon=":material/download:",
        )
    for note in _fonts().notes(lang):
        st.caption(note)


def _builder(
    digest: str, payload: str, horizon: int, lang: Language, kind: FileKind
) -> Callable[[], bytes]:
    def build() -> bytes:
        return report_bytes(digest, payload, horizon, lang, kind)

    return build


@st.cache_data(show_spinner=False, max_entries=32)
def report_bytes(digest: str, _payload: str, horizon: int, lang: Language, kind: FileKind) -> bytes:
    """The file's bytes; cached by `digest` (the reports' content hash), not by `_payload`."""
    del digest  # the cache key for the payload
    reports = [(str(name), from_json(TcoReport, r)) for name, r in json.loads(_payload)]
    report = build_report(reports, horizon, lang)
    if kind == "xlsx":
        return write_xlsx(report)
    if kind == "pdf":
        return write_pdf(report, _fonts()).data
    return write_csv(report)


@st.cache_resource(show_spinner=False)
def _fonts() -> Fonts:
    """The fonts this machine has (searched once per process)."""
    return find_fonts()
