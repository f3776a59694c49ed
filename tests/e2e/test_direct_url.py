"""A page opened by its URL on a fresh server shows the app's own menu, and the first click
on it is not lost.

Streamlit routes the first request of a fresh process straight to pages/<name>.py, in the
old pages-folder way, when a `pages/` folder sits beside the entrypoint; the app's pages
then undo that (planner.ui.frame.require_menu). Only a fresh server shows the bug, so this
test starts its own; one walk checks both, as both happen on the first request.
"""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import menu, wait_for_app
from tests.e2e.server import serve_app

pytestmark = pytest.mark.e2e


def test_a_page_opened_by_url_runs_inside_the_menu_and_keeps_its_first_click(
    page: Page, tmp_path: Path
) -> None:
    with serve_app(tmp_path) as url:
        page.goto(f"{url}/replay")
        expect(page.get_by_role("heading", name="Replay", exact=True)).to_be_visible()
        wait_for_app(page)  # then the menu is drawn and no exception is on its way
        nav = page.get_by_test_id("stSidebarNav")
        expect(nav.get_by_role("link", name="Job history")).to_be_visible()
        expect(nav.get_by_role("link", name="Cluster & policy")).to_be_visible()
        # Streamlit's automatic menu names pages after files: "streamlit app", "history".
        expect(nav.get_by_text("streamlit app")).to_have_count(0)
        expect(nav.get_by_role("link", name="history", exact=True)).to_have_count(0)
        expect(page.get_by_test_id("stException")).to_have_count(0)

        # The language switch is drawn by the entrypoint; on that first, rerouted run it
        # must get the same widget id as in every later run, or the first click goes nowhere.
        page.locator(".st-key-lang_choice").get_by_text("简体中文").click()

        # what the click's rerun draws; were the click lost, these would never show
        expect(nav.get_by_role("link", name="比较")).to_be_visible()
        expect(page.get_by_role("heading", name="回放", exact=True)).to_be_visible()
        wait_for_app(page)
        menu(page, "比较")
        expect(page.get_by_test_id("stException")).to_have_count(0)


def test_the_first_click_on_the_language_switch_of_a_fresh_server_is_kept(
    page: Page, tmp_path: Path
) -> None:
    # The app's own address: a session's first run draws the language switch before the
    # menu is known; its id then differed from every later run's and the first viewer of a
    # fresh server lost their first click (planner.ui.frame.run reruns such a first run).
    with serve_app(tmp_path) as url:
        page.goto(url)
        wait_for_app(page)
        nav = page.get_by_test_id("stSidebarNav")
        expect(nav.get_by_role("link", name="Overview", exact=True)).to_be_visible()

        page.locator(".st-key-lang_choice").get_by_text("简体中文").click()

        # what the click's rerun draws; were the click lost, these would never show
        expect(nav.get_by_role("link", name="概览", exact=True)).to_be_visible()
        wait_for_app(page)
        expect(page.get_by_test_id("stException")).to_have_count(0)
