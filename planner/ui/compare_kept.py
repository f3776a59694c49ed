"""The comparison being made on Compare outlasts the page and the browser session: the
scenarios picked, their trace and horizon are kept in the session (Streamlit forgets a
widget's state when a page without it runs) and in the database (a new session opens on the
same comparison, and the Overview's headline stays the one the user built, even before the
new session opens Compare)."""

from collections.abc import Sequence
from typing import Any

import streamlit as st

from planner.core.errors import PlannerError
from planner.store.ui_choices import load_choice, save_choice
from planner.ui import cache, scenario_box
from planner.ui import compare_saved as many
from planner.ui.cache import cursor
from planner.ui.compare_view import ShownReport

KEPT = "compare_kept"  # the session's copy: {"scenarios": [...], "trace": id, "years": n}
STORED = "compare"  # the database's key


def kept() -> dict[str, Any]:
    """The comparison last made, in this session or an earlier one ({} if none)."""
    if KEPT not in st.session_state:
        st.session_state[KEPT] = _stored()
    found = st.session_state[KEPT]
    return found if isinstance(found, dict) else {}


def restore(key: str, field: str, allowed: Sequence[object]) -> None:
    """Before drawing widget `key`: the kept `field` as its value when the widget has none
    (another page ran) and the value is still one of `allowed`."""
    value = kept().get(field)
    if key not in st.session_state and value in allowed:
        st.session_state[key] = value


def keep(scenarios: list[str], trace: str | None, years: float | None) -> None:
    """Remember the comparison as drawn (written to the database only when it changed)."""
    now = {"scenarios": list(scenarios), "trace": trace, "years": years}
    if kept() == now:
        return
    st.session_state[KEPT] = now
    try:
        with cursor() as cur:
            save_choice(cur, STORED, now)
    except PlannerError:
        pass  # a busy or read-only database: the session still keeps it


def priced() -> ShownReport | None:
    """The kept comparison priced as Compare draws it, for a session that has not opened
    Compare yet; None when nothing is kept, or a kept scenario or trace is gone (Compare then
    draws another comparison: its own report will be the answer), or pricing fails."""
    found = kept()
    names, trace, years = found.get("scenarios"), found.get("trace"), found.get("years")
    if not names or not isinstance(names, list) or not isinstance(years, int | float):
        return None
    try:
        saved = {s.name: s for s in scenario_box.saved_scenarios()}
        traces = {row["trace_id"] for row in cache.stored_traces()}
        if trace not in traces or any(name not in saved for name in names):
            return None
        chosen = [saved[name] for name in names]
        return ShownReport(many.combined_report(many.price(chosen, str(trace), float(years))))
    except PlannerError:
        return None


def _stored() -> dict[str, Any]:
    try:
        with cursor() as cur:
            found = load_choice(cur, STORED)
    except PlannerError:
        return {}
    return found if isinstance(found, dict) else {}
