"""What binds a sizing answer (`planner sweep --target`): the floor the largest gang sets, by
hand, and the command's answer on a hand trace where one 64-GPU job on 8-GPU servers forces 8
servers while the rest of the jobs need 2."""

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.cli.main import main
from planner.core.model import Job
from planner.cost.scenario import OwnedPoolSpec, SchedulingSpec, TcoScenario
from planner.engine import simulate
from planner.engine.policy import Policy
from planner.service.sweep_floor import floor_of, servers_needed

HOUR = 3600


def a100(servers: int = 4) -> OwnedPoolSpec:
    return OwnedPoolSpec(gpu="A100", servers=servers, gpus_per_server=8)


# --- the floor, by hand ----------------------------------------------------------------------


def test_a_gang_needs_whole_servers_for_its_pods() -> None:
    pool = a100()

    # 8 pods x 8 GPUs: one pod a server, 8 servers
    assert servers_needed(Job("big", 0, HOUR, pods=8, gpus=8), pool, ()) == 8
    # 5 pods x 3 GPUs: 15 GPUs fit 2 servers' 16, but a server holds 8 // 3 = 2 pods: 3
    assert servers_needed(Job("odd", 0, HOUR, pods=5, gpus=3), pool, ()) == 3
    # 1.5 GPUs a pod is rounded up to 2 as the replay does: 4 a server, 9 pods need 3
    assert servers_needed(Job("half", 0, HOUR, pods=9, gpus=1.5), pool, ()) == 3


def test_pods_the_other_pools_hold_need_none_of_the_pool() -> None:
    pool, other = a100(), OwnedPoolSpec(gpu="H800", servers=2, gpus_per_server=8)
    any_type = Job("any", 0, HOUR, pods=5, gpus=8)
    only_h800 = Job("h800", 0, HOUR, pods=5, gpus=8, gpu_types=("H800",))

    assert servers_needed(any_type, pool, (other,)) == 5 - 2  # 2 pods on the 2 H800 servers
    assert servers_needed(only_h800, pool, (other,)) is None  # not this pool's GPU
    assert servers_needed(Job("a", 0, HOUR, pods=2, gpus=8), pool, (other,)) == 0


def test_shared_gpus_deadlines_and_pods_larger_than_a_server_set_no_floor() -> None:
    pool = a100()

    assert servers_needed(Job("frac", 0, HOUR, pods=64, gpus=0.5), pool, ()) is None
    assert servers_needed(Job("mig", 0, HOUR, gpus=1, gpu_types=("3g.40gb",)), pool, ()) is None
    withdrawn = Job("gone", 0, HOUR, pods=16, gpus=8, withdraw_after_s=60.0)
    assert servers_needed(withdrawn, pool, ()) is None
    assert servers_needed(Job("wide", 0, HOUR, gpus=16), pool, ()) is None


def test_the_floor_is_the_most_any_job_needs_and_counts_the_jobs_above_a_count() -> None:
    scenario = TcoScenario(self_hosted=(a100(),))
    jobs = [
        Job("small", 0, HOUR, gpus=8),
        Job("mid", 0, HOUR, pods=3, gpus=8),
        Job("big", 0, 2 * HOUR, pods=8, gpus=8),
        Job("big2", 0, HOUR, pods=15, gpus=4),  # 2 pods a server: 8 servers, fewer GPUs
    ]

    floor = floor_of(scenario, jobs, 0)

    assert floor.servers == 8
    assert [g.job_id for g in floor.largest] == ["big", "big2"]  # largest by GPUs first
    assert floor.job is not None
    assert (floor.job.gpus, floor.job.gpu_hours) == (64, 128)  # 64 GPUs x 2 h
    assert floor.needs == (3, 8, 8)
    assert [floor.jobs_above(k) for k in (1, 2, 3, 7, 8)] == [3, 3, 2, 2, 0]


def test_a_scenario_sharing_gpus_sets_no_floor() -> None:
    sharing = SchedulingSpec.model_validate(
        {"sharing": [{"gpu_type": "A100", "time_slicing": {"replicas": 4}}]}
    )
    scenario = TcoScenario(self_hosted=(a100(),), scheduling=sharing)

    floor = floor_of(scenario, [Job("big", 0, HOUR, pods=8, gpus=8)], 0)

    assert floor.servers == 0
    assert floor.job is None


@given(
    pods=st.integers(1, 12),
    gpus=st.sampled_from([1, 2, 3, 4, 5, 8]),
    types=st.sampled_from([(), ("A100",), ("H800",)]),
    a100_servers=st.integers(1, 10),
    h800_servers=st.integers(0, 3),
)
def test_the_floor_is_exactly_where_the_replay_starts_running_the_job(
    pods: int, gpus: int, types: tuple[str, ...], a100_servers: int, h800_servers: int
) -> None:
    """A job the pool must hold runs on an empty cluster if and only if the pool has at least
    the servers the floor says it needs: the floor never skips a count that runs it."""
    job = Job("j", 0.0, HOUR, pods=pods, gpus=gpus, gpu_types=types)
    h800 = OwnedPoolSpec(gpu="H800", servers=max(h800_servers, 1), gpus_per_server=8)
    others = (h800,) if h800_servers else ()
    nodes = [(f"a{k}", "A100", 8, 0.0, 0.0) for k in range(a100_servers)]
    nodes += [(f"h{k}", "H800", 8, 0.0, 0.0) for k in range(h800_servers)]

    needed = servers_needed(job, a100(a100_servers), others)
    result = simulate([job], nodes, Policy())

    if needed is None:  # H800 only: the A100 pool sets no floor for it
        assert types == ("H800",)
    else:
        assert (result.status[0] != "unschedulable") == (needed <= a100_servers)


