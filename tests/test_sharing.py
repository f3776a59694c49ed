"""GPU sharing: MIG slot placement (the reference's order example), MIG layouts, re-layout,
time-slicing; hand-computed replays and the capacity report."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.engine import simulate
from planner.engine.policy import Policy
from planner.engine.scenario import Scenario
from planner.engine.sharing import (
    MigConfig,
    TimeSlicing,
    best_start,
    layout_names,
    naive_start,
    place_layout,
    profile,
)

ONE_A100 = [("n0", "A100", 1, 0.0, 0.0)]


def _mig(**kwargs: object) -> Policy:
    return Policy(sharing={"A100": MigConfig(**kwargs)})  # type: ignore[arg-type]


def _starts(names: list[str], choose: object) -> list[int | None]:
    mask, starts = 0, []
    for name in names:
        prof = profile(name)
        start = choose(mask, prof)  # type: ignore[operator]
        starts.append(start)
        if start is None:
            break
        mask |= prof.bits(start)
    return starts


def test_balanced_layout_fits_only_in_the_reference_order() -> None:
    # 3g@4, 2g@0, 1g@2, 1g@3 (scheduler-semantics.md A5); 3g@0 first strands the last 1g
    order = ["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"]
    assert _starts(order, best_start) == [4, 0, 2, 3]
    assert _starts(order, naive_start) == [0, 4, 6, None]
    placed = place_layout(tuple(order))
    assert [(s, p.name) for s, p in placed] == [
        (0, "2g.20gb"),
        (2, "1g.10gb"),
        (3, "1g.10gb"),
        (4, "3g.40gb"),
    ]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("1g.20gb",) * 4 + ("1g.10gb",), "no legal placement"),
        (("3g.40gb", "3g.40gb", "2g.20gb"), "needs 8 compute slices"),
        (("1g.10gb",) * 8, "needs 8 compute slices"),
        (("5g.50gb",), "unknown MIG profile '5g.50gb'"),
    ],
)
def test_impossible_layouts_are_refused_with_the_reason(
    names: tuple[str, ...], message: str
) -> None:
    with pytest.raises(ScenarioError, match=message):
        place_layout(names)


def test_other_valid_mixes_of_the_reference_are_placed() -> None:
    for names in (
        ("4g.40gb", "3g.40gb"),
        ("3g.40gb", "3g.40gb"),
        ("2g.20gb", "2g.20gb", "2g.20gb", "1g.10gb"),
        ("1g.10gb",) * 7,
        ("1g.20gb",) * 4,
    ):
        place_layout(names)


def test_dynamic_mig_places_the_balanced_mix_in_order_of_arrival() -> None:
    jobs = [
        Job("3g", 0, 100, gpu_types=("3g.40gb",)),
        Job("2g", 1, 100, gpu_types=("2g.20gb",)),
        Job("1g-a", 2, 100, gpu_types=("mig-1g.10gb",)),
        Job("1g-b", 3, 100, gpu_types=("nvidia.com/mig-1g.10gb",)),
        Job("1g-c", 4, 100, gpu_types=("1g.10gb",)),
    ]
    result = simulate(jobs, ONE_A100, _mig())
    # all four fit at once only because the 3g went to slot 4; the fifth 1g waits for the
    # 3g to end at 100 (1g starts 0-3 are taken by the 2g and the two 1g)
    assert result.start_s == [0, 1, 2, 3, 100]
    report = result.sharing["A100"]
    assert report["gpus"] == 1
    assert report["occupied_gpu_hours"] == pytest.approx(200 / 3600)


def test_a_fraction_maps_to_the_smallest_profile_of_the_layout_and_no_larger() -> None:
    jobs = [Job(f"f{i}", 0, 100, gpus=0.1) for i in range(3)] + [Job("third", 0, 100, gpus=0.3)]
    result = simulate(jobs, ONE_A100, _mig(layout=layout_names("all-balanced")))
    # 0.1 -> 1g.10gb (two in the layout); the third 0.1 waits although 2g and 3g are free;
    # 0.3 -> 3g.40gb (2g is 2/7 = 0.286 of a GPU, too small)
    assert result.start_s == [0, 0, 100, 0]
    granted = (142 + 142 + 428) * 100 + 142 * 100
    assert result.sharing["A100"]["granted_gpu_hours"] == pytest.approx(granted / 1000 / 3600)
    requested = (100 + 100 + 300) * 100 + 100 * 100
    assert result.sharing["A100"]["requested_gpu_hours"] == pytest.approx(requested / 1000 / 3600)


def test_mixed_strategy_has_no_whole_gpus_single_strategy_gives_instances() -> None:
    whole = [Job("whole", 0, 100, gpus=1)]
    mixed = simulate(whole, ONE_A100, _mig(layout=layout_names("all-1g.10gb")))
    assert mixed.status == ["unschedulable"]
    assert mixed.unschedulable_reason[0] == "no_such_shared_device"
    jobs = [Job(f"j{i}", 0, 100, gpus=1) for i in range(7)] + [Job("two", 0, 100, gpus=2)]
    single = simulate(jobs, ONE_A100, _mig(strategy="single", layout=layout_names("all-1g.10gb")))
    # seven one-GPU requests take the seven 1g instances; the two-GPU job waits for two
    assert single.start_s == [0] * 7 + [100]


def test_single_strategy_needs_one_profile() -> None:
    with pytest.raises(ScenarioError, match="one profile"):
        MigConfig(strategy="single", layout=layout_names("all-balanced"))


def test_an_idle_gpu_is_re_partitioned_with_a_delay() -> None:
    jobs = [
        Job("small", 0, 100, gpu_types=("1g.10gb",)),
        Job("big", 10, 100, gpu_types=("3g.40gb",)),
    ]
    policy = _mig(layout=layout_names("all-1g.10gb"), relayout_delay_s=60)
    result = simulate(jobs, ONE_A100, policy)
    # the 3g waits for the GPU to drain (t=100), then 60 s of re-partitioning
    assert result.start_s == [0, 100]
    assert result.end_s == [100, 260]
    report = result.sharing["A100"]
    assert report["relayouts"] == 1
    assert report["slowdown_gpu_hours"] == pytest.approx(60 / 3600)
    static = simulate(jobs, ONE_A100, _mig(layout=layout_names("all-1g.10gb")))
    assert static.status == ["completed", "unschedulable"]


def test_time_slicing_packs_replicas_without_speedup_and_with_slowdown() -> None:
    nodes = [("t0", "T4", 1, 0.0, 0.0)]
    jobs = [Job(f"j{i}", 0, 100, gpus=1) for i in range(3)]
    policy = Policy(sharing={"T4": TimeSlicing(replicas=2, slowdown=1.5)})
    result = simulate(jobs, nodes, policy)
    # the first two share the GPU, so both run 1.5x longer; the third is alone: full speed
    assert result.start_s == [0, 0, 150]
    assert result.end_s == [150, 150, 250]
    report = result.sharing["T4"]
    assert report["advertised"] == 2
    assert report["requested_gpu_hours"] == pytest.approx(400 / 3600)
    # two replicas of one GPU = the GPU for 150 s, then one replica = half of it for 100 s
    assert report["granted_gpu_hours"] == pytest.approx(200 / 3600)
    assert report["occupied_gpu_hours"] == pytest.approx(250 / 3600)
    assert report["slowdown_gpu_hours"] == pytest.approx(100 / 3600)


def test_time_slicing_gives_a_fraction_a_whole_replica() -> None:
    nodes = [("t0", "T4", 1, 0.0, 0.0)]
    jobs = [Job(f"j{i}", 0, 100, gpus=0.2) for i in range(4)]
    result = simulate(jobs, nodes, Policy(sharing={"T4": TimeSlicing(replicas=3)}))
    assert result.start_s == [0, 0, 0, 100]


def test_fail_requests_greater_than_one_refuses_multi_replica_pods() -> None:
    nodes = [("t0", "T4", 4, 0.0, 0.0)]
    policy = Policy(sharing={"T4": TimeSlicing(replicas=2, fail_requests_greater_than_one=True)})
    result = simulate([Job("two", 0, 100, gpus=2)], nodes, policy)
    assert result.unschedulable_reason[0] == "no_such_shared_device"


def test_preempted_slowed_job_keeps_checkpointed_work_not_wall_time() -> None:
    from planner.engine.scenario import QueuesSpec

    queues = QueuesSpec.model_validate(
        {
            "flavors": [{"name": "t4", "gpu_type": "T4"}],
            "cluster_queues": [
                {
                    "name": "cq",
                    "preemption": {"within_cluster_queue": "LowerPriority"},
                    "quotas": [{"flavor": "t4", "gpus": 2}],
                }
            ],
        }
    )
    policy = Policy(
        queues=queues.to_setup(strict_default=False),
        sharing={"T4": TimeSlicing(replicas=2, slowdown=2.0)},
        checkpoint_interval_s=30,
    )
    jobs = [
        Job("low-a", 0, 100, gpus=1, queue="cq", priority=0),
        Job("low-b", 0, 100, gpus=1, queue="cq", priority=0),
        Job("high", 130, 50, gpus=1, queue="cq", priority=10),
    ]
    result = simulate(jobs, [("t0", "T4", 1, 0.0, 0.0)], policy)
    # the lows share the GPU from 0, each at half speed. At 130 high evicts one of them:
    # 130 s wall = 65 s of work, checkpoint at 60 s, 40 s left, 5 GPU-s wasted. The other
    # has 35 s of work left: it ends at 130 + 70 = 200. High shares too: 50 x 2, ends 230;
    # the evicted low restarts at 200 (quota 2) beside high: 40 x 2, ends 280.
    assert result.start_s[2] == 130
    assert result.end_s[2] == 230
    assert sorted(result.end_s[:2]) == [pytest.approx(200), pytest.approx(280)]
    assert result.preemptions == 1
    assert result.wasted_gpu_s == pytest.approx(5)


def test_a_lone_tenant_slows_down_when_company_arrives() -> None:
    nodes = [("t0", "T4", 1, 0.0, 0.0)]
    jobs = [Job("first", 0, 100, gpus=1), Job("second", 40, 100, gpus=1)]
    result = simulate(jobs, nodes, Policy(sharing={"T4": TimeSlicing(replicas=2, slowdown=2)}))
    # first runs alone 40 s at full speed, then its last 60 s at half speed: ends 160;
    # second shares from its start: 100 x 2, ends 240 (no speed-up once alone)
    assert result.end_s == [160, 240]
    assert result.sharing["T4"]["slowdown_gpu_hours"] == pytest.approx((60 + 100) / 3600)


def test_scenario_yaml_sharing_and_bad_input() -> None:
    scenario = Scenario.model_validate(
        {
            "sharing": [
                {"gpu_type": "A100", "mig": {"layout": "all-balanced"}},
                {"gpu_type": "T4", "time_slicing": {"replicas": 4, "slowdown": 1.2}},
            ]
        }
    )
    sharing = scenario.to_policy().sharing
    assert sharing is not None
    assert sharing["T4"] == TimeSlicing(replicas=4, slowdown=1.2)
    with pytest.raises(ValueError, match="A100: unknown MIG layout 'all-2g'"):
        Scenario.model_validate({"sharing": [{"gpu_type": "A100", "mig": {"layout": "all-2g"}}]})
    with pytest.raises(ValueError, match="exactly one of `mig` or `time_slicing`"):
        Scenario.model_validate({"sharing": [{"gpu_type": "A100"}]})
    with pytest.raises(ValueError, match="slowdown"):
        Scenario.model_validate(
            {"sharing": [{"gpu_type": "T4", "time_slicing": {"replicas": 2, "slowdown": 0.5}}]}
        )


def test_replay_cli_reports_sharing(tmp_path: Path) -> None:
    trace = tmp_path / "jobs.csv"
    trace.write_text(
        "job_id,submit_time,duration,num_gpus,gpu_type\n"
        "a,0,100,1,3g.40gb\nb,0,100,1,2g.20gb\nc,0,100,0.1,\nd,0,100,0.1,\n",
        encoding="utf-8",
    )
    scenario = tmp_path / "mig.yaml"
    scenario.write_text(
        f"trace: {trace}\n"
        "cluster: {pools: [{name: a100, gpu_type: A100, gpus_per_node: 1, count: 1}]}\n"
        "sharing:\n  - {gpu_type: A100, mig: {}}\n",
        encoding="utf-8",
    )
    db = tmp_path / "planner.duckdb"
    command = ["replay", "--scenario", str(scenario), "--db", str(db), "--json"]
    out = subprocess.run(
        [sys.executable, "-m", "planner", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    summary = json.loads(out.stdout)
    assert summary["completed"] == 4
    assert summary["sharing"]["A100"]["mode"].startswith("MIG dynamic")
    assert summary["wait_s"]["max"] == 0
