"""Real-browser fixtures: Debian's Chromium, and the app served by `streamlit run`.

Browsers are never downloaded (`playwright install` is not used): Playwright drives the
`chromium` binary from the Debian package, installed here on first use if it is missing.
"""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.debian import program
from tests.e2e.browser import counted, wait_for_app
from tests.e2e.server import serve_app

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def chromium() -> str:
    """Path of Debian's Chromium, installing the package with apt-get if it is absent."""
    return program(("chromium",), "chromium", "the browser tests (or run -m 'not e2e')")


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], chromium: str
) -> dict[str, Any]:
    """pytest-playwright's launch arguments, pointed at Debian's Chromium, kept offline."""
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A large window; reduced motion (a viewer's own setting, which the app honours): the
    app's animations would otherwise have the software compositor redraw the page for every
    frame while a script runs, most of the browser's CPU (nothing here checks an animation,
    and every wait is on state: `browser.expand` still waits out an opening expander)."""
    return {
        **browser_context_args,
        "viewport": {"width": 1280, "height": 1100},
        "reduced_motion": "reduce",
    }


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on the bundled defaults, one server for the whole session; its URL."""
    with serve_app(tmp_path_factory.mktemp("e2e-app")) as url:
        yield url


@pytest.fixture
def page(page: Page) -> Page:
    """pytest-playwright's page, one per test, counting the app's script runs."""
    return counted(page)


@pytest.fixture(scope="module")
def app_pages(
    browser: Browser, browser_context_args: dict[str, Any], app_url: str
) -> Iterator[Callable[[str], Page]]:
    """`app_pages(color_scheme)`: one page on the session's server per colour scheme
    ("light", "dark"), opened on Overview at first use and kept for the module's tests.

    For tests that only read pages: they move by the menu instead of each loading the app
    anew, which costs the browser several CPU-seconds of a short test. Streamlit gives the
    page one session, as a viewer moving between pages has."""
    contexts: dict[str, BrowserContext] = {}
    pages: dict[str, Page] = {}

    def opened(color_scheme: str) -> Page:
        if color_scheme not in pages:
            contexts[color_scheme] = browser.new_context(
                **browser_context_args, color_scheme=color_scheme
            )
            page = counted(contexts[color_scheme].new_page())
            page.goto(app_url)
            wait_for_app(page)
            pages[color_scheme] = page
        return pages[color_scheme]

    yield opened
    for context in contexts.values():
        context.close()
