"""Smoke test in a real browser: the Fill test page fills the working cluster with the
bundled sample's pods and draws each placement's curve (UPDATE_SCREENSHOTS=1 refreshes the
README's picture)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import SCREENSHOTS, keyed, menu, rerun, wait_for_app

pytestmark = pytest.mark.e2e


def test_the_fill_test_draws_each_placements_curve(
    page: Page, app_url: str, tmp_path: Path
) -> None:
    page.goto(app_url)
    wait_for_app(page)
    menu(page, "Fill test")
    with rerun(page):
        keyed(page, "fill_run").get_by_role("button").click()

    for placement in ("best-fit", "FGD"):
        expect(page.get_by_text(f"{placement}: peak allocation", exact=True)).to_be_visible()
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart.locator(".main-svg").first).to_be_visible()
    expect(chart.locator(".scatterlayer .trace")).to_have_count(4)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    folder = SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "fill.png"), full_page=True)
    assert (folder / "fill.png").stat().st_size > 0
