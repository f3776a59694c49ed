"""Volcano queues: proportion water-filling, the capacity plugin, the mapping onto ClusterQueues,
replays with borrowing up to capability and reclaim, the Queue YAML and the CLI.

Expected shares were worked out on paper from `../shared/reference/scheduler-semantics.md` A2
("proportion plugin", "capacity plugin") before the code was run; the comment above each case
is that working.
"""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from planner.cli import main
from planner.core.config import NodeSpec
from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.enqueue import EnqueueGate
from planner.engine.scenario import Scenario
from planner.engine.volcano import Claim, VolcanoSpec, deserved_gpus, real_capability, water_fill
from planner.engine.volcano_queues import to_queues, volcano_notes
from planner.ingest.volcano_yaml import looks_like_volcano, read_volcano
from planner.service.replay import load_scenario, with_volcano_queues
from tests.conftest import write

DATA = Path(__file__).parent / "data"
VOLCANO = DATA / "volcano.yaml"
FOUR_8: list[NodeSpec] = [(f"n{k}", "A100", 8, 0.0, 0.0) for k in range(4)]
SIX_10: list[NodeSpec] = [(f"n{k}", "A100", 10, 0.0, 0.0) for k in range(6)]


def spec(*queues: dict[str, Any], **extra: Any) -> VolcanoSpec:
    return VolcanoSpec.model_validate({"queues": list(queues), **extra})


def shares(volcano: VolcanoSpec, gpus: float) -> dict[str, float]:
    """Deserved GPUs of any type, per queue, on a cluster of `gpus` GPUs."""
    return {name: share[""] for name, share in deserved_gpus(volcano, {"": gpus}).items()}


def replay(volcano: VolcanoSpec, jobs: list[Job], nodes: list[NodeSpec]) -> ReplayResult:
    """The path `planner replay` takes: the scenario's Volcano queues become ClusterQueues."""
    scenario, _ = with_volcano_queues(Scenario(volcano=volcano), nodes)
    return simulate(jobs, nodes, scenario.to_policy())


def runs(result: ReplayResult, queue: str) -> list[tuple[float, float, float]]:
    """(start, end, GPUs) of every run of the queue's jobs, preempted runs included."""
    assert result.cluster_queue is not None
    out = []
    for i, job in enumerate(result.jobs):
        if result.cluster_queue[i] != queue:
            continue
        out += [(b, e, job.total_gpus) for b, e, _ in result.segments.get(i, ())]
        start, end = result.start_s[i], result.end_s[i]
        if start is not None:
            out.append((start, end if end is not None else float("inf"), job.total_gpus))
    return out


def peak(result: ReplayResult, queue: str) -> float:
    """Most GPUs the queue held at once (ends free before starts at an instant)."""
    changes = [(b, g) for b, _, g in runs(result, queue)] + [
        (e, -g) for _, e, g in runs(result, queue)
    ]
    in_use = top = 0.0
    for _, delta in sorted(changes):
        in_use += delta
        top = max(top, in_use)
    return top


def held_at(result: ReplayResult, queue: str, t: float) -> float:
    return sum(g for b, e, g in runs(result, queue) if b <= t < e)


# --- 1. proportion water-filling, by hand -----------------------------------------------------


def test_weights_1_to_3_split_40_gpus_10_and_30() -> None:
    # one round: 40 x 1/4 = 10 and 40 x 3/4 = 30; remaining 0
    assert shares(spec({"name": "a"}, {"name": "b", "weight": 3}), 40) == {"a": 10.0, "b": 30.0}


def test_a_capability_cap_is_redistributed_by_the_other_weights() -> None:
    # round 1 (weights 1:1:2): a 10 -> capped at 4, b 10, c 20; remaining 40 - 34 = 6, a is
    # satisfied; round 2 (weights 1:2): b + 2 = 12, c + 4 = 24; remaining 0
    volcano = spec({"name": "a", "capability": {"": 4}}, {"name": "b"}, {"name": "c", "weight": 2})

    assert shares(volcano, 40) == {"a": 4.0, "b": 12.0, "c": 24.0}


