"""Choosing a stored trace: the list from the store (or a stop with the reason), the
select's labels, and the one trace the session has chosen. Shared by the Overview, Job
history and Replay pages: a trace picked (or imported) on one page stays picked on the
others."""

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


CHOSEN_KEY = "trace_chosen"
"""The session's chosen trace id, kept outside any widget: Streamlit forgets a widget's value
when its page is left, this one survives."""


def choose(trace_id: str) -> None:
    """Make `trace_id` the trace every page starts from (a new import, a pick)."""
    st.session_state[CHOSEN_KEY] = trace_id


def select(label: str, labels: Mapping[str, str], sample_id: str | None, key: str) -> str:
    """A trace selectbox that starts at the session's chosen trace (else the sample, else the
    first) and makes a pick the chosen trace for every page."""
    ids = list(labels)
    chosen = str(st.session_state.get(CHOSEN_KEY))
    if chosen not in labels:
        chosen = sample_id if sample_id is not None and sample_id in labels else ids[0]
    if st.session_state.get(key) != chosen:
        st.session_state[key] = chosen  # picked on another page since this one last ran
    choose(chosen)
    picked: str = st.selectbox(
        label, ids, format_func=labels.__getitem__, key=key, on_change=_remember, args=(key,)
    )
    return picked


def _remember(key: str) -> None:
    choose(st.session_state[key])
