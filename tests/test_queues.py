"""Kueue ClusterQueues and cohorts: quota arithmetic, admission cycles, scenarios, the CLI.

Every expected number was worked out on paper from the formulas of
`../shared/reference/scheduler-semantics.md` A1 ("Numeric quota rules", "Numeric rules,
hierarchical", "Admission cycle") before the code was run; the comment above each case is
that working. Quotas are in milli-GPUs in `planner.engine.quota`; `G` is one GPU.
"""

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from planner.cli import main
from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine import ReplayResult, simulate
from planner.engine.metrics import summarize
from planner.engine.policy import Policy
from planner.engine.quota import FlavorQuota, QueueSetup, QuotaNode, Quotas
from planner.engine.scenario import QueuesSpec, Scenario
from planner.engine.waits import REASON_CODES

G = 1000
SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"
ONE_8: list[NodeSpec] = [("n1", "A100", 8, 0.0, 0.0)]
FOUR_8: list[NodeSpec] = [(f"n{k}", "A100", 8, 0.0, 0.0) for k in range(1, 5)]
ANY_GPU = [{"name": "gpu", "gpu_type": ""}]


def queues(**spec: Any) -> QueueSetup:
    return QueuesSpec.model_validate(spec).to_setup(strict_default=False)


def cq(name: str, gpus: float, cohort: str | None = None, **extra: Any) -> dict[str, Any]:
    """A ClusterQueue with one quota of flavor `gpu`; limits and strategy go in `extra`."""
    strategy = extra.pop("strategy", None)
    spec: dict[str, Any] = {
        "name": name,
        "cohort": cohort,
        "quotas": [{"flavor": "gpu", "gpus": gpus, **extra}],
    }
    if strategy:
        spec["strategy"] = strategy
    return spec


def run(jobs: list[Job], nodes: list[NodeSpec], setup: QueueSetup, **policy: Any) -> ReplayResult:
    return simulate(jobs, nodes, Policy(queues=setup, **policy))


def index(result: ReplayResult, job_id: str) -> int:
    return next(i for i, job in enumerate(result.jobs) if job.job_id == job_id)


def start(result: ReplayResult, job_id: str) -> float | None:
    return result.start_s[index(result, job_id)]


def waits(result: ReplayResult, job_id: str) -> dict[str, float]:
    waited = result.wait_by_reason[index(result, job_id)]
    if waited is None:
        return {}
    return {code: s for code, s in zip(REASON_CODES, waited, strict=True) if s}


def placement(result: ReplayResult, job_id: str) -> dict[str, float]:
    return {result.node_ids[n]: gpus for n, gpus in result.placement[index(result, job_id)]}


def node(setup: QueueSetup, name: str) -> int:
    return [n.name for n in setup.nodes].index(name)


def peak_gpus(result: ReplayResult, queue: str) -> float:
    """Most GPUs the ClusterQueue's jobs held at once (ends free before starts at an instant)."""
    assert result.cluster_queue is not None
    changes: list[tuple[float, float]] = []
    for i, job in enumerate(result.jobs):
        begin, end = result.start_s[i], result.end_s[i]
        if result.cluster_queue[i] == queue and begin is not None and end is not None:
            changes += [(begin, job.total_gpus), (end, -job.total_gpus)]
    in_use = peak = 0.0
    for _, delta in sorted(changes):
        in_use += delta
        peak = max(peak, in_use)
    return peak


def starts(result: ReplayResult, prefix: str) -> Counter[float | None]:
    return Counter(
        result.start_s[i] for i, job in enumerate(result.jobs) if job.job_id.startswith(prefix)
    )


# --- 1. the reference's examples, on Quotas directly ------------------------------------------


def flat(a: FlavorQuota, b: FlavorQuota) -> Quotas:
    """Cohort `org` (node 0) with ClusterQueues A (node 1) and B (node 2), one flavor."""
    return Quotas(
        QueueSetup(
            flavors=(("gpu", ""),),
            nodes=(
                QuotaNode("org", queue=False),
                QuotaNode("A", 0, quotas={0: a}),
                QuotaNode("B", 0, quotas={0: b}),
            ),
            queue_of={"A": 1, "B": 2},
            flavor_order={1: (0,), 2: (0,)},
        )
    )


A, B = 1, 2


def test_docs_example_a_uses_all_21_when_b_is_idle() -> None:
    # SubtreeQuota(org) = 9 + 12 = 21, no local quotas: available(A) = 21 - 0.
    quotas = flat(FlavorQuota(9 * G), FlavorQuota(12 * G))

    assert quotas.available(A, 0) == 21 * G
    assert quotas.fits(A, 0, 21 * G)
    assert not quotas.fits(A, 0, 22 * G)
    assert not quotas.borrows(A, 0, 9 * G)
    assert quotas.borrows(A, 0, 10 * G)

    quotas.add(A, 0, 21 * G)

    assert quotas.available(A, 0) == 0
    assert quotas.available(B, 0) == 0
    assert quotas.borrowed(A) == 12 * G
    assert quotas.unused_nominal(B) == 12 * G