def test_a_guarantee_is_a_floor_and_is_kept_from_the_others() -> None:
    # realCapability: a = 40 - 16 + 16 = 40, b = 40 - 16 + 0 = 24; round 1: a 10 -> raised to
    # its guarantee 16, b 30 -> capped at 24; remaining 40 - 40 = 0
    volcano = spec({"name": "a", "guarantee": {"": 16}}, {"name": "b", "weight": 3})

    assert real_capability(volcano, {"": 40}) == {"a": {"": 40}, "b": {"": 24}}
    assert shares(volcano, 40) == {"a": 16.0, "b": 24.0}


def test_a_guarantee_above_the_weighted_share_is_kept_even_past_the_cluster() -> None:
    # realCapability: a = 30, b = c = 30 - 12 = 18; round 1 (1:1:1): 10 each, a raised to its
    # guarantee 12; the shares now add up to 32 > 30, remaining is clamped to 0 and the
    # filling stops: Volcano's own arithmetic, reported in the notes
    volcano = spec({"name": "a", "guarantee": {"": 12}}, {"name": "b"}, {"name": "c"})

    assert shares(volcano, 30) == {"a": 12.0, "b": 10.0, "c": 10.0}
    assert any("add up to 32" in note for note in volcano_notes(volcano, {"A100": 30}))


def test_real_requests_below_the_share_leave_the_rest_to_the_hungry_queue() -> None:
    # round 1: a 20 -> its request 5 (satisfied), b 20; remaining 15; round 2: b + 15 = 35
    inf = float("inf")
    claims = {
        "a": Claim(1, {"": inf}, {"": 5.0}, {}),
        "b": Claim(1, {"": inf}, {"": 100.0}, {}),
    }

    assert water_fill({"": 40.0}, claims) == {"a": {"": 5.0}, "b": {"": 35.0}}


def test_gpu_types_fill_independently() -> None:
    # A100 (32): a capped at 10, b gets the other 22; H100 (16): 8 and 8
    volcano = spec({"name": "a", "capability": {"A100": 10}}, {"name": "b"})

    assert deserved_gpus(volcano, {"A100": 32, "H100": 16}) == {
        "a": {"A100": 10.0, "H100": 8.0},
        "b": {"A100": 22.0, "H100": 8.0},
    }


def test_thirds_are_rounded_down_to_milli_gpus_so_they_never_exceed_the_cluster() -> None:
    volcano = spec({"name": "a"}, {"name": "b"}, {"name": "c"})

    assert shares(volcano, 32) == {"a": 10.666, "b": 10.666, "c": 10.666}


def test_capacity_plugin_takes_deserved_as_given_between_guarantee_and_capability() -> None:
    # a: deserved 50 > capability 30 -> 30; b: deserved 2 < guarantee 6 -> 6; c: none -> 0
    volcano = spec(
        {"name": "a", "deserved": {"": 50}, "capability": {"": 30}},
        {"name": "b", "deserved": {"": 2}, "guarantee": {"": 6}},
        {"name": "c"},
        plugin="capacity",
    )

    assert shares(volcano, 40) == {"a": 30.0, "b": 6.0, "c": 0.0}


# --- 2. the mapping onto ClusterQueues ----------------------------------------------------------


def test_queues_become_cluster_queues_with_deserved_quota_and_capability_and_guarantee_limits() -> (
    None
):
    # a: deserved 16 (guarantee 16 floor), capability 20 -> may borrow 4, lends 0;
    # b: deserved 24, no capability or guarantee -> no limits
    volcano = spec(
        {"name": "a", "guarantee": {"": 16}, "capability": {"": 20}, "cpu_capability": 64},
        {"name": "b", "weight": 3},
        preempt=True,
        reclaim=True,
        local_queues={"research": "a"},
    )

    queues = to_queues(volcano, {"A100": 32, "H100": 8})

    assert [(f.name, f.gpu_type) for f in queues.flavors] == [("gpu", "")]
    a, b = queues.cluster_queues
    assert (a.cohort, b.cohort) == ("root", "root")
    assert [(q.gpus, q.borrowing_limit, q.lending_limit) for q in a.quotas] == [(16.0, 4.0, 0.0)]
    assert [(q.gpus, q.borrowing_limit, q.lending_limit) for q in b.quotas] == [(24.0, None, None)]
    assert (a.quotas[0].cpu, a.quotas[0].cpu_borrowing_limit, a.quotas[0].cpu_lending_limit) == (
        64.0,
        0.0,
        0.0,
    )
    assert (a.preemption.within_cluster_queue, a.preemption.reclaim_within_cohort) == (
        "LowerPriority",
        "Any",
    )
    assert queues.local_queues == {"research": "a"}
    assert queues.default_cluster_queue is None  # no queue named "default"
    assert queues.queue_priority == {}


