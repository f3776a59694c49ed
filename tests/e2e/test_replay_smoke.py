"""Smoke test in a real browser: replay the bundled sample from the Replay page."""

import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def wait_for_app(page: Page) -> None:
    """Streamlit's own signal that the script run has finished."""
    expect(page.get_by_test_id("stApp")).to_have_attribute(
        "data-test-script-state", "notRunning", timeout=30_000
    )


def test_replay_page_runs_the_sample_and_shows_results(
    page: Page, app_url: str, tmp_path: Path
) -> None:
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
    # UPDATE_SCREENSHOTS=1 refreshes the README's picture; otherwise it is kept per run
    folder = SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "replay.png"), full_page=True)
    assert (folder / "replay.png").stat().st_size > 0
