"""`planner twin` end to end: a history with observed starts written as a CSV export, its node
list, the text, JSON, per-job CSV and calibrated scenario, and a replay of that scenario
carrying the error bar. A history without starts gets one plain line and status 2."""

import csv
import json
from datetime import UTC, datetime, timedelta

import pytest
import yaml

from planner.cli.main import main
from tests.test_twin import BUSY_NODES, FLOOR_S, GPUS_PER_NODE, NODES, _history

T0 = datetime(2026, 3, 2, tzinfo=UTC)


def _when(seconds: float) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("twin")
    history = folder / "history.csv"
    with history.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(
            [
                "job_id",
                "submit_time",
                "start_time",
                "end_time",
                "gpus",
                "gpu_type",
                "queue",
                "status",
            ]
        )
        for job in _history(jobs=500):
            writer.writerow(
                [
                    job.job_id,
                    _when(job.submit_s),
                    _when(job.start_s),
                    _when(job.end_s),
                    int(job.gpus),
                    "A100",
                    "team-a" if job.gpus < 4 else "team-b",
                    "completed",
                ]
            )
    nodes = folder / "nodes.csv"
    with nodes.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["sn", "cpu_milli", "memory_mib", "gpu", "model"])
        for i in range(NODES):
            writer.writerow([f"n{i:02d}", 0, 0, GPUS_PER_NODE, "A100"])
    no_starts = folder / "no_starts.csv"
    no_starts.write_text(
        f"job_id,submit_time,duration_s,gpus\na,{_when(0)},600,1\nb,{_when(60)},600,2\n",
        encoding="utf-8",
    )
    return folder, history, nodes, no_starts


@pytest.fixture(scope="module")
def twin_json(files):
    folder, history, nodes, _ = files
    db = folder / "planner.duckdb"
    args = [
        "twin",
        str(history),
        "--nodes",
        str(nodes),
        "--db",
        str(db),
        "--json",
        "--out",
        str(folder / "jobs.csv"),
        "--save-scenario",
        str(folder / "cal.yaml"),
    ]
    return db, args


def test_twin_json_report_rows_and_calibrated_scenario(files, twin_json, capsys):
    folder, _, _, _ = files
    db, args = twin_json
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    cal = report["calibration"]
    background = NODES * GPUS_PER_NODE - cal["effective_gpus"]
    assert abs(background - BUSY_NODES * GPUS_PER_NODE) <= 0.1 * BUSY_NODES * GPUS_PER_NODE
    assert all(abs(c["p50_s"] - FLOOR_S) <= 0.1 * FLOOR_S for c in cal["latency"])
    after = report["after"]
    assert set(after["observed"]) == {"jobs", "p50", "p90", "p99", "mean"}
    assert after["ks_distance"] < report["before"]["ks_distance"]
    assert report["verdict"] == after["verdict"]
    with (folder / "jobs.csv").open() as rows_file:
        rows = list(csv.DictReader(rows_file))
    assert len(rows) == 500
    assert {"observed_wait_s", "replayed_wait_s", "residual_s", "window"} <= set(rows[0])
    assert {r["window"] for r in rows} == {"fit", "validation"}
    saved = yaml.safe_load((folder / "cal.yaml").read_text())
    block = saved["calibration"]
    assert block["start_latency"]["fallback"]
    assert block["validation"]["verdict"]
    # every replay of the calibrated scenario carries the validation window's error
    assert main(["replay", "--scenario", str(folder / "cal.yaml"), "--db", str(db), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["calibration"]["validation"]["p90_ratio"] == pytest.approx(
        after["ratios"]["p90"]
    )
    assert replayed["waiting_gpu_hours_by_reason"]["start_latency"] > 0


def test_twin_text_states_the_verdict_and_thresholds(files, capsys):
    folder, history, nodes, _ = files
    code = main(["twin", str(history), "--nodes", str(nodes), "--db", str(folder / "t.duckdb")])
    out = capsys.readouterr().out
    assert code == 0
    assert "validation window" in out
    assert "before calibration" in out
    assert "verdict: The replay matches what happened (p50, p90 and p99 waits within a " in out


def test_a_history_without_starts_gets_a_plain_line(files, capsys):
    folder, _, nodes, no_starts = files
    code = main(["twin", str(no_starts), "--nodes", str(nodes), "--db", str(folder / "n.duckdb")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: this history has no observed start times")
    assert "Traceback" not in err


def test_a_bad_bin_width_is_refused_with_the_flag_named(files, capsys):
    _, history, nodes, _ = files
    with pytest.raises(SystemExit) as stop:
        main(["twin", str(history), "--nodes", str(nodes), "--bin", "soon"])
    assert stop.value.code == 2
    assert "--bin" in capsys.readouterr().err


def test_a_tco_of_a_calibrated_scenario_notes_the_error_bar(files, capsys):
    folder, history, _, _ = files
    scenario = folder / "tco.yaml"
    scenario.write_text(
        yaml.safe_dump(
            {
                "trace": str(history),
                "horizons_years": [3],
                "self_hosted": [{"gpu": "A100", "servers": 6, "gpus_per_server": 8}],
                "cloud": [{"gpu": "A100", "price_per_gpu_hour": 2.0}],
                "scheduling": {
                    "calibration": {
                        "fitted_on": "history (t1)",
                        "start_latency": {"fixed_s": FLOOR_S},
                        "validation": {"p50_ratio": 1.0, "p90_ratio": 1.25, "verdict": "v"},
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    assert (
        main(["tco", "--scenario", str(scenario), "--db", str(folder / "c.duckdb"), "--json"]) == 0
    )
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert "calibrated on history (t1): validation window p50 x1.0, p90 x1.25, p99 n/a" in " ".join(
        notes
    )
