"""In a real browser: while another process (a CLI import) holds the database file, a page
says the database is busy and retries, with no traceback; when the file is free it shows its
data. The server is this test's own: the test needs its database file's path."""

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import wait_for_app
from tests.e2e.server import serve_app
from tests.pages.test_concurrency import LOCKER

pytestmark = pytest.mark.e2e


def test_a_page_says_busy_while_another_process_holds_the_file_then_shows_its_data(
    page: Page, tmp_path: Path
) -> None:
    with serve_app(tmp_path) as url:
        page.goto(url)
        wait_for_app(page)  # the sample imported: the file exists and is free again
        holder = subprocess.Popen(
            [sys.executable, "-c", LOCKER, str(tmp_path / "planner.duckdb")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None
            assert holder.stdin is not None
            assert holder.stdout.readline().strip() == "locked"
            page.goto(f"{url}/history")

            busy = page.get_by_text("The planner's database is busy: another process (PID")
            expect(busy).to_be_visible()
            expect(page.get_by_text(f"(PID {holder.pid}) running")).to_be_visible()
            expect(page.get_by_test_id("stException")).to_have_count(0)
            holder.stdin.write("done\n")
            holder.stdin.flush()
            assert holder.wait(timeout=60) == 0

            expect(busy).to_have_count(0)
            wait_for_app(page)
            expect(page.get_by_role("heading", name="Job history", exact=True)).to_be_visible()
            expect(page.get_by_test_id("stException")).to_have_count(0)
            expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)
        finally:
            holder.kill()
            holder.wait()
            for pipe in (holder.stdin, holder.stdout):
                if pipe is not None:
                    pipe.close()
