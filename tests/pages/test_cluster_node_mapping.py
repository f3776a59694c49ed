"""Node lists uploaded on Cluster & policy get Job history's column-mapping table: a GPU
column with an unusual name is picked in the table, and the pick reaches the reader."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.core.errors import MissingColumnError
from planner.ingest import IngestOptions
from planner.service.replay import read_nodes
from tests.pages.app import mapping_key
from tests.pages.test_cluster_page import frame_with, key, open_page, working

# 2 x 8 A100 + 1 x 4 T4 = 20 GPUs; no column is named like a GPU count
ODD_GPUS = (
    "hostname,accelerators,card_type,cpu,memory_gib\n"
    "n1,8,A100,64,512\n"
    "n2,8,A100,64,512\n"
    "n3,4,T4,32,128\n"
)
# Tests that run at once must not upload the same bytes: a read upload's copy is removed
# (`planner.ui.uploads.discard`) from the folder its digest names, under the other's feet.
ODD_GPUS_ZH = ODD_GPUS.replace("n3,", "z3,")
ODD_GPUS_FIRST = ODD_GPUS.replace("n3,", "f3,")
PLAIN = "hostname,gpus,card_type\nm1,8,H100\nm2,8,H100\nm3,8,H100\n"  # 3 x 8 H100 = 24 GPUs


def upload(at: AppTest, name: str, text: str) -> AppTest:
    uploader = at.file_uploader(key=key(at, "node_upload"))
    return uploader.set_value((name, text.encode(), "text/csv")).run()


def map_column(at: AppTest, field: str, column: str) -> AppTest:
    """Pick `column` for `field` in the mapping table, as a user's cell edit would."""
    editor_key = mapping_key(at, key(at, "node_mapping"))
    row = list(at.data_editor(key=editor_key).value["field"]).index(field)
    edits = {"edited_rows": {row: {"column": column}}, "added_rows": [], "deleted_rows": []}
    at.session_state[editor_key] = edits
    return at.run()


def use_button_shown(at: AppTest) -> bool:
    return key(at, "use_nodes") in [b.key for b in at.button]


def changed(at: AppTest) -> list[str]:
    return [c.value for c in at.caption if c.value.startswith("Changed:")]


def test_the_reader_takes_a_mapping_for_a_column_it_does_not_know(tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_text(ODD_GPUS, encoding="utf-8")

    with pytest.raises(MissingColumnError, match="'gpus'"):
        read_nodes(path)
    nodes, _ = read_nodes(path, IngestOptions(mapping={"gpus": "accelerators"}))

    assert [(n[0], n[1], n[2]) for n in nodes] == [
        ("n1", "A100", 8),
        ("n2", "A100", 8),
        ("n3", "T4", 4),
    ]


def test_an_unusual_gpu_column_is_named_and_imports_once_mapped(db: Path) -> None:
    at = upload(open_page(), "odd.csv", ODD_GPUS)
    table = at.data_editor(key=mapping_key(at, key(at, "node_mapping"))).value
    warned = [w.value for w in at.warning]

    assert not at.exception
    assert not at.error
    assert dict(zip(table["field"], table["column"], strict=True)) == {
        "node_id": "hostname",
        "gpu_type": "card_type",
        "gpus": "",
        "cpu": "cpu",
        "mem": "memory_gib",
    }
    assert any("GPUs per node (required)" in w and "`gpus`" in w for w in warned)
    assert not use_button_shown(at)  # nothing to use until the GPUs have a column

    at = map_column(at, "gpus", "accelerators")

    assert not at.exception
    assert not at.error
    assert not at.warning
    assert changed(at) == ["Changed: **gpus** from column `accelerators`, first row: `8`"]
    read = frame_with(at, "nodes")
    assert read[["gpu_type", "gpus_per_node", "nodes", "gpus"]].values.tolist() == [
        ["A100", 8, 2, 16],
        ["T4", 4, 1, 4],
    ]

    at = at.button(key=key(at, "use_nodes")).click().run()

    assert not at.exception
    cluster = working(at).cluster
    assert cluster is not None
    assert [(p.gpu_type, p.gpus_per_node, p.cpu, p.mem_gib, p.count) for p in cluster.pools] == [
        ("A100", 8, 64.0, 512.0, 2),
        ("T4", 4, 32.0, 128.0, 1),
    ]
    assert sum(p.gpus_per_node * p.count for p in cluster.pools) == 20  # 2 x 8 + 1 x 4


def test_a_mapping_belongs_to_its_upload(db: Path) -> None:
    """The first file's pick (`accelerators`) does not reach the next file, which has no
    such column and names its GPUs plainly."""
    at = map_column(upload(open_page(), "odd.csv", ODD_GPUS_FIRST), "gpus", "accelerators")
    assert changed(at)

    at = upload(at, "plain.csv", PLAIN)

    assert not at.exception
    assert not at.error  # before: "the file has no column 'accelerators'"
    assert changed(at) == []
    read = frame_with(at, "nodes")
    assert read[["gpu_type", "gpus_per_node", "nodes", "gpus"]].values.tolist() == [
        ["H100", 8, 3, 24]
    ]


def test_the_mapping_table_speaks_chinese(db: Path) -> None:
    at = upload(open_page("zh"), "odd.csv", ODD_GPUS_ZH)
    table = at.data_editor(key=mapping_key(at, key(at, "node_mapping"))).value

    assert not at.exception
    assert "每节点 GPU 数（必需）" in list(table["about"])
    assert any("每节点 GPU 数（必需）" in w.value for w in at.warning)
    assert not use_button_shown(at)


def test_a_kubectl_file_shows_no_mapping_table(db: Path) -> None:
    data = (Path(__file__).parents[1] / "data" / "kubectl_nodes.json").read_text()
    at = upload(open_page(), "kubectl_nodes.json", data)

    assert not at.exception
    assert not at.error
    assert not [e for e in at.data_editor if e.key and "node_mapping" in e.key]
    assert use_button_shown(at)
