"""Smoke test in a real browser: replay the bundled sample from the Replay page."""

import time

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


def wait_for_app(page: Page) -> None:
    """Streamlit's own signal that the script run has finished."""
    expect(page.get_by_test_id("stApp")).to_have_attribute(
        "data-test-script-state", "notRunning", timeout=30_000
    )


def test_replay_page_runs_the_sample_and_shows_results(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_for_app(page)
    page.get_by_role("link", name="Replay").click()
    expect(page.get_by_role("heading", name="Replay", exact=True)).to_be_visible()
    wait_for_app(page)

    started = time.monotonic()
    page.get_by_role("button", name="Run").click()
    completed = page.get_by_test_id("stMetric").filter(has_text="Completed")
    expect(completed).to_be_visible(timeout=60_000)
    print(f"replay of the sample: results {time.monotonic() - started:.1f} s after Run")  # noqa: T201

    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(4)
    expect(page.get_by_test_id("stDownloadButton")).to_have_count(1)
    expect(page.get_by_test_id("stException")).to_have_count(0)
