"""The report downloads: three buttons (Excel, PDF, CSV) for one or several TCO reports,
labelled in the session's language.

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

from planner.core.serialize import from_json, to_json
from planner.cost.chargeback import Rule
from planner.cost.results import TcoReport
from planner.report.pdf_fonts import Fonts, find_fonts
from planner.report.render import CHARGEBACK, JOBS, FileKind, render
from planner.ui.i18n import Language, language, t

MIME: dict[FileKind, str] = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
    "csv": "text/csv",
}


def report_downloads(
    reports: Sequence[tuple[str, TcoReport]], horizon_index: int, key: str, rule: Rule = "use"
) -> None:
    """Excel, PDF and CSV buttons for `reports` ((scenario name, TCO report) pairs), the
    chargeback split by `rule`; `key` keeps the buttons' identities apart when a page shows
    several."""
    lang = language()
    digest, payload = _payload(reports)
    columns = st.columns(3)
    kinds: tuple[FileKind, ...] = ("xlsx", "pdf", "csv")
    for column, kind in zip(columns, kinds, strict=True):
        column.download_button(
            t(f"report.download.{kind}"),
            data=_builder(digest, payload, (horizon_index, lang, kind, rule), ""),
            file_name=f"{_stem()}.{kind}",
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
    digest, payload = _payload(reports)
    where: Where = (horizon_index, language(), "csv", rule)
    for column, suffix in zip(st.columns(2), (CHARGEBACK, JOBS), strict=True):
        name = suffix.strip("-")
        column.download_button(
            t(f"chargeback.download_{name}"),
            data=_builder(digest, payload, where, suffix),
            file_name=f"{_stem()}{suffix}.csv",
            mime=MIME["csv"],
            key=f"{key}_{name}",
            on_click="ignore",
            icon=":material/download:",
        )


def _stem() -> str:
    return f"tco-report-{date.today().isoformat()}"


def _payload(reports: Sequence[tuple[str, TcoReport]]) -> tuple[str, str]:
    """The reports as JSON text, and its content hash (the files' cache key)."""
    data = [[name, to_json(r)] for name, r in reports]
    # keys in their own order: sorting them would reorder mappings the writers walk (a
    # report's categories, reasons), and the files would differ from `planner report`'s
    payload = json.dumps(data, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest(), payload


Where = tuple[int, Language, FileKind, Rule]
"""Horizon index, language, file kind and chargeback rule."""


def _builder(digest: str, payload: str, where: Where, suffix: str) -> Callable[[], bytes]:
    def build() -> bytes:
        return report_files(digest, payload, where)[suffix]

    return build


@st.cache_data(show_spinner=False, max_entries=32)
def report_files(digest: str, _payload: str, where: Where) -> dict[str, bytes]:
    """The files of one kind (`planner.report.render.render`) by suffix; cached by `digest`
    (the reports' content hash), not by `_payload`."""
    del digest  # the cache key for the payload
    horizon, lang, kind, rule = where
    reports = [(str(name), from_json(TcoReport, r)) for name, r in json.loads(_payload)]
    files, _ = render(reports, kind, horizon_index=horizon, lang=lang, rule=rule, fonts=_fonts())
    return files


@st.cache_resource(show_spinner=False)
def _fonts() -> Fonts:
    """The fonts this machine has (searched once per process)."""
    return find_fonts()
