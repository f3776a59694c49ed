"""The Job history page's "From Prometheus" section: a server, a window in UTC, an optional
namespace and trace name, imported through `planner.service.prometheus_import` (the service
`planner ingest --prometheus` calls), its report shown as a file's.
"""

import datetime as dt
import urllib.parse

import pandas as pd
import streamlit as st

from planner.core.errors import PlannerError
from planner.ingest import IngestOptions
from planner.ingest.prometheus import Window, parse_window
from planner.service.importer import rejected_rows
from planner.service.prometheus_import import import_prometheus
from planner.ui import trace_choice
from planner.ui.cache import cursor
from planner.ui.error_text import error_text
from planner.ui.history_page import import_report
from planner.ui.history_view import Imported
from planner.ui.i18n import fmt_number, t
from planner.ui.safe import md

IMPORTED_KEY = "history_prom_imported"  # Imported, or the error's text, of the last Import
DAYS = 7  # the default window: the last full week, in UTC


def window_of(start: dt.datetime, end: dt.datetime, step_s: float) -> Window:
    """The window between two UTC times; `step_s` 0 takes the CLI's default step.
    PlannerError, in the session's language, when the end is not after the start."""
    if end <= start:
        raise PlannerError(t("history.prom.bad_window", start=_utc(start), end=_utc(end)))
    return parse_window(f"{start.timestamp()}..{end.timestamp()}", step_s or None)


def import_window(url: str, window: Window, namespace: str, name: str) -> Imported:
    """Import the window's pods from the server at `url` as a trace (one transaction, on
    this session's cursor); its report and rejected rows. PlannerError if unusable."""
    url = url.strip()
    if not url:
        raise PlannerError(t("history.prom.no_url"))
    try:
        urllib.parse.urlsplit(url)
    except ValueError as err:  # an unbalanced "[" in the host, say
        raise PlannerError(t("history.prom.bad_url", url=url, error=str(err))) from None
    with cursor() as cur:
        report = import_prometheus(
            cur,
            url,
            window,
            IngestOptions(),
            namespace=namespace.strip() or None,
            name=name.strip() or None,
        )
        rejected = rejected_rows(cur, report.trace_id) if report.rejected else pd.DataFrame()
    return Imported(report, rejected)


def prometheus_panel() -> None:
    """The section's inputs and Import button, then the last import's report or error."""
    with st.expander(t("history.prom.title"), icon=":material/monitoring:"):
        st.caption(t("history.prom.caption"))
        url = st.text_input(
            t("history.prom.url"),
            help=t("history.prom.url_help"),
            key="history_prom_url",
        )
        start, end = _window_inputs()
        left, right = st.columns(2)
        namespace = left.text_input(
            t("history.prom.namespace"),
            help=t("history.prom.namespace_help"),
            key="history_prom_ns",
        )
        name = right.text_input(
            t("history.prom.name"), help=t("history.prom.name_help"), key="history_prom_name"
        )
        step = st.number_input(
            t("history.prom.step"),
            min_value=0,
            value=0,
            step=60,
            help=t("history.prom.step_help"),
            key="history_prom_step",
        )
        if st.button(t("history.import"), icon=":material/download:", key="history_prom_import"):
            _import(url, start, end, float(step), namespace=namespace, name=name)
        _last_outcome()


def _window_inputs() -> tuple[dt.datetime, dt.datetime]:
    """Start and end, each a date and a time, in UTC (the label says so)."""
    today = dt.datetime.now(dt.UTC).date()
    columns = st.columns(4)
    start_day = columns[0].date_input(
        t("history.prom.start_date"), today - dt.timedelta(days=DAYS), key="history_prom_d0"
    )
    start_time = columns[1].time_input(
        t("history.prom.start_time"), dt.time(0, 0), step=60, key="history_prom_t0"
    )
    end_day = columns[2].date_input(t("history.prom.end_date"), today, key="history_prom_d1")
    end_time = columns[3].time_input(
        t("history.prom.end_time"), dt.time(0, 0), step=60, key="history_prom_t1"
    )
    return _at(start_day, start_time), _at(end_day, end_time)


def _at(day: object, time: object) -> dt.datetime:
    """A date and a time of the inputs as a UTC moment (an input cleared: its default)."""
    day = day if isinstance(day, dt.date) else dt.datetime.now(dt.UTC).date()
    time = time if isinstance(time, dt.time) else dt.time(0, 0)
    return dt.datetime.combine(day, time, tzinfo=dt.UTC)


def _utc(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _import(
    url: str, start: dt.datetime, end: dt.datetime, step: float, *, namespace: str, name: str
) -> None:
    try:
        window = window_of(start, end, step)
        with st.spinner(t("history.prom.reading", start=_utc(start), end=_utc(end))):
            outcome: Imported | str = import_window(url, window, namespace, name)
    except PlannerError as err:
        outcome = md(t("history.prom.error", error=error_text(err)))
    st.session_state[IMPORTED_KEY] = outcome
    if isinstance(outcome, Imported):
        trace_choice.choose(outcome.report.trace_id)  # the working trace, as a file's import


def _last_outcome() -> None:
    outcome = st.session_state.get(IMPORTED_KEY)
    if isinstance(outcome, str):
        st.error(outcome, icon=":material/error:")
    elif isinstance(outcome, Imported):
        report = outcome.report
        st.caption(
            t(
                "history.prom.imported",
                file=md(report.file),
                jobs=fmt_number(report.accepted),
                trace_id=report.trace_id,
            )
        )
        import_report(outcome, key="history_prom", already=t("history.prom.already"))
