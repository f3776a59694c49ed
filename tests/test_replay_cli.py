"""`planner replay`, `planner fill` and `planner schema` end to end, on files and a real DB."""

import csv
import json
from itertools import pairwise
from pathlib import Path

import pytest

from planner.cli import main
from planner.engine.scenario import Scenario
from planner.engine.waits import REASON_CODES
from tests.conftest import write

JSON_KEYS = {
    "jobs",
    "completed",
    "unschedulable",
    "gpu_capacity",
    "horizon_s",
    "allocated_gpu_hours",
    "utilization",
    "wait_s",
    "waiting_gpu_hours_by_reason",
    "idle_gpu_hours_held_by_partial_gangs",
}
SCHEDULE_HEAD = [
    "job_id",
    "queue",
    "submit_s",
    "start_s",
    "end_s",
    "duration_s",
    "gpus",
    "cpu",
    "mem_gib",
    "status",
    "placement",
]

# Two 8-GPU nodes. a: 2 x 8 GPUs from 0 to 100; b (one 4-GPU pod) waits behind it in strict
# FIFO only if it cannot fit: it cannot (a takes both nodes), so b waits 100 s, cluster full.
TRACE = """job_id,submit_time,duration_s,pods,gpus,queue
a,0,100,2,16,team-x
b,10,50,1,4,team-y
c,20,30,1,64,team-y
"""


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "planner.duckdb")


def test_replay_json_has_the_contract_keys_and_hand_computed_figures(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(tmp_path, "jobs.csv", TRACE)

    out = run_json(capsys, "replay", str(trace), "--nodes", "2", "--gpus-per-node", "8", "--db", db)

    assert set(out) >= JSON_KEYS
    assert (out["jobs"], out["completed"], out["unschedulable"]) == (3, 2, 1)
    assert out["gpu_capacity"] == 16
    assert out["horizon_s"] == 150
    # a: 16 GPUs x 100 s, b: 4 GPUs x 50 s
    assert out["allocated_gpu_hours"] == pytest.approx((1600 + 200) / 3600)
    assert out["utilization"] == pytest.approx(1800 / (16 * 150))
    assert out["wait_s"]["max"] == 90  # b: submitted at 10, starts at 100
    reasons = out["waiting_gpu_hours_by_reason"]
    assert set(reasons) == set(REASON_CODES)
    assert reasons["cluster_full"] == pytest.approx(4 * 90 / 3600)
    assert out["idle_gpu_hours_held_by_partial_gangs"] == 0
    assert out["unschedulable_by_reason"] == {"more_gpus_than_installed": 1}


def test_schedule_out_has_one_row_per_job_with_the_contract_columns(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(tmp_path, "jobs.csv", TRACE)
    out = tmp_path / "schedule.csv"

    main(
        [
            "replay",
            str(trace),
            "--nodes",
            "2",
            "--gpus-per-node",
            "8",
            "--db",
            db,
            "--schedule-out",
            str(out),
        ]
    )

    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0])[: len(SCHEDULE_HEAD)] == SCHEDULE_HEAD
    by_id = {row["job_id"]: row for row in rows}
    assert by_id["a"]["status"] == "completed"
    assert sorted(by_id["a"]["placement"].split(";")) == ["A100-0000:8", "A100-0001:8"]
    assert (by_id["b"]["start_s"], by_id["b"]["end_s"], by_id["b"]["wait_s"]) == (
        "100",
        "150",
        "90",
    )
    assert by_id["b"]["wait_reasons"] == "cluster_full:90"
    assert by_id["c"]["status"] == "unschedulable"
    assert by_id["c"]["placement"] == ""
    assert by_id["c"]["start_s"] == ""
    assert by_id["c"]["unschedulable_reason"] == "more_gpus_than_installed"