def test_per_type_queues_get_a_flavor_per_installed_type_and_need_typed_nodes() -> None:
    volcano = spec({"name": "a", "capability": {"A100": 10}}, {"name": "b"})

    queues = to_queues(volcano, {"A100": 32, "H100": 16})

    assert [(f.name, f.gpu_type) for f in queues.flavors] == [("A100", "A100"), ("H100", "H100")]
    assert [(q.flavor, q.gpus, q.borrowing_limit) for q in queues.cluster_queues[0].quotas] == [
        ("A100", 10.0, 0.0),
        ("H100", 8.0, None),
    ]
    with pytest.raises(ScenarioError, match="no known type"):
        to_queues(volcano, {"A100": 32, "": 8})


def test_a_non_reclaimable_queue_borrows_but_is_never_reclaimed_from() -> None:
    queues = [{"name": "a", "reclaimable": False}, {"name": "b"}]
    # a deserves 8 of 16 and borrows b's idle 8; b's job at 10 may not take them back
    # (overcommit 1.5, so that the full cluster leaves enqueue room for b's 8 GPUs)
    jobs = [Job(f"a{k}", 0, 100, gpus=8, queue="a") for k in range(2)]
    jobs.append(Job("b0", 10, 100, gpus=8, queue="b"))
    room = {"reclaim": True, "overcommit_factor": 1.5}

    cluster_queues = to_queues(spec(*queues, **room), {"": 16}).cluster_queues
    result = replay(spec(*queues, **room), jobs, FOUR_8[:2])
    reclaimable = replay(spec({"name": "a"}, {"name": "b"}, **room), jobs, FOUR_8[:2])
    full = replay(spec({"name": "a"}, {"name": "b"}, reclaim=True), jobs, FOUR_8[:2])

    assert [q.reclaimable for q in cluster_queues] == [False, True]
    assert cluster_queues[0].quotas[0].borrowing_limit is None
    assert (result.preemptions, result.start_s[2]) == (0, 100)
    assert (reclaimable.preemptions, reclaimable.start_s[2]) == (1, 10)
    # at the default 1.2, 8 GPUs exceed the enqueue room of a full 16-GPU cluster (3.2)
    assert (full.preemptions, full.start_s[2]) == (0, 100)


def test_hierarchical_capacity_queues_become_nested_cohorts() -> None:
    # org deserves 24 (capability 28, guarantee 10); its children claim 8 + 12 = 20, so the
    # cohort org adds 4 of its own, may borrow 28 - 24 = 4 and lends 24 - 10 = 14
    volcano = spec(
        {"name": "org", "deserved": {"": 24}, "capability": {"": 28}, "guarantee": {"": 10}},
        {"name": "x", "parent": "org", "deserved": {"": 8}, "guarantee": {"": 4}},
        {"name": "y", "parent": "org", "deserved": {"": 12}},
        {"name": "z", "deserved": {"": 8}},
        plugin="capacity",
    )

    queues = to_queues(volcano, {"": 32})

    (org,) = queues.cohorts
    assert (org.name, org.parent) == ("org", "root")
    assert [(q.gpus, q.borrowing_limit, q.lending_limit) for q in org.quotas] == [(4.0, 4.0, 14.0)]
    assert {q.name: q.cohort for q in queues.cluster_queues} == {
        "x": "org",
        "y": "org",
        "z": "root",
    }