def test_docs_example_borrowing_limit_1_caps_a_at_10() -> None:
    # available(A) = min(21, (9 - 0) - 0 + 1) = 10; after A uses 10 the cap is 9 - 10 + 1 = 0,
    # and B sees 21 - 10 = 11.
    quotas = flat(FlavorQuota(9 * G, borrowing_limit=1 * G), FlavorQuota(12 * G))

    assert quotas.available(A, 0) == 10 * G

    quotas.add(A, 0, 10 * G)

    assert quotas.available(A, 0) == 0
    assert quotas.available(B, 0) == 11 * G


def test_docs_example_lending_limit_1_on_b_caps_a_at_10_and_b_keeps_11() -> None:
    # localQuota(B) = 12 - 1 = 11; SubtreeQuota(org) = 9 + (12 - 11) = 10.
    # available(A) = 0 + 10; available(B) = 11 + 10 = 21 while A is idle.
    quotas = flat(FlavorQuota(9 * G), FlavorQuota(12 * G, lending_limit=1 * G))

    assert quotas.available(A, 0) == 10 * G
    assert quotas.available(B, 0) == 21 * G

    quotas.add(A, 0, 10 * G)

    # org is used up (10 of 10); B still has its 11 local GPUs only it can use
    assert quotas.available(A, 0) == 0
    assert quotas.available(B, 0) == 11 * G

    quotas.add(B, 0, 11 * G)  # all within B's local quota: nothing reaches org

    assert quotas.usage[0][0] == 10 * G
    assert quotas.available(B, 0) == 0

    quotas.add(A, 0, -10 * G)

    # A idle again: B's 12th GPU would come from org (1 of it is B's lendable GPU)
    assert quotas.available(A, 0) == 10 * G
    assert quotas.available(B, 0) == 10 * G


def test_lending_past_local_quota_reaches_the_cohort() -> None:
    # B uses 12: 11 local + 1 that passes to org, so org has 10 - 1 = 9 left for A.
    quotas = flat(FlavorQuota(9 * G), FlavorQuota(12 * G, lending_limit=1 * G))

    quotas.add(B, 0, 12 * G)

    assert quotas.usage[0][0] == 1 * G
    assert quotas.available(A, 0) == 9 * G
    assert quotas.borrowed(B) == 0


# Two levels. org: own nominal 4. sub (child of org): no own quota, lendingLimit 2; X (6) and
# Y (4) in sub. Z (5) directly in org.
#   SubtreeQuota(X) = 6, SubtreeQuota(Y) = 4, local 0.
#   SubtreeQuota(sub) = 0 + 6 + 4 = 10; localQuota(sub) = 10 - 2 = 8.
#   SubtreeQuota(org) = 4 + (10 - 8) + 5 = 11.
#   available(Z) = available(org) = 11; available(X) = 0 + (8 - 0) + 11 = 19.
HIERARCHY: dict[str, Any] = {
    "flavors": ANY_GPU,
    "cohorts": [
        {"name": "org", "quotas": [{"flavor": "gpu", "gpus": 4}]},
        {
            "name": "sub",
            "parent": "org",
            "quotas": [{"flavor": "gpu", "gpus": 0, "lending_limit": 2}],
        },
    ],
    "cluster_queues": [cq("X", 6, "sub"), cq("Y", 4, "sub"), cq("Z", 5, "org")],
}


def test_hierarchy_subtree_and_local_quotas_follow_the_reference() -> None:
    setup = queues(**HIERARCHY)
    quotas = Quotas(setup)
    org, sub = node(setup, "org"), node(setup, "sub")

    assert (quotas.subtree[sub][0], quotas.local[sub][0]) == (10 * G, 8 * G)
    assert (quotas.subtree[org][0], quotas.local[org][0]) == (11 * G, 0)
    assert quotas.available(node(setup, "Z"), 0) == 11 * G
    assert quotas.available(node(setup, "X"), 0) == 19 * G
    assert quotas.available(node(setup, "Y"), 0) == 19 * G


def test_hierarchy_usage_past_the_child_cohorts_local_quota_bubbles_up() -> None:
    # X uses 9: sub's usage 9, of which 9 - 8 = 1 reaches org.
    # available(X) = 0 + max(0, 8 - 9) + (11 - 1) = 10; available(Z) = 10.
    setup = queues(**HIERARCHY)
    quotas = Quotas(setup)
    x, y, z = node(setup, "X"), node(setup, "Y"), node(setup, "Z")

    quotas.add(x, 0, 9 * G)

    assert quotas.usage[node(setup, "sub")][0] == 9 * G
    assert quotas.usage[node(setup, "org")][0] == 1 * G
    assert quotas.available(x, 0) == 10 * G
    assert quotas.available(y, 0) == 10 * G
    assert quotas.available(z, 0) == 10 * G


