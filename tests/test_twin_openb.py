"""The twin check on a real export: the Alibaba openb default pod list on its own node list.

What it must show (docs/twin.md quotes the figures): the plain replay meets an idle cluster
(every wait 0, one job withdrawn instead of hundreds); calibrated, the wait distribution
closes up and p50 and p99 come within the verdict's factor of 2; and the verdict does not
claim a match the validation window does not support."""

import contextlib
import io
import json
from pathlib import Path

import pytest

from planner.cli.main import main

OPENB = "alibaba-openb-2023"


@pytest.fixture(scope="module")
def report(shared_traces: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = shared_traces / OPENB
    db = tmp_path_factory.mktemp("openb") / "planner.duckdb"
    args = [
        "twin",
        str(folder / "openb_pod_list_default.csv.gz"),
        "--nodes",
        str(folder / "openb_node_list_all_node.csv"),
        "--db",
        str(db),
        "--json",
    ]
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(args) == 0
    return json.loads(text.getvalue())


@pytest.mark.slow
def test_openb_plain_replay_meets_an_idle_cluster(report: dict) -> None:
    before = report["before"]
    assert report["history_gpu_share"] < 0.2
    assert any("busy with work this history does not show" in n for n in report["notes"])
    assert before["replayed"]["p99"] == 0
    assert before["withdrawn"][0] > 400
    assert before["withdrawn"][1] <= 1
    assert before["observed"]["p90"] > 100
    assert not before["matches"]


@pytest.mark.slow
def test_openb_calibration_closes_the_distance_on_the_held_back_window(report: dict) -> None:
    before, after = report["before"], report["after"]
    assert after["jobs"] == before["jobs"]
    assert after["ks_distance"] < before["ks_distance"] / 4
    assert after["wasserstein_s"] < before["wasserstein_s"]
    for name in ("p50", "p99"):
        ratio = max(after["replayed"][name], 1) / max(after["observed"][name], 1)
        assert 0.5 <= ratio <= 2.0, (name, after["replayed"][name], after["observed"][name])
    observed, replayed = after["withdrawn"]
    assert replayed > observed / 2  # hundreds withdrawn, not the plain replay's one
    assert after["allocation_correlation"] > 0.9
    classes = report["calibration"]["latency"]
    assert classes
    assert all(c["p90_s"] >= c["p50_s"] >= 0 for c in classes)


@pytest.mark.slow
def test_openb_verdict_states_what_does_not_match(report: dict) -> None:
    after = report["after"]
    p90 = after["replayed"]["p90"] / after["observed"]["p90"]
    assert after["matches"] == (
        0.5 <= p90 <= 2.0
        and abs(after["withdrawn"][1] - after["withdrawn"][0]) <= 0.1 * after["withdrawn"][0]
    )
    if not after["matches"]:
        assert report["verdict"].startswith("The replay does not match what happened")


@pytest.mark.slow
def test_openb_held_back_rise_sits_where_arrivals_double(shared_traces: Path) -> None:
    """What docs/twin.md's story says, from the pod list itself (issue 31, item 4): days
    138-145 wait as the fit window did; from day 146 arrivals double and the p90 rises;
    memory asked for is the same on both sides of day 146."""
    import pandas as pd

    pods = pd.read_csv(shared_traces / OPENB / "openb_pod_list_default.csv.gz")
    day = pods["creation_time"] / 86_400
    started = (pods["pod_phase"] != "Pending") & (pods["scheduled_time"] >= pods["creation_time"])
    wait = pods["scheduled_time"] - pods["creation_time"]
    before, after = (day >= 138) & (day < 146), day >= 146
    rate_before = before.sum() / 8
    rate_after = after.sum() / (day.max() - 146)

    assert (round(rate_before), round(rate_after)) == (225, 440)
    assert wait[before & started].quantile(0.9) == pytest.approx(68, abs=1)
    assert wait[after & started].quantile(0.9) == pytest.approx(243, abs=1)
    memory = pods["memory_mib"] / 1024
    assert memory[before].median() == memory[after].median() == pytest.approx(46, abs=0.5)


@pytest.mark.slow
def test_openb_report_says_where_the_arrivals_change(report: dict) -> None:
    """The twin's own note: the likeliest change of the arrival rate in the held-back window
    is day 147 (232 pods a day before, 506 from it), where the waits rise."""
    shift = report["arrival_shift"]

    assert shift["at_s"] / 86_400 == pytest.approx(147.0, abs=0.1)
    assert [round(r) for r in shift["per_day"]] == [232, 506]
    assert shift["p90_s"][1] > 2 * shift["p90_s"][0]
