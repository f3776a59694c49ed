"""Hostile names in a real browser: a trace imported from a file named like Markdown and
HTML, with a team named like an HTML link, shown on Job history and Replay (captions,
selectboxes, metrics and plotly charts), then its run saved under a hostile name and
compared with a cloud scenario (Compare's charts and legends). The DOM must hold no link, image or emphasis made
from those names, the names must read as their literal text, and no dialog may fire (the
`<img onerror>` and `javascript:` payloads call alert). tests/pages/test_hostile_names.py
checks the Markdown sent by each page (AppTest); this checks what the browser built from it.

It runs its own server: the import adds a trace that the session's shared server
(`app_url`) would then offer first on every page of the other browser tests.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page, expect

from tests.e2e.browser import keyed, menu, pick, rerun, wait_for_app
from tests.e2e.server import serve_app
from tests.e2e.test_journey import compare_with_cloud, save_run, use_node_list, write_nodes

pytestmark = pytest.mark.e2e
FILE = "**evil** <img src=x onerror=alert(3)> [a](javascript:alert(4)).csv"
TRACE = FILE.removesuffix(".csv")
TEAM = '<a href="http://evil.example">t</a>'
SAVED = "**evil** <img src=x onerror=alert(3)> run"
# Elements a name could have become: links (HTML or plotly's SVG <a xlink:href>) to the
# payloads, images from "x", and emphasis around "evil".
_MADE_FROM_NAMES = """() => {
  const made = [];
  for (const a of document.querySelectorAll("a")) {
    const href = (a.getAttribute("href") || "") + (a.getAttribute("xlink:href") || "");
    if (/javascript:|evil\\.example/i.test(href)) made.push(a.outerHTML);
  }
  for (const img of document.querySelectorAll("img, image")) {
    const src = img.getAttribute("src") || img.getAttribute("href") || "";
    if (src === "x" || /\\/x$|evil\\.example/.test(src)) made.push(img.outerHTML);
  }
  for (const em of document.querySelectorAll("strong, b, em, i")) {
    if (em.textContent.trim() === "evil") made.push(em.outerHTML);
  }
  return made;
}"""


def write_trace(path: Path) -> Path:
    rows = [
        f'j{i},2024-01-05 10:{i:02d}:00,600,{1 + i % 4},"{TEAM.replace(chr(34), 2 * chr(34))}"'
        for i in range(6)
    ]
    rows += [f"k{i},2024-01-05 10:{i:02d}:30,300,2,plain" for i in range(4)]
    path.write_text("job_id,submit_time,duration_s,gpus,queue\n" + "\n".join(rows) + "\n")
    return path


@pytest.fixture(scope="module")
def hostile_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_app(tmp_path_factory.mktemp("hostile-app")) as url:
        yield url


def assert_nothing_made_from_names(page: Page, dialogs: list[str]) -> None:
    wait_for_app(page)
    assert page.evaluate(_MADE_FROM_NAMES) == []
    assert dialogs == []
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_hostile_file_and_team_names_render_as_text(
    page: Page, hostile_app: str, tmp_path: Path
) -> None:
    trace = write_trace(tmp_path / FILE)
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.goto(hostile_app)
    wait_for_app(page)

    menu(page, "Job history")
    with rerun(page):
        keyed(page, "history_upload").locator("input[type=file]").set_input_files(trace)
    expect(page.get_by_text("Detected format:")).to_be_visible()
    with rerun(page):
        keyed(page, "history_import").get_by_role("button").click()
    accepted = page.get_by_test_id("stMetric").filter(has_text="Accepted")
    expect(accepted).to_contain_text("10")
    # the stored trace's caption names its source file, as text
    caption = page.get_by_test_id("stCaptionContainer").filter(has_text="**evil** <img src=x")
    expect(caption.first).to_be_visible()
    assert_nothing_made_from_names(page, dialogs)

    use_node_list(page, write_nodes(tmp_path / "a100-nodes.csv"))  # priced in the book
    menu(page, "Replay")
    pick(page, "replay_trace", "**evil**")
    with rerun(page):
        keyed(page, "replay_run").get_by_role("button").click()
    expect(page.get_by_role("heading", name="Results")).to_be_visible()
    ticks = keyed(page, "replay_wait_team").locator(".xtick text")
    expect(ticks).to_have_text([TEAM, "plain"])  # the team's tag, drawn as its text
    assert_nothing_made_from_names(page, dialogs)

    # Compare: the run saved under a hostile name, next to a cloud scenario, in the charts
    save_run(page, SAVED)
    compare_with_cloud(page, SAVED)
    legend = keyed(page, "compare_saved_cash").locator(".legendtext")
    expect(legend.filter(has_text="**evil** <img src=x")).not_to_have_count(0)
    assert_nothing_made_from_names(page, dialogs)
