"""The special formats: the real Alibaba openb trace and node lists, and Slurm sacct."""

import csv
import gzip
from pathlib import Path

import duckdb
import pytest

from planner.core.config import ClusterConfig
from tests.conftest import ingest, jobs_of, write

OPENB = "alibaba-openb-2023"


def openb_file_gpu_total(path: Path) -> tuple[int, float, float]:
    """(rows, GPUs of scheduled pods, GPUs of never-scheduled pods), straight from the file."""
    rows, scheduled, pending = 0, 0.0, 0.0
    with gzip.open(path, "rt") as handle:
        for rec in csv.DictReader(handle):
            rows += 1
            num = int(rec["num_gpu"])
            gpus = num * int(rec["gpu_milli"]) / 1000 if num else 0.0
            if rec["scheduled_time"]:
                scheduled += gpus
            else:
                pending += gpus
    return rows, scheduled, pending


def test_openb_default_pod_list_accounts_for_every_pod(
    shared_traces: Path, con: duckdb.DuckDBPyConnection
) -> None:
    path = shared_traces / OPENB / "openb_pod_list_default.csv.gz"
    rows, scheduled_gpus, pending_gpus = openb_file_gpu_total(path)

    report = ingest(con, path)

    assert report.format == "openb-pods"
    assert rows == 8152
    assert report.rows == rows
    assert report.accepted + report.rejected == 8152
    assert report.rejected_by_reason == {}
    assert report.withdrawn == 897  # Pending pods: kept, with their deadlines
    assert report.gpu_total == pytest.approx(scheduled_gpus + pending_gpus)


def test_openb_pods_keep_shares_types_and_times(
    shared_traces: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, shared_traces / OPENB / "openb_pod_list_default.csv.gz")
    jobs = {j["job_id"]: j for j in jobs_of(con, report.trace_id)[:5]}

    pod = jobs["openb-pod-0001"]  # 6000 milli-CPU, 12288 MiB, 1 GPU at 460 milli, LS
    assert (pod["gpus"], pod["cpu"], pod["mem_gib"], pod["queue"]) == (0.46, 6.0, 12.0, "LS")
    assert (pod["submit_s"], pod["start_s"], pod["end_s"]) == (427061.0, 427061.0, 12902960.0)
    assert pod["duration_s"] == 12902960.0 - 427061.0
    assert pod["status"] == "running-at-end"


def test_openb_node_list_loads_as_a_1523_node_cluster(
    shared_traces: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, shared_traces / OPENB / "openb_node_list_all_node.csv")
    stored = con.execute("SELECT nodes, gpus, config_json FROM clusters").fetchone()
    assert stored is not None
    cluster = ClusterConfig.model_validate_json(stored[2])

    assert report.format == "openb-nodes"
    assert (report.nodes, stored[0], cluster.node_count) == (1523, 1523, 1523)
    assert stored[1] == sum(cluster.gpus_by_type().values()) == 6212
    assert cluster.gpus_by_type()["G2"] == 4392
    first = cluster.nodes[0]  # openb-node-0000,32000,262144,0,
    assert (first.node_id, first.gpus, first.cpu, first.mem_gib) == (
        "openb-node-0000",
        0,
        32.0,
        256.0,
    )


