"""Driving the app in a real browser: every wait is on the page's state, never on time.

Streamlit says little about a rerun until it has started: a widget's change reaches the server
first, and only then does `stApp`'s `data-test-script-state` leave "notRunning" (hundreds of
milliseconds later on a busy machine). So a wait that only asks "is the app idle?" passes at
once after a click. Two things close that gap:

- `RUN_COUNTER`, installed in every page before the app loads (see conftest.py), counts the
  script runs the page has seen finish, from a MutationObserver on that attribute: a run that
  starts and ends between two polls is counted all the same;
- `rerun(page)` wraps an action that must rerun the script and returns only after a run that
  finished since, once the app is settled (`wait_for_app`).

Where a step's result is visible, the tests also wait for that result itself.
"""

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.screenshots import SCREENSHOTS

APP_TIMEOUT_MS = 300_000  # a ceiling for a page to settle, not a pause: waits end on state
# (a fresh server's first page imports the app and the sample: minutes on a crowded machine)
POLL_MS = 100  # how far apart the two calm samples of `_until_twice` are, at the least


def screenshot_folder(tmp_path: Path) -> Path:
    """Where a test saves its screenshots: the README's folder when UPDATE_SCREENSHOTS=1
    refreshes them, otherwise the test's own temporary folder (kept per run)."""
    folder = SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


RUN_COUNTER = """(() => {
  window.__e2eRuns = 0;
  new MutationObserver((records) => {
    for (const r of records) {
      const now = r.target.getAttribute("data-test-script-state");
      if (now === "notRunning" && r.oldValue !== "notRunning") window.__e2eRuns += 1;
    }
  }).observe(document, {
    subtree: true, attributes: true, attributeOldValue: true,
    attributeFilter: ["data-test-script-state"],
  });
})();"""

# The app is idle: connected, no script running (nor its status widget, which fades out), no
# element left stale by the last run, no widget still a grey loading skeleton, and the page
# drawn: a session's first run draws nothing and reruns (planner/ui/frame.py), and on a busy
# machine the gap before that rerun starts can outlast two polls.
_SETTLED = """(arg) => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app !== null
    && app.getAttribute("data-test-script-state") === "notRunning"
    && app.getAttribute("data-test-connection-state") === "CONNECTED"
    && document.querySelector(
      '[data-testid="stMainBlockContainer"] [data-testid="stElementContainer"]'
    ) !== null
    && document.querySelector(
      '[data-testid="stStatusWidget"], [data-testid="stSkeleton"], [data-stale="true"]'
    ) === null
    && window.__e2eRuns > arg.after;
}"""

# An expander is open, its opening animation over (it sets an inline height while it runs,
# and runs again when what it holds changes size) and what it holds no longer inert.
_OPEN = """(arg) => {
  const details = arg.el.querySelector("details");
  const inside = arg.el.querySelector('[data-testid="stExpanderDetails"]');
  return details !== null && inside !== null && details.open
    && details.style.height === "" && details.getAnimations().length === 0
    && !inside.hasAttribute("inert")
    && inside.querySelector('[data-testid="stSkeleton"]') === null;
}"""


def _until_twice(page: Page, condition: str, arg: dict[str, Any], timeout: float) -> None:
    """Poll the JS `condition(arg)` until it holds in two samples in a row, POLL_MS apart: a
    state that holds across a poll, not one caught between two reruns."""
    page.evaluate("() => { window.__e2eCalm = 0; }")
    page.wait_for_function(
        f"""(arg) => {{
            window.__e2eCalm = ({condition})(arg) ? window.__e2eCalm + 1 : 0;
            return window.__e2eCalm >= 2;
        }}""",
        arg=arg,
        polling=POLL_MS,
        timeout=timeout,
    )


def counted(page: Page) -> Page:
    """`page` counting the app's script runs (`RUN_COUNTER`), with waits that end on the
    page's state and a ceiling fit for a busy machine. Call it before the page opens the app."""
    page.add_init_script(script=RUN_COUNTER)
    page.set_default_timeout(APP_TIMEOUT_MS)
    expect.set_options(timeout=APP_TIMEOUT_MS)
    return page


def runs(page: Page) -> int:
    """How many script runs this page has seen finish."""
    count = page.evaluate("() => window.__e2eRuns")
    assert isinstance(count, int), "RUN_COUNTER is not installed in this page (conftest.py)"
    return count


