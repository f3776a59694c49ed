"""A cluster's free capacity, indexed by distinct node state, and where pods go.

`ClusterState` is the engine's one view of the cluster: it owns each node's free GPUs, CPU and
memory and changes them only through `allocate`, `release` and `reapply`. It is assembled in
the manner of kube-scheduler's framework from parts that each own one concern:

* `node_classes`: the hardware (node classes, MIG and time-slicing arithmetic);
* `node_states`: distinct node states, interned, and the nodes in each;
* `pod_fit`: the filter, how many pods of a shape a state takes (memoised);
* `placement` and its `placement_*` plugins: the score of each placement policy;
* `selection`: fewest nodes for a gang, then the best score;
* `fragmentation`: the FGD measure.

A node's state is `(class id, free milli-GPU of each GPU sorted high to low, free milli-CPU,
free MiB)`. CPU or memory a node does not limit (capacity 0 in the cluster description) is
`UNLIMITED` and never decremented.
"""

import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from planner.core.config import NodeSpec
from planner.engine.cluster_types import (
    MILLI,
    UNLIMITED,
    Allowed,
    NodeAlloc,
    NodeClass,
    PodShape,
    StateKey,
    TypicalPod,
    new_tuple,
    pod_shape,
)
from planner.engine.fragmentation import Fragmentation, typical_pods
from planner.engine.node_classes import NodeClasses
from planner.engine.node_states import NodeStates
from planner.engine.placement import PLACEMENTS, Placement, placement_policy
from planner.engine.placement_plugin import ClusterView
from planner.engine.pod_fit import PodFit
from planner.engine.selection import Candidate, NodePicker
from planner.engine.shared_gpus import SharedGpus
from planner.engine.sharing import SharingMode
from planner.engine.single_pod import SinglePod

__all__ = [
    "MILLI",
    "PLACEMENTS",
    "UNLIMITED",
    "Allowed",
    "ClusterState",
    "NodeAlloc",
    "NodeClass",
    "Placement",
    "PodShape",
    "StateKey",
    "TypicalPod",
    "pod_shape",
    "typical_pods",
]


