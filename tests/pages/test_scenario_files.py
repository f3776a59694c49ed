"""Scenarios uploaded, saved or loaded in the app never read a file on the server: their
`trace:` and `node_list:` name stored traces or files under the bundled data/traces only.

The hostile paths are the ones a probe tried: /etc/passwd, a CSV that exists only on the
server (a tmp_path file here), `../` escapes; every refusal is an error on the page that
names the field, imports nothing and shows no line of the file.
"""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.engine.scenario import ClusterSpec, Scenario
from planner.service import scenario_store
from planner.service.scenario_store import Prepared
from planner.ui import scenario_box
from planner.ui.cache import cursor
from planner.ui.state import SCENARIO_KEY
from tests.pages.app import RUN_CEILING_S, open_app_page

TIMEOUT_S = RUN_CEILING_S
SECRET = "secret-job-7f3a"  # a value of the server-only file that must never be shown
PASSWD = Path("/etc/passwd")
UPLOAD_CHOICE = "Upload a scenario (YAML)…"


@pytest.fixture
def server_csv(tmp_path: Path) -> Path:
    """A valid job history that exists only on the server."""
    path = tmp_path / "server-only" / "jobs.csv"
    path.parent.mkdir()
    rows = [f"{SECRET}-{i},{i * 60},3600,8" for i in range(5)]
    path.write_text("job_id,submit_s,duration_s,gpus\n" + "\n".join(rows) + "\n")
    return path


def hostile_refs(server_csv: Path) -> list[str]:
    escapes = "../" * 12
    return [
        str(PASSWD),
        str(server_csv),
        f"{escapes}etc/passwd",
        f"../traces/../../../{escapes}{str(server_csv).lstrip('/')}",
        f"../traces/{escapes}etc/passwd",
    ]


def page_text(at: AppTest) -> str:
    """Everything the page shows as text: messages, markdown, captions, metrics, tables."""
    parts: list[str] = []
    for kind in ("error", "warning", "info", "success", "markdown", "caption", "exception"):
        parts += [str(e.value) for e in at.get(kind)]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    parts += [e.value.to_string() for e in at.dataframe]
    return "\n".join(parts)


def assert_nothing_leaked(at: AppTest) -> None:
    text = page_text(at)
    assert "root:" not in text
    assert SECRET not in text


def trace_count() -> int:
    with cursor() as cur:
        row = cur.execute("SELECT count(*) FROM traces").fetchone()
    assert row is not None
    return int(row[0])


def saved_names() -> list[str]:
    return [s.name for s in scenario_box.saved_scenarios()]


# ---------------------------------------------------------------- Compare: one uploaded file


def open_compare() -> AppTest:
    return open_app_page("pages/compare.py", TIMEOUT_S)


def upload_to_compare(at: AppTest, text: str) -> AppTest:
    at.selectbox(key="compare_scenario").set_value(UPLOAD_CHOICE).run()
    upload = at.file_uploader(key="compare_upload")
    return upload.set_value(("hostile.yaml", text.encode(), "text/yaml")).run()


def tco_yaml(trace: str) -> str:
    return f"name: probe\ntrace: '{trace}'\nself_hosted: [{{gpu: H100, servers: 1}}]\n"


@pytest.mark.parametrize("which", range(5))
def test_an_uploaded_tco_scenario_cannot_read_a_server_file(
    read_db: Path, server_csv: Path, which: int
) -> None:
    ref = hostile_refs(server_csv)[which]
    at = open_compare()
    before = trace_count()

    at = upload_to_compare(at, tco_yaml(ref))

    assert not at.exception
    assert at.error, "the upload must be refused"
    assert "trace" in at.error[0].value
    assert "data/traces" in at.error[0].value
    assert not at.metric
    assert_nothing_leaked(at)
    assert trace_count() == before


