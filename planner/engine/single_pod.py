"""Placing one pod under a scoring policy with no reservation to avoid: the common case.

Most jobs are one pod, and most of a replay's placements are this case. Where the pod goes
depends only on which node states have nodes and in what order (fits and scores are memoised
per state), so the chosen state is remembered until `NodeStates.version` moves; the node is
the last of its state, as `NodeStates.node_in` takes it. The choice is the one
`ClusterState.plan` makes through `NodePicker.best_one`, to the bit.
"""

from planner.engine.cluster_types import Allowed, PodShape, Score
from planner.engine.node_states import NodeStates
from planner.engine.pod_fit import PodFit
from planner.engine.selection import NodePicker


class SinglePod:
    """The remembered choice per (pod shape, allowed classes), and the scan that makes it."""

    def __init__(self, index: NodeStates, fit: PodFit, picker: NodePicker) -> None:
        self._index = index
        self._fit = fit
        self._picker = picker
        self._chosen: dict[tuple[int, Allowed], tuple[int, int]] = {}
        """(pod id, allowed) -> (index version, state id or -1 for none fits)."""
        self._any_version: list[int] = []
        self._any_sid: list[int] = []
        """The same per pod id for pods any class may take, by index: most pods are such,
        and a list read builds no key (issue 33)."""

    def plan(self, pod: PodShape, pid: int, allowed: Allowed) -> list[tuple[int, int]] | None:
        """The node for one `pod` (id `pid`), as a one-entry plan; None if it fits nowhere."""
        sid = self._any_state(pod, pid) if allowed is None else self._state_for(pod, pid, allowed)
        if sid < 0:
            return None
        nodes = self._index.members[sid]
        return [(nodes[len(nodes) - 1], 1)]

    def _any_state(self, pod: PodShape, pid: int) -> int:
        """The chosen state for a pod any class may take (-1: none fits)."""
        known = self._any_version
        while len(known) <= pid:
            known.append(-1)
            self._any_sid.append(-1)
        if known[pid] == self._index.version:
            return self._any_sid[pid]
        sid = self._any_sid[pid] = self._best_state(pod, pid, None)
        known[pid] = self._index.version  # scoring may have moved it
        return sid

    def _state_for(self, pod: PodShape, pid: int, allowed: Allowed) -> int:
        """The chosen state for a pod only some classes may take (-1: none fits)."""
        key = (pid, allowed)
        hit = self._chosen.get(key)
        if hit is not None and hit[0] == self._index.version:
            return hit[1]
        sid = self._best_state(pod, pid, allowed)
        self._chosen[key] = (self._index.version, sid)
        return sid

    def _best_state(self, pod: PodShape, pid: int, allowed: Allowed) -> int:
        """`NodePicker.best_one` over the states that take the pod, fused (-1: none does).

        NOTE: inlined for speed, and `PodFit.taking` in it (its generator made a tuple per
        state, half a replay's placements come here); a lone candidate is not scored, as
        `best_one` does not score one (scoring may intern states)."""
        picker, fit, index = self._picker, self._fit, self._index
        cap, classes = fit.cap[pid], index.state_class
        first = best = -1
        best_score: Score = 0
        memo: dict[int, Score] | None = None
        for group in index.groups_for(pod, pid):
            for sid in group:
                if allowed is not None and classes[sid] not in allowed:
                    continue
                fits = cap.get(sid)
                if fits is None:
                    fits = fit.fitting(sid, pod, pid, False)
                if not fits:
                    continue
                if first < 0:
                    first = best = sid
                    continue
                if memo is None:  # a second candidate: score the first too
                    memo = picker.scores(pid)
                    best_score = picker.scored(memo, first, pod)
                score = memo.get(sid)
                if score is None:
                    score = picker.scored(memo, sid, pod)
                if score < best_score:
                    best, best_score = sid, score
        return best