class ClusterState:
    """Free resources of every node, and placement under one policy."""

    def __init__(
        self,
        specs: Sequence[NodeSpec],
        placement: Placement = "best-fit",
        *,
        seed: int = 0,
        typical: Sequence[TypicalPod] = (),
        sharing: Mapping[str, SharingMode] | None = None,
    ) -> None:
        self.placement = placement
        policy = placement_policy(placement)
        self.rng = random.Random(seed)
        self.node_ids = [node_id for node_id, *_ in specs]
        hardware = NodeClasses(specs, sharing, policy.shared_choice, self.rng)
        self.hardware = hardware
        self.classes, self.node_class, self.shared = (
            hardware.classes,
            hardware.node_class,
            hardware.shared,
        )
        self.shared_occupied = dict.fromkeys(self.shared, 0)
        """GPUs of each shared class with at least one tenant."""
        self.shared_granted = dict.fromkeys(self.shared, 0.0)
        """Physical GPUs granted in each shared class (instances' g/7, replicas/replicas)."""
        self.gpu_free = [hardware.idle_gpus(c) for c in self.node_class]
        self.cpu_free = [self.classes[c].cpu or UNLIMITED for c in self.node_class]
        self.mem_free = [self.classes[c].mem or UNLIMITED for c in self.node_class]
        self.free_milli_by_class = [0] * len(self.classes)
        for c in self.node_class:
            self.free_milli_by_class[c] += hardware.capacity_milli(c)
        # (GPU index, MILLI): each whole GPU an allocation takes, one pair per index shared
        # by all (compiled, a pair a GPU was a tuple and an int made per GPU taken)
        most = max((len(free) for free in self.gpu_free), default=0)
        self._whole_gpu = [(g, MILLI) for g in range(most)]
        self.index = NodeStates(self.shared)
        for node in range(len(specs)):
            self.index.add(self._key_of(node))
        self.fit = PodFit(self.index, self.shared)
        self.fragmentation = Fragmentation(hardware, self.index, self.fit, typical)
        view = ClusterView(hardware, self.index, self.fragmentation, self.rng)
        self.picker = NodePicker(policy, view, self.fit)
        # NOTE: the engine is compiled (`compiled.MODULES`): a method called directly is a
        # native call, where one bound once and kept in an attribute is a Python call
        self._state_class = self.index.state_class
        self._single = SinglePod(self.index, self.fit, self.picker)

    # --- what the engine asks -------------------------------------------------------------

    @property
    def cpu_limited(self) -> bool:
        return self.hardware.cpu_limited

    @property
    def mem_limited(self) -> bool:
        return self.hardware.mem_limited

    @property
    def reserved(self) -> set[int]:
        return self.index.reserved

    @property
    def typical(self) -> tuple[TypicalPod, ...]:
        """The workload mix FGD measures fragmentation against (may be set once, early)."""
        return self.fragmentation.typical

    @typical.setter
    def typical(self, typical: Sequence[TypicalPod]) -> None:
        self.fragmentation.typical = tuple(typical)

    def classes_for(self, gpu_types: Iterable[str]) -> Allowed:
        """The node classes whose GPU type is one of `gpu_types` (None: no constraint); a
        MIG profile name (`3g.40gb`) stands for the MIG classes that offer it."""
        return self.hardware.classes_for(gpu_types)

    def capacity(self, pod: PodShape, allowed: Allowed) -> int:
        """How many such pods fit now, in all (each node independently)."""
        total = 0
        pid = self.fit.pid(pod)
        classes = self._state_class
        for group in self.index.groups_for(pod, pid):
            for sid, nodes in group.items():
                if allowed is None or classes[sid] in allowed:
                    total += self.fit.fitting(sid, pod, pid, False) * len(nodes)
        return total

    def fits(self, pod: PodShape, count: int, allowed: Allowed) -> bool:
        """Whether `count` such pods fit now (stops at the first states that suffice)."""
        total = 0
        pid = self.fit.pid(pod)
        cap, classes = self.fit.cap[pid], self._state_class
        for group in self.index.groups_for(pod, pid):
            for sid, nodes in group.items():
                if allowed is None or classes[sid] in allowed:
                    fit = cap.get(sid)
                    if fit is None:
                        fit = self.fit.fitting(sid, pod, pid, False)
                    total += fit * len(nodes)
                    if total >= count:
                        return True
        return False

    def headroom(self, pod: PodShape, allowed: Allowed) -> tuple[tuple[int, int], ...]:
        """The (free milli-CPU, free MiB) pairs, none dominated, of states whose GPUs take
        `pod`: one such pod with CPU c and memory m fits iff some pair covers (c, m)."""
        fit = self.fit
        pid = fit.pid(pod)
        classes, states = self._state_class, self.index.states
        pairs = {
            (states[sid][2], states[sid][3])
            for group in self.index.groups_for(pod, pid)
            for sid in group
            if (allowed is None or classes[sid] in allowed) and fit.fitting(sid, pod, pid, True)
        }
        frontier: list[tuple[int, int]] = []
        for cpu, mem in sorted(pairs, reverse=True):
            if not frontier or mem > frontier[-1][1]:
                frontier.append((cpu, mem))
        return tuple(frontier)

    def refused_by_sharing(self, pod: PodShape, allowed: Allowed) -> bool:
        """Whether every allowed GPU node shares its GPUs in a way that cannot serve `pod`."""
        return self.hardware.refused_by_sharing(pod, allowed)

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
        pid = self.fit.pid(pod)
        picker = self.picker
        reserved_in = self.index.reserved_in
        reserved = reserved_in if avoid_reserved and reserved_in else None
        if count == 1 and picker.at_random:
            node = picker.random_node(pod, pid, allowed, avoid_reserved, self.node_class)
            if node is not None:
                return [(node, 1)]
        elif count == 1 and reserved is None:
            return self._single.plan(pod, pid, allowed)
        candidates: list[Candidate] = []
        total = 0
        for sid, nodes, fit in self.fit.taking(pod, pid, allowed):
            usable = len(nodes) - (reserved.get(sid, 0) if reserved else 0)
            if usable > 0:
                candidates.append((sid, fit, nodes, usable))
                total += (fit if fit < count else count) * usable  # min(), inlined
        if total < count:
            return None
        if count == 1:
            return [(picker.pick_one(candidates, pod, pid, avoid_reserved), 1)]
        return picker.plan_gang(candidates, pod, pid, count, avoid_reserved)

    def allocate(self, node: int, pod: PodShape, pods: int) -> NodeAlloc:
        """Take `pods` pods' resources on `node` (the caller planned it, so they fit)."""
        milli, gpus, cpu, mem = pod
        free = self.gpu_free[node]
        slices: list[tuple[int, int]] = []
        cls = self.node_class[node]
        shared = self.shared.get(cls) if self.shared else None  # most have none
        if shared is None and milli == MILLI:
            # whole GPUs: each pod takes the first free ones, so all pods take the first
            # gpus x pods free GPUs, in order (a loop, not list.index: compiled, it is native)
            i = 0
            for _ in range(gpus * pods):
                while free[i] != MILLI:
                    i += 1
                free[i] = 0
                slices.append(self._whole_gpu[i])
                i += 1
        for _ in range(pods if shared is not None or milli != MILLI else 0):
            if shared is not None:
                if gpus:
                    slices += self._take_shared(node, shared, pod)
            elif gpus:
                i = free.index(self.picker.gpu_value(tuple(sorted(free, reverse=True)), milli))
                free[i] -= milli
                slices.append((i, milli))
        taken = milli * gpus * pods if shared is None else self.hardware.gpu_milli(cls, slices)
        self.free_milli_by_class[cls] -= taken
        if self.cpu_free[node] != UNLIMITED:
            self.cpu_free[node] -= cpu * pods
        if self.mem_free[node] != UNLIMITED:
            self.mem_free[node] -= mem * pods
        # a fraction of a GPU on a drawn GPU lands where the state does not decide
        if shared is not None or (milli != MILLI and gpus and self.picker.policy.gpu_choice_drawn):
            self.index.move(node, self._key_of(node))
        elif not self.index.follow(node, pod, pods, -1):
            self.index.learn(node, pod, pods, -1, self._key_of(node))
        return new_tuple(NodeAlloc, (node, pods, tuple(slices)))

    def release(self, alloc: NodeAlloc, pod: PodShape) -> None:
        """Give back exactly what `allocate` took."""
        self._change(alloc, pod, 1)

    def reapply(self, alloc: NodeAlloc, pod: PodShape) -> None:
        """Take exactly the resources of an earlier `allocate` again (after a what-if release)."""
        self._change(alloc, pod, -1)

    def reserve(self, nodes: Iterable[int]) -> None:
        """Hold these nodes for the backfill pivot; `plan(avoid_reserved=True)` skips them."""
        self.index.reserve(nodes)

    def release_reservation(self) -> None:
        self.index.release_reservation()

    def fgd_fragmentation(self) -> int:
        """Milli-GPUs the FGD measure counts as fragmented against the workload mix."""
        return self.fragmentation.cluster()

    def unusable_free_milli(self, waiting: Iterable[tuple[PodShape, Allowed]]) -> int:
        """Free milli-GPUs on nodes where none of the waiting pod shapes fits."""
        return self.fragmentation.unusable_free_milli(waiting)

    def distinct_states(self) -> int:
        return len(self.index.members)

    # --- internals ----------------------------------------------------------------------------

    def _change(self, alloc: NodeAlloc, pod: PodShape, sign: int) -> None:
        """Give back (sign 1) or take again (sign -1) exactly an allocation's resources."""
        node, pods, slices = alloc
        milli, gpus, cpu, mem = pod
        cls = self.node_class[node]
        shared = self.shared.get(cls) if self.shared else None
        if shared is None:
            free = self.gpu_free[node]
            for i, amount in slices:
                free[i] += sign * amount
            milli_changed = milli * gpus * pods
        else:
            change = shared.give_back if sign > 0 else shared.retake
            self._shared_change(node, shared, slices, change, -sign)
            milli_changed = self.hardware.gpu_milli(cls, slices)
        self.free_milli_by_class[cls] += sign * milli_changed
        if self.cpu_free[node] != UNLIMITED:
            self.cpu_free[node] += sign * cpu * pods
        if self.mem_free[node] != UNLIMITED:
            self.mem_free[node] += sign * mem * pods
        # giving back a fraction of a GPU is not memoised: it lands on a GPU whose value
        # the state does not say (see `NodeStates.follow`)
        if shared is not None or (milli != MILLI and gpus):
            self.index.move(node, self._key_of(node))
        elif not self.index.follow(node, pod, pods, sign):
            self.index.learn(node, pod, pods, sign, self._key_of(node))

    def _take_shared(self, node: int, shared: SharedGpus, pod: PodShape) -> list[tuple[int, int]]:
        milli, gpus, _, _ = pod
        free = self.gpu_free[node]
        before = list(free)
        taken = shared.take(free, milli, gpus)
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

    def _key_of(self, node: int) -> StateKey:
        return (
            self.node_class[node],
            tuple(sorted(self.gpu_free[node], reverse=True)),
            self.cpu_free[node],
            self.mem_free[node],
        )
