"""`planner fill --json` reports the fragmentation curve next to allocation: by arrived share,
the allocated share, the fragmented GPUs, their share of all GPUs and of the idle GPUs."""

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from planner.cli import main

PODS = """name,cpu_milli,memory_mib,num_gpu,gpu_milli
p1,4000,1024,1,1000
p2,4000,1024,1,500
p3,8000,1024,0,0
p4,2000,1024,2,1000
p5,4000,1024,1,300
p6,16000,1024,0,0
"""
NODES = """sn,cpu_milli,memory_mib,gpu,model
n1,32000,262144,4,T4
n2,32000,262144,4,T4
n3,16000,262144,2,T4
"""


def fill_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], placement: str) -> Any:
    (tmp_path / "pods.csv").write_text(PODS)
    (tmp_path / "nodes.csv").write_text(NODES)
    args = ["fill", str(tmp_path / "pods.csv"), "--nodes", str(tmp_path / "nodes.csv")]
    args += ["--placement", placement, "--seeds", "1-3", "--db", str(tmp_path / "p.duckdb")]
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("placement", ["fgd", "best-fit", "random"])
def test_the_curve_is_monotone_in_arrivals_and_its_shares_are_in_0_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], placement: str
) -> None:
    out = fill_json(tmp_path, capsys, placement)

    curve = out["fragmentation_curve"]
    assert len(curve) == len(out["points"]) == 131
    arrived = [p["arrived_share"] for p in curve]
    assert arrived[0] == 0
    assert all(b > a for a, b in pairwise(arrived))
    assert arrived[-1] == pytest.approx(out["until"])
    for p in curve:
        for key in ("allocated_share", "frag_share_of_total", "frag_ratio_of_idle"):
            assert 0 <= p[key] <= 1, (key, p)
        # fragmented GPUs are idle GPUs: never more than what is not allocated
        assert p["frag_share_of_total"] <= 1 - p["allocated_share"] + 1e-6
        assert p["frag_gpus"] == pytest.approx(p["frag_share_of_total"] * 10, abs=1e-3)
    # before anything arrives all 10 GPUs are idle and some CPU-only pods are in the mix,
    # so part of them is fragmented already
    assert curve[0]["frag_ratio_of_idle"] > 0


def test_the_curves_last_point_equals_the_summary_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = fill_json(tmp_path, capsys, "fgd")

    last, point = out["fragmentation_curve"][-1], out["points"][-1]
    assert last["arrived_share"] == pytest.approx(point["arrived_pct"] / 100)
    assert last["allocated_share"] == pytest.approx(point["gpu_allocation_pct"] / 100, abs=1e-6)
    assert last["frag_share_of_total"] == pytest.approx(point["frag_gpu_pct"] / 100, abs=1e-6)
    assert last["frag_gpus"] == pytest.approx(
        point["frag_gpu_pct"] / 100 * out["gpu_capacity"], abs=1e-3
    )


def test_the_text_table_shows_the_curve_every_10_percent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pods.csv").write_text(PODS)
    (tmp_path / "nodes.csv").write_text(NODES)
    args = ["fill", str(tmp_path / "pods.csv"), "--nodes", str(tmp_path / "nodes.csv")]
    args += ["--placement", "fgd", "--seeds", "1-2", "--db", str(tmp_path / "p.duckdb")]

    assert main(args) == 0

    lines = capsys.readouterr().out.splitlines()
    assert "frag GPUs" in lines[1]
    assert "frag/idle %" in lines[1]
    rows = [line.split() for line in lines[2:]]
    assert [int(row[0]) for row in rows] == list(range(0, 131, 10))
    assert all(0 <= float(row[4]) <= 100 for row in rows)
