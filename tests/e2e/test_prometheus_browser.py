"""Job history's "From Prometheus" in a real browser, on a fresh server and database, against
a real Prometheus (tests/prometheus.py) serving the hand-made history of
tests/test_prometheus_ingest.py: typed in as a user would, the import shows the job count
and GPU-hours `planner ingest --prometheus` finds on the same server and becomes the working
trace; a wrong URL then shows one message and no traceback.

Streamlit's date and time inputs are segmented fields (a spin button per year, month, day,
hour and minute) over a hidden native input: a user clicks the first segment and types the
digits, each segment passing on to the next once full, then confirms with Enter. Typing into
the hidden input instead (what `locator("input")` finds) leaves a wrong date and no rerun.
"""

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from planner.cli import main
from tests.e2e.browser import expand, keyed, rerun, wait_for_app
from tests.e2e.server import serve_app
from tests.test_prometheus_ingest import END, START, STEP, hand_data, hand_url

pytestmark = pytest.mark.e2e
USED = (hand_data, hand_url)  # module fixtures: the server over the hand-made history
SECTION = "From Prometheus (kube-state-metrics)"


def _typed(page: Page, key: str, text: str) -> None:
    """`text` typed into text or number box `key` and confirmed with Enter, as a user would;
    returns once the rerun it starts has settled."""
    box = keyed(page, key).locator("input").first
    expect(box).to_be_editable()
    with rerun(page):
        box.fill(text)
        box.press("Enter")


def _segments(page: Page, key: str, digits: str, shown: str) -> None:
    """Date or time field `key` set by typing `digits` from its first segment, then Enter (and
    Escape: a date field's click also opens its calendar). `shown` is the value its hidden
    input then holds; a field already showing it is left alone (no rerun would follow)."""
    field = keyed(page, key)
    hidden = field.locator("input")
    expect(hidden).to_have_count(1)  # the field is mounted, not a loading skeleton
    if hidden.get_attribute("value") == shown:
        return
    with rerun(page):
        field.get_by_role("spinbutton").first.click()
        page.keyboard.type(digits)
        page.keyboard.press("Enter")
        page.keyboard.press("Escape")
        expect(hidden).to_have_value(shown)


def _moment(page: Page, which: str, epoch: float) -> None:
    """Date and time input `which` ("0" start, "1" end) set to `epoch` in UTC."""
    moment = dt.datetime.fromtimestamp(epoch, tz=dt.UTC)
    day = moment.date()
    _segments(page, f"history_prom_d{which}", day.strftime("%Y%m%d"), day.isoformat())
    time = moment.strftime("%H:%M")
    _segments(page, f"history_prom_t{which}", time.replace(":", ""), f"{time}:00")


def _metric(section: Locator, label: str) -> Locator:
    return (
        section.get_by_test_id("stMetric")
        .filter(has_text=label)
        .first.get_by_test_id("stMetricValue")
    )


def test_from_prometheus_imports_what_the_command_line_imports(
    page: Page, hand_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ingest", "--prometheus", hand_url, "--window", f"{START:.0f}..{END:.0f}"]
    argv += ["--step", f"{STEP:.0f}", "--db", str(tmp_path / "cli.duckdb"), "--json"]
    assert main(argv) == 0
    cli = json.loads(capsys.readouterr().out)
    # 9 pods; 8 + 0 + 0 + 11 + 2 + 1 + 1 + 8/7 (MIG: 4/7 GPU x 2 h) + 0 GPU-hours
    # (tests/test_prometheus_ingest.py): 24.14..., shown to one decimal as 24.1
    assert cli["accepted"] == 9
    assert cli["gpu_hours"] == pytest.approx(23 + 8 / 7)

    app = tmp_path / "app"
    app.mkdir()
    with serve_app(app) as url:
        page.goto(f"{url}/history")
        expect(page.get_by_role("heading", name="Job history", exact=True)).to_be_visible()
        wait_for_app(page)
        section = expand(page, SECTION)
        _typed(page, "history_prom_url", hand_url)
        _moment(page, "0", START)
        _moment(page, "1", END)
        _typed(page, "history_prom_step", f"{STEP:.0f}")
        with rerun(page):
            keyed(page, "history_prom_import").get_by_role("button").click()

        expect(_metric(section, "Accepted")).to_have_text(f"{cli['accepted']:,}")
        expect(_metric(section, "GPU-hours")).to_have_text(f"{cli['gpu_hours']:,.1f}")
        expect(_metric(section, "Rejected")).to_have_text("0")
        expect(section).to_contain_text(f"trace {cli['trace_id']}")
        # the imported trace is the working one: the page's trace choice shows it
        chosen = keyed(page, "history_trace").get_by_role("combobox")
        expect(chosen).to_have_value(re.compile(rf"· 9 jobs · {cli['trace_id']}$"))
        expect(page.get_by_test_id("stException")).to_have_count(0)

        _typed(page, "history_prom_url", "http://127.0.0.1:9/")
        with rerun(page):
            keyed(page, "history_prom_import").get_by_role("button").click()
        errors = page.get_by_test_id("stAlertContentError")
        expect(errors).to_have_count(1)
        expect(errors).to_contain_text("Nothing was imported from Prometheus: cannot reach")
        expect(page.get_by_test_id("stException")).to_have_count(0)
