"""The column-mapping table of an uploaded table (Job history's files, Cluster & policy's node
lists): each field's column in the file with its first value, editable; the user's changes are
the overrides (field -> column) handed to the reader, so what is imported is what the table shows.

A mapping belongs to its upload: each upload gets an editor of its own (`editor_key`), since
the browser keeps an editor's edits, and sends them again with every rerun, for as long as its
key and shape stay the same, whatever the server forgets; the next file's table would show
the last file's edits and import with them.
"""

import hashlib
from typing import Any

import streamlit as st

from planner.ui import history_view as view
from planner.ui.error_text import note_md
from planner.ui.i18n import MISSING, t
from planner.ui.safe import code


def editor_key(base: str, upload_id: str) -> str:
    """The mapping editor's widget key for one upload (its file id): `base` and a digest."""
    return f"{base}_{hashlib.sha256(upload_id.encode()).hexdigest()[:8]}"


def edited_mapping(detected: view.Detected, editor_key: str) -> dict[str, str]:
    """The mapping table with its caption, the fields changed from detection and the notes
    on doubtful columns; returns only the changes (an unedited file reads as on the CLI)."""
    caption = "history.node_mapping_caption" if detected.is_nodes else "history.mapping_caption"
    st.caption(t(caption))
    mapping = view.mapping_overrides(detected, _editor(detected, editor_key))
    for field, column in mapping.items():
        value = detected.preview(column)
        st.caption(
            t("history.mapping_changed", field=field, column=code(column), value=code(value))
        )
    for note in detected.notes:
        st.caption(note_md(note))
    return mapping


def warn_missing(detected: view.Detected, mapping: dict[str, str]) -> bool:
    """Name each required node field still without a column; True when one is missing."""
    missing = view.missing_node_fields(detected, mapping)
    for name in missing:  # the table shows the field empty; say which and how
        words = t(f"history.node_field.{name}")
        st.warning(t("history.node_missing", field=words, name=name), icon=":material/edit:")
    return bool(missing)


def _editor(detected: view.Detected, editor_key: str) -> Any:
    """The field / column / first-value table; a remapped field's preview is its new
    column's (read from the editor's state before it is drawn)."""
    table = view.with_previews(detected, st.session_state.get(editor_key))
    config = {
        "field": st.column_config.TextColumn(t("history.col.field")),
        "column": st.column_config.SelectboxColumn(
            t("history.col.column"), options=[view.NOT_MAPPED, *detected.header]
        ),
        "preview": st.column_config.TextColumn(t("history.col.preview")),
    }
    if detected.is_nodes:  # the field's meaning in words, and whether it is required
        table.insert(1, "about", [t(f"history.node_field.{f}") for f in table["field"]])
        config["about"] = st.column_config.TextColumn(t("history.col.about"))
    return st.data_editor(
        table,
        hide_index=True,
        disabled=["field", "about", "preview"],
        column_config=config,
        key=editor_key,
        placeholder=MISSING,
    )