def test_hierarchy_child_cohort_keeps_its_local_quota_when_the_root_is_used_up() -> None:
    # Z uses all 11 of org: X and Y still share sub's 8 local GPUs; after X takes 6, Y has 2.
    setup = queues(**HIERARCHY)
    quotas = Quotas(setup)
    x, y, z = node(setup, "X"), node(setup, "Y"), node(setup, "Z")

    quotas.add(z, 0, 11 * G)

    assert quotas.available(z, 0) == 0
    assert quotas.available(x, 0) == 8 * G

    quotas.add(x, 0, 6 * G)

    assert quotas.available(y, 0) == 2 * G
    assert quotas.borrows(y, 0, 2 * G) is False
    assert quotas.borrowed(z) == 6 * G


def test_hierarchy_borrowing_limits_cap_what_comes_from_above() -> None:
    # X with borrowingLimit 1: cap = (6 - 0) - 0 + 1 = 7 < 19, so available(X) = 7.
    # sub with borrowingLimit 1: its parent share is min(11, (10 - 8) - 0 + 1) = 3, so
    # available(sub) = 8 + 3 = 11 and Y (no limit of its own) sees 11.
    spec = copy.deepcopy(HIERARCHY)
    spec["cohorts"][1]["quotas"][0]["borrowing_limit"] = 1
    spec["cluster_queues"][0] = cq("X", 6, "sub", borrowing_limit=1)
    setup = queues(**spec)
    quotas = Quotas(setup)

    assert quotas.available(node(setup, "X"), 0) == 7 * G
    assert quotas.available(node(setup, "Y"), 0) == 11 * G
    assert quotas.available(node(setup, "Z"), 0) == 11 * G


# --- 2. the same limits through the engine ----------------------------------------------------

# 32 GPUs (never the limit); A gets thirty 1-GPU, 100 s jobs at 0; B is idle.
THIRTY_FOR_A = [Job(f"a{k:02}", 0.0, 100.0, queue="A") for k in range(30)]


def docs_setup(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None) -> QueueSetup:
    return queues(
        flavors=ANY_GPU,
        cluster_queues=[cq("A", 9, "org", **(a or {})), cq("B", 12, "org", **(b or {}))],
    )


def test_engine_a_runs_21_at_once_while_b_is_idle() -> None:
    # 21 start at 0 (9 own + 12 of B's); the other 9 wait for quota until 100.
    result = run(THIRTY_FOR_A, FOUR_8, docs_setup())

    assert peak_gpus(result, "A") == 21
    assert starts(result, "a") == {0.0: 21, 100.0: 9}
    assert Counter(tuple(sorted(waits(result, j.job_id).items())) for j in THIRTY_FOR_A) == {
        (): 21,
        (("quota", 100.0),): 9,
    }
    assert result.status.count("completed") == 30


def test_engine_borrowing_limit_1_keeps_a_at_10() -> None:
    result = run(THIRTY_FOR_A, FOUR_8, docs_setup(a={"borrowing_limit": 1}))

    assert peak_gpus(result, "A") == 10
    assert starts(result, "a") == {0.0: 10, 100.0: 10, 200.0: 10}
    assert (
        sorted(sum(waits(result, j.job_id).values()) for j in THIRTY_FOR_A)
        == [0.0] * 10 + [100.0] * 10 + [200.0] * 10
    )
    assert {code for j in THIRTY_FOR_A for code in waits(result, j.job_id)} == {"quota"}


def test_engine_lending_limit_1_on_b_keeps_a_at_10() -> None:
    result = run(THIRTY_FOR_A, FOUR_8, docs_setup(b={"lending_limit": 1}))

    assert peak_gpus(result, "A") == 10
    assert starts(result, "a") == {0.0: 10, 100.0: 10, 200.0: 10}
    assert {code for j in THIRTY_FOR_A for code in waits(result, j.job_id)} == {"quota"}


def test_engine_b_keeps_its_11_local_gpus_while_a_borrows_its_lendable_one() -> None:
    # B lends at most 1; B gets twelve 1-GPU, 100 s jobs at 10.
    #   0: A starts 10 (9 + B's 1 lendable). org = 10 of 10.
    #  10: B starts 11 from its local quota; its 12th would need org: waits (quota).
    # 100: A's 10 end. A's head (submitted 0) and B's (10) would both not borrow; A's is older:
    #      A takes 1 (org 1), then B's 12th fits (11 local + 9 in org): org 2. A continues to
    #      9 (org 10); its 10th would borrow and org is full.
    # 110: B's 11 end; B's 12th stays within local quota, so org = 9: A starts 1 more (10).
    # 200: A's 9 and B's 12th end: org = 1 (A), A starts 9 (the 10 left but one).
    # 210: A's 110 job ends: the last A job starts.
    b_jobs = [Job(f"b{k:02}", 10.0, 100.0, queue="B") for k in range(12)]

    result = run(THIRTY_FOR_A + b_jobs, FOUR_8, docs_setup(b={"lending_limit": 1}))

    assert starts(result, "b") == {10.0: 11, 100.0: 1}
    assert waits(result, "b11") == {"quota": 90.0}
    assert starts(result, "a") == {0.0: 10, 100.0: 9, 110.0: 1, 200.0: 9, 210.0: 1}
    assert peak_gpus(result, "A") == 10
    # A borrows 1 GPU over 0-100, 110-200, 200-300; B lends it (the only unused nominal):
    # 100 + 90 + 100 = 290 GPU-seconds.
    assert result.borrowed_gpu_s == pytest.approx({"A": 290.0, "B": 0.0})
    assert result.lent_gpu_s == pytest.approx({"A": 0.0, "B": 290.0})