def test_inconsistent_specs_are_refused_with_the_reason() -> None:
    with pytest.raises(ValidationError, match="either for any type"):
        spec({"name": "a", "capability": {"": 4}}, {"name": "b", "capability": {"A100": 4}})
    with pytest.raises(ValidationError, match="unknown parent 'nope'"):
        spec({"name": "a", "parent": "nope"})
    with pytest.raises(ValidationError, match="only leaf queues take jobs"):
        spec(
            {"name": "org", "deserved": {"": 8}},
            {"name": "a", "parent": "org"},
            plugin="capacity",
            local_queues={"t": "org"},
        )
    with pytest.raises(ValidationError, match="children's deserved"):
        spec(
            {"name": "org", "deserved": {"": 8}},
            {"name": "a", "parent": "org", "deserved": {"": 9}},
            plugin="capacity",
        )
    with pytest.raises(ValidationError, match="guarantee exceeds capability"):
        spec({"name": "a", "capability": {"": 4}, "guarantee": {"": 5}})
    with pytest.raises(ValidationError, match=r"either queues \(Kueue\) or volcano"):
        Scenario.model_validate(
            {
                "volcano": {"queues": [{"name": "a"}]},
                "queues": {
                    "flavors": [{"name": "f"}],
                    "cluster_queues": [{"name": "a", "quotas": [{"flavor": "f", "gpus": 1}]}],
                },
            }
        )


def test_what_is_not_modelled_is_noted() -> None:
    volcano = spec(
        {"name": "a", "priority": 5, "parent": "b", "deserved": {"": 3}},
        {"name": "b"},
        overcommit_factor=1.5,
    )

    notes = volcano_notes(volcano, {"": 32})

    assert any("a: priority 5 not modelled" in n for n in notes)
    assert any("a: parent ignored" in n for n in notes)
    assert any("a: deserved ignored" in n for n in notes)
    assert any("default queue 'default' is not declared" in n for n in notes)


# --- 3. replays ---------------------------------------------------------------------------------


def test_a_queue_borrows_idle_shares_up_to_its_capability_and_no_further() -> None:
    # 32 GPUs, weights 1:1 -> 16 each; a may use 24; b is idle. a's four 8-GPU jobs: two on
    # its share, one borrowed (24 = capability), the fourth waits although 8 GPUs are free.
    volcano = spec({"name": "a", "capability": {"": 24}}, {"name": "b"})
    jobs = [Job(f"a{k}", 0, 100, gpus=8, queue="a") for k in range(4)]

    result = replay(volcano, jobs, FOUR_8)

    assert [result.start_s[k] for k in range(4)] == [0, 0, 0, 100]
    assert peak(result, "a") == 24
    assert result.borrowed_gpu_s["a"] == pytest.approx(8 * 100)


def test_a_child_queue_borrows_up_to_its_parents_capability() -> None:
    # org (deserved 16, capability 20) holds x and y (8 each); z deserves the other 16. x alone
    # runs 4-GPU jobs: 8 of its own, 8 of idle y, 4 more of idle z (org's capability 20).
    volcano = spec(
        {"name": "org", "deserved": {"": 16}, "capability": {"": 20}},
        {"name": "x", "parent": "org", "deserved": {"": 8}},
        {"name": "y", "parent": "org", "deserved": {"": 8}},
        {"name": "z", "deserved": {"": 16}},
        plugin="capacity",
    )
    jobs = [Job(f"x{k}", 0, 100, gpus=4, queue="x") for k in range(8)]

    result = replay(volcano, jobs, FOUR_8)

    assert peak(result, "x") == 20
    assert sorted(s or 0 for s in result.start_s) == [0] * 5 + [100] * 3


def capacity_example(*, reclaim: bool) -> ReplayResult:
    """The reference's capacity example on 60 A100: Q1 (capability 60, guarantee 20, deserved
    20) fills the cluster while Q2 (deserved 40) is idle; Q2 submits five 10-GPU jobs at 100."""
    volcano = spec(
        {
            "name": "q1",
            "capability": {"": 60},
            "guarantee": {"": 20},
            "deserved": {"": 20},
        },
        {"name": "q2", "deserved": {"": 40}},
        plugin="capacity",
        reclaim=reclaim,
    )
    jobs = [Job(f"q1-{k}", 0, 1000, gpus=10, queue="q1") for k in range(6)]
    jobs += [Job(f"q2-{k}", 100, 1000, gpus=10, queue="q2") for k in range(5)]
    return replay(volcano, jobs, SIX_10)


