"""Node lists' columns are found by name like a job history's, with synonyms, units read from
the column's name, and `--map FIELD=COLUMN` for what is not found (issue 17)."""

from pathlib import Path
from typing import Any

import pytest

from planner.cli import main
from planner.core.config import ClusterConfig
from planner.core.errors import MissingColumnError
from planner.ingest import NODE_FORMATS, IngestOptions, sniff
from planner.ingest.nodes import read_cluster
from planner.store import open_store
from tests.conftest import write

ALIBABA_2026 = (
    "node_name,gpu_model,gpu_capacity_num,cpu_num,memory_gib\nn1,A100,8,96,768\nn2,A100,8,96,768\n"
)
NO_COUNT = "node_name,gpu_model,cards,cpu_num,memory_gib\nm1,H800,8,128,1024\n"


def cluster_of(
    path: Path, mapping: dict[str, str] | None = None
) -> tuple[ClusterConfig, dict[str, Any]]:
    source, fmt = sniff(path, IngestOptions())
    cluster, report = read_cluster(source, fmt, mapping)
    assert fmt in NODE_FORMATS
    return cluster, report.model_dump()


def test_the_alibaba_2026_header_is_detected_and_read(tmp_path: Path) -> None:
    cluster, report = cluster_of(write(tmp_path, "nodes.csv", ALIBABA_2026))

    assert [(n.node_id, n.gpu_type, n.gpus, n.cpu, n.mem_gib) for n in cluster.nodes] == [
        ("n1", "A100", 8, 96.0, 768.0),
        ("n2", "A100", 8, 96.0, 768.0),
    ]
    assert report["column_mapping"] == {
        "node_id": "node_name",
        "gpu_type": "gpu_model",
        "gpus": "gpu_capacity_num",
        "cpu": "cpu_num",
        "mem": "memory_gib",
    }


@pytest.mark.parametrize(
    ("header", "row"),
    [
        ("hostname,gpu_type,gpu_count,cores,mem_gb", "h1,H100,8,64,512"),
        ("sn,model,gpu,cpu_milli,memory_mib", "h1,H100,8,64000,524288"),
        ("node_id,gpu_product,num_gpus,cpus,memory_mib", "h1,H100,8,64,524288"),
        ("Node Name,GPU Card,GPUs,CPU,Memory", "h1,H100,8,64,512"),
        ("host,card,gpu_capacity,vcpus,mem_mb", "h1,H100,8,64,524288"),
    ],
)
def test_synonyms_and_units(tmp_path: Path, header: str, row: str) -> None:
    cluster, _ = cluster_of(write(tmp_path, "nodes.csv", f"{header}\n{row}\n"))

    node = cluster.nodes[0]
    assert (node.node_id, node.gpu_type, node.gpus, node.cpu, node.mem_gib) == (
        "h1",
        "H100",
        8,
        64.0,
        512.0,
    )


def test_two_gpu_count_columns_are_noted(tmp_path: Path) -> None:
    text = "node_name,gpu_model,gpu_num,gpu_capacity_num\nn1,A100,6,8\n"
    cluster, report = cluster_of(write(tmp_path, "nodes.csv", text))

    assert cluster.nodes[0].gpus == 6
    assert any("'gpu_capacity_num'" in w and "--map gpus=" in w for w in report["warnings"])
    cluster, _ = cluster_of(write(tmp_path, "nodes.csv", text), {"gpus": "gpu_capacity_num"})
    assert cluster.nodes[0].gpus == 8


def test_a_mapped_column_that_is_not_numbers_rejects_its_rows(tmp_path: Path) -> None:
    text = "node_name,gpu_model,gpu_capacity_num,cpu_num,memory_gib\nn1,A100,8,96,768\n"
    text += "n2,A100,8,lots,768\n"
    cluster, report = cluster_of(write(tmp_path, "nodes.csv", text))

    assert [n.node_id for n in cluster.nodes] == ["n1"]
    assert report["rejected_by_reason"] == {"not_a_number": 1}
    example = report["examples"]["not_a_number"][0]
    assert (example["row"], example["column"], example["value"]) == (3, "cpu_num", "lots")
    assert example["message"] == "expected a number"


def test_a_missing_gpu_count_names_the_field(tmp_path: Path) -> None:
    with pytest.raises(MissingColumnError) as err:
        cluster_of(write(tmp_path, "nodes.csv", NO_COUNT))

    text = str(err.value)
    assert "'gpus' (GPUs per node)" in text
    assert "--map gpus=COLUMN" in text
    assert "cards" in text  # the file's columns are listed


def test_the_cli_maps_a_node_list_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "odd_nodes.csv", NO_COUNT)
    db = tmp_path / "nl.duckdb"

    assert main(["ingest", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'gpus' (GPUs per node)" in err

    assert main(["ingest", str(path), "--db", str(db), "--map", "gpus=cards"]) == 0
    with open_store(db) as con:
        stored = con.execute("SELECT name, nodes, gpus FROM clusters").fetchall()
    assert stored == [("odd_nodes", 1, 8)]


def test_an_unknown_node_field_lists_the_node_fields(tmp_path: Path) -> None:
    path = write(tmp_path, "nodes.csv", ALIBABA_2026)
    with pytest.raises(MissingColumnError, match="fields are: node_id, gpu_type, gpus, cpu, mem"):
        cluster_of(path, {"submit": "cpu_num"})
