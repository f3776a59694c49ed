"""The twin check: its comparison measures by hand, and the calibration recovering a known
start latency and background load from a history made by replaying a known cluster."""

import random
from dataclasses import replace

import pytest

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.engine.latency import SizeClasses, StartLatency
from planner.engine.loop import simulate
from planner.engine.policy import Policy
from planner.twin.calibrate import (
    NoObservedStartsError,
    TwinInput,
    default_fit_until,
    effective_nodes,
    run_twin,
    start_order_agreement,
)
from planner.twin.capacity_floor import floor_share, observed_peaks
from planner.twin.compare import (
    Outcome,
    compare,
    judge,
    ks_distance,
    quantiles,
    verdict_text,
    wasserstein,
)
from planner.twin.report import Miss

FLOOR_S = 45.0
NODES, GPUS_PER_NODE, BUSY_NODES = 10, 8, 4


def _nodes(count: int) -> list[NodeSpec]:
    return [NodeSpec(f"n{i:02d}", "A100", GPUS_PER_NODE, 0.0, 0.0) for i in range(count)]


def _history(seed: int = 7, jobs: int = 1200) -> list[Job]:
    """Jobs replayed on the 6 nodes the background load leaves, each entering the queue
    `FLOOR_S` after its submission; their replayed starts become the observed ones."""
    rng = random.Random(seed)
    t, made = 0.0, []
    for k in range(jobs):
        t += rng.expovariate(1 / 420.0)
        gpus = rng.choice((1, 1, 1, 2, 4, 8))
        made.append(Job(f"j{k:05d}", t, rng.expovariate(1 / 4500.0) + 60, gpus=gpus))
    free = _nodes(NODES - BUSY_NODES)
    latency = StartLatency(SizeClasses(), {}, (FLOOR_S,), fixed_s=FLOOR_S)
    result = simulate(made, free, Policy(start_latency=latency))
    by_id = {job.job_id: i for i, job in enumerate(result.jobs)}
    return [
        replace(
            job, start_s=result.start_s[by_id[job.job_id]], end_s=result.end_s[by_id[job.job_id]]
        )
        for job in made
    ]


@pytest.fixture(scope="module")
def recovered():
    history = _history()
    return run_twin(TwinInput("synthetic", "10 nodes", history, _nodes(NODES), Policy()))


def test_calibration_recovers_the_background_load_within_10_percent(recovered):
    cal = recovered.report.calibration
    background = NODES * GPUS_PER_NODE - cal.effective_gpus
    assert abs(background - BUSY_NODES * GPUS_PER_NODE) <= 0.1 * BUSY_NODES * GPUS_PER_NODE
    # the plain replay on all 10 nodes is the idle cluster the history never met
    assert recovered.report.before.replayed.p90 < recovered.report.after.replayed.p90


def _held_at_once(history: list[Job]) -> float:
    """The most GPUs the history's jobs held at once, by a sweep (ends before starts)."""
    changes = sorted(
        [(j.end_s, -j.total_gpus) for j in history] + [(j.start_s, j.total_gpus) for j in history]
    )
    level = peak = 0.0
    for _, change in changes:
        level += change
        peak = max(peak, level)
    return peak


def test_the_capacity_fit_never_tries_less_than_the_history_held_at_once(recovered):
    """Issue 31, item 2: a cluster that ran N GPUs of jobs at once had N GPUs for them."""
    cal = recovered.report.calibration
    peak = _held_at_once(_history())

    assert cal.peak_gpus == peak
    assert cal.peak_gpus_by_pool == {}  # no job names a GPU type
    assert min(c.gpus for c in cal.capacity_scores) >= peak
    assert cal.effective_gpus >= peak


