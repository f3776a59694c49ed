"""Choosing nodes among those that fit: fewest nodes for a gang, then the policy's score.

The caller (`ClusterState.plan`) filters node states into candidates; this module picks
nodes from them and, for pods asking for a share of one GPU, the GPU. Scores are memoised per
(state, pod shape, pods placed), so a state is scored once however many nodes are in it.
"""

from planner.engine.cluster_types import MILLI, UNLIMITED, Allowed, PodShape, Score, StateKey
from planner.engine.placement_plugin import ClusterView, PlacementPolicy
from planner.engine.pod_fit import PodFit

_RANDOM_TRIES = 32

Candidate = tuple[int, int, list[int], int]
"""(state id, pods one node takes, the state's nodes, how many of them are usable)."""


class NodePicker:
    """Selection under one placement policy."""

    def __init__(self, policy: PlacementPolicy, view: ClusterView, fit: PodFit) -> None:
        self.policy = policy
        self.at_random = policy.score is None
        self._view = view
        self._states = view.states
        self._fit = fit
        self._rng = view.rng
        self._allowed_nodes: dict[Allowed, list[int]] = {}
        self._scores: dict[tuple[int, int], dict[int, Score]] = {}
        """(pod id, pods placed) -> state id -> score."""

    def random_node(
        self, pod: PodShape, pid: int, allowed: Allowed, avoid: bool, node_class: list[int]
    ) -> int | None:
        """A uniformly random node that fits, by rejection sampling (None: enumerate instead).

        Accepting only nodes that fit, from uniform draws over all allowed nodes, is uniform
        over the nodes that fit, and costs O(1) draws while much of the cluster fits.
        """
        nodes = self._allowed_nodes.get(allowed)
        if nodes is None:
            nodes = self._allowed_nodes[allowed] = [
                n for n, c in enumerate(node_class) if allowed is None or c in allowed
            ]
        if not nodes:
            return None
        reserved, node_state = self._states.reserved, self._states.node_state
        for _ in range(_RANDOM_TRIES):
            node = nodes[self._rng.randrange(len(nodes))]
            if avoid and node in reserved:
                continue
            if self._fit.fitting(node_state[node], pod, pid, False):
                return node
        return None

    def pick_one(self, candidates: list[Candidate], pod: PodShape, pid: int, avoid: bool) -> int:
        if self.at_random:
            chosen = self._rng.randrange(sum(c[3] for c in candidates))
            for _, _, nodes, usable in candidates:
                if chosen < usable:
                    return self._states.node_in(nodes, avoid, chosen)
                chosen -= usable
        return self._states.node_in(self.best_one(candidates, pod, pid)[2], avoid, 0)

    def best_one(self, candidates: list[Candidate], pod: PodShape, pid: int) -> Candidate:
        """The candidate a single pod goes to under a scoring policy (first of equals)."""
        best = candidates[0]
        if len(candidates) > 1:
            memo = self._memo(pid, 1)
            best_score: Score = 0
            for index, candidate in enumerate(candidates):
                sid = candidate[0]
                score = memo.get(sid)
                if score is None:
                    score = memo[sid] = self._score(sid, pod, 1)
                if not index or score < best_score:
                    best, best_score = candidate, score
        return best

    def plan_gang(
        self, candidates: list[Candidate], pod: PodShape, pid: int, count: int, avoid: bool
    ) -> list[tuple[int, int]]:
        """A node that takes every remaining pod wins, else one that takes the most."""
        used = [0] * len(candidates)
        plan: list[tuple[int, int]] = []
        remaining = count
        while remaining:
            open_ = [i for i, c in enumerate(candidates) if used[i] < c[3]]
            whole = [i for i in open_ if candidates[i][1] >= remaining]
            if whole:
                take = remaining
                pool = whole
            else:
                take = max(candidates[i][1] for i in open_)
                pool = [i for i in open_ if candidates[i][1] == take]
            if self.at_random:
                index = pool[self._rng.randrange(len(pool))]
            else:
                memo = self._memo(pid, take)
                index = min(pool, key=lambda i: self._scored(memo, candidates[i][0], pod, take))
            node = self._states.node_in(candidates[index][2], avoid, used[index])
            used[index] += 1
            plan.append((node, take))
            remaining -= take
        return plan

    def gpu_value(self, free: tuple[int, ...], milli: int) -> int:
        """Free milli of the GPU a pod asking for `milli` of one GPU goes on."""
        options = sorted({f for f in free if f >= milli})
        return self.policy.gpu_choice(self._view, free, options, milli)

    def scores(self, pid: int) -> dict[int, Score]:
        """The memo of single-pod scores of one pod shape, by state id."""
        return self._memo(pid, 1)

    def scored(self, memo: dict[int, Score], sid: int, pod: PodShape) -> Score:
        """One pod's score in state `sid`, through `memo` (from `scores`)."""
        return self._scored(memo, sid, pod, 1)

    def _memo(self, pid: int, pods: int) -> dict[int, Score]:
        memo = self._scores.get((pid, pods))
        if memo is None:
            memo = self._scores[(pid, pods)] = {}
        return memo

    def _scored(self, memo: dict[int, Score], sid: int, pod: PodShape, pods: int) -> Score:
        score = memo.get(sid)
        if score is None:
            score = memo[sid] = self._score(sid, pod, pods)
        return score

    def _score(self, sid: int, pod: PodShape, pods: int) -> Score:
        """The policy's score of a node in state `sid` once it holds `pods` more pods."""
        assert self.policy.score is not None, "a random policy scores nothing"
        key = self._states.states[sid]
        return self.policy.score(self._view, key, self._after(key, pod, pods))

    def _after(self, key: StateKey, pod: PodShape, pods: int) -> StateKey:
        """The state a node in `key` would be in with `pods` more such pods."""
        cls, free, cpu_free, mem_free = key
        milli, gpus, cpu, mem = pod
        values = list(free)
        shared = self._view.hardware.shared.get(cls)
        for _ in range(pods):
            if shared is not None:
                if gpus:
                    shared.take(values, milli, gpus)
            elif milli == MILLI:
                for _ in range(gpus):
                    values[values.index(MILLI)] = 0
            elif gpus:
                values[values.index(self.gpu_value(tuple(values), milli))] -= milli
        return (
            cls,
            tuple(sorted(values, reverse=True)),
            cpu_free if cpu_free == UNLIMITED else cpu_free - cpu * pods,
            mem_free if mem_free == UNLIMITED else mem_free - mem * pods,
        )
