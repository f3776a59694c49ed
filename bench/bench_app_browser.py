"""How long the Replay page takes, in a real browser, from pressing Run to its results.

Issue 6's goal: a 100,000-job trace shows its results within 20 s of pressing Run. This
writes a synthetic trace of that size (`planner synth`), imports it into a fresh database,
starts `streamlit run` on it, and drives Debian's chromium with Playwright: open Replay,
pick the trace, press Run, wait until the page has drawn its last chart. It prints the
seconds (wall clock, this machine), it does not assert them.

    .venv/bin/python bench/bench_app_browser.py [--jobs 100000] [--profile teams]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.e2e.server import serve_app  # noqa: E402 - the tests' server start, from the root

RESULTS_TIMEOUT_MS = 600_000


def planner(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "planner", *args], check=True, cwd=ROOT)


def idle(page: Page) -> None:
    expect(page.get_by_test_id("stApp")).to_have_attribute(
        "data-test-script-state", "notRunning", timeout=RESULTS_TIMEOUT_MS
    )


def time_run(url: str, trace_label: str, chromium: str) -> tuple[float, int]:
    """Seconds from the Run click until the page is idle with its charts; charts drawn."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 1100})
        page.goto(f"{url}/replay")
        idle(page)
        box = page.locator(".st-key-replay_trace").get_by_role("combobox")
        box.click()
        box.fill(trace_label)
        expect(page.get_by_role("option", name=trace_label).first).to_have_attribute(
            "data-focused", "true"
        )
        page.keyboard.press("Enter")
        idle(page)
        started = time.perf_counter()
        page.locator(".st-key-replay_run button").click()
        expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible(timeout=RESULTS_TIMEOUT_MS)
        idle(page)
        charts = page.get_by_test_id("stPlotlyChart")
        expect(charts.last.locator(".main-svg").first).to_be_visible(timeout=RESULTS_TIMEOUT_MS)
        seconds = time.perf_counter() - started
        count = charts.count()
        expect(page.get_by_test_id("stException")).to_have_count(0)
        metrics = [" ".join(m.split()) for m in page.get_by_test_id("stMetric").all_inner_texts()]
        browser.close()
    print("  " + " · ".join(metrics))
    return seconds, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--profile", default="teams")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("needs Debian's chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        trace = work / f"bench-{args.jobs}.csv"
        planner("synth", "--profile", args.profile, "--jobs", str(args.jobs), "--out", str(trace))
        os.environ["PLANNER_DB"] = str(work / "planner.duckdb")
        planner("ingest", str(trace))
        with serve_app(work) as url:
            seconds, charts = time_run(url, trace.stem, chromium)
    print(f"Replay page, {args.jobs:,} jobs ({args.profile}), Run -> results in a real browser:")
    print(f"  {seconds:.1f} s (goal < 20 s), {charts} charts drawn")


if __name__ == "__main__":
    main()