def test_observed_peaks_per_pool_and_the_least_share_that_holds_them():
    """A100: a (4 GPUs, 0-100 s) and b (4, 50-150) overlap: 8. H800: c (8, 0-10): 8.
    Untyped d (2 pods x 8, 100-200). In all: 4 + 8 = 12 at 0-10; at 100 a ends as d starts
    (ends first): 4 + 16 = 20 at 100-150, the peak. The node list: 4 A100 and 4 H800 nodes
    of 8 GPUs, cut in proportion (round(4 x share) of each): 1 of each (16 GPUs) holds each
    type's 8 but not 20; 2 of each (32) holds all, from round(4 x 0.375) = 2 on."""
    jobs = [
        replace(Job("a", 0.0, 100.0, gpus=4.0, gpu_types=("a100",)), start_s=0.0, end_s=100.0),
        replace(Job("b", 0.0, 100.0, gpus=4.0, gpu_types=("A100",)), start_s=50.0, end_s=150.0),
        replace(Job("c", 0.0, 10.0, gpus=8.0, gpu_types=("H800",)), start_s=0.0, end_s=10.0),
        replace(Job("d", 0.0, 100.0, pods=2, gpus=8.0), start_s=100.0, end_s=200.0),
    ]
    observed = {j.job_id: Outcome(j.start_s, j.end_s, False) for j in jobs}
    nodes = [NodeSpec(f"a{i}", "A100", 8, 0.0, 0.0) for i in range(4)]
    nodes += [NodeSpec(f"h{i}", "H800", 8, 0.0, 0.0) for i in range(4)]

    peaks = observed_peaks(jobs, observed)
    share = floor_share(nodes, peaks, effective_nodes)

    assert peaks.gpus == {"": 20.0, "A100": 8.0, "H800": 8.0}
    assert share == 0.375
    assert sum(n.gpus for n in effective_nodes(nodes, share)) == 32


def test_calibration_recovers_the_latency_floor_within_10_percent(recovered):
    classes = recovered.report.calibration.latency
    assert classes, "the fit found no class with enough uncontended starts"
    for c in classes:
        assert abs(c.p50_s - FLOOR_S) <= 0.1 * FLOOR_S, c
    # every job of a what-if enters the queue at least the floor after its submission
    latency = recovered.latency
    assert all(abs(latency.latency_s(j) - FLOOR_S) <= 0.1 * FLOOR_S for j in _history()[:200])


def test_the_calibrated_replay_matches_the_held_back_window(recovered):
    after = recovered.report.after
    assert after.matches, after.verdict
    assert after.ks_distance is not None
    assert after.ks_distance < recovered.report.before.ks_distance


def test_the_closed_system_check_warns_when_the_history_uses_little_of_the_node_list():
    history = _history(jobs=300)
    big = _nodes(400)
    run = run_twin(TwinInput("synthetic", "400 nodes", history, big, Policy()))
    assert run.report.history_gpu_share < 0.2
    assert any("busy with work this history does not show" in n for n in run.report.notes)


def test_a_history_without_observed_starts_cannot_have_a_twin():
    jobs = [Job("a", 0.0, 60.0), Job("b", 10.0, 60.0)]
    with pytest.raises(NoObservedStartsError, match="no observed start times"):
        run_twin(TwinInput("t", "c", jobs, _nodes(1), Policy()))


def test_quantiles_distances_and_verdict_by_hand():
    q = quantiles([0.0, 10.0, 20.0, 30.0, 40.0])
    assert (q.p50, q.mean) == (20.0, 20.0)
    assert q.p90 == pytest.approx(36.0)
    # CDFs of {0, 10} and {10, 20}: the largest gap is 0.5, the area between them 10
    assert ks_distance([0.0, 10.0], [10.0, 20.0]) == 0.5
    assert wasserstein([0.0, 10.0], [10.0, 20.0]) == pytest.approx(10.0)
    assert wasserstein([5.0], [5.0]) == 0.0
    assert judge(quantiles([10.0, 100.0]), quantiles([15.0, 150.0]), (100, 95)) == ()
    assert "matches what happened (p50, p90 and p99 waits within a factor of 2" in (
        verdict_text(())
    )
    misses = judge(quantiles([10.0, 100.0]), quantiles([10.0, 500.0]), (100, 80))
    assert [m.quantity for m in misses] == ["p50", "p90", "p99", "withdrawn"]  # 55 s vs 255 s...
    assert misses[-1] == Miss("withdrawn", 80, 100)
    text = verdict_text(misses)
    assert text.startswith("The replay does not match what happened")
    assert "withdrawn 80 vs 100 observed" in text