def test_capacity_example_q2_reclaims_down_to_q1s_guarantee() -> None:
    # from 100, Q2 reclaims Q1's borrowed 40 GPUs job by job (each 10-GPU job fits Q2's
    # deserved) and stops at Q1's guarantee of 20; Q2's fifth job would exceed its deserved 40
    # and reclaim only within deserved, so it waits for Q2's own jobs to end. The full cluster
    # leaves enqueue room (1.2 x 60 - 60 = 12 GPUs) for one 10-GPU job per 1-s session.
    result = capacity_example(reclaim=True)

    assert held_at(result, "q1", 50) == 60
    assert result.preemptions == 4
    assert held_at(result, "q1", 103) == 20
    assert held_at(result, "q2", 103) == 40
    q2_starts = sorted(result.start_s[i] or 0 for i, j in enumerate(result.jobs) if j.queue == "q2")
    assert q2_starts == [100, 101, 102, 103, 1100]


def test_without_reclaim_q2_waits_for_q1s_borrowed_jobs_to_end() -> None:
    result = capacity_example(reclaim=False)

    assert result.preemptions == 0
    q2_starts = sorted(result.start_s[i] or 0 for i, j in enumerate(result.jobs) if j.queue == "q2")
    assert q2_starts == [1000, 1000, 1000, 1000, 2000]


def test_preempt_evicts_a_lower_priority_job_of_the_same_queue_only() -> None:
    # a deserves and may use 8 of 16 GPUs; its low-priority job runs from 0; the high-priority
    # one arrives at 10: with preempt it evicts the low one, without it waits for it to end
    queues = [{"name": "a", "capability": {"": 8}}, {"name": "b"}]
    jobs = [
        Job("low", 0, 100, gpus=8, queue="a"),
        Job("high", 10, 100, gpus=8, queue="a", priority=5),
    ]

    with_preempt = replay(spec(*queues, preempt=True), jobs, FOUR_8[:2])
    without = replay(spec(*queues), jobs, FOUR_8[:2])

    assert (with_preempt.start_s[1], with_preempt.preemptions) == (10, 1)
    assert (without.start_s[1], without.preemptions) == (100, 0)


# --- 4. the Queue YAML and the CLI --------------------------------------------------------------


def test_queue_yaml_and_scheduler_configmap_are_read() -> None:
    volcano, _ = read_volcano(VOLCANO)

    assert (volcano.plugin, volcano.preempt, volcano.reclaim) == ("capacity", True, True)
    assert volcano.overcommit_factor == 1.5
    team_a, team_b = volcano.queues
    assert (team_a.name, team_a.capability, team_a.deserved, team_a.guarantee) == (
        "team-a",
        {"": 24.0},
        {"": 8.0},
        {"": 4.0},
    )
    assert (team_a.cpu_capability, team_a.mem_gib_capability) == (192.0, 1536.0)
    assert (team_b.weight, team_b.priority, team_b.deserved) == (3, 10, {"": 24.0})


def test_everything_not_modelled_in_the_yaml_is_listed() -> None:
    _, notes = read_volcano(VOLCANO)

    assert "Queue team-a: spec.affinity not modelled, ignored" in notes
    assert any("team-a: deserved of cpu not modelled" in n for n in notes)
    assert "Queue team-a: capability of nvidia.com/mig-1g.10gb not modelled, ignored" in notes
    assert any("plugin drf not modelled" in n for n in notes)
    assert any(n.startswith("Queue root:") for n in notes)
    assert not any("status" in n or "weight" in n for n in notes)


def test_volcano_and_kueue_files_are_told_apart(tmp_path: Path) -> None:
    bad = write(
        tmp_path,
        "b.yaml",
        "kind: Queue\nmetadata: {name: q}\nspec:\n  capability: {nvidia.com/gpu: lots}\n",
    )
    empty = write(tmp_path, "e.yaml", "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n")

    assert looks_like_volcano(VOLCANO)
    assert not looks_like_volcano(DATA / "kueue.yaml")
    with pytest.raises(ScenarioError, match="'lots' is not a resource quantity"):
        read_volcano(bad)
    with pytest.raises(ScenarioError, match="no Volcano Queue"):
        read_volcano(empty)


