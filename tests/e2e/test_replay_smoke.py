"""Smoke tests in a real browser: replay the bundled sample from the Replay page, run the
twin check on it, and cancel a long replay.

The first two read one page of the session's server (conftest.app_pages): the twin check's
Run finds the sample's replay in the server's cache, as a viewer's second look would.
"""

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import open_store
from planner.synth import write_trace
from tests.e2e.browser import keyed, menu, pick, rerun, screenshot_folder, wait_for_app
from tests.e2e.server import serve_app
from tests.e2e.shots import photograph

pytestmark = pytest.mark.e2e
LONG_REPLAY_MS = 600_000  # 120,000 jobs on a busy 2-core machine: a ceiling, not a pause
LONG_JOBS = 120_000
"""Enough that the replay is still running when Cancel is clicked: with the compiled engine
60,000 jobs took 3.0 s from Run to results on a quiet machine, 120,000 about twice that."""
TWIN_MS = 900_000  # about 30 replays on a busy 2-core machine: a ceiling, not a pause


def test_replay_page_runs_the_sample_and_shows_results(
    app_pages: Callable[[str], Page], tmp_path: Path
) -> None:
    page = app_pages("light")
    menu(page, "Replay")
    expect(page.get_by_role("link", name="Edit the cluster and policy")).to_be_visible()

    started = time.monotonic()
    with rerun(page):
        page.get_by_role("button", name="Run").click()
    completed = page.get_by_test_id("stMetric").filter(has_text="Completed")
    expect(completed).to_be_visible()
    print(f"replay of the sample: results {time.monotonic() - started:.1f} s after Run")  # noqa: T201

    # over time: allocated GPUs, queue, fragmentation; waits by size and by team; why
    # jobs waited, overall and per team (the sample's scenario has no queues)
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(7)
    expect(page.get_by_text("No queues configured")).to_be_visible()
    expect(page.get_by_role("button", name="Cancel")).to_have_count(0)
    expect(page.get_by_test_id("stDownloadButton")).to_have_count(1)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    # UPDATE_SCREENSHOTS=1 refreshes the README's picture; otherwise it is kept per run
    photograph(page, screenshot_folder(tmp_path), "replay.png", full_page=True)


def test_the_twin_check_runs_from_the_replay_page(
    app_pages: Callable[[str], Page], tmp_path: Path
) -> None:
    page = app_pages("light")
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
    page.get_by_text("Does the replay match what happened?").scroll_into_view_if_needed()
    photograph(page, screenshot_folder(tmp_path), "twin.png")


def test_a_long_replay_shows_progress_and_can_be_cancelled(page: Page, tmp_path: Path) -> None:
    trace = tmp_path / "big.csv"
    write_trace(trace, profile="teams", jobs=LONG_JOBS, seed=2)
    con = open_store(tmp_path / "planner.duckdb")  # the database the server will use
    import_file(con, trace, IngestOptions())
    con.close()
    with serve_app(tmp_path) as url:
        page.goto(url)
        wait_for_app(page)
        menu(page, "Replay")
        pick(page, "replay_trace", "big")

        run = keyed(page, "replay_run").get_by_role("button")
        run.click()
        expect(page.get_by_test_id("stProgress")).to_be_visible()
        with rerun(page):
            page.get_by_role("button", name="Cancel").click()

        expect(page.get_by_text("Replay cancelled")).to_be_visible()
        wait_for_app(page)  # the cancel's run is over: nothing more is on its way
        expect(page.get_by_test_id("stMetric")).to_have_count(0)
        expect(page.get_by_test_id("stProgress")).to_have_count(0)
        expect(page.get_by_test_id("stException")).to_have_count(0)

        started = time.monotonic()
        run.click()  # a cancelled run was not cached
        expect(page.get_by_test_id("stProgress")).to_be_visible()
        completed = page.get_by_test_id("stMetric").filter(has_text="Completed")
        expect(completed).to_be_visible(timeout=LONG_REPLAY_MS)
        print(f"replay of {LONG_JOBS:,} jobs: results {time.monotonic() - started:.1f} s after Run")  # noqa: T201
        wait_for_app(page)
        expect(page.get_by_text("Replay cancelled")).to_have_count(0)