# --- the command on a hand trace -------------------------------------------------------------


def hand_trace(path: Path, *, big: bool = True) -> Path:
    """Ten pairs of one-pod 8-GPU jobs of 1 h, a pair on the hour from 00:00 to 09:00: two
    servers run each pair at once (no wait), one makes every second job wait, and the
    queue grows by an hour a pair (p95 wait 9 h or more). `big`: one job of 8 pods x 8 GPUs
    (64 GPUs, 1 h) at 12:00, when every server is idle again: no count below 8 runs it."""
    rows = ["job_id,submit_time,duration_s,pods,gpus,gpu_type,queue,status"]  # gpus: in all
    rows += [
        f"p{hour}{k},2026-03-02T{hour:02d}:00:00+00:00,3600,1,8,A100,a,completed"
        for hour in range(10)
        for k in range(2)
    ]
    if big:
        rows.append("big,2026-03-02T12:00:00+00:00,3600,8,64,A100,a,completed")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def hand_scenario(folder: Path, trace: Path) -> Path:
    """4 A100 servers (below the floor: the search must start at it) against AWS A100 on
    demand (packing per-job: no cloud figure is pinned here)."""
    path = folder / "hand.yaml"
    scenario = {
        "name": "hand",
        "trace": str(trace),
        "horizons_years": [3],
        "self_hosted": [{"gpu": "A100", "servers": 4, "gpus_per_server": 8}],
        "cloud": [{"provider": "AWS", "gpu": "A100", "packing": "per-job"}],
    }
    path.write_text(json.dumps(scenario), encoding="utf-8")
    return path


def sweep(folder: Path, scenario: Path, *extra: str) -> list[str]:
    db = str(folder / "planner.duckdb")
    return ["sweep", "--scenario", str(scenario), "--db", db, "--workers", "1", *extra]


def test_the_largest_job_binds_and_the_rest_needs_two_servers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = hand_scenario(tmp_path, hand_trace(tmp_path / "hand.csv"))

    assert main(sweep(tmp_path, scenario, "--target", "p95_wait=30m")) == 0
    out, err = capsys.readouterr()

    # 8 servers run the big job and wait for nothing: the floor is the answer, priced alone
    assert out.startswith("smallest servers meeting p95_wait=30m for self-hosted: 8\n")
    assert "search: servers=8: p95_wait 0.00 h, meets" in err
    assert "search: servers=7" not in err  # below the floor: never priced
    assert "what binds it: the largest job, not the wait target" in out
    assert (
        "floor: job big asks for 64 A100 GPUs (8 pods x 8), so no count below 8 servers of "
        "8 A100 runs it; 1 job needs 8"
    ) in out
    # without it: from the scenario's 4 (meets), bisected to 2 (meets) and 1 (misses)
    assert "search without the largest jobs: servers=1: " in err
    assert (
        "without the 1 job needing 8 servers (64.0 GPU-hours, 28.6% of all jobs' GPU-hours; "
        "to be served elsewhere, not priced here): 2 servers meet p95_wait=30m"
    ) in out  # 64 of 20 x 8 x 1 h + 64 = 224 GPU-hours: 28.57 %
    assert "jobs needing more than 2 servers: 1" in out
    assert "set aside: big (64 GPUs, 64.0 GPU-h)" in out


def test_the_json_names_the_floor_the_jobs_set_aside_and_the_second_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = hand_scenario(tmp_path, hand_trace(tmp_path / "hand.csv"))

    assert main(sweep(tmp_path, scenario, "--target", "p95_wait=30m", "--json")) == 0
    [found] = json.loads(capsys.readouterr().out)

    assert found["answer"]["point"] == {"servers": 8}
    assert [p["point"]["servers"] for p in found["tried"]] == [8]
    bound = found["bound"]
    assert bound["binds"] == "floor"
    assert bound["floor"]["servers"] == 8
    assert bound["floor"]["job"] == {
        "job_id": "big",
        "pods": 8,
        "gpus": 8 * 8,
        "servers": 8,
        "gpu_hours": 64.0,
    }
    assert bound["set_aside_gpu_hours"] == 64.0
    assert bound["gpu_hours"] == 20 * 8 + 64  # twenty 8-GPU hours and the big job's 64
    rest = bound["without_largest"]
    assert rest["answer"] == 2
    assert rest["jobs_needing_more"] == 1
    assert rest["floor"]["servers"] == 1  # the rest's jobs each fit one server
    assert sorted(p["point"]["servers"] for p in rest["tried"]) == [1, 2, 4]


def test_without_a_gang_the_wait_target_binds_and_nothing_is_set_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = hand_scenario(tmp_path, hand_trace(tmp_path / "pairs.csv", big=False))

    assert main(sweep(tmp_path, scenario, "--target", "p95_wait=30m", "--json")) == 0
    [found] = json.loads(capsys.readouterr().out)

    assert found["answer"]["point"] == {"servers": 2}
    assert found["bound"]["binds"] == "target"
    assert found["bound"]["floor"]["servers"] == 1
    assert found["bound"]["set_aside"] == []
    assert found["bound"]["without_largest"] is None
