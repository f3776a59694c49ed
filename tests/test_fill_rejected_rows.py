"""`planner fill` on a pod file reports the rows the reader refused, as `planner ingest` does:
file, row, column, value and reason on the terminal, the counts and examples in --json."""

import json
from pathlib import Path

import pytest

from planner.cli import main

# Row 3 (the file's line 3) has a GPU count that is not a number, row 5 a negative CPU request.
PODS = """name,cpu_milli,memory_mib,num_gpu,gpu_milli
p1,4000,1024,1,1000
p2,4000,1024,two,1000
p3,2000,1024,1,500
p4,-8,1024,1,1000
p5,2000,1024,2,1000
"""
NODES = "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,262144,8,T4\n"


def fill_args(tmp_path: Path) -> list[str]:
    (tmp_path / "pods.csv").write_text(PODS)
    (tmp_path / "nodes.csv").write_text(NODES)
    return [
        "fill",
        str(tmp_path / "pods.csv"),
        "--nodes",
        str(tmp_path / "nodes.csv"),
        "--placement",
        "best-fit",
        "--seeds",
        "1",
        "--db",
        str(tmp_path / "p.duckdb"),
    ]


def test_the_json_counts_the_rejected_rows_with_their_row_column_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*fill_args(tmp_path), "--json"]) == 0

    out = json.loads(capsys.readouterr().out)
    pod_file = out["pod_file"]
    assert (pod_file["rows"], pod_file["accepted"], pod_file["rejected"]) == (5, 3, 2)
    assert pod_file["rejected_by_reason"] == {"not_a_number": 1, "negative_value": 1}
    [bad_number] = pod_file["examples"]["not_a_number"]
    assert (bad_number["row"], bad_number["column"], bad_number["value"]) == (3, "num_gpu", "two")
    [negative] = pod_file["examples"]["negative_value"]
    assert (negative["row"], negative["column"], negative["value"]) == (5, "cpu_milli", "-8")
    assert out["pods_in_trace"] == 3  # the refused rows are not filled


def test_the_text_output_lists_the_rejected_rows_and_keeps_the_table_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(fill_args(tmp_path)) == 0

    captured = capsys.readouterr()
    assert "pods.csv: rows 5  read 3  rejected 2" in captured.err
    assert "row 3, column 'num_gpu', value 'two': expected a number" in captured.err
    assert "row 5, column 'cpu_milli', value '-8': expected a number >= 0" in captured.err
    assert "rejected" not in captured.out
    assert captured.out.splitlines()[0].startswith("3 pods on 1 nodes")


def test_a_clean_pod_file_prints_no_rejection_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = fill_args(tmp_path)
    (tmp_path / "pods.csv").write_text("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,1,1\n")

    assert main(args) == 0
    assert "rejected" not in capsys.readouterr().err
