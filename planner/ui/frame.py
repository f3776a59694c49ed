"""The app's frame: the menu (in the session's language) and the sidebar's switches.

Kept out of `streamlit_app.py` so the entrypoint stays a few lines and the menu is
importable by tests.
"""

import streamlit as st
from streamlit.navigation.page import StreamlitPage
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from planner.ui.i18n import language_switch, t

PAGES = (
    ("overview", ":material/dashboard:"),
    ("history", ":material/upload_file:"),
    ("cluster", ":material/lan:"),
    ("replay", ":material/play_circle:"),
    ("prices", ":material/sell:"),
    ("compare", ":material/compare_arrows:"),
    ("capacity", ":material/tune:"),
)


def menu() -> list[StreamlitPage]:
    """The app's pages; titles change with the language, URLs (/replay, ...) do not."""
    return [
        st.Page(
            f"pages/{name}.py",
            title=t(f"nav.{name}"),
            icon=icon,
            default=name == "overview",
            url_path=name,
        )
        for name, icon in PAGES
    ]


def run() -> None:
    st.set_page_config(
        page_title="GPU Capacity Planner", page_icon=":material/memory:", layout="wide"
    )
    language_switch()
    st.navigation(menu()).run()


def require_menu() -> None:
    """Make a page opened by its URL run inside the app's menu.

    Streamlit routes a URL such as /replay straight to pages/replay.py, in the old
    pages-folder way and without the entrypoint, when it is the first request a fresh server
    process sees (a `pages/` folder sits beside `streamlit_app.py`; only a call of
    `st.navigation` switches that routing off, process-wide). A page that finds itself run
    that way switches the routing off and runs the app's frame itself, which runs the page
    again inside the menu, then stops. (Not `st.rerun()`: a rerun would drop the click that
    triggered this run, and AppTest takes the old routing on every run.)
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        ctx = get_script_run_ctx()
        if ctx is None:  # bare Python: nothing to route
            return
        # As the entrypoint would: its widgets (the language switch) keep the ids they have
        # in every later run, so the first click on them is not lost.
        with ctx.run_with_active_hash(ctx.pages_manager.main_script_hash):
            run()
        st.stop()