def test_an_uploaded_tco_scenario_may_name_a_bundled_trace(db: Path) -> None:
    at = upload_to_compare(open_compare(), tco_yaml("../traces/sample.csv"))

    assert not at.exception
    assert not at.error
    assert at.metric


# ---------------------------------------------------------------- the library's upload


def open_library(page: str) -> AppTest:
    at = open_app_page(page, TIMEOUT_S)
    if page == "pages/compare.py":
        at = at.radio(key="compare_mode").set_value("saved").run()
    return at


def upload_to_library(at: AppTest, key: str, text: str) -> AppTest:
    at.file_uploader(key=f"{key}_upload").set_value(("hostile.yaml", text.encode(), "text/yaml"))
    at = at.run()
    return (
        at.button(key=f"FormSubmitter:{key}_upload_form-Save the uploaded scenario").click().run()
    )


@pytest.mark.parametrize("which", range(5))
def test_a_library_upload_cannot_import_a_server_file_as_its_trace(
    db: Path, server_csv: Path, which: int
) -> None:
    ref = hostile_refs(server_csv)[which]
    text = f"trace: '{ref}'\ncluster: {{pools: [{{gpu_type: A100, gpus_per_node: 8, count: 2}}]}}\n"
    at = open_library("pages/compare.py")
    before = trace_count()

    at = upload_to_library(at, "compare_library", text)

    assert not at.exception
    assert "trace" in at.error[0].value
    assert "data/traces" in at.error[0].value
    assert_nothing_leaked(at)
    assert trace_count() == before
    assert saved_names() == []


@pytest.mark.parametrize("which", range(5))
def test_a_library_upload_cannot_name_a_server_file_as_its_node_list(
    db: Path, server_csv: Path, which: int
) -> None:
    ref = hostile_refs(server_csv)[which]
    text = f"cluster: {{node_list: '{ref}'}}\n"

    at = upload_to_library(open_library("pages/cluster.py"), "cluster_library", text)

    assert not at.exception
    assert "cluster.node_list" in at.error[0].value
    assert_nothing_leaked(at)
    assert saved_names() == []


# ---------------------------------------------------------------- saved elsewhere, run here


def save_directly(name: str, yaml_text: str) -> None:
    """A scenario saved by the CLI (which may name local files) in the app's database."""
    with cursor() as cur:
        scenario_store.save(cur, name, Prepared("replay", yaml_text, None))


def test_loading_a_saved_scenario_that_names_a_server_file_is_refused(db: Path) -> None:
    save_directly("cli-made", f"cluster: {{node_list: '{PASSWD}'}}\n")
    at = open_app_page("pages/cluster.py", TIMEOUT_S)
    before = at.session_state[SCENARIO_KEY]

    at.selectbox(key="cluster_library_pick").set_value("cli-made").run()
    at = at.button(key="cluster_library_load").click().run()

    assert not at.exception, at.exception[0].stack_trace
    assert any("cluster.node_list" in e.value for e in at.error)
    assert at.session_state[SCENARIO_KEY] == before
    assert_nothing_leaked(at)


def test_comparing_a_saved_scenario_that_names_a_server_file_is_refused(
    db: Path, server_csv: Path
) -> None:
    save_directly("cli-made", f"cluster: {{node_list: '{server_csv}'}}\n")
    at = open_app_page("pages/compare.py", TIMEOUT_S)
    at = at.radio(key="compare_mode").set_value("saved").run()

    assert not at.exception
    assert any("cluster.node_list" in e.value for e in at.error)
    assert_nothing_leaked(at)


def test_the_replay_page_does_not_read_a_working_scenario_s_server_file(read_db: Path) -> None:
    hostile = Scenario(cluster=ClusterSpec(node_list=str(PASSWD)))
    at = open_app_page("pages/replay.py", TIMEOUT_S, **{SCENARIO_KEY: hostile})

    at = at.button(key="replay_run").click().run()

    assert not at.exception
    assert any("cluster.node_list" in e.value for e in at.error)
    assert_nothing_leaked(at)
