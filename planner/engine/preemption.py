"""Kueue's classic preemption: who may be evicted so a pending workload fits its quota.

Candidates come from the preemptor's own ClusterQueue (`within_cluster_queue`) and from
other ClusterQueues of its cohort that are borrowing (`reclaim_within_cohort`, and with
`borrow_within_cohort` also while the preemptor itself borrows). They are tried in Kueue's
order: other queues' (reclaimable) workloads first, lowest priority first, most recently
started first; the greedy set is then minimised by walking it back and keeping out only
the victims that are needed (`../shared/reference/scheduler-semantics.md`, A1).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

WithinQueue = Literal["Never", "LowerPriority", "LowerOrNewerEqualPriority"]
Reclaim = Literal["Never", "LowerPriority", "Any"]
BorrowWithin = Literal["Never", "LowerPriority"]


@dataclass(frozen=True, slots=True)
class PreemptionPolicy:
    within_cluster_queue: WithinQueue = "Never"
    reclaim_within_cohort: Reclaim = "Never"
    borrow_within_cohort: BorrowWithin = "Never"
    max_priority_threshold: int | None = None
    """borrow_within_cohort may only preempt workloads at or below this priority."""

    @property
    def enabled(self) -> bool:
        return self.within_cluster_queue != "Never" or self.reclaim_within_cohort != "Never"


@dataclass(frozen=True, slots=True)
class Candidate:
    job: int
    priority: int
    start_s: float
    other_queue: bool


def may_preempt_in_queue(
    policy: PreemptionPolicy, mine: tuple[int, int], theirs: tuple[int, int]
) -> bool:
    """(priority, job index) of the preemptor and a running job of the same ClusterQueue."""
    if policy.within_cluster_queue == "LowerPriority":
        return theirs[0] < mine[0]
    if policy.within_cluster_queue == "LowerOrNewerEqualPriority":
        return theirs[0] < mine[0] or (theirs[0] == mine[0] and theirs[1] > mine[1])
    return False


def may_reclaim(policy: PreemptionPolicy, priority: int, theirs: int, *, borrowing: bool) -> bool:
    """A running job of another, borrowing, ClusterQueue of the cohort."""
    if policy.reclaim_within_cohort == "Any" and not borrowing:
        return True
    if policy.reclaim_within_cohort == "LowerPriority" and not borrowing:
        return theirs < priority
    if borrowing and policy.borrow_within_cohort == "LowerPriority":
        threshold = policy.max_priority_threshold
        return theirs < priority and (threshold is None or theirs <= threshold)
    return False


def choose_victims(
    candidates: list[Candidate],
    fits_without: Callable[[list[Candidate]], bool],
    still_borrowing: Callable[[list[Candidate], Candidate], bool] | None = None,
) -> list[Candidate] | None:
    """The smallest greedy set whose eviction lets the preemptor fit, or None.

    `still_borrowing(chosen, candidate)`: whether another queue's candidate's queue still
    borrows once `chosen` are gone; Kueue passes over it otherwise, so reclaiming never
    takes a queue below its nominal quota (which would let it reclaim back: a livelock).
    """
    ordered = sorted(candidates, key=lambda c: (not c.other_queue, c.priority, -c.start_s, c.job))
    chosen: list[Candidate] = []
    for candidate in ordered:
        if candidate.other_queue and still_borrowing and not still_borrowing(chosen, candidate):
            continue
        chosen.append(candidate)
        if fits_without(chosen):
            break
    else:
        return None
    for candidate in reversed(chosen[:-1]):
        trial = [c for c in chosen if c is not candidate]
        if fits_without(trial):
            chosen = trial
    return chosen
