"""Real-browser fixtures: Debian's Chromium, and the app served by `streamlit run`.

Browsers are never downloaded (`playwright install` is not used): Playwright drives the
`chromium` binary from the Debian package, installed here on first use if it is missing.
"""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.debian import program
from tests.e2e.browser import APP_TIMEOUT_MS, RUN_COUNTER
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
    return {**browser_context_args, "viewport": {"width": 1280, "height": 1100}}


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on the bundled defaults, one server for the whole session; its URL."""
    with serve_app(tmp_path_factory.mktemp("e2e-app")) as url:
        yield url


@pytest.fixture
def page(page: Page) -> Page:
    """pytest-playwright's page, counting the app's script runs (tests/e2e/browser.py), with
    waits that end on the page's state and a ceiling fit for a busy machine."""
    page.add_init_script(script=RUN_COUNTER)
    page.set_default_timeout(APP_TIMEOUT_MS)
    expect.set_options(timeout=APP_TIMEOUT_MS)
    return page
