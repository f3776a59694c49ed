"""The prices page's edits: one cloud price, the bare-metal servers and the assumption set.

Each save runs as its Save button's callback, before the script reruns, so every table the
page reads afterwards shows the new values; the outcome is left in the session for the page
to show beside the form. Edits go through `pricing` (the same validation as `planner prices`)
and make the rows the user's, so a re-seed of the price book keeps them.
"""

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import ValidationError
from streamlit.elements.lib.column_types import ColumnConfig

from planner.core.errors import PlannerError
from planner.ui.cache import cursor
from planner.ui.i18n import MISSING, fmt_number, t
from planner.ui.prices_view import pricing_words
from planner.ui.safe import md
from pricing import CURRENCIES, DEFAULT_SET, DEFAULT_STALE_DAYS, edit_price, price_point
from pricing.assumptions import edit_assumptions
from pricing.servers import edit_servers

PRICE_FIELDS = (
    "price_per_instance_hour",
    "currency",
    "as_of",
    "source_url",
    "confidence",
    "notes",
)
SERVER_FIELDS = ("price", "currency", "max_kw", "idle_kw", "load_kw")
PRICE_KEY = "prices_edit_key"
ASSUMPTIONS_EDITOR = "prices_assumptions_editor"
SERVERS_EDITOR = "prices_servers_editor"
_PREFILLED = "prices_edit_for"  # the price key the edit form was filled from
_SHOWN = "prices_edit_shown"  # editor -> the row keys it shows, in order
_OUTCOME = "prices_edit_outcome"  # section -> (kind: success | info | error, message)
_ERRORS = (PlannerError, ValidationError)


def widget(field: str) -> str:
    """The key of the edit form's widget for a price field."""
    return f"prices_edit_{field}"


def price_label(row: Mapping[str, Any]) -> str:
    """provider · instance · pricing model · region · currency price, for the row picker."""
    price = f"{row['currency']} {fmt_number(row['price_per_instance_hour'], 2)}"
    model = pricing_words(row["pricing_model"])
    parts = (row["provider"], row["instance_type"], model, row["region"] or "-")
    return " · ".join((*parts, price))


def prefill(key: str) -> None:
    """Fill the edit form from the stored price `key` when it shows another (or no) price."""
    filled = all(widget(f) in st.session_state for f in PRICE_FIELDS)
    if filled and st.session_state.get(_PREFILLED) == key:
        return
    with cursor() as cur:
        point = price_point(cur, key)
    for field in PRICE_FIELDS:
        st.session_state[widget(field)] = getattr(point, field)
    st.session_state[_PREFILLED] = key


def save_price() -> None:
    """Callback of the edit form's Save: the form's fields written to the chosen price."""
    key = st.session_state[PRICE_KEY]
    changes = {field: st.session_state[widget(field)] for field in PRICE_FIELDS}
    with cursor() as cur:
        point = edit_price(cur, key, changes)
    price = fmt_number(point.price_per_instance_hour, 4)
    _say("price", t("prices.edit_saved", quote=md(key), price=price, currency=point.currency))


def remember_rows(editor: str, keys: list[str]) -> None:
    """The row keys an editor shows, in order: its edits name rows by position."""
    st.session_state.setdefault(_SHOWN, {})[editor] = keys


def save_assumptions() -> None:
    """Callback of the assumptions' Save: each changed value written to the default set."""
    values = {key: cells["value"] for key, cells in _edits(ASSUMPTIONS_EDITOR) if "value" in cells}
    if not values:
        _say("assumptions", t("prices.nothing_changed"), "info")
        return
    with cursor() as cur:
        edit_assumptions(cur, DEFAULT_SET, values)
    del st.session_state[ASSUMPTIONS_EDITOR]  # the editor starts again from the stored set
    _say("assumptions", t("prices.assumptions_saved", names=", ".join(values)))


def save_servers() -> None:
    """Callback of the servers' Save: changed prices, currencies and kW values written."""
    changes = {
        key: {f: v for f, v in cells.items() if f in SERVER_FIELDS}
        for key, cells in _edits(SERVERS_EDITOR)
    }
    changes = {key: cells for key, cells in changes.items() if cells}
    if not changes:
        _say("servers", t("prices.nothing_changed"), "info")
        return
    with cursor() as cur:
        edit_servers(cur, changes)
    del st.session_state[SERVERS_EDITOR]
    _say("servers", t("prices.servers_saved", servers=md(", ".join(changes))))


