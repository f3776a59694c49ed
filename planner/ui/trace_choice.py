"""Choosing a stored trace: the list from the store (or a stop with the reason) and the
select's labels. Shared by the Overview, Job history and Replay pages."""

from collections.abc import Iterable, Mapping
from typing import Any

import streamlit as st

from planner.core.errors import PlannerError
from planner.ui import cache
from planner.ui.i18n import fmt_number, t
from planner.ui.safe import md


def stored_or_stop(
    page: str, *, error_key: str | None = None
) -> tuple[str | None, list[dict[str, Any]]]:
    """The sample trace's id and the stored traces. On a store error (shown as is, or in
    `error_key`'s text) or when none is stored (`<page>.no_traces`), say so and stop."""
    try:
        sample_id = cache.sample_trace()
        traces = cache.stored_traces()
    except PlannerError as err:
        st.error(
            md(err) if error_key is None else t(error_key, error=md(err)), icon=":material/error:"
        )
        st.stop()
    if not traces:
        st.warning(t(f"{page}.no_traces"))
        st.stop()
    return sample_id, traces


def labels(traces: Iterable[Mapping[str, Any]], page: str) -> dict[str, str]:
    """Stored traces by id, each labelled in `<page>.trace_label`'s words."""
    return {
        row["trace_id"]: t(
            f"{page}.trace_label",
            name=row["name"],
            jobs=fmt_number(row["jobs"]),
            trace_id=row["trace_id"],
        )
        for row in traces
    }
