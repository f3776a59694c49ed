"""Cached access to the planner database for the app's pages.

Every call takes a cursor of the process's connection to the file (`planner.store.shared`:
opened when a page needs it, closed 0.3 s after the last use, so that a CLI command can
open the file meanwhile) and returns it. While another process (`planner ingest` from a
terminal) holds the file, the page shows a "busy, retrying" spinner naming that process and
tries again for up to 300 s ($PLANNER_DB_WAIT), then shows the error. Stored traces never
change (a trace id is a hash of the file and the read options), so their statistics are
cached by id with `st.cache_data`.
"""

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import streamlit as st

from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import Connection, borrowed, database_path
from planner.store.shared import shared_store
from planner.store.trace_stats import TraceStats, list_traces, trace_stats
from planner.store.waiting import Patience, patience
from planner.ui.i18n import t
from planner.ui.safe import md

SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "data" / "traces" / "sample.csv"
# How long a page waits for another process (a CLI import) to let go of the database.
APP_WAIT_S = 300.0


def _busy(holder: str) -> AbstractContextManager[None]:
    # a spinner is transient: inside an `st.cache_data` function it is not replayed later
    return st.spinner(t("common.db_busy", holder=md(holder)), show_time=True)


def _patience() -> Patience:
    return patience(APP_WAIT_S, _busy)


@contextmanager
def cursor(db_path: str | None = None) -> Iterator[Connection]:
    """A cursor on `db_path` (default: $PLANNER_DB or data/planner.duckdb), returned after
    use; a storage problem met while using it (a corrupt block, a full disk) is a
    `StoreError`, and so is a file another process holds for longer than the page waits."""
    path = Path(db_path or database_path())
    with shared_store(path).cursor(_patience()) as con, borrowed(con, path) as cur:
        yield cur


def ensure_sample(con: Connection, sample: Path | None = None) -> str | None:
    """Import the bundled sample trace unless it is stored already; its trace id.

    None when the file is absent (a checkout without data). A repeat import is recognised
    by the file's hash and costs one read of the file.
    """
    path = SAMPLE_TRACE if sample is None else sample
    if not path.is_file():
        return None
    return import_file(con, path, IngestOptions()).trace_id


@st.cache_resource(show_spinner="Importing the sample job history…")
def _sample_once(db_path: str, sample: str) -> str | None:
    # cache_resource holds a lock per key: two first sessions cannot import concurrently.
    with cursor(db_path) as cur:
        return ensure_sample(cur, Path(sample))


def sample_trace() -> str | None:
    """The sample's trace id, importing it on the first call in this process."""
    return _sample_once(str(database_path()), str(SAMPLE_TRACE))


def stored_traces() -> list[dict[str, Any]]:
    """Every stored trace, newest first (not cached: the CLI may import meanwhile)."""
    with cursor() as cur:
        return list_traces(cur)


@st.cache_data(show_spinner=False, max_entries=64)
def _stats(db_path: str, trace_id: str) -> TraceStats:
    with cursor(db_path) as cur:
        return trace_stats(cur, trace_id)


def trace_summary(trace_id: str) -> TraceStats:
    """Jobs, GPU-hours, span and breakdowns of a stored trace, cached by its id."""
    return _stats(str(database_path()), trace_id)
