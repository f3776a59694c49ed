"""Smoke test in a real browser: the app starts and shows the bundled sample. Both tests
read one page (conftest.app_pages)."""

import csv
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Page, expect

from planner.ui.cache import SAMPLE_TRACE
from planner.ui.frame import FAVICON
from tests.e2e.browser import screenshot_folder, wait_for_app
from tests.e2e.shots import photograph

pytestmark = pytest.mark.e2e


def sample_jobs() -> int:
    with SAMPLE_TRACE.open(newline="", encoding="utf-8") as file:
        return sum(1 for _ in csv.DictReader(file))


def test_overview_shows_the_bundled_sample(
    app_pages: Callable[[str], Page], tmp_path: Path
) -> None:
    expected = f"{sample_jobs():,}"

    page = app_pages("light")  # opened on Overview; the link, should a test have moved it
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Overview").click()
    wait_for_app(page)

    expect(page.get_by_role("heading", name="GPU Capacity Planner")).to_be_visible()
    jobs = page.get_by_test_id("stMetric").filter(has_text="Jobs")
    expect(jobs.get_by_test_id("stMetricValue")).to_have_text(expected)
    tables = page.get_by_test_id("stDataFrame")
    for header in ("GPUs per job", "Queue"):  # in the hidden accessible twin of the canvas
        header_cell = tables.get_by_role("columnheader", name=header, include_hidden=True)
        expect(header_cell).to_have_count(1)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    # for the app's users, not its developers (.streamlit/config.toml, toolbarMode)
    expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)
    expect(page.get_by_role("button", name="Deploy")).to_have_count(0)
    photograph(page, screenshot_folder(tmp_path), "overview.png", full_page=True)


def test_the_favicon_is_served_by_the_app_itself(app_pages: Callable[[str], Page]) -> None:
    # A `:material/...:` icon would be fetched from fonts.gstatic.com: an error offline.
    page = app_pages("light")
    wait_for_app(page)

    icon = page.locator("link[rel='shortcut icon']")
    expect(icon).to_have_attribute("href", re.compile(r"/media/[0-9a-f]+\.png$"))
    href = icon.get_attribute("href")
    assert href is not None
    assert "gstatic" not in href
    response = page.request.get(urljoin(page.url, href))
    assert response.ok
    assert response.headers["content-type"] == "image/png"
    assert response.body() == FAVICON.read_bytes()
