"""Smoke test in a real browser: the Replay page's twin check on the bundled sample."""

import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import SCREENSHOTS, keyed, menu, rerun, wait_for_app

pytestmark = pytest.mark.e2e
TWIN_MS = 900_000  # about 30 replays on a busy 2-core machine: a ceiling, not a pause


def test_the_twin_check_runs_from_the_replay_page(page: Page, app_url: str, tmp_path: Path) -> None:
    page.goto(app_url)
    wait_for_app(page)
    menu(page, "Replay")
    with rerun(page):
        page.get_by_role("button", name="Run", exact=True).click()
    expect(page.get_by_text("Does the replay match what happened?")).to_be_visible()
    check = keyed(page, "twin_run").get_by_role("button")
    expect(check).to_be_visible()

    started = time.monotonic()
    check.click()
    verdict = page.get_by_text("what happened (p50, p90 and p99 waits")
    expect(verdict).to_be_visible(timeout=TWIN_MS)
    print(f"twin check of the sample: verdict {time.monotonic() - started:.1f} s after click")  # noqa: T201
    wait_for_app(page)

    expect(page.get_by_text("The held-back window", exact=True)).to_be_visible()
    expect(page.get_by_text("Start latency by pod-size class", exact=True)).to_be_visible()
    expect(keyed(page, "twin_download")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_role("button", name="Cancel the check")).to_have_count(0)
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        target = SCREENSHOTS / "twin.png"
    else:
        target = tmp_path / "twin.png"
    page.get_by_text("Does the replay match what happened?").scroll_into_view_if_needed()
    page.screenshot(path=str(target), full_page=False)
    assert target.stat().st_size > 0
