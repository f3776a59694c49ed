"""Cached access to the planner database for the app's pages.

The store's DuckDB connection is opened once per process and database file
(`st.cache_resource`) and shared by every session. Streamlit runs each session's script in
its own thread and one DuckDB connection serialises its queries, so every call here takes
its own cursor and closes it. Stored traces never change (a trace id is a hash of the file
and the read options), so their statistics are cached by id with `st.cache_data`.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import streamlit as st

from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import Connection, borrowed, database_path, open_store
from planner.store.trace_stats import TraceStats, list_traces, trace_stats

SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "data" / "traces" / "sample.csv"


@st.cache_resource(show_spinner=False)
def store(db_path: str) -> Connection:
    """The migrated database at `db_path`, one connection per process and file.

    Keyed by the path, not read from the environment inside, so a process that points
    $PLANNER_DB elsewhere (tests do) gets its own connection instead of a stale one.
    """
    return open_store(Path(db_path))


@contextmanager
def cursor(db_path: str | None = None) -> Iterator[Connection]:
    """A cursor on `db_path` (default: $PLANNER_DB or data/planner.duckdb), closed after use;
    a storage problem met while using it (a corrupt block, a full disk) is a `StoreError`."""
    path = db_path or str(database_path())
    with borrowed(store(path), Path(path)) as cur:
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