SACCT = """JobID|JobIDRaw|User|Account|Partition|Submit|Start|End|Elapsed|NNodes|AllocTRES|ReqTRES|State
100|100|alice|nlp|gpu|2024-03-01T09:00:00|2024-03-01T09:10:00|2024-03-01T11:10:00|02:00:00|2|billing=16,cpu=32,gres/gpu:a100=16,gres/gpu=16,mem=512G,node=2|cpu=32,gres/gpu=16,node=2|COMPLETED
100.batch|100.batch||nlp||2024-03-01T09:10:00|2024-03-01T09:10:00|2024-03-01T11:10:00|02:00:00|1|cpu=16,gres/gpu=8,mem=256G,node=1||COMPLETED
100.0|100.0||nlp||2024-03-01T09:10:01|2024-03-01T09:10:01|2024-03-01T11:10:00|01:59:59|2|cpu=32,gres/gpu=16,node=2||COMPLETED
101|101|bob|cv|gpu|2024-03-01T09:30:00|None|2024-03-01T09:40:00|00:00:00|1||cpu=8,gres/gpu=4,mem=64G,node=1|CANCELLED by 1001
102|102|bob|cv|gpu|2024-03-01T10:00:00|2024-03-01T10:00:05|Unknown|1-01:00:00|1|cpu=4,gres/gpu:v100=2,mem=32G,node=1|cpu=4,gres/gpu=2,node=1|RUNNING
103_1|103_1|carol|cv|gpu|2024-03-01T10:00:00|2024-03-01T10:01:00|2024-03-01T10:31:00|00:30:00|1|cpu=2,gres/gpu=1,mem=16G,node=1||FAILED
104.0|104.0||cv||2024-03-01T10:00:00|2024-03-01T10:01:00|2024-03-01T10:31:00|00:30:00|1|cpu=2,gres/gpu=1,node=1||COMPLETED
105|105|dave|cv|gpu|2024-03-01T10:00:00|2024-03-01T10:02:00|2024-03-01T10:31:00|00:29:00|1|cpu=2,mem=16G,node=1||TIMEOUT
"""


def test_a_user_mapping_overrides_the_slurm_defaults(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    # Slurm's team is the Account unless the user says otherwise: here, the Partition.
    text = SACCT.replace("|nlp|gpu|", "|nlp|train|").replace("|cv|gpu|", "|cv|dev|")
    report = ingest(con, write(tmp_path, "sacct.txt", text), mapping={"queue": "Partition"})
    jobs = {j["job_id"]: j for j in jobs_of(con, report.trace_id)}

    assert report.format == "slurm"
    assert report.column_mapping["queue"] == "Partition"
    assert (jobs["100"]["queue"], jobs["103_1"]["queue"]) == ("train", "dev")
    assert jobs["100"]["gpus"] == 8.0  # the format's own GPU columns still apply


def test_slurm_sacct_export(tmp_path: Path, con: duckdb.DuckDBPyConnection) -> None:
    report = ingest(con, write(tmp_path, "sacct.txt", SACCT), tz="Europe/Berlin")
    jobs = {j["job_id"]: j for j in jobs_of(con, report.trace_id)}

    assert report.format == "slurm"
    assert (report.rows, report.accepted, report.steps_folded) == (6, 5, 2)
    assert report.rejected_by_reason == {"orphan_step": 1}
    # cancelled while pending (no start, 0 s elapsed): withdrawn after 10 minutes
    assert (jobs["101"]["status"], jobs["101"]["withdraw_after_s"]) == ("withdrawn", 600.0)
    assert report.start_utc == "2024-03-01T08:00:00+00:00"
    big = jobs["100"]
    assert (big["pods"], big["gpus"], big["cpu"], big["mem_gib"]) == (2, 8.0, 16.0, 256.0)
    assert (big["gpu_types"], big["queue"], big["user_name"]) == ("a100", "nlp", "alice")
    assert (big["duration_s"], big["start_s"]) == (7200.0, 600.0)
    live = jobs["102"]
    assert (live["status"], live["duration_s"], live["gpu_types"]) == (
        "running-at-end",
        90000.0,
        "v100",
    )
    assert jobs["105"]["gpus"] == 0.0
    assert jobs["105"]["status"] == "failed"
    # both said plainly: the steps folded, and the running job at its Elapsed so far
    said = "\n".join(report.summary_lines())
    assert "folded 2 Slurm step lines (.batch, .extern, .0, ...) into their jobs' lines" in said
    assert "or for its run time so far where the file gives one (sacct's Elapsed)" in said