def test_borrowed_and_lent_gpu_seconds_on_the_docs_example() -> None:
    # 0-100: A uses 21 = 12 borrowed, all of it from B's unused 12. 100-200: A uses 9: none.
    result = run(THIRTY_FOR_A, FOUR_8, docs_setup())

    assert result.borrowed_gpu_s == pytest.approx({"A": 1200.0, "B": 0.0})
    assert result.lent_gpu_s == pytest.approx({"A": 0.0, "B": 1200.0})
    summary = summarize(result)
    assert summary.queues.borrowed_gpu_hours == pytest.approx({"A": 1200 / 3600, "B": 0.0})
    assert summary.queues.lent_gpu_hours == pytest.approx({"A": 0.0, "B": 1200 / 3600})


def test_lent_gpu_seconds_are_split_pro_rata_over_unused_nominal_quota() -> None:
    # A (4), B (6), C (2) in one cohort; A runs eight 1-GPU jobs for 100 s: borrows 4.
    # B and C are idle: unused 6 + 2 = 8; B lends 4 x 6/8 = 3, C 4 x 2/8 = 1 (x 100 s).
    setup = queues(
        flavors=ANY_GPU, cluster_queues=[cq("A", 4, "org"), cq("B", 6, "org"), cq("C", 2, "org")]
    )
    jobs = [Job(f"a{k}", 0.0, 100.0, queue="A") for k in range(8)]

    result = run(jobs, ONE_8, setup)

    assert starts(result, "a") == {0.0: 8}
    assert result.borrowed_gpu_s == pytest.approx({"A": 400.0, "B": 0.0, "C": 0.0})
    assert result.lent_gpu_s == pytest.approx({"A": 0.0, "B": 300.0, "C": 100.0})


def test_lent_gpu_seconds_are_counted_per_flavor() -> None:
    # A: f1 0, f2 1; B: f1 1; one cohort. a (A, 1 GPU, 0-100) gets f1, the first flavor that
    # fits, by borrowing B's f1 GPU. Only B has f1 to lend: B lent 100, A lent nothing (its
    # idle f2 GPU is not what a borrowed, and A cannot lend to itself).
    setup = queues(
        flavors=[{"name": "f1", "gpu_type": ""}, {"name": "f2", "gpu_type": ""}],
        cluster_queues=[
            {
                "name": "A",
                "cohort": "org",
                "quotas": [{"flavor": "f1", "gpus": 0}, {"flavor": "f2", "gpus": 1}],
            },
            {"name": "B", "cohort": "org", "quotas": [{"flavor": "f1", "gpus": 1}]},
        ],
    )

    result = run([Job("a", 0.0, 100.0, queue="A")], ONE_8, setup)

    assert result.borrowed_gpu_s == pytest.approx({"A": 100.0, "B": 0.0})
    assert result.lent_gpu_s == pytest.approx({"A": 0.0, "B": 100.0})


# --- 3. hard partitions vs a cohort -----------------------------------------------------------

# One 8-GPU node; team-a and team-b have 1 GPU each. a1 (0-100) and a2 (submitted 10, 50 s)
# are team-a's; team-b submits nothing.
TWO_FOR_TEAM_A = [
    Job("a1", 0.0, 100.0, queue="team-a"),
    Job("a2", 10.0, 50.0, queue="team-a"),
]


def test_without_a_cohort_a_team_waits_for_quota_while_another_teams_quota_idles() -> None:
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("team-a", 1), cq("team-b", 1)])

    result = run(TWO_FOR_TEAM_A, ONE_8, setup)

    assert start(result, "a2") == 100.0
    assert result.end_s[index(result, "a2")] == 150.0
    assert waits(result, "a2") == {"quota": 90.0}
    assert result.borrowed_gpu_s == {"team-a": 0.0, "team-b": 0.0}
    assert result.lent_gpu_s == {"team-a": 0.0, "team-b": 0.0}


def test_in_a_cohort_the_team_borrows_the_idle_quota_and_starts_at_once() -> None:
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("team-a", 1, "org"), cq("team-b", 1, "org")])

    result = run(TWO_FOR_TEAM_A, ONE_8, setup)

    assert start(result, "a2") == 10.0
    assert waits(result, "a2") == {}
    # 1 GPU borrowed from 10 to 60
    assert result.borrowed_gpu_s == pytest.approx({"team-a": 50.0, "team-b": 0.0})
    assert result.lent_gpu_s == pytest.approx({"team-a": 0.0, "team-b": 50.0})