def test_compare_counts_waits_withdrawals_and_allocation_by_hand():
    jobs = [
        Job("a", 0.0, 3600.0, gpus=2.0, start_s=0.0, end_s=3600.0),
        Job("b", 0.0, 3600.0, gpus=1.0, start_s=600.0, end_s=4200.0),
        Job("c", 100.0, 0.0, status="withdrawn", withdraw_after_s=50.0),
    ]
    observed = {
        "a": Outcome(0.0, 3600.0, False),
        "b": Outcome(600.0, 4200.0, False),
        "c": Outcome(None, None, True),
    }
    replayed = {
        "a": Outcome(0.0, 3600.0, False),
        "b": Outcome(0.0, 3600.0, False),
        "c": Outcome(120.0, 150.0, False),
    }
    c = compare(jobs, observed, replayed, (0.0, 7200.0), 3600.0)
    assert c.jobs == 3
    assert c.withdrawn == (1, 0)
    assert (c.observed.jobs, c.replayed.jobs) == (2, 3)  # c started in the replay
    assert c.waiting_gpu_hours == (pytest.approx(600 / 3600), pytest.approx(20 / 3600))
    assert c.waited_share == (0.5, pytest.approx(1 / 3))
    # allocated GPU-seconds per hour bin: observed (2*3600 + 3000, 600), replayed
    # (3*3600 + 30, 0): mean |difference| over the 2 bins / mean observed, in GPUs
    obs, rep = [10200 / 3600, 600 / 3600], [10830 / 3600, 0.0]
    error = (abs(obs[0] - rep[0]) + abs(obs[1] - rep[1])) / 2 / (sum(obs) / 2)
    assert c.allocation_error == pytest.approx(error)
    # the window's totals: observed 10800, replayed 10830 GPU-s: 30 / 10800 off
    assert c.allocation_level_error == pytest.approx(30 / 10800)


def test_the_fit_window_defaults_to_sixty_percent_of_the_jobs():
    jobs = [Job(f"j{i}", float(i), 1.0) for i in range(10)]
    assert default_fit_until(jobs) == 6.0


def test_effective_nodes_cut_every_kind_in_proportion():
    nodes = _nodes(10) + [NodeSpec(f"c{i}", "", 0, 32.0, 128.0) for i in range(4)]
    kept = effective_nodes(nodes, 0.5)
    assert sum(n.gpus > 0 for n in kept) == 5
    assert sum(n.gpus == 0 for n in kept) == 2


def test_start_order_agreement_by_hand():
    jobs = [Job(k, 0.0, 1.0) for k in "abcd"]
    observed = {k: Outcome(float(i), None, False) for i, k in enumerate("abcd")}
    same = {k: Outcome(10.0 * i, None, False) for i, k in enumerate("abcd")}
    reversed_ = {k: Outcome(-float(i), None, False) for i, k in enumerate("abcd")}
    assert start_order_agreement(jobs, observed, same) == 1.0
    assert start_order_agreement(jobs, observed, reversed_) == -1.0
    never = {k: Outcome(None, None, True) for k in "abcd"}
    assert start_order_agreement(jobs, observed, never) is None


def test_the_policy_fit_reports_the_order_the_history_was_started_in(recovered):
    cal = recovered.report.calibration
    assert cal.policy.order_agreement is not None
    assert cal.policy.order_agreement > 0.99
    assert cal.policy.score == min(p.score for p in cal.policy_scores)


def test_a_background_load_given_as_an_online_curve_is_accepted(recovered):
    """The user knows the missing load (colocation's hourly online GPUs): the twin replays
    with it on the whole node list, and there is nothing left for the capacity fit."""
    from planner.engine.colocation import Colocation

    busy = (BUSY_NODES * GPUS_PER_NODE,) * 24
    policy = Policy(colocation=Colocation(busy))
    run = run_twin(TwinInput("synthetic", "10 nodes", _history(), _nodes(NODES), policy))
    cal = run.report.calibration
    assert cal.effective_gpus == NODES * GPUS_PER_NODE
    assert run.report.after.matches, run.report.after.verdict
    # the same history without the curve needs the fitted cut
    assert recovered.report.calibration.effective_gpus < NODES * GPUS_PER_NODE
