"""The main journey in a real browser, on a fresh server and database:

upload a file and map one of its columns, then upload a Slurm sacct export instead (the app
must detect the format, and the first file's mapping must not reach it: issue 31 item 8),
fix one column mapping (teams are the partitions, not the accounts), import it, give the
cluster a node list whose GPU column has a name the reader does not know (picked in the
Cluster page's mapping table: item 14), replay the job history, save the scenario with its
results, compare it with a cloud scenario, and download the Excel report. Each step's page is photographed (UPDATE_SCREENSHOTS=1 refreshes
docs/screenshots/journey-*.png) and each step's seconds are printed, not asserted.
"""

import io
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import openpyxl
import pytest
from playwright.sync_api import Page, expect

from planner.ui import history_view
from tests.e2e.browser import (
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

pytestmark = pytest.mark.e2e
JOBS = 300
NODES = 4  # x 8 A100: every job (at most 16 GPUs) fits
STEP_TIMEOUT_MS = 180_000


def write_sacct(path: Path) -> Path:
    """A `sacct --parsable2` export: teams are Accounts, two Partitions by job size."""
    rng = random.Random(7)
    lines = [
        "JobID|JobIDRaw|User|Account|Partition|Submit|Start|End|Elapsed|NNodes|AllocTRES"
        "|ReqTRES|State"
    ]
    first = datetime(2024, 3, 1, 8)
    for i in range(JOBS):
        submit = first + timedelta(minutes=7 * i + rng.randint(0, 5))
        start = submit + timedelta(minutes=rng.randint(0, 30))
        minutes = rng.choice([10, 30, 60, 120, 240])
        gpus = rng.choice([1, 1, 2, 4, 8, 8, 16])
        nodes = max(1, gpus // 8)
        tres = f"cpu={4 * gpus},gres/gpu:a100={gpus},gres/gpu={gpus},mem={32 * gpus}G,node={nodes}"
        times = [t.strftime("%Y-%m-%dT%H:%M:%S") for t in (submit, start)]
        end = (start + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S")
        elapsed = f"{minutes // 60:02d}:{minutes % 60:02d}:00"
        account = rng.choice(["nlp", "cv", "speech", "rec"])
        partition = "train" if gpus >= 8 else "dev"
        lines.append(
            f"{1000 + i}|{1000 + i}|u{i % 9}|{account}|{partition}|{times[0]}|{times[1]}|{end}"
            f"|{elapsed}|{nodes}|{tres}|gres/gpu={gpus}|COMPLETED"
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_nodes(path: Path) -> Path:
    """A node list whose GPUs per node are in `accelerators`, a name no synonym matches."""
    rows = [f"gpu-node-{i},A100,8,128,1024" for i in range(1, NODES + 1)]
    path.write_text("node,gpu_type,accelerators,cpu,memory_gib\n" + "\n".join(rows) + "\n")
    return path


def write_teams(path: Path) -> Path:
    """A first upload whose teams are in `team_name` (a column the sacct export lacks)."""
    path.write_text(
        "job_id,submit_time,duration_s,gpus,team_name\nc1,2026-01-01T00:00:00Z,60,1,red\n",
        encoding="utf-8",
    )
    return path


@contextmanager
def step(name: str, page: Page, folder: Path, journey: str = "journey") -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    except BaseException:
        page.screenshot(path=str(folder / f"{journey}-{name}-failed.png"))
        raise
    wait_for_app(page)
    print(f"{journey}: {name}: {time.perf_counter() - started:.1f} s")  # noqa: T201
    photograph(page, folder, f"{journey}-{name}.png")


def submit_form_of(page: Page, key: str) -> None:
    form = keyed(page, key).locator("xpath=ancestor::*[@data-testid='stForm']")
    with rerun(page):
        form.get_by_role("button", name="Save").click()


def upload_history(page: Page, path: Path, fmt: str) -> None:
    with rerun(page):
        keyed(page, "history_upload").locator("input[type=file]").set_input_files(path)
    detected = page.get_by_test_id("stMarkdown").filter(has_text="Detected format:")
    expect(detected).to_contain_text(fmt)


def import_with_partitions_as_teams(page: Page, teams: Path, sacct: Path) -> None:
    menu(page, "Job history")
    upload_history(page, teams, "generic")
    teams_row = history_view.detect(teams).mapping["field"].tolist().index("queue")
    map_column(page, teams_row, "queue", "team_name")
    upload_history(page, sacct, "slurm")  # another file: the mapping starts from its own
    changed = page.get_by_test_id("stCaptionContainer").filter(has_text="Changed:")
    expect(changed).to_have_count(0)  # before: "queue from column team_name" carried over
    queue_row = history_view.detect(sacct).mapping["field"].tolist().index("queue")
    map_column(page, queue_row, "queue", "Partition")
    with rerun(page):
        keyed(page, "history_import").get_by_role("button").click()
    expect(page.get_by_role("heading", name="Ingest report")).to_be_visible()
    accepted = page.get_by_test_id("stMetric").filter(has_text="Accepted")
    expect(accepted).to_contain_text(f"{JOBS:,}")


def use_node_list(page: Page, nodes: Path) -> None:
    menu(page, "Cluster & policy")
    panel = expand(page, "Import nodes from kubectl or a node list")
    with rerun(page):
        keyed(page, "cluster_node_upload").locator("input[type=file]").set_input_files(nodes)
    # no column is named like a GPU count: the mapping table says so, and nothing is read
    expect(panel.get_by_test_id("stAlertContentWarning")).to_contain_text("GPUs per node")
    expect(keyed(page, "cluster_use_nodes")).to_have_count(0)
    # rows: node_id, gpu_type, gpus, cpu, mem
    map_column(page, 2, "gpus", "accelerators", "cluster_node_mapping")
    expect(panel).to_contain_text(f"{nodes.name}: {NODES} nodes, {NODES * 8} GPUs")
    with rerun(page):
        keyed(page, "cluster_use_nodes").get_by_role("button").click()
    expect(page.get_by_text(f"The cluster is now the nodes of {nodes.name}")).to_be_visible()
    summary = page.get_by_test_id("stAlertContentInfo").first
    expect(summary).to_contain_text(f"{NODES} nodes × 8 A100")


def replay(page: Page, trace: str) -> None:
    menu(page, "Replay")
    pick(page, "replay_trace", trace)
    with rerun(page):
        keyed(page, "replay_run").get_by_role("button").click()
    expect(page.get_by_role("heading", name="Results")).to_be_visible()
    expect(page.get_by_test_id("stCaptionContainer").filter(has_text=trace).first).to_be_visible()
    completed = page.get_by_test_id("stMetric").filter(has_text="Completed")
    expect(completed).to_contain_text(f"{JOBS:,}")
    teams = keyed(page, "replay_wait_team").locator(".xtick text")
    expect(teams).to_have_text(["dev", "train"])  # the mapping fix held: partitions are teams


def save_run(page: Page, name: str) -> None:
    field = keyed(page, "replay_save_name").locator("input")
    field.fill(name)
    expect(field).to_have_value(name)
    submit_form_of(page, "replay_save_name")
    expect(page.get_by_text(f"Saved '{name}'")).to_be_visible()


def compare_with_cloud(page: Page, name: str) -> None:
    menu(page, "Compare")
    expand(page, "Save a scenario file under a name")
    pick(page, "compare_add_source", "cloud-on-demand.yaml")
    # the form's name field is one per file: the rerun drew the chosen file's, named after it
    field = keyed(page, "compare_add_name_cloud").locator("input")
    expect(field).to_have_value("cloud-on-demand")
    submit_form_of(page, "compare_add_name_cloud")
    expect(page.get_by_text("Saved 'cloud-on-demand'")).to_be_visible()
    wait_for_app(page)  # saving reruns twice: the flash is drawn by the second run
    chosen = keyed(page, "compare_saved")
    expect(chosen).to_contain_text(name)
    expect(chosen).to_contain_text("cloud-on-demand")
    expect(page.get_by_test_id("stAlertContentInfo").first).to_contain_text("cheapest")
    # one line per option: owning the replayed cluster, on demand, reserved
    expect(keyed(page, "compare_saved_cash").locator(".legendtext")).to_have_count(3)


def download_report(page: Page, name: str) -> None:
    with page.expect_download() as download:
        keyed(page, "compare_saved_report_xlsx").get_by_role("button").click()
    saved = download.value
    assert saved.suggested_filename.endswith(".xlsx")
    book = openpyxl.load_workbook(io.BytesIO(Path(saved.path()).read_bytes()))
    cells = {str(c.value) for row in book["Options (all horizons)"].iter_rows() for c in row}
    assert any(name in cell for cell in cells), sorted(cells)[:40]
    assert any("AWS H100 on-demand" in cell for cell in cells)


def test_upload_fix_replay_save_compare_download(page: Page, tmp_path: Path) -> None:
    sacct = write_sacct(tmp_path / "sacct-export.txt")
    teams = write_teams(tmp_path / "teams.csv")
    nodes = write_nodes(tmp_path / "a100-nodes.csv")
    folder = screenshot_folder(tmp_path)
    (tmp_path / "app").mkdir()
    with serve_app(tmp_path / "app") as url:
        page.set_default_timeout(STEP_TIMEOUT_MS)
        expect.set_options(timeout=STEP_TIMEOUT_MS)
        page.goto(url)
        wait_for_app(page)
        with step("1-upload", page, folder):
            import_with_partitions_as_teams(page, teams, sacct)
        with step("2-cluster", page, folder):
            use_node_list(page, nodes)
        with step("3-replay", page, folder):
            replay(page, sacct.stem)
        with step("4-save", page, folder):
            save_run(page, "journey A100")
        with step("5-compare", page, folder):
            compare_with_cloud(page, "journey A100")
        with step("6-download", page, folder):
            download_report(page, "journey A100")
