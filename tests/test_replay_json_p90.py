"""`planner replay`: the p90 wait, a calibrated scenario's error bar, `--timeline BIN`."""

import json
from pathlib import Path

import pytest

from planner.cli import main
from tests.conftest import write

# One 1-GPU node; a runs 0-100, b (submitted at 10) waits 90 s, c (at 20) waits 130 s.
TRACE = """job_id,submit_time,duration_s,pods,gpus
a,0,100,1,1
b,10,50,1,1
c,20,30,1,1
"""
CALIBRATED = """trace: jobs.csv
cluster:
  pools: [{gpu_type: A100, gpus_per_node: 1, count: 1}]
calibration:
  fitted_on: "openb (t1)"
  fit_until_s: 12345.0
  validation_window_s: [12345.0, 99999.0]
  start_latency: {fixed_s: 30}
  effective_gpu_share: 0.4
  policy_fit: {admission: gang, queueing: fifo, score: 0.12}
  validation:
    p50_ratio: 1.0
    p90_ratio: 0.55
    p99_ratio: 1.06
    withdrawn_ratio: 0.8
    verdict: "p50, p90, p99 within x2"
"""
ONE_GPU = ("--nodes", "1", "--gpus-per-node", "1")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "planner.duckdb")


def replay(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["replay", *argv]) == 0
    return capsys.readouterr().out


def test_waits_have_a_p90_between_the_median_and_the_p95_in_json_and_text(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = str(write(tmp_path, "jobs.csv", TRACE))

    out = json.loads(replay(capsys, trace, *ONE_GPU, "--db", db, "--json"))
    text = replay(capsys, trace, *ONE_GPU, "--db", db)

    wait = out["wait_s"]
    assert list(wait) == ["jobs", "mean", "p50", "p90", "p95", "p99", "max"]
    # waits 0, 90 and 130 s: linear interpolation puts p90 at 90 + 0.8 x 40
    assert wait["p90"] == pytest.approx(122.0)
    assert all("p90" in stats for stats in out["wait_s_by_gpu_size"].values())
    assert "p50 90  p90 122  p95 126  p99 129  max 130" in text
    assert "calibration" not in out
    assert "calibrated on" not in text


def test_a_calibrated_scenario_carries_its_error_bar_and_its_latency(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "jobs.csv", TRACE)
    scenario = str(write(tmp_path, "s.yaml", CALIBRATED))

    out = json.loads(replay(capsys, "--scenario", scenario, "--db", db, "--json"))
    text = replay(capsys, "--scenario", scenario, "--db", db)

    assert list(out)[-1] == "calibration"
    assert out["calibration"] == {
        "fitted_on": "openb (t1)",
        "fit_until_s": 12345.0,
        "validation_window_s": [12345.0, 99999.0],
        "effective_gpu_share": 0.4,
        "validation": {
            "p50_ratio": 1.0,
            "p90_ratio": 0.55,
            "p99_ratio": 1.06,
            "withdrawn_ratio": 0.8,
            "verdict": "p50, p90, p99 within x2",
        },
    }
    # 30 s each before entering the queue: a starts at 30, b at 130, c at 180
    assert out["wait_s"]["max"] == 160.0
    assert out["waiting_gpu_hours_by_reason"]["start_latency"] == pytest.approx(90 / 3600)
    assert (
        "calibrated on openb (t1): validation window p50 x1.0, p90 x0.55, p99 x1.06 of "
        "observed; withdrawn x0.8; p50, p90, p99 within x2"
    ) in text
    assert "start_latency" in text


@pytest.mark.parametrize(
    ("given", "bin_s"), [("900", 900.0), ("15m", 900.0), ("1h", 3600.0), ("1d", 86400.0)]
)
def test_timeline_takes_a_bin_width(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], given: str, bin_s: float
) -> None:
    trace = str(write(tmp_path, "jobs.csv", TRACE))

    out = json.loads(replay(capsys, trace, *ONE_GPU, "--db", db, "--json", "--timeline", given))

    assert out["timeline"]["bin_s"] == bin_s
    assert len(out["timeline"]["queued_jobs"]) == 1  # 200 s of replay in one bin


def test_timeline_alone_keeps_the_automatic_bin_and_without_it_there_is_none(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = str(write(tmp_path, "jobs.csv", TRACE))

    auto = json.loads(replay(capsys, trace, *ONE_GPU, "--db", db, "--json", "--timeline"))
    plain = json.loads(replay(capsys, trace, *ONE_GPU, "--db", db, "--json"))

    assert auto["timeline"]["bin_s"] == 1.0  # (last submit 20 + median run 50) / 400, at least 1
    assert "timeline" not in plain


@pytest.mark.parametrize("given", ["1x", "-5", "0", "h", "1e9d", ""])
def test_a_bad_bin_width_is_a_one_line_error_naming_the_flag(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    trace = str(write(tmp_path, "jobs.csv", TRACE))

    with pytest.raises(SystemExit) as stopped:
        main(["replay", trace, *ONE_GPU, "--db", db, "--json", "--timeline", given])

    assert stopped.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert "argument --timeline" in last
    assert "bin width" in last
