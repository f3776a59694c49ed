"""Hostile names on the Capacity page in a real browser: a trace imported from a file named
like Markdown and HTML, teams named like an HTML link and a spreadsheet formula, and a saved
scenario (with a cloud option) named like Markdown, swept there by server count and sized by
search for the hostile team. The DOM must hold no link, image or emphasis made from those
names, the names must read as their literal text in captions, pickers, tables and chart
labels, and no dialog may fire (the `<img onerror>` and `javascript:` payloads call alert).

The database is filled before the server starts, as a script would (`planner ingest` of the
hostile file, `planner scenarios save`), so the walk is the Capacity page's alone; the
server is this module's: the trace would otherwise be offered first to the other tests.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page, expect

from planner.cli import main
from planner.ui.safe import JOINER
from tests.e2e.browser import keyed, menu, pick, rerun, wait_for_app
from tests.e2e.server import serve_app
from tests.e2e.test_hostile_names_browser import FILE, TEAM, TRACE, assert_nothing_made_from_names

pytestmark = pytest.mark.e2e
FORMULA = '=HYPERLINK("http://evil.example/f","x")'
SAVED = "**evil** [own](javascript:alert(5)) <img src=x onerror=alert(6)>"
OPTION = "[rent](http://evil.example/r) <b>evil</b>"
SCENARIO = f"""\
name: scenario
currency: USD
horizons_years: [3]
self_hosted:
  - {{gpu: A100, servers: 2, gpus_per_server: 8}}
cloud:
  - {{name: "{OPTION}", provider: AWS, gpu: H100}}
"""


def _csv_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def write_trace(path: Path) -> Path:
    """Ten short GPU jobs of three teams: the link, the formula and a plain one."""
    teams = [TEAM, FORMULA, "plain"]
    rows = [
        f"j{i},2024-01-05 10:{i:02d}:00,600,{1 + i % 4},{_csv_cell(teams[i % 3])}"
        for i in range(10)
    ]
    path.write_text("job_id,submit_time,duration_s,gpus,queue\n" + "\n".join(rows) + "\n")
    return path


def _planner(work: Path, *args: str) -> None:
    """A CLI command on the database the module's server will open (serve_app's file)."""
    assert main([*args, "--db", str(work / "planner.duckdb")]) == 0


@pytest.fixture(scope="module")
def capacity_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    work = tmp_path_factory.mktemp("capacity-hostile")
    _planner(work, "ingest", str(write_trace(work / FILE)))
    scenario = work / "scenario.yaml"
    scenario.write_text(SCENARIO)
    _planner(work, "scenarios", "save", str(scenario), "--name", SAVED)
    with serve_app(work) as url:
        yield url


def _literal(page: Page, test_id: str, text: str) -> None:
    """Some element `test_id` shows `text` as it is (brackets, stars and tags included; an
    invisible word joiner after a colon is how planner.ui.safe.md stops autolinks)."""
    shown = re.compile(re.escape(text).replace(":", f":{JOINER}?"))
    expect(page.get_by_test_id(test_id).filter(has_text=shown).first).to_be_visible()


def test_hostile_names_on_the_capacity_page_render_as_text(page: Page, capacity_app: str) -> None:
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.goto(capacity_app)
    wait_for_app(page)

    menu(page, "Capacity")
    pick(page, "capacity_scenario", SAVED)
    pick(page, "capacity_trace", "**evil**")
    expect(keyed(page, "capacity_scenario").get_by_role("combobox")).to_have_value(
        f"{SAVED} (saved)"
    )
    # the pool's halvings, filled in for its 2 servers: two runs
    expect(keyed(page, "capacity_range").locator("input")).to_have_value("1, 2")
    with rerun(page):
        keyed(page, "capacity_run").get_by_role("button").click()
    chart = keyed(page, "capacity_chart")
    expect(chart.locator(".legendtext").filter(has_text=OPTION)).to_have_count(1)
    _literal(page, "stCaptionContainer", f"{SAVED} (saved)")
    _literal(page, "stCaptionContainer", TRACE)
    # the table is a canvas; its cells' accessible twin holds their text
    cells = page.get_by_test_id("stDataFrame").locator("[id^='glide-cell-']")
    expect(cells.filter(has_text=OPTION).first).to_be_attached()
    assert_nothing_made_from_names(page, dialogs)

    page.get_by_role("tab", name="Size by search").click()
    pick(page, "capacity_search_team", TEAM)
    with rerun(page):
        keyed(page, "capacity_search_run").get_by_role("button").click()
    _literal(page, "stAlertContentInfo", TEAM)
    assert_nothing_made_from_names(page, dialogs)
    pick(page, "capacity_search_team", FORMULA)
    expect(keyed(page, "capacity_search_team").get_by_role("combobox")).to_have_value(FORMULA)
    assert_nothing_made_from_names(page, dialogs)