# --- 4. admission order ---------------------------------------------------------------------


def test_a_head_that_does_not_borrow_goes_before_an_older_higher_priority_borrower() -> None:
    # A (2) and B (2) in one cohort (4 GPUs of quota), one 8-GPU node.
    #   0: x (A, 2, until 200) and y (B, 2, until 100) start: org 4 of 4.
    #  10: a (A, 2, priority 5) waits for quota; 20: b (B, 2, priority 0) too.
    # 100: y ends. a would borrow (A at 2 of 2), b would not (B at 0): b first, takes the
    #      last 2 GPUs of quota; a does not fit any more.
    # 150: b ends: a starts, borrowing B's 2.
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("A", 2, "org"), cq("B", 2, "org")])
    jobs = [
        Job("x", 0.0, 200.0, gpus=2, queue="A"),
        Job("y", 0.0, 100.0, gpus=2, queue="B"),
        Job("a", 10.0, 50.0, gpus=2, queue="A", priority=5),
        Job("b", 20.0, 50.0, gpus=2, queue="B"),
    ]

    result = run(jobs, ONE_8, setup)

    assert start(result, "b") == 100.0
    assert waits(result, "b") == {"quota": 80.0}
    assert start(result, "a") == 150.0
    assert waits(result, "a") == {"quota": 140.0}


def test_same_instant_arrivals_admit_the_non_borrowing_head_first() -> None:
    # A (2) and B (1) in one cohort: 3 GPUs of quota. x (A, 2) runs 0-100.
    # At 50, a (A, 1: would borrow) and b (B, 1: would not) arrive together, a listed first;
    # one GPU of quota is left. b goes first; a starts when b ends at 60.
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("A", 2, "org"), cq("B", 1, "org")])
    jobs = [
        Job("x", 0.0, 100.0, gpus=2, queue="A"),
        Job("a", 50.0, 10.0, queue="A"),
        Job("b", 50.0, 10.0, queue="B"),
    ]

    result = run(jobs, ONE_8, setup)

    assert start(result, "b") == 50.0
    assert start(result, "a") == 60.0
    assert waits(result, "a") == {"quota": 10.0}


def test_a_head_whose_first_fitting_flavor_borrows_counts_as_borrowing() -> None:
    # Flavors f1 and f2 on the same node. A: f1 0, f2 1; B: f1 1; one cohort.
    #   0: y (B) takes B's f1; x (A) finds f1 used up (A has 0 of its own), takes f2.
    #  10: a (A) and 20: b (B) wait for quota.
    # 100: x and y end. a's first fitting flavor is f1, borrowing B's GPU: a would borrow,
    #      b would not: b first, on f1. a no longer fits f1; f2 does: both start at 100 and
    #      nobody borrows.
    setup = queues(
        flavors=[{"name": "f1", "gpu_type": ""}, {"name": "f2", "gpu_type": ""}],
        cluster_queues=[
            {
                "name": "A",
                "cohort": "org",
                "quotas": [{"flavor": "f1", "gpus": 0}, {"flavor": "f2", "gpus": 1}],
            },
            {"name": "B", "cohort": "org", "quotas": [{"flavor": "f1", "gpus": 1}]},
        ],
    )
    jobs = [
        Job("y", 0.0, 100.0, queue="B"),
        Job("x", 0.0, 100.0, queue="A"),
        Job("a", 10.0, 50.0, queue="A"),
        Job("b", 20.0, 50.0, queue="B"),
    ]

    result = run(jobs, ONE_8, setup)

    assert (start(result, "x"), start(result, "y")) == (0.0, 0.0)
    assert start(result, "b") == 100.0
    assert start(result, "a") == 100.0
    assert result.borrowed_gpu_s == {"A": 0.0, "B": 0.0}


def test_within_a_cluster_queue_the_higher_priority_job_goes_first() -> None:
    # A has 1 GPU, no cohort. x runs 0-100; lo (priority 0) arrives at 10, hi (10) at 20.
    # At 100 hi starts (until 200), then lo.
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("A", 1)])
    jobs = [
        Job("x", 0.0, 100.0, queue="A"),
        Job("lo", 10.0, 100.0, queue="A"),
        Job("hi", 20.0, 100.0, queue="A", priority=10),
    ]

    result = run(jobs, ONE_8, setup)

    assert start(result, "hi") == 100.0
    assert waits(result, "hi") == {"quota": 80.0}
    assert start(result, "lo") == 200.0
    assert waits(result, "lo") == {"quota": 190.0}


def test_same_instant_arrivals_in_one_cluster_queue_go_by_priority() -> None:
    # A has 1 GPU. lo and hi (priority 10) arrive together at 0, lo listed first: hi's the head.
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("A", 1)])
    jobs = [Job("lo", 0.0, 100.0, queue="A"), Job("hi", 0.0, 100.0, queue="A", priority=10)]

    result = run(jobs, ONE_8, setup)

    assert start(result, "hi") == 0.0
    assert start(result, "lo") == 100.0


