"""A manager's own data, end to end, with forms only (no YAML), in a real browser (issue 17):

upload an Alibaba-2026-like node list with odd column names on Job history, fix its GPU
column in the mapping table (the export's `gpu_num` is the GPUs in use; the node's GPUs are
`gpu_capacity_num`), import it and use it as the cluster; upload a job history of A100 jobs
with teams; build an own, a reserved-cloud (a term and committed GPUs) and a hybrid option
with the Compare page's form, save and compare them; change the comparison (the reserved
option left out, 5 years instead of 3), leave Compare for the Overview and come back, then
open the app in a new browser session (issue 31 item 11: the same scenarios, horizon,
conclusion and table, and the Overview's headline names the same verdict); download the
Excel report and read the compared options back from it; size a cluster with the Capacity
page's sweep; read Compare in Chinese (item 13: the scope line in bold, never literal `**`,
and no Deploy button). Each step's page is photographed (UPDATE_SCREENSHOTS=1 refreshes
docs/screenshots/manager-*.png) and each step's seconds are printed, not asserted.

It runs its own server: it stores a trace, a cluster and saved options, which the session's
shared server (`app_url`) would then show to the other browser tests.
"""

import csv
import io
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.browser import (
    counted,
    expand,
    keyed,
    map_column,
    menu,
    pick,
    rerun,
    screenshot_folder,
    wait_for_app,
)
from tests.e2e.server import serve_app
from tests.e2e.shots import photograph
from tests.e2e.test_journey import step as journey_step
from tests.e2e.test_option_forms_browser import _number as number

pytestmark = pytest.mark.e2e
NODES = 4  # x 8 A100
JOBS = 300
TEAMS = ("nlp", "cv", "speech", "rec")
OWN = "own 4 A100 servers"
RESERVED = "AWS A100 reserved 3y, 16 GPUs"
HYBRID = "hybrid: keep 2, burst to AWS"
KEPT = (OWN, HYBRID)  # the comparison as changed: unlike the page's first drawing of it
KEPT_YEARS = 5  # (all three scenarios, or the first two saved; 3 years)
STEP_TIMEOUT_MS = 180_000


