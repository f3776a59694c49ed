"""The Fill test page: a pod list without times (which a job history import refuses) fills the
working cluster, each placement's curve as `planner fill` computes it; a stored trace works
too; rows that cannot be read are named, not dropped silently.

Real pages (AppTest) on a fresh database; the cluster is the session's working scenario."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.cli import main
from planner.engine.scenario import ClusterSpec, Scenario
from planner.ui.replay_view import default_scenario
from planner.ui.state import SCENARIO_KEY
from tests.pages.app import open_app_page

# One node of 8 GPUs; every pod asks for 3 whole GPUs. By hand: two pods fit (6 of 8 GPUs
# allocated, 75%), the third and every later one is skipped, and the 2 free GPUs are
# fragmented for the only pod shape there is (25% of the GPUs, 100% of the free ones).
THREES = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n" + "".join(
    f"p{i},1000,1024,3,1000,\n" for i in range(6)
)
BAD_ROW = "bad,1000,lots,1,1000,\n"
ONE_NODE = ClusterSpec.model_validate(
    {"pools": [{"gpu_type": "A100", "gpus_per_node": 8, "cpu": 64, "mem_gib": 512, "count": 1}]}
)


def open_fill(scenario: Scenario | None = None) -> AppTest:
    at = open_app_page("pages/fill.py")
    if scenario is not None:
        at.session_state[SCENARIO_KEY] = scenario
        at.run()
    return at


def with_file(at: AppTest, name: str, text: str) -> AppTest:
    at.radio(key="fill_source").set_value("file").run()
    return at.file_uploader(key="fill_upload").set_value((name, text.encode(), "text/csv")).run()


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_a_pod_list_without_times_fills_one_node_as_counted_by_hand(db: Path) -> None:
    scenario = default_scenario().model_copy(update={"cluster": ONE_NODE})
    at = with_file(open_fill(scenario), "pods.csv", THREES + BAD_ROW)
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert "6 pods read; rows not usable: 1" in captions
    assert "Row 8, column memory_mib" in captions
    at.multiselect(key="fill_placements").set_value(["best-fit"]).run()
    at = at.button(key="fill_run").click().run()
    assert not at.exception
    assert metrics(at) == {"best-fit: peak allocation": "75.0%"}
    table = at.dataframe[0].value
    last = table.iloc[-1]
    assert last.iloc[0] == 130
    assert last["best-fit: allocated (%)"] == 75.0
    assert last["best-fit: fragmented (% of all GPUs)"] == 25.0
    assert last["best-fit: fragmented (% of free GPUs)"] == 100.0


def test_a_job_history_import_refuses_the_same_file_the_fill_test_takes(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Why the page exists: without times the file is no job history."""
    pods = tmp_path / "pods.csv"
    pods.write_text(THREES, encoding="utf-8")
    assert main(["ingest", str(pods), "--db", str(db)]) == 2
    assert "no column for 'submit' or 'start'" in capsys.readouterr().err


def test_the_stored_sample_gives_the_clis_curve_for_each_placement(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    at = open_fill()
    at.multiselect(key="fill_placements").set_value(["best-fit", "spread"]).run()
    at.slider(key="fill_seeds").set_value(1).run()
    at = at.button(key="fill_run").click().run()
    assert not at.exception
    shown = metrics(at)
    assert set(shown) == {"best-fit: peak allocation", "spread: peak allocation"}
    chart = at.get("plotly_chart")[0].proto.spec
    for placement in ("best-fit", "spread"):
        assert f"{placement}, allocated" in chart
        assert f"{placement}, fragmented" in chart
    # The same test from the command line, on the same trace and nodes, seed 1.
    trace_id = at.selectbox(key="fill_trace").value
    nodes = Path(db).parent / "nodes.csv"
    nodes.write_text(_node_list(default_scenario()), encoding="utf-8")
    for placement in ("best-fit", "spread"):
        args = ["fill", trace_id, "--nodes", str(nodes), "--placement", placement]
        assert main([*args, "--seeds", "1", "--db", str(db), "--json"]) == 0
        points = json.loads(capsys.readouterr().out)["points"]
        peak = max(p["gpu_allocation_pct"] for p in points)
        assert shown[f"{placement}: peak allocation"] == f"{peak:.1f}%"


def _node_list(scenario: Scenario) -> str:
    """The scenario's pools as a node list file (name, model, gpu, cpu_milli, memory_mib)."""
    assert scenario.cluster is not None
    rows = ["sn,model,gpu,cpu_milli,memory_mib"]
    for pool in scenario.cluster.pools:
        for k in range(pool.count):
            cpu, mem = int(pool.cpu * 1000), int(pool.mem_gib * 1024)
            rows.append(f"{pool.gpu_type}-{k},{pool.gpu_type},{pool.gpus_per_node},{cpu},{mem}")
    return "\n".join(rows) + "\n"
