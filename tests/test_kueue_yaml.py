"""Reading a Kueue configuration into the scenario's queues, with what is not modelled listed."""

import json
from pathlib import Path

import pytest

from planner.cli import main
from planner.core.errors import ScenarioError
from planner.ingest.kueue_yaml import read_kueue
from tests.conftest import write

KUEUE = Path(__file__).parent / "data" / "kueue.yaml"


def test_cluster_queues_cohorts_flavors_and_local_queues_are_read() -> None:
    spec, _ = read_kueue(KUEUE)

    assert [(f.name, f.gpu_type) for f in spec.flavors] == [("a100", "A100")]
    team_a, team_b = spec.cluster_queues
    assert (team_a.name, team_a.cohort, team_a.strategy) == ("team-a", "org", "BestEffortFIFO")
    assert [(q.flavor, q.gpus, q.borrowing_limit, q.lending_limit) for q in team_a.quotas] == [
        ("a100", 8.0, 8.0, None)
    ]
    assert (team_a.quotas[0].cpu, team_a.quotas[0].mem_gib) == (96.0, 1024.0)
    assert team_a.preemption.within_cluster_queue == "LowerPriority"
    assert team_b.quotas[0].gpus == 8.0  # a quantity written as a string
    assert spec.local_queues == {"research": "team-a", "team-a/research": "team-a"}


def test_everything_not_modelled_is_listed() -> None:
    _, notes = read_kueue(KUEUE)

    assert "ClusterQueue team-a: spec.namespaceSelector not modelled, ignored" in notes
    assert not any("preemption" in note or "quota on" in note for note in notes)
    assert any(note.startswith("WorkloadPriorityClass high") for note in notes)


def test_replay_applies_the_queues_file_and_prints_the_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(
        tmp_path,
        "jobs.csv",
        "job_id,submit_time,duration_s,gpus,queue\na,0,100,8,research\nb,0,100,8,research\n"
        "c,0,100,8,team-b\nd,0,100,8,nobody\n",
    )
    db = str(tmp_path / "p.duckdb")

    code = main(
        ["replay", str(trace), "--nodes", "4", "--queues", str(KUEUE), "--db", db, "--json"]
    )

    captured = capsys.readouterr()
    assert code == 0
    out = json.loads(captured.out)
    assert "note: ClusterQueue team-a: spec.namespaceSelector not modelled" in captured.err
    # a and c start at 0 on their own quotas; b would borrow team-b's 8, which c uses: it
    # waits 100 s for quota. d's queue maps to nothing and there is no default.
    assert out["completed"] == 3
    assert out["unschedulable_by_reason"] == {"no_cluster_queue": 1}
    assert out["waiting_gpu_hours_by_queue"]["team-a"]["quota"] == pytest.approx(8 * 100 / 3600)


def test_a_file_without_cluster_queues_or_with_bad_quantities_is_refused(tmp_path: Path) -> None:
    empty = write(tmp_path, "k.yaml", "kind: ResourceFlavor\nmetadata: {name: f}\n")
    bad = write(
        tmp_path,
        "b.yaml",
        "kind: ClusterQueue\nmetadata: {name: q}\nspec:\n  resourceGroups:\n  - flavors:\n"
        "    - name: f\n      resources: [{name: nvidia.com/gpu, nominalQuota: lots}]\n",
    )

    with pytest.raises(ScenarioError, match="no ClusterQueue"):
        read_kueue(empty)
    with pytest.raises(ScenarioError, match="'lots' is not a resource quantity"):
        read_kueue(bad)
