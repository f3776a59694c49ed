"""The file policy of scenario references: the app's folder cannot be left by an absolute
path, `..` or a symlink; the CLI reads local files as before."""

import json
from pathlib import Path

import pytest

from planner.cli import main
from planner.core.errors import ScenarioError
from planner.core.file_access import BUNDLED_FILES, FileAccess

JOBS = "job_id,submit_time,duration,num_gpu\n" + "".join(
    f"j{i},{i * 600},{3600 + 60 * i},{1 + i % 8}\n" for i in range(40)
)
NODES = "node,gpus,gpu_type\nn1,8,A100\nn2,8,A100\n"


@pytest.fixture
def app(tmp_path: Path) -> FileAccess:
    """An app-like policy: files under data/traces, relative to data/scenarios."""
    (tmp_path / "data" / "traces").mkdir(parents=True)
    (tmp_path / "data" / "scenarios").mkdir()
    (tmp_path / "data" / "traces" / "jobs.csv").write_text(JOBS)
    (tmp_path / "secret.csv").write_text(JOBS)
    return FileAccess(root=tmp_path / "data" / "traces", base=tmp_path / "data" / "scenarios")


def test_a_file_under_the_app_folder_is_found_relative_to_the_scenarios(app: FileAccess) -> None:
    assert app.root is not None
    assert app.file("../traces/jobs.csv", "trace") == (app.root / "jobs.csv").resolve()
    assert app.file("../traces/missing.csv", "trace") is None


@pytest.mark.parametrize(
    "ref",
    [
        "/etc/passwd",
        "../../secret.csv",
        "../traces/../../secret.csv",
        "../traces/../../../../../../../../etc/passwd",
        "..",
        "../..",
        "~/secret.csv",
        "C:\\Windows\\win.ini",
        "\\\\server\\share\\x.csv",
    ],
)
def test_paths_that_leave_the_app_folder_are_refused(app: FileAccess, ref: str) -> None:
    with pytest.raises(ScenarioError, match=r"trace '.*' is not allowed here"):
        app.file(ref, "trace")


def test_an_absolute_path_inside_the_folder_is_refused_too(app: FileAccess) -> None:
    assert app.root is not None
    with pytest.raises(ScenarioError, match="is not allowed here"):
        app.file(str(app.root / "jobs.csv"), "trace")


def test_a_symlink_out_of_the_folder_is_refused(app: FileAccess, tmp_path: Path) -> None:
    assert app.root is not None
    (app.root / "link.csv").symlink_to(tmp_path / "secret.csv")
    (app.root / "dir").symlink_to(tmp_path)

    for ref in ("../traces/link.csv", "../traces/dir/secret.csv"):
        with pytest.raises(ScenarioError, match="cluster.node_list .* is not allowed here"):
            app.file(ref, "cluster.node_list")


def test_refusals_read_the_same_whether_or_not_the_file_exists(app: FileAccess) -> None:
    messages = []
    for ref in ("../../secret.csv", "../../no-such.csv"):
        with pytest.raises(ScenarioError) as err:
            app.file(ref, "trace")
        messages.append(str(err.value).replace(ref, "REF"))

    assert messages[0] == messages[1]


def test_a_bare_name_is_a_stored_trace_reference_not_a_file(app: FileAccess) -> None:
    assert app.base is not None
    (app.base / "sample").write_text(JOBS)  # beside the scenarios, outside the folder

    assert app.file("sample", "trace") is None
    assert app.file("3f2a9c", "trace") is None


def test_the_app_policy_names_data_traces() -> None:
    with pytest.raises(ScenarioError, match="files under data/traces/"):
        BUNDLED_FILES.file("/etc/passwd", "trace")


def test_the_cli_still_replays_local_files_named_by_a_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI is the user's own machine: absolute and relative local paths both work."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "jobs.csv").write_text(JOBS)
    (tmp_path / "nodes.csv").write_text(NODES)
    scenario = tmp_path / "local.yaml"
    scenario.write_text(f"trace: {elsewhere / 'jobs.csv'}\ncluster: {{node_list: nodes.csv}}\n")

    code = main(
        ["replay", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb"), "--json"]
    )

    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cluster"] == "nodes"
    assert out["gpu_capacity"] == 16


def test_the_cli_prices_a_local_trace_named_by_a_tco_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "jobs.csv").write_text(JOBS)
    scenario = tmp_path / "tco.yaml"
    scenario.write_text(
        f"trace: {tmp_path / 'jobs.csv'}\ncloud: [{{gpu: H100, price_per_gpu_hour: 2.0, packing: per-job}}]\n"
    )

    code = main(["tco", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb"), "--json"])

    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["horizons"][0]["options"][0]["cost_per_useful_gpu_hour"] == pytest.approx(2.0)