# A (1) and B (1) in one cohort on a single 1-GPU node: the hardware decides. x (A) holds the
# GPU 0-100; a (A) arrives at 10, b (B) at 20; neither would borrow once x has ended.
def one_gpu_contest(a_priority: int, b_priority: int) -> ReplayResult:
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("A", 1, "org"), cq("B", 1, "org")])
    jobs = [
        Job("x", 0.0, 100.0, queue="A"),
        Job("a", 10.0, 100.0, queue="A", priority=a_priority),
        Job("b", 20.0, 100.0, queue="B", priority=b_priority),
    ]
    return run(jobs, [("n1", "A100", 1, 0.0, 0.0)], setup)


def test_across_cluster_queues_higher_priority_goes_first() -> None:
    result = one_gpu_contest(0, 5)

    assert start(result, "b") == 100.0
    assert waits(result, "b") == {"cluster_full": 80.0}
    assert start(result, "a") == 200.0
    assert waits(result, "a") == {"cluster_full": 190.0}


def test_across_cluster_queues_equal_priority_goes_by_age() -> None:
    result = one_gpu_contest(0, 0)

    assert start(result, "a") == 100.0
    assert start(result, "b") == 200.0


# A has 4 GPUs, no cohort, one 8-GPU node. x (2) runs 0-100; big (4) arrives at 10: 2 left,
# waits for quota; small (2, 10 s) at 20 fits the 2 left.
HEAD_AND_SMALL = [
    Job("x", 0.0, 100.0, gpus=2, queue="A"),
    Job("big", 10.0, 50.0, gpus=4, queue="A"),
    Job("small", 20.0, 10.0, gpus=2, queue="A"),
]


def test_strict_fifo_queue_blocks_a_smaller_later_job_behind_its_head() -> None:
    # big starts at 100 (to 150); small waits behind it (80 s, it would fit), then for
    # quota while big runs (50 s): starts at 150.
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("A", 4, strategy="StrictFIFO")])

    result = run(HEAD_AND_SMALL, ONE_8, setup)

    assert start(result, "big") == 100.0
    assert waits(result, "big") == {"quota": 90.0}
    assert start(result, "small") == 150.0
    assert waits(result, "small") == {"behind_head": 80.0, "quota": 50.0}


def test_best_effort_fifo_queue_starts_the_smaller_later_job() -> None:
    setup = queues(flavors=ANY_GPU, cluster_queues=[cq("A", 4, strategy="BestEffortFIFO")])

    result = run(HEAD_AND_SMALL, ONE_8, setup)

    assert start(result, "small") == 20.0
    assert waits(result, "small") == {}
    assert start(result, "big") == 100.0
    assert waits(result, "big") == {"quota": 90.0}


def test_strategy_defaults_to_strict_fifo_only_with_strict_fifo_queueing() -> None:
    spec: dict[str, Any] = {"flavors": ANY_GPU, "cluster_queues": [cq("A", 4)]}
    strict = Scenario.model_validate({"policy": {"queueing": "strict-fifo"}, "queues": spec})
    fifo = Scenario.model_validate({"policy": {"queueing": "fifo"}, "queues": spec})

    strict_setup, fifo_setup = strict.to_policy().queues, fifo.to_policy().queues

    assert strict_setup is not None
    assert fifo_setup is not None
    assert strict_setup.nodes[node(strict_setup, "A")].strict_fifo
    assert not fifo_setup.nodes[node(fifo_setup, "A")].strict_fifo


TWO_TYPES: list[NodeSpec] = [("a1", "A100", 8, 0.0, 0.0), ("h1", "H800", 8, 0.0, 0.0)]
TWO_FLAVORS = [{"name": "a100", "gpu_type": "A100"}, {"name": "h800", "gpu_type": "H800"}]


def test_flavors_are_tried_in_order_and_a_typed_job_only_uses_its_types_flavors() -> None:
    # team: a100 2, h800 4. j1 (2) takes a100; j2 (2) finds a100's quota full: h800 (h1).
    # At 5: j3 (1, A100 only) has just the a100 flavor, full: waits for quota until 100;
    # j4 (1, any type) gets h800 (2 + 1 <= 4) at once.
    setup = queues(
        flavors=TWO_FLAVORS,
        cluster_queues=[
            {
                "name": "team",
                "quotas": [{"flavor": "a100", "gpus": 2}, {"flavor": "h800", "gpus": 4}],
            }
        ],
    )
    jobs = [
        Job("j1", 0.0, 100.0, gpus=2, queue="team"),
        Job("j2", 0.0, 100.0, gpus=2, queue="team"),
        Job("j3", 5.0, 10.0, gpus=1, gpu_types=("A100",), queue="team"),
        Job("j4", 5.0, 10.0, gpus=1, queue="team"),
    ]

    result = run(jobs, TWO_TYPES, setup)

    assert placement(result, "j1") == {"a1": 2.0}
    assert placement(result, "j2") == {"h1": 2.0}
    assert start(result, "j4") == 5.0
    assert placement(result, "j4") == {"h1": 1.0}
    assert start(result, "j3") == 100.0
    assert waits(result, "j3") == {"quota": 95.0}
    assert placement(result, "j3") == {"a1": 1.0}


