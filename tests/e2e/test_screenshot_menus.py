"""The docs' screenshots show today's menu (issue 31, item 16): the app's live sidebar menu,
read in a real browser in each language a picture was taken in, against the menu each picture
of README.md and docs/*.md was taken with (docs/screenshots/menus.json, written by the tests
that take them with UPDATE_SCREENSHOTS=1). A renamed, added, removed or reordered page fails
here, naming every picture to take again and the command that does it."""

import pytest
from playwright.sync_api import Page

from tests.e2e.browser import wait_for_app
from tests.e2e.shots import choose_language, sidebar_menu
from tests.screenshots import MANIFEST, load, refresh_command, shown, stale

pytestmark = pytest.mark.e2e


def test_every_screenshot_in_the_docs_shows_the_live_menu(page: Page, app_url: str) -> None:
    # a page of its own: the language switch is the session's, and other tests read English
    entries = load()
    pictures = shown()
    languages = {"en"} | {e.menu.language for e in entries.values() if e.menu is not None}
    page.goto(app_url)
    wait_for_app(page)
    live = {}
    for language in sorted(languages):  # "en" (the app's first language) before "zh"
        choose_language(page, language)
        live[language] = sidebar_menu(page).titles

    problems = stale(pictures, entries, live)

    assert live["en"], "the sidebar menu is empty"
    assert problems == {}, (
        f"{len(problems)} screenshot(s) in the docs are stale ({MANIFEST.name}):\n"
        + "".join(
            f"- {name} (in {', '.join(pictures[name])}): {why}\n" for name, why in problems.items()
        )
        + f"take them again with:\n    {refresh_command(problems, entries)}"
    )
