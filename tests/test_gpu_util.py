"""A job history's `gpu_util` column: each job's GPU busy share, 0-1 or a percentage,
stored with the job (NULL where not given; never for a job that did not run)."""

from pathlib import Path

import duckdb
import pandas as pd
import pytest

from tests.conftest import ingest, jobs_of, write

HISTORY = """job_id,submit_time,duration,gpus,status,GPU Utilization
fraction,0,3600,1,completed,0.35
percent,0,3600,2,completed,35%
number-above-one,0,3600,1,completed,80
bare-one,0,3600,1,completed,1
blank,0,3600,1,completed,
waited,0,,1,pending,0.5
too-busy,0,3600,1,completed,150
negative,0,3600,1,completed,-0.1
words,0,3600,1,completed,busy
"""


def test_busy_shares_are_read_as_fractions_and_bad_ones_rejected(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    report = ingest(con, write(tmp_path, "jobs.csv", HISTORY))
    jobs = {str(j["job_id"]): j["gpu_util"] for j in jobs_of(con, report.trace_id)}

    assert report.column_mapping["gpu_util"] == "GPU Utilization"
    assert (report.rows, report.accepted) == (9, 6)
    assert report.rejected_by_reason == {
        "implausible_value": 1,  # 150 % busy
        "negative_value": 1,
        "not_a_number": 1,
    }
    assert jobs["fraction"] == pytest.approx(0.35)
    assert jobs["percent"] == pytest.approx(35 / 100)
    assert jobs["number-above-one"] == pytest.approx(80 / 100)  # above 1: a percentage
    assert jobs["bare-one"] == 1.0  # a bare 1 is fully busy (1 % is written 1%)
    assert pd.isna(jobs["blank"])
    assert pd.isna(jobs["waited"])  # withdrawn: its GPUs were never held

    # GPU-hours x share: 1 x 0.35 + 2 x 0.35 + 1 x 0.80 + 1 x 1 = 2.85, of 1 + 2 + 1 + 1 = 5
    # GPU-hours with a share; "blank" has 1 GPU-hour without one (6 in all)
    assert report.busy_gpu_hours == pytest.approx(0.35 + 0.7 + 0.8 + 1)
    assert (report.busy_known_gpu_hours, report.gpu_hours) == (5.0, 6.0)
    assert "GPU busy 2.9 of the 5.0 GPU-hours with a busy share (57.0%); 1.0 GPU-hours " in (
        "\n".join(report.summary_lines())
    )