def test_a_flavor_whose_quota_fits_but_whose_nodes_are_full_is_passed_over() -> None:
    # hog's job fills the A100 node; team's a100 quota (8) fits t1 (4), but no A100 node can
    # place it: admission is placement-checked, so t1 gets h800 at once.
    setup = queues(
        flavors=TWO_FLAVORS,
        cluster_queues=[
            {"name": "hog", "quotas": [{"flavor": "a100", "gpus": 8}]},
            {
                "name": "team",
                "quotas": [{"flavor": "a100", "gpus": 8}, {"flavor": "h800", "gpus": 8}],
            },
        ],
    )
    jobs = [
        Job("h", 0.0, 100.0, gpus=8, queue="hog"),
        Job("t1", 10.0, 10.0, gpus=4, queue="team"),
    ]

    result = run(jobs, TWO_TYPES, setup)

    assert start(result, "t1") == 10.0
    assert placement(result, "t1") == {"h1": 4.0}


# --- 5. which ClusterQueue, and jobs no ClusterQueue can admit -----------------------------


def mapping_setup(default: str | None) -> QueueSetup:
    return queues(
        flavors=ANY_GPU,
        cluster_queues=[cq("team-a", 8), cq("team-b", 8)],
        local_queues={"lq-a": "team-a"},
        default_cluster_queue=default,
    )


MAPPED_JOBS = [
    Job("via-local", 0.0, 10.0, queue="lq-a"),
    Job("by-name", 0.0, 10.0, queue="team-b"),
    Job("by-cq-name", 0.0, 10.0, queue="team-a"),
    Job("unmapped", 0.0, 10.0, queue="somebody-else"),
]


def test_local_queues_cluster_queue_names_and_the_default_pick_the_cluster_queue() -> None:
    result = run(MAPPED_JOBS, ONE_8, mapping_setup("team-b"))

    assert result.cluster_queue == ["team-a", "team-b", "team-a", "team-b"]
    assert result.status == ["completed"] * 4
    assert result.unmapped_queues == {"somebody-else": 1}  # reported, not silently defaulted


def test_a_job_whose_queue_maps_nowhere_may_map_by_its_user() -> None:
    jobs = [Job("u", 0.0, 10.0, queue="default", user="lq-a"), *MAPPED_JOBS[3:]]
    result = run(jobs, ONE_8, mapping_setup(None))

    assert result.cluster_queue == ["team-a", ""]
    assert result.unmapped_queues == {"somebody-else": 1}


def test_an_unmapped_queue_without_a_default_is_unschedulable() -> None:
    result = run(MAPPED_JOBS, ONE_8, mapping_setup(None))

    assert result.cluster_queue == ["team-a", "team-b", "team-a", ""]
    assert result.status == ["completed"] * 3 + ["unschedulable"]
    assert result.unschedulable_reason == {3: "no_cluster_queue"}
    assert result.unmapped_queues == {"somebody-else": 1}


@pytest.mark.parametrize(
    ("cluster_queues", "gpus", "reason"),
    [
        # 2 of quota, no cohort: 3 can never be admitted
        ([cq("A", 2)], 3, "more_than_queue_quota"),
        # in a cohort with B's 2: 4 fits, 5 does not
        ([cq("A", 2, "org"), cq("B", 2, "org")], 4, None),
        ([cq("A", 2, "org"), cq("B", 2, "org")], 5, "more_than_queue_quota"),
        # borrowing limit 0.5: A reaches 2.5 at most
        ([cq("A", 2, "org", borrowing_limit=0.5), cq("B", 2, "org")], 3, "more_than_queue_quota"),
        # B lends at most 1: A reaches 3
        ([cq("A", 2, "org"), cq("B", 2, "org", lending_limit=1)], 3, None),
        ([cq("A", 2, "org"), cq("B", 2, "org", lending_limit=1)], 4, "more_than_queue_quota"),
        # hardware first: 9 GPUs are more than the 8 installed
        ([cq("A", 20)], 9, "more_gpus_than_installed"),
    ],
)
def test_a_job_beyond_what_its_cluster_queue_can_ever_get_is_unschedulable(
    cluster_queues: list[dict[str, Any]], gpus: int, reason: str | None
) -> None:
    setup = queues(flavors=ANY_GPU, cluster_queues=cluster_queues)

    result = run([Job("j", 0.0, 10.0, gpus=gpus, queue="A")], ONE_8, setup)

    if reason is None:
        assert result.status == ["completed"]
        assert result.start_s == [0.0]
    else:
        assert result.status == ["unschedulable"]
        assert result.unschedulable_reason == {0: reason}


