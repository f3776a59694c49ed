"""A cluster's free capacity, indexed by distinct node state, and where pods go.

Nodes with the same hardware and the same free resources are interchangeable, so the index
groups them: `members[state] -> node ids`. Placing a pod scores each distinct state once
(memoised), never each node, which keeps a placement at O(distinct states) whatever the node
count. Units are integers: milli-GPUs per GPU, milli-CPUs and MiB, so sums never drift.

A node's state is `(class id, free milli-GPU of each GPU sorted high to low, free milli-CPU,
free MiB)`. CPU or memory a node does not limit (capacity 0 in the cluster description) is
`UNLIMITED` and never decremented.
"""

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from planner.engine.shared_gpus import SharedGpus
from planner.engine.sharing import SharingMode, find_profile

MILLI = 1000
UNLIMITED = 1 << 60
_INFINITE_PODS = 1 << 30
_RANDOM_TRIES = 32
_SHARED_GROUP = (1 << 30, MILLI)
"""Group key of MIG and time-sliced states: every GPU pod looks at them (fit decides)."""

Placement = Literal["best-fit", "binpack", "spread", "random", "fgd"]
PLACEMENTS: tuple[Placement, ...] = ("best-fit", "binpack", "spread", "random", "fgd")


class PodShape(NamedTuple):
    """Integer request of one pod; (460, 1, ...) is a share of one GPU, (1000, 2, ...) two
    whole GPUs. CPU and memory are 0 when the cluster does not limit them."""

    milli: int
    """Milli-GPU per GPU."""
    gpus: int
    cpu: int
    """Milli-CPU."""
    mem: int
    """MiB."""

    @property
    def gpu_milli(self) -> int:
        """Milli-GPUs the pod takes in all (`milli * gpus`)."""
        return self.milli * self.gpus


StateKey = tuple[int, tuple[int, ...], int, int]
Allowed = frozenset[int] | None
"""Node classes a job may use (by GPU type); None means any."""


class NodeAlloc(NamedTuple):
    """Pods placed on one node, with exactly what they took: enough to undo a placement."""

    node: int
    pods: int
    slices: tuple[tuple[int, int], ...]
    """(GPU index, milli-GPU or the sharing's amount) per GPU taken from."""


# NOTE: one shape per job and one allocation per placement are built, so both skip the
# NamedTuples' Python-level __new__ (several times slower than a tuple display).
_new_tuple = tuple.__new__

Score = float | int


@dataclass(frozen=True, slots=True)
class NodeClass:
    """Hardware shared by several nodes; cpu and mem 0 mean not limited."""

    gpu_type: str
    gpus: int
    cpu: int
    mem: int
    sharing: SharingMode | None = None

    @property
    def pool(self) -> str:
        return self.gpu_type or "cpu-only"


@dataclass(frozen=True, slots=True)
class TypicalPod:
    """One entry of the workload mix the FGD fragmentation measure is taken against."""

    pod: PodShape
    allowed: Allowed
    weight: float


def pod_shape(gpus: float, cpu: float, mem_gib: float, *, cpu_on: bool, mem_on: bool) -> PodShape:
    """Integer request of a pod; a fraction of a GPU is a share of one GPU, more is whole GPUs.

    Requests above one GPU that are not whole (1.5) round up: a GPU is not divisible across
    pods in Kubernetes beyond one shared GPU.
    """
    cpu_milli = round(cpu * MILLI) if cpu_on else 0
    mem_mib = round(mem_gib * 1024) if mem_on else 0
    if gpus <= 0:
        return _new_tuple(PodShape, (0, 0, cpu_milli, mem_mib))
    if gpus < 1:
        return _new_tuple(PodShape, (max(1, round(gpus * MILLI)), 1, cpu_milli, mem_mib))
    whole = int(gpus) if gpus == int(gpus) else int(gpus) + 1
    return _new_tuple(PodShape, (MILLI, whole, cpu_milli, mem_mib))