def test_replay_applies_a_volcano_queues_file_and_prints_the_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 32 A100: team-a (deserved 8, lends 4, capability 24) runs a1-a3 at 0 by borrowing 16 of
    # team-b's idle share; a4 would pass its capability and waits. b1 (at 100) fits in the
    # 8 GPUs left; b2 and b3 each reclaim one of team-a's borrowed jobs (2 preemptions),
    # leaving team-a its deserved 8. Everything completes; `nobody` maps to no queue.
    rows = [f"a{k},0,1000,8,team-a" for k in range(1, 5)]
    rows += [f"b{k},100,1000,8,team-b" for k in range(1, 4)] + ["n1,0,100,1,nobody"]
    trace = write(
        tmp_path, "jobs.csv", "job_id,submit_time,duration_s,gpus,queue\n" + "\n".join(rows) + "\n"
    )
    db = str(tmp_path / "p.duckdb")

    code = main(
        ["replay", str(trace), "--nodes", "4", "--queues", str(VOLCANO), "--db", db, "--json"]
    )

    captured = capsys.readouterr()
    assert code == 0
    out = json.loads(captured.out)
    assert "note: Queue team-a: spec.affinity not modelled, ignored" in captured.err
    assert "team-b: priority 10 not modelled" in captured.err
    assert out["preemptions"] == 2
    assert out["completed"] == 7
    assert out["unschedulable_by_reason"] == {"no_cluster_queue": 1}


def test_a_scenario_file_takes_volcano_queues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the borrowing case above, through `volcano:` in a scenario file
    write(
        tmp_path,
        "jobs.csv",
        "job_id,submit_time,duration_s,gpus,queue\n"
        + "".join(f"a{k},0,100,8,research\n" for k in range(4)),
    )
    scenario = write(
        tmp_path,
        "s.yaml",
        "trace: jobs.csv\ncluster: {pools: [{gpu_type: A100, gpus_per_node: 8, count: 4}]}\n"
        "volcano:\n  queues: [{name: a, capability: {'': 24}}, {name: b}]\n"
        "  local_queues: {research: a}\n",
    )

    code = main(
        ["replay", "--scenario", str(scenario), "--db", str(tmp_path / "p.duckdb"), "--json"]
    )

    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["completed"] == 4
    assert out["waiting_gpu_hours_by_queue"]["a"]["quota"] == pytest.approx(8 * 100 / 3600)


def test_an_infinite_overcommit_factor_is_refused_in_a_scenario_and_a_configmap(
    tmp_path: Path,
) -> None:
    # .inf would make the enqueue gate let everything in: a typo for "no gate", which is `null`
    scenario = write(
        tmp_path,
        "s.yaml",
        "volcano:\n  queues: [{name: a}]\n  overcommit_factor: .inf\n",
    )
    configmap = write(
        tmp_path,
        "v.yaml",
        VOLCANO.read_text(encoding="utf-8").replace(
            "overcommit-factor: 1.5", "overcommit-factor: .inf"
        ),
    )

    with pytest.raises(ScenarioError, match=r"volcano\.overcommit_factor: .*finite number"):
        load_scenario(scenario)
    with pytest.raises(ScenarioError, match="finite number"):
        read_volcano(configmap)


# --- 5. properties ------------------------------------------------------------------------------

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def volcano_specs(draw: st.DrawFn) -> VolcanoSpec:
    plugin = draw(st.sampled_from(["proportion", "capacity"]))
    queues = []
    for k in range(draw(st.integers(2, 4))):
        queue: dict[str, Any] = {"name": f"q{k}", "weight": draw(st.integers(1, 4))}
        capability = draw(st.none() | st.integers(0, 32))
        guarantee = draw(st.integers(0, 8))
        if capability is not None:
            queue["capability"] = {"": capability}
            guarantee = min(guarantee, capability)
        if guarantee:
            queue["guarantee"] = {"": guarantee}
        if plugin == "capacity":
            queue["deserved"] = {"": draw(st.integers(0, 16))}
        queue["reclaimable"] = draw(st.booleans())
        queues.append(queue)
    return spec(*queues, plugin=plugin, preempt=draw(st.booleans()), reclaim=draw(st.booleans()))