def wait_for_app(page: Page, after: int = -1, timeout: float = APP_TIMEOUT_MS) -> None:
    """Until the app is settled (see `_SETTLED`) twice in a row, and, with `after` (a `runs`
    count), a script run has finished since that count was taken."""
    _until_twice(page, _SETTLED, {"after": after}, timeout)


@contextmanager
def rerun(page: Page) -> Iterator[None]:
    """Around an action that reruns the script: returns once a run that finished after the
    action began has left the app settled."""
    before = runs(page)
    yield
    wait_for_app(page, after=before)


def menu(page: Page, name: str) -> None:
    """Open page `name` from the sidebar menu; returns when it has settled."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=name, exact=True).click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    wait_for_app(page)


def keyed(page: Page, key: str) -> Locator:
    """The element Streamlit rendered for widget `key` (keys may end in a revision number)."""
    return page.locator(f"[class*='st-key-{key}']").first


def expand(page: Page, title: str) -> Locator:
    """Open the expander titled `title` (unless it is open) and return what it holds, once it
    has finished opening: nothing inside is clicked while it still moves."""
    expander = page.get_by_test_id("stExpander").filter(
        has=page.locator("summary").filter(has_text=title)
    )
    details = expander.locator("details")
    expect(details).to_be_visible()
    if not details.evaluate("el => el.open"):
        expander.locator("summary").click()
    expect(details).to_have_attribute("open", "")
    _until_twice(page, _OPEN, {"el": expander.element_handle()}, APP_TIMEOUT_MS)
    return expander.get_by_test_id("stExpanderDetails")


def pick(page: Page, key: str, option: str) -> None:
    """Choose the option containing `option` in selectbox `key`, as a user typing would;
    returns when the rerun the choice starts has finished (none if it was already chosen)."""
    box = keyed(page, key).get_by_role("combobox")  # waits out the loading skeleton
    chosen = re.compile(re.escape(option))
    expect(box).to_be_editable()
    if chosen.search(box.input_value()):
        return
    with rerun(page):
        box.click()
        expect(page.get_by_role("listbox")).to_be_visible()
        box.fill(option)
        wanted = page.get_by_role("option", name=option).first
        expect(wanted).to_be_visible()
        expect(wanted).to_have_attribute("data-focused", "true")
        page.keyboard.press("Enter")
        expect(box).to_have_value(chosen)


def selected(grid: Locator, column: int, row: int) -> None:
    """Wait until the grid's cell (`column`, `row`) is the selected one."""
    cell = grid.locator(f"#glide-cell-{column}-{row}")
    expect(cell).to_have_attribute("aria-selected", "true")


def map_column(
    page: Page, row: int, field: str, column: str, table: str = "history_mapping"
) -> None:
    """Map mapping row `row` (`field`) of an upload's mapping table (widget `table`: Job
    history's, or `cluster_node_mapping` on Cluster & policy) to `column`, from the
    keyboard: the editor is a
    canvas; a click selects the first cell, arrows move to the "Column in the file" cell,
    Enter opens its choices, the column's name typed leaves it the only one and Enter picks
    it."""
    grid = keyed(page, table)
    header = grid.get_by_role("columnheader", name="Column in the file", include_hidden=True)
    expect(header).to_have_count(1)  # the canvas's accessible twin: the grid is mounted
    column_index = int(header.get_attribute("aria-colindex") or "3") - 1
    box = grid.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 20, box["y"] + 35 + 17)  # row 0, first column
    selected(grid, 0, 0)
    for at in range(1, column_index + 1):  # each key lands before the next is pressed
        page.keyboard.press("ArrowRight")
        selected(grid, at, 0)
    for at in range(1, row + 1):
        page.keyboard.press("ArrowDown")
        selected(grid, column_index, at)
    page.keyboard.press("Enter")  # opens the cell's choices, their filter focused
    choice = page.get_by_role("option", name=column, exact=True)
    expect(choice).to_be_visible()
    # typed, not clicked: a click while the list still opens can be lost
    page.keyboard.type(column)
    expect(page.get_by_role("option")).to_have_count(1)
    # the edit reaches the app when the choice is made or when the grid is left, whichever
    # comes first here: one rerun after both is waited for
    with rerun(page):
        page.keyboard.press("Enter")
        expect(choice).to_be_hidden()
        # the grid shows the choice (in its accessible twin) before it is left
        expect(grid.locator(f"#glide-cell-{column_index}-{row}")).to_have_text(column)
        page.get_by_role("heading").first.click()
    changed = page.get_by_test_id("stCaptionContainer").filter(has_text="Changed:")
    expect(changed).to_contain_text(f"{field} from column {column}")
