"""Pictures for the docs: a browser test saves one with `photograph`, which, when it refreshes
docs/screenshots (UPDATE_SCREENSHOTS=1), records the sidebar menu the page showed in the
screenshots' manifest (tests/screenshots.py), so that a later menu change names the pictures
it left stale (tests/e2e/test_screenshot_menus.py)."""

import os
from pathlib import Path

from playwright.sync_api import Page, expect

from planner.ui.i18n import LANGUAGES
from tests.e2e.browser import SCREENSHOTS, rerun
from tests.screenshots import Entry, Menu, record

_CODES = {label: code for code, label in LANGUAGES.items()}


def sidebar_menu(page: Page) -> Menu:
    """The menu the page shows now: its links' titles (not their icons' ligature names) in
    order, and the language switch's choice."""
    links = page.get_by_test_id("stSidebarNav").get_by_test_id("stSidebarNavLink")
    expect(links.first).to_be_visible()
    titles = links.get_by_test_id("stMarkdownContainer").all_inner_texts()
    chosen = page.locator(".st-key-lang_choice").get_by_role("radio", checked=True)
    expect(chosen).to_have_count(1)
    return Menu(_CODES[chosen.inner_text().strip()], tuple(t.strip() for t in titles))


def choose_language(page: Page, language: str) -> None:
    """Switch the app to `language` ("en", "zh") unless it shows it already."""
    choice = page.locator(".st-key-lang_choice").get_by_role("radio", name=LANGUAGES[language])
    if choice.get_attribute("aria-checked") == "true":
        return
    with rerun(page):
        choice.click()
    expect(choice).to_have_attribute("aria-checked", "true")


def photograph(page: Page, folder: Path, name: str, *, full_page: bool = False) -> Path:
    """Save the page as `folder/name`; in docs/screenshots, record the menu it shows too."""
    target = folder / name
    menu = sidebar_menu(page)
    page.screenshot(path=str(target), full_page=full_page)
    assert target.stat().st_size > 0
    if folder.resolve() == SCREENSHOTS.resolve():
        test = os.environ["PYTEST_CURRENT_TEST"].rsplit(" (", 1)[0]  # "path::name[id] (call)"
        record(name, Entry(menu, test))
    return target