def test_a_job_needs_its_quota_in_one_flavor() -> None:
    # 2 + 2 GPUs over two flavors, but a job gets one flavor: 3 GPUs can never be admitted.
    setup = queues(
        flavors=TWO_FLAVORS,
        cluster_queues=[
            {"name": "A", "quotas": [{"flavor": "a100", "gpus": 2}, {"flavor": "h800", "gpus": 2}]}
        ],
    )

    result = run([Job("j", 0.0, 10.0, gpus=3, queue="A")], TWO_TYPES, setup)

    assert result.unschedulable_reason == {0: "more_than_queue_quota"}


def test_a_job_of_an_installed_type_its_queue_has_no_flavor_for_is_not_type_not_installed() -> None:
    # H800 nodes exist; team's only flavor is a100. The job can never be admitted, but not
    # because the cluster lacks H800s: more_than_queue_quota (0 H800 GPUs of quota) fits.
    setup = queues(
        flavors=TWO_FLAVORS,
        cluster_queues=[{"name": "team", "quotas": [{"flavor": "a100", "gpus": 8}]}],
    )

    result = run([Job("j", 0.0, 10.0, gpu_types=("H800",), queue="team")], TWO_TYPES, setup)

    assert result.status == ["unschedulable"]
    assert result.unschedulable_reason[0] != "gpu_type_not_installed"


# --- 6. scenarios and the command line --------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {
                "flavors": ANY_GPU,
                "cluster_queues": [{"name": "A", "quotas": [{"flavor": "tpu", "gpus": 1}]}],
            },
            "A: unknown flavor 'tpu'",
        ),
        (
            {
                "flavors": ANY_GPU,
                "cohorts": [{"name": "org", "quotas": [{"flavor": "tpu", "gpus": 1}]}],
                "cluster_queues": [cq("A", 1, "org")],
            },
            "org: unknown flavor 'tpu'",
        ),
        (
            {"flavors": ANY_GPU, "cluster_queues": [cq("A", 1)], "local_queues": {"lq": "nope"}},
            "local queue 'lq' points to unknown ClusterQueue 'nope'",
        ),
        (
            {"flavors": ANY_GPU, "cluster_queues": [cq("A", 1)], "default_cluster_queue": "nope"},
            "default_cluster_queue 'nope' is not a ClusterQueue",
        ),
        (
            {
                "flavors": ANY_GPU,
                "cohorts": [{"name": "x", "parent": "y"}, {"name": "y", "parent": "x"}],
                "cluster_queues": [cq("A", 1, "x")],
            },
            "is its own ancestor",
        ),
        (
            {
                "flavors": ANY_GPU,
                "cohorts": [{"name": "x", "parent": "x"}],
                "cluster_queues": [cq("A", 1, "x")],
            },
            "cohort 'x' is its own ancestor",
        ),
        (
            {"flavors": ANY_GPU, "cohorts": [{"name": "A"}], "cluster_queues": [cq("A", 1)]},
            "cohort or ClusterQueue name 'A' is used twice",
        ),
        (
            {"flavors": ANY_GPU, "cluster_queues": [cq("A", -1)]},
            "greater than or equal to 0",
        ),
    ],
)
def test_bad_queue_specs_are_rejected_with_a_helpful_message(
    spec: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        QueuesSpec.model_validate(spec)


def test_a_cohort_named_like_a_cluster_queue_is_rejected() -> None:
    spec = {"flavors": ANY_GPU, "cluster_queues": [cq("A", 1, "A")]}

    with pytest.raises(ValidationError, match="'A'"):
        QueuesSpec.model_validate(spec)


def replay_json(capsys: pytest.CaptureFixture[str], scenario: str, db: Path) -> dict[str, Any]:
    argv = ["replay", "--scenario", str(SCENARIOS / scenario), "--json", "--db", str(db)]
    assert main(argv) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_sample_scenarios_run_and_borrowing_beats_hard_quotas(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "planner.duckdb"

    quotas = replay_json(capsys, "sample-quotas.yaml", db)
    borrowing = replay_json(capsys, "sample-borrowing.yaml", db)

    assert quotas["jobs"] == borrowing["jobs"] > 0
    assert borrowing["utilization"] > quotas["utilization"]
    assert borrowing["completed"] > quotas["completed"]
    assert borrowing["unfinished"] == quotas["unfinished"] == 0
    assert set(quotas["borrowed_gpu_hours"].values()) == {0.0}
    assert set(quotas["lent_gpu_hours"].values()) == {0.0}
    borrowed = sum(borrowing["borrowed_gpu_hours"].values())
    assert borrowed > 0
    assert sum(borrowing["lent_gpu_hours"].values()) == pytest.approx(borrowed)
    assert quotas["unschedulable_by_reason"]["more_than_queue_quota"] > (
        borrowing["unschedulable_by_reason"].get("more_than_queue_quota", 0)
    )
