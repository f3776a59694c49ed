"""`kubectl get nodes -o json` as a cluster."""

import json
from pathlib import Path

import pytest

from planner.cli import main
from planner.ingest.kubectl import kubectl_sharing, read_kubectl_nodes
from planner.service.replay import read_nodes
from tests.conftest import write

NODES = Path(__file__).parent / "data" / "kubectl_nodes.json"
MIG_NODES = Path(__file__).parent / "data" / "kubectl_mig_nodes.json"


def test_allocatable_resources_and_gpu_products_become_nodes() -> None:
    nodes, _ = read_kubectl_nodes(NODES)

    assert [(n.node_id, n.gpu_type, n.gpus) for n in nodes] == [
        ("gpu-a", "A100", 8),
        ("gpu-h", "H100", 8),
        ("cpu-1", "", 0),
    ]
    assert nodes[0].cpu == 127.5  # allocatable, milli-cores
    assert nodes[0].mem_gib == pytest.approx(2061924948 / 2**20, abs=1e-3)
    assert nodes[1].mem_gib == 1024
    assert nodes[2].mem_gib == 256


def test_what_is_not_modelled_is_listed() -> None:
    _, notes = read_nodes(NODES)

    assert "gpu-h: cordoned (unschedulable), kept as capacity" in notes
    # a MIG resource advertised at 0 is no MIG: the node's 8 GPUs are whole
    assert kubectl_sharing(NODES) == ({}, [])


def test_mig_nodes_count_physical_gpus_and_give_their_layout() -> None:
    nodes, notes = read_kubectl_nodes(MIG_NODES)

    assert [(n.node_id, n.gpu_type, n.gpus) for n in nodes] == [
        ("mig-mixed-1", "A100", 8),  # nvidia.com/gpu 0: all eight GPUs are MIG
        ("mig-mixed-2", "A100", 8),
        ("mig-single", "H100", 4),  # 28 advertised 1g instances on 4 GPUs
        ("mig-odd", "", 0),
    ]
    assert notes == ["mig-odd: unknown MIG profiles 1g.6gb; whole GPUs only"]
    setups, differ = kubectl_sharing(MIG_NODES)
    # the named all-balanced config and 16/8/8 instances split over 8 GPUs agree
    assert setups == {
        "A100": ("mixed", ("1g.10gb", "1g.10gb", "2g.20gb", "3g.40gb")),
        "H100": ("single", ("1g.10gb",) * 7),
    }
    assert differ == []


def test_replay_on_mig_nodes_uses_their_layouts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(
        tmp_path,
        "jobs.csv",
        "job_id,submit_time,duration_s,gpus,gpu_type\n"
        "big,0,10,1,3g.40gb\nsmall,0,10,0.1,A100\nwhole,0,10,1,A100\nslice,0,10,2,H100\n",
    )
    command = ["replay", str(trace), "--nodes", str(MIG_NODES), "--db", str(tmp_path / "p.db")]
    assert main([*command, "--json"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["completed"] == 3
    assert summary["unschedulable_by_reason"] == {"no_such_shared_device": 1}  # whole A100
    assert summary["sharing"]["A100"]["gpus"] == 16
    assert summary["sharing"]["H100"]["advertised"] == 28
    assert "A100: MIG mixed (2 x 1g.10gb + 2g.20gb + 3g.40gb per GPU), read from" in captured.err


def test_replay_runs_on_a_kubectl_node_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(
        tmp_path,
        "jobs.csv",
        "job_id,submit_time,duration_s,gpus,gpu_type\na,0,10,8,H100\nb,0,10,16,A100\n",
    )

    assert (
        main(
            [
                "replay",
                str(trace),
                "--nodes",
                str(NODES),
                "--db",
                str(tmp_path / "p.duckdb"),
                "--json",
            ]
        )
        == 0
    )

    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["gpu_capacity_by_pool"] == {"A100": 8, "H100": 8, "cpu-only": 0}
    assert out["completed"] == 1
    assert out["unschedulable_by_reason"] == {"more_gpus_than_installed": 1}
    assert "note: gpu-h: cordoned" in captured.err


def test_a_json_that_is_not_a_node_list_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, "nodes.json", '{"items": 3}')
    trace = write(tmp_path, "jobs.csv", "job_id,submit_time,duration_s,gpus\na,0,10,1\n")

    assert (
        main(["replay", str(trace), "--nodes", str(bad), "--db", str(tmp_path / "p.duckdb")]) == 2
    )

    assert "kubectl get nodes -o json" in capsys.readouterr().err
