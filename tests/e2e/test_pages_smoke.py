"""In a real browser: every page of the app opens on the bundled defaults without an
exception, and its screenshot is saved (UPDATE_SCREENSHOTS=1 refreshes the README's); the
Fill test page fills the working cluster with the bundled sample's pods and draws each
placement's curve.

The tests walk one page by the menu (conftest.app_pages); only the last runs anything (the
fill test, kept in its session).
"""

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import keyed, menu, rerun, screenshot_folder
from tests.e2e.shots import photograph

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
    app_pages: Callable[[str], Page], tmp_path: Path, link: str
) -> None:
    shot = SHOTS[link]
    page = app_pages("light")
    menu(page, link)  # settled: no run, no stale element, no loading skeleton

    expect(page.get_by_test_id("stException")).to_have_count(0)
    if link == "Cluster & policy":  # the node pools editor, filled from the bundled sample
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
        expect(page.get_by_role("button", name="Apply")).to_be_visible()
    if link in {"Job history", "Compare"}:  # pages that draw charts on open
        charts = page.get_by_test_id("stPlotlyChart")
        expect(charts.first).to_be_visible()
        expect(charts.last.locator(".main-svg").first).to_be_visible()
    photograph(page, screenshot_folder(tmp_path), shot, full_page=True)


def test_the_fill_test_draws_each_placements_curve(
    app_pages: Callable[[str], Page], tmp_path: Path
) -> None:
    page = app_pages("light")
    menu(page, "Fill test")
    with rerun(page):
        keyed(page, "fill_run").get_by_role("button").click()

    for placement in ("best-fit", "FGD"):
        expect(page.get_by_text(f"{placement}: peak allocation", exact=True)).to_be_visible()
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible()
    expect(chart.locator(".scatterlayer .trace")).to_have_count(4)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    photograph(page, screenshot_folder(tmp_path), "fill.png", full_page=True)
