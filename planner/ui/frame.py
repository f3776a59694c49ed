"""The app's frame: the menu (in the session's language) and the sidebar's switches.

Kept out of `streamlit_app.py` so the entrypoint stays a few lines and the menu is
importable by tests.
"""

from contextvars import ContextVar
from pathlib import Path

import streamlit as st

from planner.core.errors import InternalCheckError
from planner.ui.error_text import error_text
from planner.ui.i18n import language_switch, t
from planner.ui.safe import md
from planner.ui.uploader import dropzone_style

# Served by our own server: a `:material/...:` favicon is fetched from fonts.gstatic.com,
# which fails (and logs errors) on offline installs.
FAVICON = Path(__file__).resolve().parent / "assets" / "favicon.png"
PAGES = (
    ("overview", ":material/dashboard:"),
    ("history", ":material/upload_file:"),
    ("cluster", ":material/lan:"),
    ("fill", ":material/grid_view:"),
    ("replay", ":material/play_circle:"),
    ("prices", ":material/sell:"),
    ("compare", ":material/compare_arrows:"),
    ("capacity", ":material/tune:"),
)
# True while `run()` runs the chosen page: a page that finds it False was routed around the
# menu (see `require_menu`). A context variable, so each session's script thread has its own.
_IN_MENU: ContextVar[bool] = ContextVar("in_menu", default=False)
_STARTED = "frame_started"  # set by a session's first run of the frame


def menu() -> list[st.Page]:
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
    st.set_page_config(page_title="GPU Capacity Planner", page_icon=str(FAVICON), layout="wide")
    if _STARTED not in st.session_state:
        # A session's first run, before the menu is known, would give the language switch an
        # id it loses in every later run (Streamlit's ids include the running page's hash):
        # on a fresh server the viewer's first click on it was dropped. Nothing is drawn yet,
        # not even the menu: a click on a menu link before the rerun below would be folded
        # into it and lost (Streamlit keeps the newer request's page).
        st.session_state[_STARTED] = True
        st.navigation(menu(), position="hidden")
        st.rerun()
    language_switch()
    st.html(dropzone_style())  # style only, in the language just chosen: takes no room
    page = st.navigation(menu())
    token = _IN_MENU.set(True)
    try:
        page.run()
    except AssertionError as err:  # a bug: a message saying how to report it, no traceback
        st.error(
            md(error_text(InternalCheckError.from_assertion(err))), icon=":material/bug_report:"
        )
    finally:
        _IN_MENU.reset(token)


def require_menu() -> None:
    """Make a page opened by its URL run inside the app's menu.

    Streamlit routes a URL such as /replay straight to pages/replay.py, in the legacy
    pages-folder way and without the entrypoint, when it is the first request a fresh server
    process sees (a `pages/` folder sits beside `streamlit_app.py`; only a call of
    `st.navigation` switches that routing off, process-wide). AppTest takes that routing on
    every run. A page that finds itself run outside `run()` calls `st.navigation`, which
    switches the routing off, and then either

    - reruns, when the session is new: nothing has been clicked yet, and the rerun draws the
      frame's widgets (the language switch) with the ids they keep in every later run, so the
      first click on them is not lost; or
    - runs the frame itself, which runs the page again inside the menu, then stops: a rerun
      would drop the click (a button's) that triggered this run.
    """
    if _IN_MENU.get():
        return
    if len(st.session_state) == 0:
        st.navigation(menu())
        st.rerun()
    run()
    st.stop()