@st.composite
def volcano_jobs(draw: st.DrawFn, queues: int) -> list[Job]:
    jobs = []
    for k in range(draw(st.integers(1, 25))):
        gang = draw(st.integers(0, 4)) == 0
        jobs.append(
            Job(
                f"j{k}",
                draw(st.integers(0, 20)) * 10.0,
                draw(st.integers(1, 12)) * 10.0,
                pods=2 if gang else 1,
                gpus=draw(st.sampled_from([1, 2, 4] if gang else [1, 2, 4, 8])),
                queue=f"q{draw(st.integers(0, queues - 1))}",
                priority=draw(st.integers(0, 2)),
            )
        )
    return jobs


@SETTINGS
@given(data=st.data())
def test_no_queue_ever_uses_more_than_its_capability(data: st.DataObject) -> None:
    volcano = data.draw(volcano_specs())
    jobs = data.draw(volcano_jobs(len(volcano.queues)))

    result = replay(volcano, jobs, FOUR_8)

    for queue in volcano.queues:
        if "" in queue.capability:
            assert peak(result, queue.name) <= queue.capability[""]
        if volcano.reclaim and not queue.reclaimable and not volcano.preempt:
            assert not any(result.jobs[i].queue == queue.name for i in result.segments)


@SETTINGS
@given(
    total=st.integers(1, 64),
    weights=st.lists(st.integers(1, 5), min_size=1, max_size=5),
    caps=st.lists(st.none() | st.integers(0, 64), min_size=5, max_size=5),
)
def test_water_filling_shares_out_the_cluster_within_each_capability(
    total: int, weights: list[int], caps: list[int | None]
) -> None:
    queues = [
        {"name": f"q{k}", "weight": w}
        | ({"capability": {"": caps[k]}} if caps[k] is not None else {})
        for k, w in enumerate(weights)
    ]
    volcano = spec(*queues)

    got = shares(volcano, total)

    capped = [min(total, c) if c is not None else total for c in caps[: len(weights)]]
    assert all(0 <= got[f"q{k}"] <= capped[k] for k in range(len(weights)))
    assert sum(got.values()) == pytest.approx(min(total, sum(capped)), abs=0.001 * len(weights))


def test_enqueue_gate_lets_in_what_fits_factor_times_cluster_minus_allocated() -> None:
    gate = EnqueueGate(1.2, 10_000)  # 10 GPUs: room for 12 in all
    for job, milli in ((0, 8000), (1, 3000), (2, 2000)):
        gate.arrive(job, milli, shape=job)

    gate.admit(5000)  # 12 - 5 allocated = 7: job 0 (8) waits, 1 and 2 (3 + 2) go in

    assert [gate.allows(j) for j in range(3)] == [False, True, True]
    gate.started(1)  # running now: counted as allocated, no longer Inqueue
    assert gate.inqueue_milli == 2000
    assert not gate.would_admit(8000)  # 12 - 8 - 2 = 2 < 8
    assert gate.would_admit(2000)  # 12 - 2 - 2 = 8 >= 8


def test_enqueue_gate_offers_a_shapes_oldest_inqueue_job_not_its_oldest_waiting_one() -> None:
    gate = EnqueueGate(1.0, 4000)  # 4 GPUs
    gate.arrive(5, 2000, shape=0)
    gate.arrive(7, 2000, shape=0)
    gate.admit(0)  # 5 and 7 are let in: 4 - 0 - 4 = 0 left
    gate.started(5)
    gate.arrive(3, 2000, shape=0)  # preempted, older than 7, back in its shape but Pending

    gate.admit(2000)  # 4 - 2 (job 5) - 2 (job 7) = 0: job 3 stays Pending

    assert gate.first(0) == 7
    assert gate.first(1) is None