class ClusterState:
    """Free resources of every node, and placement under one policy."""

    def __init__(
        self,
        specs: Sequence[tuple[str, str, int, float, float]],
        placement: Placement = "best-fit",
        *,
        seed: int = 0,
        typical: Sequence[TypicalPod] = (),
        sharing: Mapping[str, SharingMode] | None = None,
    ) -> None:
        self.placement = placement
        self.rng = random.Random(seed)
        self.typical = tuple(typical)
        self.node_ids = [spec[0] for spec in specs]
        self.classes: list[NodeClass] = []
        class_of: dict[NodeClass, int] = {}
        self.node_class: list[int] = []
        modes = {k.upper(): v for k, v in (sharing or {}).items()}
        for _, gpu_type, gpus, cpu, mem_gib in specs:
            mode = modes.get(gpu_type.upper(), modes.get("*")) if gpus else None
            hw = NodeClass(gpu_type.upper(), gpus, round(cpu * MILLI), round(mem_gib * 1024), mode)
            self.node_class.append(class_of.setdefault(hw, len(class_of)))
        self.classes = list(class_of)
        choice = {"spread": "spread", "random": "random"}.get(placement, "pack")
        self.shared = {
            c: SharedGpus(hw.sharing, hw.gpus, choice, self.rng)  # type: ignore[arg-type]
            for c, hw in enumerate(self.classes)
            if hw.sharing is not None
        }
        self.shared_occupied = dict.fromkeys(self.shared, 0)
        """GPUs of each shared class with at least one tenant."""
        self.shared_granted = dict.fromkeys(self.shared, 0.0)
        """Physical GPUs granted in each shared class (instances' g/7, replicas/replicas)."""
        self.gpu_free = [self._idle_gpus(c) for c in self.node_class]
        self.cpu_free = [self.classes[c].cpu or UNLIMITED for c in self.node_class]
        self.mem_free = [self.classes[c].mem or UNLIMITED for c in self.node_class]
        self.free_milli_by_class = [0] * len(self.classes)
        for c in self.node_class:
            shared = self.shared.get(c)
            capacity = shared.capacity_milli() if shared else self.classes[c].gpus * MILLI
            self.free_milli_by_class[c] += capacity
        # States are interned: ids are cheap to hash, the tuples behind them are not.
        self.states: list[StateKey] = []
        self._state_class: list[int] = []
        self._state_id: dict[StateKey, int] = {}
        self._pod_id: dict[PodShape, int] = {}
        self.members: dict[int, list[int]] = {}
        # The same member lists, grouped by what the GPUs can take, so a placement looks
        # only at states whose GPUs fit: (whole free GPUs, most free milli on one GPU).
        self._groups: dict[tuple[int, int], dict[int, list[int]]] = {}
        self._state_group: list[tuple[int, int]] = []
        self._groups_for_pid: dict[int, tuple[int, list[dict[int, list[int]]]]] = {}
        self.node_state: list[int] = []
        self.pos: list[int] = []
        for node in range(len(specs)):
            sid = self._intern(self._key_of(node))
            nodes = self.members.get(sid)
            if nodes is None:
                nodes = self._add_member_list(sid)
            self.node_state.append(sid)
            self.pos.append(len(nodes))
            nodes.append(node)
        self.reserved: set[int] = set()
        self._allowed_nodes: dict[Allowed, list[int]] = {}
        self._reserved_in: dict[int, int] = {}
        self._cap: list[dict[int, int]] = []
        self._cap_gpu: list[dict[int, int]] = []
        self._score: dict[tuple[int, int, int], Score] = {}
        self._frag: dict[int, float] = {}

    # --- what the engine asks -------------------------------------------------------------

    @property
    def cpu_limited(self) -> bool:
        return any(hw.cpu for hw in self.classes)

    @property
    def mem_limited(self) -> bool:
        return any(hw.mem for hw in self.classes)

    def classes_for(self, gpu_types: Iterable[str]) -> Allowed:
        """The node classes whose GPU type is one of `gpu_types` (None: no constraint); a
        MIG profile name (`3g.40gb`) stands for the MIG classes that offer it."""
        wanted = {name.upper() for name in gpu_types}
        if not wanted:
            return None
        # by geometry: 3g.20gb (A100-40GB) and 3g.40gb are the same slots and slices
        shapes = {(p.g, p.size) for p in map(find_profile, wanted) if p is not None}
        return frozenset(
            i
            for i, hw in enumerate(self.classes)
            if hw.gpu_type in wanted
            or (i in self.shared and any((p.g, p.size) in shapes for p in self.shared[i].offered))
        )

    def capacity(self, pod: PodShape, allowed: Allowed) -> int:
        """How many such pods fit now, in all (each node independently)."""
        total = 0
        pid = self._pid(pod)
        classes = self._state_class
        for group in self._groups_for(pod, pid):
            for sid, nodes in group.items():
                if allowed is None or classes[sid] in allowed:
                    total += self._fitting(sid, pod, pid, False) * len(nodes)
        return total

    def fits(self, pod: PodShape, count: int, allowed: Allowed) -> bool:
        """Whether `count` such pods fit now (stops at the first states that suffice)."""
        total = 0
        pid = self._pid(pod)
        cap, classes = self._cap[pid], self._state_class
        for group in self._groups_for(pod, pid):
            for sid, nodes in group.items():
                if allowed is None or classes[sid] in allowed:
                    fit = cap.get(sid)
                    if fit is None:
                        fit = self._fitting(sid, pod, pid, False)
                    total += fit * len(nodes)
                    if total >= count:
                        return True
        return False

    def headroom(self, pod: PodShape, allowed: Allowed) -> tuple[tuple[int, int], ...]:
        """The (free milli-CPU, free MiB) pairs, none dominated, of states whose GPUs take
        `pod`: one such pod with CPU c and memory m fits iff some pair covers (c, m)."""
        pid = self._pid(pod)
        classes, states = self._state_class, self.states
        pairs = {
            (states[sid][2], states[sid][3])
            for group in self._groups_for(pod, pid)
            for sid in group
            if (allowed is None or classes[sid] in allowed) and self._fitting(sid, pod, pid, True)
        }
        frontier: list[tuple[int, int]] = []
        for cpu, mem in sorted(pairs, reverse=True):
            if not frontier or mem > frontier[-1][1]:
                frontier.append((cpu, mem))
        return tuple(frontier)

    def refused_by_sharing(self, pod: PodShape, allowed: Allowed) -> bool:
        """Whether every allowed GPU node shares its GPUs in a way that cannot serve `pod`."""
        gpu_classes = [
            c for c, hw in enumerate(self.classes) if hw.gpus and (allowed is None or c in allowed)
        ]
        return bool(gpu_classes) and all(
            c in self.shared and not self.shared[c].request(pod[0], pod[1])[1] for c in gpu_classes
        )

    def free_milli(self, allowed: Allowed) -> int:
        if allowed is None:
            return sum(self.free_milli_by_class)
        return sum(self.free_milli_by_class[c] for c in allowed)

    def plan(
        self, pod: PodShape, count: int, allowed: Allowed, *, avoid_reserved: bool = False
    ) -> list[tuple[int, int]] | None:
        """Nodes and pod counts for `count` pods, or None if they do not all fit now.

        Multi-pod jobs use as few nodes as possible: a node that takes every remaining pod
        wins if there is one, else the node that takes the most; the policy's score breaks
        ties and picks among nodes that take everything.
        """
        pid = self._pid(pod)
        if count == 1 and self.placement == "random":
            node = self._random_node(pod, pid, allowed, avoid_reserved)
            if node is not None:
                return [(node, 1)]
        candidates: list[tuple[int, int, list[int], int]] = []
        total = 0
        cap, classes = self._cap[pid], self._state_class
        reserved = self._reserved_in if avoid_reserved and self._reserved_in else None
        for group in self._groups_for(pod, pid):
            for sid, nodes in group.items():
                if allowed is not None and classes[sid] not in allowed:
                    continue
                fit = cap.get(sid)
                if fit is None:
                    fit = self._fitting(sid, pod, pid, False)
                if not fit:
                    continue
                usable = len(nodes) - (reserved.get(sid, 0) if reserved else 0)
                if usable > 0:
                    candidates.append((sid, fit, nodes, usable))
                    total += min(fit, count) * usable
        if total < count:
            return None
        if count == 1:
            return [(self._pick_one(candidates, pod, pid, avoid_reserved), 1)]
        return self._plan_gang(candidates, pod, pid, count, avoid_reserved)

    def allocate(self, node: int, pod: PodShape, pods: int) -> NodeAlloc:
        """Take `pods` pods' resources on `node` (the caller planned it, so they fit)."""
        milli, gpus, cpu, mem = pod
        free = self.gpu_free[node]
        slices: list[tuple[int, int]] = []
        shared = self.shared.get(self.node_class[node])
        for _ in range(pods):
            if shared is not None:
                if gpus:
                    slices += self._take_shared(node, shared, pod)
            elif milli == MILLI:
                i = -1
                for _ in range(gpus):
                    i = free.index(MILLI, i + 1)
                    free[i] = 0
                    slices.append((i, MILLI))
            elif gpus:
                i = free.index(self._shared_gpu_value(tuple(sorted(free, reverse=True)), pod))
                free[i] -= milli
                slices.append((i, milli))
        taken = milli * gpus * pods if shared is None else self._gpu_milli(node, slices)
        self.free_milli_by_class[self.node_class[node]] -= taken
        if self.cpu_free[node] != UNLIMITED:
            self.cpu_free[node] -= cpu * pods
        if self.mem_free[node] != UNLIMITED:
            self.mem_free[node] -= mem * pods
        self._rekey(node)
        return _new_tuple(NodeAlloc, (node, pods, tuple(slices)))

    def release(self, alloc: NodeAlloc, pod: PodShape) -> None:
        node, pods, slices = alloc
        free = self.gpu_free[node]
        shared = self.shared.get(self.node_class[node])
        if shared is None:
            for i, amount in slices:
                free[i] += amount
            given = pod[0] * pod[1] * pods
        else:
            self._shared_change(node, shared, slices, shared.give_back, -1)
            given = self._gpu_milli(node, slices)
        self.free_milli_by_class[self.node_class[node]] += given
        if self.cpu_free[node] != UNLIMITED:
            self.cpu_free[node] += pod[2] * pods
        if self.mem_free[node] != UNLIMITED:
            self.mem_free[node] += pod[3] * pods
        self._rekey(node)

    def reapply(self, alloc: NodeAlloc, pod: PodShape) -> None:
        """Take exactly the resources of an earlier `allocate` again (after a what-if release)."""
        node, pods, slices = alloc
        free = self.gpu_free[node]
        shared = self.shared.get(self.node_class[node])
        if shared is None:
            for i, amount in slices:
                free[i] -= amount
            taken = pod[0] * pod[1] * pods
        else:
            self._shared_change(node, shared, slices, shared.retake, 1)
            taken = self._gpu_milli(node, slices)
        self.free_milli_by_class[self.node_class[node]] -= taken
        if self.cpu_free[node] != UNLIMITED:
            self.cpu_free[node] -= pod[2] * pods
        if self.mem_free[node] != UNLIMITED:
            self.mem_free[node] -= pod[3] * pods
        self._rekey(node)

    def reserve(self, nodes: Iterable[int]) -> None:
        """Hold these nodes for the backfill pivot; `plan(avoid_reserved=True)` skips them."""
        self.release_reservation()
        for node in nodes:
            if node not in self.reserved:
                self.reserved.add(node)
                sid = self.node_state[node]
                self._reserved_in[sid] = self._reserved_in.get(sid, 0) + 1

    def release_reservation(self) -> None:
        self.reserved.clear()
        self._reserved_in.clear()

    # --- fragmentation ----------------------------------------------------------------------

    def fgd_fragmentation(self) -> int:
        """Milli-GPUs the FGD measure counts as fragmented against the workload mix."""
        return round(sum(self._node_frag(sid) * len(nodes) for sid, nodes in self.members.items()))

    def unusable_free_milli(self, waiting: Iterable[tuple[PodShape, Allowed]]) -> int:
        """Free milli-GPUs on nodes where none of the waiting pod shapes fits."""
        shapes = [(pod, allowed) for pod, allowed in waiting if pod[1]]
        if not shapes:
            return 0
        total = 0
        for sid, nodes in self.members.items():
            cls, free_gpus, _, _ = self.states[sid]
            free = self._free_gpu_milli(cls, free_gpus)
            if free and not any(
                (allowed is None or cls in allowed)
                and self._fitting(sid, pod, self._pid(pod), False)
                for pod, allowed in shapes
            ):
                total += free * len(nodes)
        return total

    def distinct_states(self) -> int:
        return len(self.members)

    # --- internals ----------------------------------------------------------------------------

    def _idle_gpus(self, cls: int) -> list[int]:
        shared = self.shared.get(cls)
        return [shared.initial() if shared else MILLI] * self.classes[cls].gpus

    def _take_shared(self, node: int, shared: SharedGpus, pod: PodShape) -> list[tuple[int, int]]:
        free = self.gpu_free[node]
        before = list(free)
        taken = shared.take(free, pod[0], pod[1])
        cls = self.node_class[node]
        for i in {i for i, _ in taken}:
            self.shared_occupied[cls] += shared.occupied(free[i]) - shared.occupied(before[i])
        self.shared_granted[cls] += sum(shared.granted(amount) for _, amount in taken)
        return taken

    def _shared_change(
        self,
        node: int,
        shared: SharedGpus,
        slices: tuple[tuple[int, int], ...],
        change: Callable[[list[int], int, int], None],
        sign: int,
    ) -> None:
        """Give back (sign -1) or take again (+1) exactly these instances or replicas."""
        free = self.gpu_free[node]
        cls = self.node_class[node]
        for i, amount in slices:
            was = shared.occupied(free[i])
            change(free, i, amount)
            self.shared_occupied[cls] += shared.occupied(free[i]) - was
            self.shared_granted[cls] += sign * shared.granted(amount)

    def _gpu_milli(self, node: int, slices: Iterable[tuple[int, int]]) -> int:
        """Milli-GPUs an allocation takes from its class's free milli."""
        shared = self.shared.get(self.node_class[node])
        if shared is None:
            return sum(amount for _, amount in slices)
        return sum(shared.units(amount) for _, amount in slices)

    def _free_gpu_milli(self, cls: int, free: tuple[int, ...]) -> int:
        if cls not in self.shared:
            return sum(free)
        return round(self._free_gpu_share(cls, free) * self.classes[cls].gpus * MILLI)

    def _free_gpu_share(self, cls: int, free: tuple[int, ...]) -> float:
        shared = self.shared.get(cls)
        if shared is not None:
            return shared.free_share(free)
        gpus = self.classes[cls].gpus
        return sum(free) / (gpus * MILLI) if gpus else 0.0

    def _key_of(self, node: int) -> StateKey:
        return (
            self.node_class[node],
            tuple(sorted(self.gpu_free[node], reverse=True)),
            self.cpu_free[node],
            self.mem_free[node],
        )

    def _intern(self, key: StateKey) -> int:
        sid = self._state_id.get(key)
        if sid is None:
            sid = self._state_id[key] = len(self.states)
            self.states.append(key)
            self._state_class.append(key[0])
            free = key[1]
            whole = free.count(MILLI)
            if key[0] in self.shared:
                self._state_group.append(_SHARED_GROUP)
            else:
                self._state_group.append((whole, MILLI) if whole else (0, max(free, default=0)))
        return sid

    def _pid(self, pod: PodShape) -> int:
        pid = self._pod_id.get(pod)
        if pid is None:
            pid = self._pod_id[pod] = len(self._pod_id)
            self._cap.append({})
            self._cap_gpu.append({})
        return pid

    def _add_member_list(self, sid: int) -> list[int]:
        nodes: list[int] = []
        self.members[sid] = nodes
        gkey = self._state_group[sid]
        group = self._groups.get(gkey)
        if group is None:
            group = self._groups[gkey] = {}
        group[sid] = nodes
        return nodes

    def _groups_for(self, pod: PodShape, pid: int) -> list[dict[int, list[int]]]:
        """The state groups whose GPUs can take `pod` (cached until a new group appears)."""
        cached = self._groups_for_pid.get(pid)
        if cached is not None and cached[0] == len(self._groups):
            return cached[1]
        milli, gpus = pod[0], pod[1]
        groups = [
            group
            for (whole, most), group in self._groups.items()
            if not gpus or (whole >= gpus if milli == MILLI else most >= milli)
        ]
        self._groups_for_pid[pid] = (len(self._groups), groups)
        return groups

    def _rekey(self, node: int) -> None:
        old = self.node_state[node]
        new = self._intern(self._key_of(node))
        if new == old:
            return
        nodes = self.members[old]
        index = self.pos[node]
        last = nodes.pop()
        if last != node:
            nodes[index] = last
            self.pos[last] = index
        if not nodes:
            del self.members[old]
            del self._groups[self._state_group[old]][old]
        target = self.members.get(new)
        if target is None:
            target = self._add_member_list(new)
        self.pos[node] = len(target)
        target.append(node)
        self.node_state[node] = new
        if node in self.reserved:
            self._reserved_in[old] -= 1
            self._reserved_in[new] = self._reserved_in.get(new, 0) + 1

    def _fitting(self, sid: int, pod: PodShape, pid: int, gpu_only: bool) -> int:
        """How many `pod`s a node in state `sid` takes (memoised per state and pod)."""
        memo = (self._cap_gpu if gpu_only else self._cap)[pid]
        cached = memo.get(sid)
        if cached is not None:
            return cached
        milli, gpus, cpu, mem = pod
        cls, free, cpu_free, mem_free = self.states[sid]
        fit = _INFINITE_PODS
        shared = self.shared.get(cls)
        if shared is not None and gpus:
            fit = shared.fit(free, milli, gpus)
        elif gpus:
            per_gpu = sum(f // milli for f in free) if milli < MILLI else free.count(MILLI)
            fit = per_gpu // gpus if milli == MILLI else per_gpu
        if not gpu_only:
            if cpu:
                fit = min(fit, cpu_free // cpu)
            if mem:
                fit = min(fit, mem_free // mem)
        memo[sid] = fit
        return fit

    def _random_node(self, pod: PodShape, pid: int, allowed: Allowed, avoid: bool) -> int | None:
        """A uniformly random node that fits, by rejection sampling (None: enumerate instead).

        Accepting only nodes that fit, from uniform draws over all allowed nodes, is uniform
        over the nodes that fit, and costs O(1) draws while much of the cluster fits.
        """
        nodes = self._allowed_nodes.get(allowed)
        if nodes is None:
            nodes = self._allowed_nodes[allowed] = [
                n for n, c in enumerate(self.node_class) if allowed is None or c in allowed
            ]
        if not nodes:
            return None
        for _ in range(_RANDOM_TRIES):
            node = nodes[self.rng.randrange(len(nodes))]
            if avoid and node in self.reserved:
                continue
            if self._fitting(self.node_state[node], pod, pid, False):
                return node
        return None

    def _pick_one(
        self,
        candidates: list[tuple[int, int, list[int], int]],
        pod: PodShape,
        pid: int,
        avoid: bool,
    ) -> int:
        if self.placement == "random":
            chosen = self.rng.randrange(sum(c[3] for c in candidates))
            for _, _, nodes, usable in candidates:
                if chosen < usable:
                    return self._node_in(nodes, avoid, chosen)
                chosen -= usable
        best = candidates[0]
        if len(candidates) > 1:
            memo = self._score
            best_score: Score = 0
            for index, candidate in enumerate(candidates):
                score = memo.get((candidate[0], pid, 1))
                if score is None:
                    score = self._scored(candidate[0], pod, pid, 1)
                if not index or score < best_score:
                    best, best_score = candidate, score
        return self._node_in(best[2], avoid, 0)

    def _plan_gang(
        self,
        candidates: list[tuple[int, int, list[int], int]],
        pod: PodShape,
        pid: int,
        count: int,
        avoid: bool,
    ) -> list[tuple[int, int]]:
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
            if self.placement == "random":
                index = pool[self.rng.randrange(len(pool))]
            else:
                index = min(pool, key=lambda i: self._scored(candidates[i][0], pod, pid, take))
            node = self._node_in(candidates[index][2], avoid, used[index])
            used[index] += 1
            plan.append((node, take))
            remaining -= take
        return plan

    def _node_in(self, nodes: list[int], avoid: bool, skip: int) -> int:
        """The `skip`-th usable node of a state from the end (O(1) with no reservations)."""
        if not avoid or not self.reserved:
            return nodes[len(nodes) - 1 - skip]
        for node in reversed(nodes):
            if node not in self.reserved:
                if not skip:
                    return node
                skip -= 1
        raise AssertionError("planned more nodes than the state has")

    def _scored(self, sid: int, pod: PodShape, pid: int, pods: int) -> Score:
        memo = (sid, pid, pods)
        cached = self._score.get(memo)
        if cached is not None:
            return cached
        key = self.states[sid]
        score = self._score_of(key, self._after(key, pod, pods))
        self._score[memo] = score
        return score

    def _after(self, key: StateKey, pod: PodShape, pods: int) -> StateKey:
        cls, free, cpu_free, mem_free = key
        milli, gpus, cpu, mem = pod
        values = list(free)
        shared = self.shared.get(cls)
        for _ in range(pods):
            if shared is not None:
                if gpus:
                    shared.take(values, milli, gpus)
            elif milli == MILLI:
                for _ in range(gpus):
                    values[values.index(MILLI)] = 0
            elif gpus:
                values[values.index(self._shared_gpu_value(tuple(values), pod))] -= milli
        return (
            cls,
            tuple(sorted(values, reverse=True)),
            cpu_free if cpu_free == UNLIMITED else cpu_free - cpu * pods,
            mem_free if mem_free == UNLIMITED else mem_free - mem * pods,
        )

    def _shared_gpu_value(self, free: tuple[int, ...], pod: PodShape) -> int:
        """Free milli of the GPU a shared-GPU pod goes on (the policy decides which)."""
        milli = pod[0]
        options = sorted({f for f in free if f >= milli})
        if self.placement == "spread":
            return options[-1]
        if self.placement == "random":
            return options[self.rng.randrange(len(options))]
        if self.placement == "fgd" and len(options) > 1:
            return min(options, key=lambda v: self._gpu_frag_after(free, v, milli))
        return options[0]

    def _gpu_frag_after(self, free: tuple[int, ...], value: int, milli: int) -> float:
        values = list(free)
        values[values.index(value)] -= milli
        return self._frag_of_gpus(tuple(sorted(values, reverse=True)))

    def _frag_of_gpus(self, free: tuple[int, ...]) -> float:
        """GPU-only FGD measure (CPU taken as sufficient): picks the GPU inside a node."""
        total = sum(free)
        frag = 0.0
        for typical in self.typical:
            milli, gpus, _, _ = typical.pod
            fitting = sum(1 for f in free if f >= milli)
            lost = sum(f for f in free if f < milli) if fitting >= gpus else total
            frag += typical.weight * lost
        return frag

    def _score_of(self, key: StateKey, after: StateKey) -> Score:
        hw = self.classes[key[0]]
        policy = self.placement
        if policy == "fgd":
            # tightest node breaks ties, so an empty cluster still packs
            grown = self._node_frag(self._intern(after)) - self._node_frag(self._intern(key))
            return grown + 1e-9 * self._free_share(hw, after)
        if policy == "best-fit":
            return self._free_share(hw, after)
        gpu_free = self._free_gpu_milli(after[0], after[1])
        shares = _resource_shares(hw, after, gpu_free, used=policy == "binpack")
        return -(sum(shares) // len(shares)) if shares else 0

    def _free_share(self, hw: NodeClass, after: StateKey) -> float:
        gpu = self._free_gpu_share(after[0], after[1])
        cpu = after[2] / hw.cpu if hw.cpu else 0.0
        return gpu + cpu

    def _node_frag(self, sid: int) -> float:
        cached = self._frag.get(sid)
        if cached is not None:
            return cached
        cls, free, cpu_free, mem_free = self.states[sid]
        total = self._free_gpu_milli(cls, free)
        frag = 0.0
        if total and cls in self.shared:
            for typical in self.typical:
                pod = typical.pod
                usable = typical.allowed is None or cls in typical.allowed
                if not (usable and self._fitting(sid, pod, self._pid(pod), False)):
                    frag += typical.weight * total
        elif total:
            for typical in self.typical:
                milli, gpus, cpu, mem = typical.pod
                if typical.allowed is not None and cls not in typical.allowed:
                    frag += typical.weight * total
                    continue
                fitting = sum(1 for f in free if f >= milli)
                if fitting >= gpus and cpu_free >= cpu and mem_free >= mem:
                    frag += typical.weight * sum(f for f in free if f < milli)
                else:
                    frag += typical.weight * total
        self._frag[sid] = frag
        return frag


def _resource_shares(hw: NodeClass, after: StateKey, gpu_free: int, *, used: bool) -> list[int]:
    """kube-scheduler NodeResourcesFit per-resource scores (0-100, integer) for the limited ones."""
    shares: list[int] = []
    for capacity, free in (
        (hw.gpus * MILLI, gpu_free),
        (hw.cpu, after[2]),
        (hw.mem, after[3]),
    ):
        if capacity:
            shares.append((capacity - free if used else free) * 100 // capacity)
    return shares


def typical_pods(
    pods: Iterable[tuple[PodShape, Allowed]], *, coverage: float = 0.99, limit: int = 64
) -> list[TypicalPod]:
    """The most frequent GPU pod shapes covering `coverage` of GPU pods, weights summing to 1.

    This is the workload mix FGD measures fragmentation against; CPU-only pods are left out,
    as in the FGD paper's default.
    """
    counts: dict[tuple[PodShape, Allowed], int] = {}
    for pod, allowed in pods:
        if pod[1]:
            counts[(pod, allowed)] = counts.get((pod, allowed), 0) + 1
    total = sum(counts.values())
    if not total:
        return []
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    chosen: list[tuple[tuple[PodShape, Allowed], int]] = []
    covered = 0
    for item in ranked:
        if covered >= coverage * total or len(chosen) >= limit:
            break
        chosen.append(item)
        covered += item[1]
    return [TypicalPod(pod, allowed, n / covered) for (pod, allowed), n in chosen]
