"""In a real browser: every page of the app opens on the bundled defaults without an
exception, and its screenshot is saved (UPDATE_SCREENSHOTS=1 refreshes the README's)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import SCREENSHOTS, menu, wait_for_app

pytestmark = pytest.mark.e2e

# menu link (= the page's heading) -> its screenshot in docs/screenshots
SHOTS = {
    "Job history": "job-history.png",
    "Cluster & policy": "cluster.png",
    "Prices": "prices.png",
    "Compare": "compare.png",
    "Capacity": "capacity.png",
}


@pytest.mark.parametrize("link", list(SHOTS))
def test_page_opens_and_is_photographed(
    page: Page, app_url: str, tmp_path: Path, link: str
) -> None:
    shot = SHOTS[link]
    page.goto(app_url)
    wait_for_app(page)
    menu(page, link)  # settled: no run, no stale element, no loading skeleton

    expect(page.get_by_test_id("stException")).to_have_count(0)
    if link == "Cluster & policy":  # the node pools editor, filled from the bundled sample
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
        expect(page.get_by_role("button", name="Apply")).to_be_visible()
    if link in {"Job history", "Compare"}:  # pages that draw charts on open
        charts = page.get_by_test_id("stPlotlyChart")
        expect(charts.first).to_be_visible()
        expect(charts.last.locator(".main-svg").first).to_be_visible()
    folder = SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / shot), full_page=True)
    assert (folder / shot).stat().st_size > 0