def write_nodes(path: Path) -> Path:
    """Alibaba-2026-like: `gpu_num` (GPUs in use, read as the node's at first) comes before
    `gpu_capacity_num` (the node's GPUs)."""
    rows = [f"ali-a100-{i:02d},A100,{i % 8},8,96,768" for i in range(1, NODES + 1)]
    header = "node_name,gpu_model,gpu_num,gpu_capacity_num,cpu_num,memory_gib\n"
    path.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def write_jobs(path: Path) -> Path:
    """A job history on A100s, one team per job, every job fitting on the node list."""
    rng = random.Random(17)
    first = datetime(2026, 1, 5, 8)
    lines = ["job_id,submit_time,duration_s,gpus,gpu_type,queue"]
    for i in range(JOBS):
        submit = first + timedelta(minutes=6 * i + rng.randint(0, 5))
        seconds = rng.choice([600, 1800, 3600, 7200, 14400])
        gpus = rng.choice([1, 1, 2, 4, 8, 8, 16])
        lines.append(f"j{i},{submit:%Y-%m-%d %H:%M:%S},{seconds},{gpus},A100,{rng.choice(TEAMS)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@contextmanager
def step(name: str, page: Page, folder: Path) -> Iterator[None]:
    with journey_step(name, page, folder, "manager"):
        yield


def upload(page: Page, path: Path) -> None:
    menu(page, "Job history")
    with rerun(page):
        keyed(page, "history_upload").locator("input[type=file]").set_input_files(path)
    expect(page.get_by_test_id("stMarkdown").filter(has_text="Detected format:")).to_be_visible()


def map_node_list(page: Page, nodes: Path) -> None:
    upload(page, nodes)
    detected = page.get_by_test_id("stMarkdown").filter(has_text="Detected format:")
    expect(detected).to_contain_text("nodes")
    map_column(page, 2, "gpus", "gpu_capacity_num")  # rows: node_id, gpu_type, gpus, cpu, mem
    changed = page.get_by_test_id("stCaptionContainer").filter(has_text="Changed:")
    expect(changed).to_contain_text("gpus from column gpu_capacity_num, first row: 8")
    page.get_by_test_id("stCaptionContainer").filter(
        has_text="Changed:"
    ).scroll_into_view_if_needed()


def use_node_list(page: Page, nodes: Path) -> None:
    with rerun(page):
        keyed(page, "history_import").get_by_role("button").click()
    accepted = page.get_by_test_id("stMetric").filter(has_text="Accepted")
    expect(accepted).to_contain_text(str(NODES))
    expect(
        page.get_by_text(f"Stored as a cluster: {NODES} nodes, {NODES * 8} GPUs")
    ).to_be_visible()
    with rerun(page):
        keyed(page, "history_use_nodes").get_by_role("button").click()
    expect(page.get_by_role("heading", name="Cluster & policy", exact=True)).to_be_visible()
    expect(page.get_by_text(f"The cluster is now the nodes of {nodes.name}")).to_be_visible()
    summary = page.get_by_test_id("stAlertContentInfo").first
    expect(summary).to_contain_text(f"{NODES} nodes × 8 A100")


def import_jobs(page: Page, jobs: Path) -> None:
    upload(page, jobs)
    with rerun(page):
        keyed(page, "history_import").get_by_role("button").click()
    expect(page.get_by_role("heading", name="Ingest report")).to_be_visible()
    accepted = page.get_by_test_id("stMetric").filter(has_text="Accepted")
    expect(accepted).to_contain_text(f"{JOBS:,}")


def choose_kind(page: Page, label: str) -> Locator:
    form = expand(page, "Build an option with a form")
    radio = form.get_by_role("radio", name=label, exact=True)
    if not radio.is_checked():  # the first kind is chosen already: a click would not rerun
        with rerun(page):
            form.get_by_text(label, exact=True).click()
    expect(radio).to_be_checked()
    return form


def name_option(page: Page, name: str) -> None:
    field = keyed(page, "opt_name").locator("input")
    expect(field).to_be_editable()
    if field.input_value() == name:  # typed already: no rerun would follow
        return
    with rerun(page):
        field.fill(name)
        field.press("Enter")
    expect(field).to_have_value(name)


def save_option(page: Page, name: str) -> None:
    name_option(page, name)
    save = keyed(page, "opt_save").get_by_role("button")
    expect(save).to_be_enabled()
    with rerun(page):
        save.click()
    expect(page.get_by_text(f"Saved '{name}'")).to_be_visible()
    wait_for_app(page)
    expect(keyed(page, "compare_saved").get_by_text(name, exact=True)).to_be_visible()


def build_own(page: Page, jobs: Path) -> None:
    menu(page, "Compare")
    form = choose_kind(page, "Own servers")
    expect(form).to_contain_text(jobs.stem)  # priced on the imported job history
    expect(form).to_contain_text(f"{NODES} × A100")  # the working cluster: the node list
    expect(keyed(page, "opt_pool_0_servers").locator("input")).to_have_value(str(NODES))
    save_option(page, OWN)


def build_reserved(page: Page, folder: Path) -> None:
    form = choose_kind(page, "Rent in the cloud")
    pick(page, "opt_provider", "AWS")
    pick(page, "opt_gpu_AWS", "A100")
    pick(page, "opt_payment", "reserved")
    number(page, "opt_term", "36")
    number(page, "opt_commit", "16.00")
    expect(form.get_by_text("per GPU-hour")).to_be_visible()  # the book prices the term
    name_option(page, RESERVED)
    keyed(page, "opt_name").scroll_into_view_if_needed()
    photograph(page, folder, "manager-4-reserved-form.png")
    save_option(page, RESERVED)


def build_hybrid(page: Page) -> None:
    choose_kind(page, "Hybrid: keep servers, burst to the cloud")
    pick(page, "opt_payment", "on demand")
    number(page, "opt_keep_A100_4", "2")
    number(page, "opt_burst_h", "2.00")
    save_option(page, HYBRID)


def compared(page: Page) -> None:
    chosen = keyed(page, "compare_saved")
    for name in (OWN, RESERVED, HYBRID):
        expect(chosen.get_by_text(name, exact=True)).to_be_visible()
    expect(page.get_by_text("Over 3 years the cheapest is")).to_be_visible()
    legend = keyed(page, "compare_saved_cash").locator(".legendtext")
    for name in (OWN, RESERVED, HYBRID):
        expect(legend.filter(has_text=name)).not_to_have_count(0)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    keyed(page, "compare_saved_cash").scroll_into_view_if_needed()


def change_comparison(page: Page) -> None:
    """Item 11: leave the reserved option out and look 5 years ahead."""
    chosen = keyed(page, "compare_saved")
    with rerun(page):
        chosen.get_by_role("button", name=f"Remove {RESERVED}").click()
    expect(chosen.locator("[data-tag]")).to_have_text(list(KEPT))
    pick(page, "compare_years", str(KEPT_YEARS))


def comparison_shown(page: Page) -> tuple[str, bytes]:
    """The conclusion and the table (its CSV) once the kept scenarios, in their order, and
    the kept horizon are the ones picked."""
    chosen = keyed(page, "compare_saved")
    expect(chosen.locator("[data-tag]")).to_have_text(list(KEPT))
    expect(keyed(page, "compare_years").get_by_role("combobox")).to_have_value(str(KEPT_YEARS))
    over = f"Over {KEPT_YEARS} years the cheapest is"
    conclusion = page.get_by_test_id("stAlertContentInfo").filter(has_text=over)
    expect(conclusion).to_have_count(1)
    table = table_csv(page)
    rows = list(csv.DictReader(io.StringIO(table.decode("utf-8-sig"))))
    assert {row["scenario"] for row in rows} == set(KEPT), rows
    return conclusion.inner_text(), table


def table_csv(page: Page) -> bytes:
    """The comparison table as its CSV download (the table itself is a canvas)."""
    button = keyed(page, "compare_saved_csv").get_by_role("button")
    with page.expect_download() as download:
        button.click()
    return Path(download.value.path()).read_bytes()


def headline(page: Page) -> tuple[str, str]:
    """The Overview's answer (the verdict's metric) and the sentences under it."""
    verdict = page.get_by_test_id("stMetric").filter(has_text="Answer")
    expect(verdict).to_have_count(1)
    sentences = page.get_by_test_id("stAlertContentSuccess")
    expect(sentences).to_have_count(1)
    return verdict.inner_text(), sentences.inner_text()


def overview(page: Page) -> None:
    """Open the Overview (its heading is the app's name, not the menu's)."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Overview", exact=True).click()
    expect(page.get_by_role("heading", name="GPU Capacity Planner")).to_be_visible()
    wait_for_app(page)


def comparison_kept(page: Page, fresh: Page, url: str) -> None:
    """Item 11: the comparison as changed outlasts another page and the browser session (it
    once fell back to the first two saved scenarios, and the Overview's headline to another
    verdict). The figures are read from the pages and compared, not only found."""
    change_comparison(page)
    conclusion, table = comparison_shown(page)
    overview(page)
    answer = headline(page)
    source = page.get_by_test_id("stCaptionContainer").filter(has_text="From your comparison")
    expect(source).to_have_text(f"From your comparison on the Compare page: {', '.join(KEPT)}.")

    menu(page, "Compare")
    assert comparison_shown(page) == (conclusion, table)
    overview(page)
    assert headline(page) == answer

    fresh.goto(url)  # a new session, opening on the Overview before any visit to Compare
    wait_for_app(fresh)
    assert headline(fresh) == answer
    menu(fresh, "Compare")
    assert comparison_shown(fresh) == (conclusion, table)
    menu(page, "Compare")


def chinese_compare(page: Page) -> None:
    """Item 13: the scope line renders its bold (a `**` after `。` was once literal), and the
    app has no Deploy button in either language."""
    with rerun(page):
        page.locator(".st-key-lang_choice").get_by_text("简体中文").click()
    menu(page, "比较")
    scope = page.get_by_test_id("stMarkdown").filter(has_text="计价范围")
    expect(scope.first).to_be_visible()  # one line per compared scenario
    expect(scope.filter(has_text="**")).to_have_count(0)
    expect(scope.locator("strong").filter(has_text="计价范围")).to_have_count(scope.count())
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)
    expect(page.get_by_role("button", name="Deploy")).to_have_count(0)


def download_report(page: Page) -> None:
    button = keyed(page, "compare_saved_report_xlsx").get_by_role("button")
    button.scroll_into_view_if_needed()
    with page.expect_download() as download:
        button.click()
    saved = download.value
    assert saved.suggested_filename.endswith(".xlsx")
    book = openpyxl.load_workbook(io.BytesIO(Path(saved.path()).read_bytes()))
    cells = {str(c.value) for sheet in book for row in sheet.iter_rows() for c in row}
    for name in KEPT:  # the options compared when it was downloaded
        assert any(name in cell for cell in cells), (name, sorted(cells)[:60])


def size(page: Page) -> None:
    menu(page, "Capacity")
    for key, value in (("capacity_range", "32, 64, 128"), ("capacity_thresholds", "1")):
        field = keyed(page, key).locator("input")
        with rerun(page):
            field.fill(value)
            field.press("Enter")
        expect(field).to_have_value(value)
    with rerun(page):
        keyed(page, "capacity_run").get_by_role("button").click()
    expect(keyed(page, "capacity_chart")).to_be_visible()
    expect(page.get_by_test_id("stAlertContentInfo").first).not_to_contain_text("Run sweep")
    expect(page.get_by_test_id("stException")).to_have_count(0)


@pytest.fixture(scope="module")
def manager_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_app(tmp_path_factory.mktemp("manager-app")) as url:
        yield url


@pytest.fixture
def second_session(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A page in a browser context of its own (no cookie or storage shared with `page`): on
    the app, a Streamlit session of its own, as a viewer opening the app anew has."""
    context = browser.new_context(**browser_context_args)
    yield counted(context.new_page())
    context.close()


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    """Where the steps' screenshots go: docs/screenshots with UPDATE_SCREENSHOTS=1."""
    return screenshot_folder(tmp_path)


def test_own_data_to_compared_options_with_forms_only(
    page: Page, second_session: Page, manager_app: str, photos: Path, tmp_path: Path
) -> None:
    nodes = write_nodes(tmp_path / "alibaba-nodes.csv")
    jobs = write_jobs(tmp_path / "a100-jobs.csv")
    page.set_default_timeout(STEP_TIMEOUT_MS)
    expect.set_options(timeout=STEP_TIMEOUT_MS)
    page.goto(manager_app)
    wait_for_app(page)
    with step("1-node-mapping", page, photos):
        map_node_list(page, nodes)
    with step("2-cluster", page, photos):
        use_node_list(page, nodes)
    with step("3-jobs", page, photos):
        import_jobs(page, jobs)
    with step("5-compare", page, photos):
        build_own(page, jobs)
        build_reserved(page, photos)
        build_hybrid(page)
        compared(page)
    with step("5b-kept", page, photos):
        comparison_kept(page, second_session, manager_app)
    with step("6-download", page, photos):
        download_report(page)
    with step("7-capacity", page, photos):
        size(page)
    with step("8-chinese", page, photos):
        chinese_compare(page)
