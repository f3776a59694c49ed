"""Open one page of the real app (its `st.navigation` entrypoint) in AppTest."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[2] / "streamlit_app.py"


def open_app_page(page: str, timeout_s: float = 60) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=timeout_s).run()
    return at.switch_page(page).run()