def guarded(section: str, save: Callable[[], None]) -> Callable[[], None]:
    """`save` as a callback that reports a refused edit instead of raising."""

    def run() -> None:
        try:
            save()
        except _ERRORS as err:
            _say(section, t("prices.edit_refused", error=md(err)), "error")

    return run


def show_outcome(section: str) -> None:
    """The last save's message of a section (once): a success, a note or an error."""
    kind, text = st.session_state.get(_OUTCOME, {}).pop(section, ("", ""))
    if kind == "success":
        st.success(text, icon=":material/check_circle:")
    elif kind == "info":
        st.info(text, icon=":material/info:")
    elif kind == "error":
        st.error(text, icon=":material/error:")


def editor_form(
    section: str,
    table: pd.DataFrame,
    key_column: str,
    config: Callable[[pd.Index], dict[str, ColumnConfig]],
) -> None:
    """The `section` table ("servers" or "assumptions") as an editor in a form with Save:
    the last save's outcome above it, all edits saved at once or none."""
    editor, save = _EDITORS[section]
    show_outcome(section)
    remember_rows(editor, table[key_column].tolist())
    with st.form(f"prices_{section}_form", border=False):
        st.data_editor(
            table,
            hide_index=True,
            column_config=config(table.columns),
            key=editor,
            placeholder=MISSING,
        )
        st.form_submit_button(
            t(f"prices.save_{section}"),
            icon=":material/save:",
            on_click=guarded(section, save),
            key=f"prices_{section}_save",
        )


def _say(section: str, text: str, kind: str = "success") -> None:
    st.session_state.setdefault(_OUTCOME, {})[section] = (kind, text)


def _edits(editor: str) -> list[tuple[str, dict[str, Any]]]:
    """(row key, changed cells) of each edited row of an editor."""
    state = st.session_state.get(editor) or {}
    keys = st.session_state.get(_SHOWN, {}).get(editor, [])
    return [(keys[int(row)], dict(cells)) for row, cells in state.get("edited_rows", {}).items()]


def _read_only(columns: pd.Index) -> dict[str, ColumnConfig]:
    config = {c: st.column_config.Column(t(f"prices.col.{c}"), disabled=True) for c in columns}
    for name in {"confidence", "power_confidence"} & set(columns):
        config[name] = st.column_config.TextColumn(
            t(f"prices.col.{name}"), help=t("prices.confidence_help"), disabled=True
        )
    return config


def assumption_editor_config(columns: pd.Index) -> dict[str, ColumnConfig]:
    """Headers of the assumptions editor; only `value` is editable (a number)."""
    config = _read_only(columns)
    config["value"] = st.column_config.NumberColumn(
        t("prices.col.value"), help=t("prices.value_help"), required=True
    )
    return config


def server_editor_config(columns: pd.Index) -> dict[str, ColumnConfig]:
    """Headers of the servers editor; price, currency and the kW values are editable."""
    config = _read_only(columns)
    config["stale"] = st.column_config.CheckboxColumn(
        t("prices.col.stale"),
        help=t("prices.col.stale_help", days=DEFAULT_STALE_DAYS),
        disabled=True,
    )
    # text, not a date: an estimate without a source date says so instead of an empty cell
    config["as_of"] = st.column_config.TextColumn(t("prices.col.as_of"), disabled=True)
    config["price"] = st.column_config.NumberColumn(
        t("prices.col.price"), format="localized", required=True
    )
    config["currency"] = st.column_config.SelectboxColumn(
        t("prices.col.currency"), options=CURRENCIES, required=True
    )
    for name in ("max_kw", "idle_kw", "load_kw"):
        config[name] = st.column_config.NumberColumn(t(f"prices.col.{name}"), required=True)
    return config


_EDITORS: dict[str, tuple[str, Callable[[], None]]] = {
    "servers": (SERVERS_EDITOR, save_servers),
    "assumptions": (ASSUMPTIONS_EDITOR, save_assumptions),
}
