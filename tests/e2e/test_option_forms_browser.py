"""In a real browser: a hybrid option built with the Compare page's form (no YAML), saved and
compared; its screenshot is docs/screenshots/option-forms.png with UPDATE_SCREENSHOTS=1."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    expand,
    keyed,
    menu,
    pick,
    rerun,
    screenshot_folder,
    wait_for_app,
)
from tests.e2e.server import serve_app
from tests.e2e.shots import photograph

pytestmark = pytest.mark.e2e
NAME = "hybrid 16 of 96 A100 + AWS"


@pytest.fixture(scope="module")
def forms_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An app of its own: saving an option here must not change what the other browser
    tests' Compare page opens on (it opens on a bundled file while nothing is saved)."""
    with serve_app(tmp_path_factory.mktemp("e2e-forms")) as url:
        yield url


def _number(page: Page, key: str, value: str) -> None:
    box = keyed(page, key).locator("input")
    expect(box).to_be_editable()
    with rerun(page):
        box.fill(value)
        box.press("Enter")
    expect(box).to_have_value(value)


def test_a_hybrid_built_with_the_form_is_saved_and_compared(
    page: Page, forms_url: str, tmp_path: Path
) -> None:
    page.goto(forms_url)
    wait_for_app(page)
    menu(page, "Compare")
    form = expand(page, "Build an option with a form")
    with rerun(page):
        form.get_by_text("Hybrid: keep servers, burst to the cloud", exact=True).click()
    _number(page, "opt_pool_1_servers", "0")  # H800: no server in the price book
    _number(page, "opt_keep_A100_96", "16")
    pick(page, "opt_payment", "on demand")
    with rerun(page):
        keyed(page, "opt_name").locator("input").fill(NAME)
        keyed(page, "opt_name").locator("input").press("Enter")
    save = keyed(page, "opt_save").get_by_role("button")
    expect(save).to_be_enabled()
    save_screenshot(page, tmp_path)

    with rerun(page):
        save.click()
    expect(page.get_by_text(f"Saved '{NAME}'")).to_be_visible()
    chosen = keyed(page, "compare_saved")  # the comparison's choice holds the new option
    expect(chosen.get_by_text(NAME, exact=True)).to_be_visible()
    expect(page.get_by_text("Over 3 years the cheapest is")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)


def save_screenshot(page: Page, tmp_path: Path) -> None:
    page.get_by_text("Servers to own", exact=True).scroll_into_view_if_needed()
    photograph(page, screenshot_folder(tmp_path), "option-forms.png")
