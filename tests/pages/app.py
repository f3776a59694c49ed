"""Open one page of the real app (its `st.navigation` entrypoint) in AppTest."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[2] / "streamlit_app.py"
RUN_CEILING_S = 900.0
"""How long AppTest lets one script run take before it gives up: a ceiling for a run that
hangs, not a speed limit (AppTest needs one). A crowded 2-core machine ran a run of the
Capacity page's mix with growth past 120 s; every page test uses this one ceiling."""


def open_app_page(page: str, timeout_s: float = RUN_CEILING_S, **state: object) -> AppTest:
    """`page` opened by its URL, as a bookmark opens it: the first run goes to the page, which
    runs itself inside the app's menu (`planner.ui.frame.require_menu`). Opening the Overview
    first and then switching drew the Overview on every test, twice the CPU of most pages.
    `state` is put in the session before that run (the language switch's "lang", ...)."""
    at = AppTest.from_file(str(APP), default_timeout=timeout_s)
    for key, value in state.items():
        at.session_state[key] = value
    return at.switch_page(page).run()


def mapping_key(at: AppTest, base: str = "history_mapping") -> str:
    """The key of the upload's column-mapping table: `base` and a digest of the upload
    (`planner.ui.column_mapping.editor_key`), so each upload has an editor of its own."""
    keys = [e.key for e in at.data_editor if e.key and e.key.startswith(f"{base}_")]
    assert len(keys) == 1, keys
    return keys[0]
