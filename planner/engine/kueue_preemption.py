"""Kueue classic preemption inside the replay: which running jobs a queue head may evict.

The rules (within the ClusterQueue by priority, reclaim within the cohort, borrowing within
the cohort, minimal victim sets) are `planner.engine.preemption`'s; this applies them to the
replay's running jobs, with what-ifs on the quotas and the nodes that are undone exactly.
A preemptor waits for its victims' pods to terminate (`Policy.termination_grace_s`) and is
then admitted before any queue head.
"""

from typing import TYPE_CHECKING

from planner.engine.cluster import Allowed
from planner.engine.preemption import Candidate, choose_victims, may_preempt_in_queue, may_reclaim
from planner.engine.shapes import milli
from planner.engine.states import WAITING

if TYPE_CHECKING:
    from planner.engine.kueue import Kueue
    from planner.engine.loop import Replay


class Preemption:
    def __init__(self, replay: "Replay", kueue: "Kueue") -> None:
        self.replay = replay
        self.kueue = kueue
        self.quotas = kueue.quotas
        self.awaiting: dict[int, float] = {}
        """Preemptors whose victims are terminating -> when the last one is gone."""

    def admit_preemptors(self) -> None:
        """Kueue prefers a preemptor once its victims are gone (WaitingForPreemptedWorkloads):
        it gets the quota it reclaimed before any queue head, or an evicted borrower could take
        that quota back and be evicted again, every grace period, forever."""
        replay, gate = self.replay, self.kueue.gate
        priority = self.kueue.priority
        due = sorted((-priority[i], t, i) for i, t in self.awaiting.items() if t <= replay.now)
        for _, _, i in due:
            del self.awaiting[i]
            if replay.state[i] == WAITING and (gate is None or gate.allows(i)):
                self.kueue.try_start(i)

    def preempt(self, i: int) -> bool:
        """Evict running jobs so that `i` fits its quota, if its queue's policy allows."""
        replay, kueue = self.replay, self.kueue
        sid = replay.shape_of[i]
        cq, request = replay.shape_cq[sid], milli(replay.shapes[sid])
        policy = self.quotas.setup.nodes[cq].preemption
        if not policy.enabled or kueue.usage.over_budget(cq):
            return False
        for flavor, where in kueue.flavors_of(sid):
            nominal = self.quotas.nominal[cq][flavor]
            if request > nominal and policy.borrow_within_cohort == "Never":
                continue  # a request beyond nominal quota preempts only with borrowWithinCohort
            borrowing = self.quotas.usage[cq][flavor] + request > nominal
            candidates = self._candidates(i, flavor, borrowing=borrowing)

            def fits_without(
                victims: list[Candidate], flavor: int = flavor, where: Allowed = where
            ) -> bool:
                return self._fits_without(sid, flavor, where, victims)

            def still_borrowing(
                chosen: list[Candidate], c: Candidate, flavor: int = flavor
            ) -> bool:
                return self._borrows_without(kueue.cq_of_job[c.job], flavor, chosen)

            victims = (
                choose_victims(candidates, fits_without, still_borrowing) if candidates else None
            )
            if victims:
                grace = replay.policy.termination_grace_s
                for victim in victims:
                    replay.evictions.evict(victim.job, grace_s=grace)
                if grace:
                    # Kueue admits the preemptor in a later cycle, once its victims are gone
                    self.awaiting[i] = replay.now + grace
                return True
        return False

    def _candidates(self, i: int, flavor: int, *, borrowing: bool) -> list[Candidate]:
        replay, quotas, kueue = self.replay, self.quotas, self.kueue
        cq = kueue.cq_of_job[i]
        policy = quotas.setup.nodes[cq].preemption
        mine = (kueue.priority[i], i)
        root = self._root_of(cq)
        min_run_s = replay.policy.min_run_s
        found: list[Candidate] = []
        for j in kueue.running_on_flavor.get(flavor, ()):
            start = replay.start[j]
            assert start is not None
            if replay.now - start < min_run_s:
                replay.retry_at(start + min_run_s)
                continue
            theirs = kueue.priority[j]
            other = kueue.cq_of_job[j]
            if other == cq:
                if may_preempt_in_queue(policy, mine, (theirs, j)):
                    found.append(Candidate(j, theirs, start, other_queue=False))
            elif (
                self._root_of(other) == root
                and quotas.setup.nodes[other].reclaimable
                and quotas.usage[other][flavor] > quotas.nominal[other][flavor]
                and may_reclaim(policy, mine[0], theirs, borrowing=borrowing)
            ):
                found.append(Candidate(j, theirs, start, other_queue=True))
        return found

    def _root_of(self, node: int) -> int:
        parent = self.quotas.parent
        while parent[node] >= 0:
            node = parent[node]
        return node

    def _fits_without(
        self, sid: int, flavor: int, where: Allowed, victims: list[Candidate]
    ) -> bool:
        """Whether a job of shape `sid` would be admitted on `flavor` once `victims` are gone:
        its queue's quotas (GPUs, and CPU and memory where limited: nominal plus what it may
        borrow) and the flavor's nodes. Kueue evicts no victim set that leaves it pending."""
        kueue, shape_of = self.kueue, self.replay.shape_of
        for victim in victims:
            kueue.charge(kueue.cq_of_job[victim.job], flavor, shape_of[victim.job], -1)
        fits = kueue.fits_quota(self.replay.shape_cq[sid], flavor, sid)
        for victim in victims:
            kueue.charge(kueue.cq_of_job[victim.job], flavor, shape_of[victim.job], 1)
        return fits and self._places_without(sid, where, victims)

    def _borrows_without(self, cq: int, flavor: int, victims: list[Candidate]) -> bool:
        """Whether the ClusterQueue still uses more than its nominal quota once `victims`
        are gone."""
        replay, cq_of_job = self.replay, self.kueue.cq_of_job
        gone = sum(
            milli(replay.shapes[replay.shape_of[v.job]]) for v in victims if cq_of_job[v.job] == cq
        )
        return self.quotas.usage[cq][flavor] - gone > self.quotas.nominal[cq][flavor]

    def _places_without(self, sid: int, where: Allowed, victims: list[Candidate]) -> bool:
        """A what-if on the nodes, undone exactly (the placement's random draws too)."""
        replay = self.replay
        pod, count, _ = replay.shapes[sid]
        cluster = replay.cluster
        draws = cluster.rng.getstate()
        for victim in victims:
            replay.release_job(victim.job)
        plan = cluster.plan(pod, count, where)
        for victim in victims:
            replay.reapply_job(victim.job)
        cluster.rng.setstate(draws)
        return plan is not None