def test_a_stored_trace_id_replays_like_its_file(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(tmp_path, "jobs.csv", TRACE)
    from_file = run_json(capsys, "replay", str(trace), "--nodes", "2", "--db", db)

    from_id = run_json(capsys, "replay", str(from_file["trace_id"]), "--nodes", "2", "--db", db)

    assert from_id == from_file


def test_scenario_yaml_holds_what_the_flags_hold_and_flags_override_it(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "jobs.csv", TRACE)
    write(
        tmp_path,
        "nodes.csv",
        "node,gpus,gpu_type\nn1,8,A100\nn2,8,A100\n",
    )
    scenario = write(
        tmp_path,
        "s.yaml",
        "name: two nodes\ntrace: jobs.csv\ncluster:\n  node_list: nodes.csv\n"
        "policy:\n  queueing: strict-fifo\n  placement: spread\n",
    )

    from_yaml = run_json(capsys, "replay", "--scenario", str(scenario), "--db", db)
    overridden = run_json(
        capsys, "replay", "--scenario", str(scenario), "--queueing", "fifo", "--db", db
    )

    assert from_yaml["policy"] == {
        "admission": "gang",
        "placement": "spread",
        "queueing": "strict-fifo",
        "seed": 42,
    }
    assert from_yaml["gpu_capacity"] == 16
    assert overridden["policy"]["queueing"] == "fifo"


def test_bad_scenario_and_policy_give_one_line_errors(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(tmp_path, "jobs.csv", TRACE)
    bad = write(tmp_path, "bad.yaml", "policy:\n  queueing: lifo\n")

    assert main(["replay", "--scenario", str(bad), "--db", db]) == 2
    assert "policy.queueing" in capsys.readouterr().err
    assert (
        main(
            [
                "replay",
                str(trace),
                "--nodes",
                "2",
                "--admission",
                "pod",
                "--queueing",
                "backfill",
                "--db",
                db,
            ]
        )
        == 2
    )
    assert "backfill needs gang admission" in capsys.readouterr().err
    assert main(["replay", str(trace), "--db", db]) == 2
    assert "no cluster" in capsys.readouterr().err
    assert main(["replay", str(trace), "--nodes", "missing.csv", "--db", db]) == 2
    assert "no such node list file" in capsys.readouterr().err


def test_schema_is_the_scenario_models_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0

    schema = json.loads(capsys.readouterr().out)

    assert schema == Scenario.model_json_schema()
    committed = Path(__file__).resolve().parents[1] / "docs" / "scenario.schema.json"
    assert json.loads(committed.read_text()) == schema, (
        "run `planner schema > docs/scenario.schema.json`"
    )


def test_openb_default_replays_on_its_own_node_list(
    shared_traces: Path, db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openb = shared_traces / "alibaba-openb-2023"
    schedule = tmp_path / "openb.csv"

    out = run_json(
        capsys,
        "replay",
        str(openb / "openb_pod_list_default.csv.gz"),
        "--nodes",
        str(openb / "openb_node_list_all_node.csv"),
        "--db",
        db,
        "--schedule-out",
        str(schedule),
    )

    assert out["gpu_capacity"] == 6212
    assert out["jobs"] == 8152  # with the 897 pods withdrawn while pending
    withdrawn = out["withdrawn"] + out["withdrawn_after_start"]
    assert withdrawn == out["withdrawn_observed"] == 897
    assert out["completed"] + out["unschedulable"] + out["unfinished"] + withdrawn == out["jobs"]
    # the real cluster ran every one of the other pods, so our replay must place them all
    assert out["completed"] == out["jobs"] - 897
    with schedule.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    gpu_seconds = sum(
        float(r["gpus"]) * (float(r["end_s"]) - float(r["start_s"]))
        for r in rows
        if r["start_s"]  # a withdrawn pod never started
    )
    assert out["allocated_gpu_hours"] == pytest.approx(gpu_seconds / 3600, rel=1e-9)


def test_fill_on_openb_follows_the_protocol(
    shared_traces: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openb = shared_traces / "alibaba-openb-2023"

    out = run_json(
        capsys,
        "fill",
        str(openb / "openb_pod_list_default.csv.gz"),
        "--nodes",
        str(openb / "openb_node_list_gpu_node.csv"),
        "--placement",
        "best-fit",
        "--seeds",
        "42-43",
    )

    points = out["points"]
    assert [p["arrived_pct"] for p in points] == list(range(131))
    assert out["pods_in_trace"] == 8152  # pods that never started still ask for resources
    allocation = [p["gpu_allocation_pct"] for p in points]
    assert allocation[0] == 0
    assert all(b >= a for a, b in pairwise(allocation))
    # placed demand can never exceed arrived demand, nor the cluster
    assert all(p["gpu_allocation_pct"] <= p["arrived_pct"] + 1e-9 for p in points)
    assert 80 < allocation[-1] <= 100
    assert all(0 <= p["frag_gpu_pct"] <= 100 - p["gpu_allocation_pct"] + 1e-9 for p in points)


def test_fill_policies_rank_as_the_fragmentation_study_reports(shared_traces: Path) -> None:
    from planner.engine.fill import fill
    from planner.ingest import IngestOptions
    from planner.ingest.requests import read_pod_requests
    from planner.service.replay import load_nodes

    openb = shared_traces / "alibaba-openb-2023"
    pods, _ = read_pod_requests(openb / "openb_pod_list_default.csv.gz", IngestOptions())
    nodes = load_nodes(openb / "openb_node_list_gpu_node.csv")

    final = {
        placement: fill(pods, nodes, placement=placement, seeds=[42]).points[-1].gpu_allocation_pct
        for placement in ("fgd", "best-fit", "random")
    }

    assert final["fgd"] > final["best-fit"] > final["random"]


POD_REQUESTS = """name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec
p1,4000,8192,1,1000,
p2,2000,4096,1,500,
p3,2000,4096,1,500,
p4,8000,16384,2,1000,
"""


def test_fill_takes_pod_lists_without_times_and_hand_checks_the_curve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pods = write(tmp_path, "pods.csv", POD_REQUESTS)
    nodes = write(
        tmp_path, "nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,262144,4,T4\n"
    )

    out = run_json(
        capsys,
        "fill",
        str(pods),
        "--nodes",
        str(nodes),
        "--placement",
        "best-fit",
        "--seeds",
        "7",
        "--until",
        "1",
    )

    # 4 GPUs installed; the trace asks for 1 + 0.5 + 0.5 + 2 = 4 GPUs, so nothing is drawn
    # extra and every pod fits: allocation follows arrived demand to 100%.
    assert out["pods_in_trace"] == 4
    assert out["placed_pods"] == 4
    points = out["points"]
    assert len(points) == 101
    assert points[-1]["gpu_allocation_pct"] == 100
    assert all(p["gpu_allocation_pct"] <= p["arrived_pct"] for p in points)


def test_fill_refuses_a_workload_without_gpu_requests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pods = write(
        tmp_path, "pods.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,4000,8192,0,0\n"
    )
    nodes = write(
        tmp_path, "nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,262144,4,T4\n"
    )

    assert main(["fill", str(pods), "--nodes", str(nodes), "--placement", "fgd"]) == 2

    assert "request no GPUs" in capsys.readouterr().err
