"""A node list on the Job history page: detected, its columns mapped and previewed like a
job history's, imported as a cluster and offered as the working cluster (issue 17)."""

from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

from planner.engine.scenario import Scenario
from planner.store import connect, fetch_all
from tests.pages.app import mapping_key
from tests.pages.test_history import open_page, upload

# gpu_num is the GPUs in use at export time; the node's GPUs are gpu_capacity_num
ODD = (
    "node_name,gpu_model,gpu_num,gpu_capacity_num,cpu_num,memory_gib\n"
    "n1,A100,6,8,96,768\n"
    "n2,A100,2,8,96,768\n"
)
NO_COUNT = "node_name,gpu_model,cards,cpu_num,memory_gib\nm1,H800,8,128,1024\n"


def mapping(at: AppTest) -> pd.DataFrame:
    return at.data_editor(key=mapping_key(at)).value.set_index("field")


def remap(at: AppTest, field: str, column: str) -> AppTest:
    row = list(at.data_editor(key=mapping_key(at)).value["field"]).index(field)
    edits = {"edited_rows": {row: {"column": column}}, "added_rows": [], "deleted_rows": []}
    at.session_state[mapping_key(at)] = edits
    return at.run()


def stored_clusters(db: Path) -> list[tuple[str, int, int]]:
    with connect(db) as con:
        rows = fetch_all(con, "SELECT name, nodes, gpus FROM clusters ORDER BY name")
    return [(str(n), int(k), int(g)) for n, k, g in rows]


def test_a_node_list_gets_a_mapping_table_a_refreshed_preview_and_imports(db: Path) -> None:
    at = upload(open_page(), "alibaba_nodes.csv", ODD)

    assert not at.exception
    assert not at.error
    assert "`nodes`" in at.markdown[0].value
    table = mapping(at)
    assert list(table.index) == ["node_id", "gpu_type", "gpus", "cpu", "mem"]
    assert table.loc["node_id", "column"] == "node_name"
    assert table.loc["gpu_type", "column"] == "gpu_model"
    assert (table.loc["gpus", "column"], table.loc["gpus", "preview"]) == ("gpu_num", "6")
    assert table.loc["gpus", "about"] == "GPUs per node (required)"
    assert (table.loc["cpu", "column"], table.loc["mem", "column"]) == ("cpu_num", "memory_gib")
    assert any("gpu_capacity_num" in c.value for c in at.caption)  # the other candidate

    at = remap(at, "gpus", "gpu_capacity_num")

    assert mapping(at).loc["gpus", "preview"] == "8"  # the preview follows the remap
    assert "Changed: **gpus** from column `gpu_capacity_num`, first row: `8`" in [
        c.value for c in at.caption
    ]

    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert not at.error
    assert [(m.label, str(m.value)) for m in at.metric][:3] == [
        ("Rows", "2"),
        ("Accepted", "2"),
        ("Rejected", "0"),
    ]
    assert stored_clusters(db) == [("alibaba_nodes", 2, 16)]

    at = at.button(key="history_use_nodes").click().run()

    assert not at.exception
    scenario = at.session_state["working_scenario"]
    assert isinstance(scenario, Scenario)
    assert scenario.cluster is not None
    pools = [
        (p.gpu_type, p.gpus_per_node, p.cpu, p.mem_gib, p.count) for p in scenario.cluster.pools
    ]
    assert pools == [("A100", 8, 96.0, 768.0, 2)]
    assert at.success[0].value == "The cluster is now the nodes of alibaba_nodes.csv."
    assert at.title[0].value != "Job history"  # on the Cluster & policy page


def test_a_missing_gpu_count_leaves_the_field_empty_and_names_it(db: Path) -> None:
    at = upload(open_page(), "odd_nodes.csv", NO_COUNT)

    assert not at.exception
    assert not at.error  # not refused
    assert mapping(at).loc["gpus", "column"] == ""
    assert [w.value for w in at.warning] == [
        "No column was found for **GPUs per node (required)** (`gpus`). Pick it in the "
        "table's column list to import this node list."
    ]
    assert at.button(key="history_import").disabled

    at = remap(at, "gpus", "cards")
    assert not at.warning
    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert not at.error
    assert stored_clusters(db) == [("odd_nodes", 1, 8)]
