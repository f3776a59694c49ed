"""Distinct node states, interned, and which nodes are in each.

Nodes with the same hardware and the same free resources are interchangeable, so the index
groups them: `members[state id] -> node ids`. Placing a pod looks at each distinct state once,
never at each node, which keeps a placement at O(distinct states) whatever the node count.
The member lists are also grouped by what their GPUs can take, so a pod looks only at states
whose GPUs fit. This module knows nothing of policies or of what a pod needs beyond GPUs.
"""

from collections.abc import Container, Iterable
from typing import Final

from planner.engine.cluster_types import MILLI, PodShape, StateKey

_SHARED_GROUP: Final = (1 << 30, MILLI)
"""Group key of MIG and time-sliced states: every GPU pod looks at them (fit decides)."""

_MAX_STEPS: Final = 1 << 20
_MAX_PODS: Final = 1 << 30
"""Pods of one change on one node that `_step_key` can hold (a larger change is not memoised)."""
Members = dict[int, list[int]]
"""State id -> the nodes in that state."""


class NodeStates:
    """State ids (interned `StateKey`s), their member nodes, and the nodes held in reserve."""

    def __init__(self, shared_classes: Container[int]) -> None:
        self._shared_classes = shared_classes
        # States are interned: ids are cheap to hash, the tuples behind them are not.
        self.states: list[StateKey] = []
        self.state_class: list[int] = []
        self._state_id: dict[StateKey, int] = {}
        self.members: Members = {}
        # (whole free GPUs, most free milli on one GPU) -> the member lists of those states
        self._groups: dict[tuple[int, int], Members] = {}
        self._state_group: list[tuple[int, int]] = []
        self._groups_for_pid: dict[int, tuple[int, list[Members]]] = {}
        self.node_state: list[int] = []
        self._pos: list[int] = []
        self.reserved: set[int] = set()
        self.reserved_in: dict[int, int] = {}
        """Reserved nodes per state id."""
        self._steps: dict[PodShape, dict[int, int]] = {}
        """pod -> `_step_key(state id, pods, -1 taken or +1 given back)` -> the state after:
        an int key per pod, where a (state, pod, pods, direction) key built a tuple and
        hashed the pod in it at every pod placed and released (issue 33)."""
        self._step_count = 0
        self.version = 0
        """Bumped whenever a state gains its first node or loses its last: what a
        placement sees of the index (which states have nodes, in what order) is the same
        while this stays put."""

    def intern(self, key: StateKey) -> int:
        sid = self._state_id.get(key)
        if sid is None:
            sid = self._state_id[key] = len(self.states)
            self.states.append(key)
            cls, free = key[0], key[1]
            self.state_class.append(cls)
            whole = free.count(MILLI)
            if cls in self._shared_classes:
                self._state_group.append(_SHARED_GROUP)
            else:
                self._state_group.append((whole, MILLI) if whole else (0, max(free, default=0)))
        return sid

    def add(self, key: StateKey) -> None:
        """Index the next node (nodes are added in order, 0 first)."""
        sid = self.intern(key)
        nodes = self.members.get(sid)
        if nodes is None:
            nodes = self._add_member_list(sid)
        self.node_state.append(sid)
        self._pos.append(len(nodes))
        nodes.append(len(self.node_state) - 1)

    def move(self, node: int, key: StateKey) -> None:
        """Record that `node` is now in state `key` (O(1): swap-remove from the old list)."""
        self.move_to(node, self.intern(key))

    def follow(self, node: int, pod: PodShape, pods: int, direction: int) -> bool:
        """Move `node` by a change seen before from its state (`learn`); False if unseen.

        The caller vouches that the change's outcome follows from the state alone: on GPUs
        that are not shared, whole-GPU pods take GPUs at 1000 milli and give back GPUs at
        0 (sorted values do not care which), a fractional pod takes from the GPU its policy
        picks from the sorted values, and CPU and memory change by the request."""
        steps = self._steps.get(pod)
        if steps is None or pods >= _MAX_PODS:
            return False
        new = steps.get(_step_key(self.node_state[node], pods, direction))
        if new is None:
            return False
        self.move_to(node, new)
        return True

    def learn(self, node: int, pod: PodShape, pods: int, direction: int, key: StateKey) -> None:
        """Move `node` to state `key` after a change `follow` did not know; remember it."""
        new = self.intern(key)
        if pods < _MAX_PODS:
            if self._step_count >= _MAX_STEPS:  # bounded, however many states a replay sees
                self._steps.clear()
                self._step_count = 0
            steps = self._steps.get(pod)
            if steps is None:
                steps = self._steps[pod] = {}
            steps[_step_key(self.node_state[node], pods, direction)] = new
            self._step_count += 1
        self.move_to(node, new)

    def move_to(self, node: int, new: int) -> None:
        """Record that `node` is now in the interned state `new`."""
        old = self.node_state[node]
        if new == old:
            return
        nodes = self.members[old]
        index = self._pos[node]
        last = nodes.pop()
        if last != node:
            nodes[index] = last
            self._pos[last] = index
        if not nodes:
            del self.members[old]
            del self._groups[self._state_group[old]][old]
            self.version += 1
        target = self.members.get(new)
        if target is None:
            target = self._add_member_list(new)
        self._pos[node] = len(target)
        target.append(node)
        self.node_state[node] = new
        if self.reserved and node in self.reserved:
            self.reserved_in[old] -= 1
            self.reserved_in[new] = self.reserved_in.get(new, 0) + 1

    def groups_for(self, pod: PodShape, pid: int) -> list[Members]:
        """The state groups whose GPUs can take `pod` (cached until a new group appears)."""
        cached = self._groups_for_pid.get(pid)
        if cached is not None and cached[0] == len(self._groups):
            return cached[1]
        milli, gpus, _, _ = pod
        groups = [
            group
            for (whole, most), group in self._groups.items()
            if not gpus or (whole >= gpus if milli == MILLI else most >= milli)
        ]
        self._groups_for_pid[pid] = (len(self._groups), groups)
        return groups

    def reserve(self, nodes: Iterable[int]) -> None:
        """Hold these nodes (and only these) in reserve."""
        self.release_reservation()
        for node in nodes:
            if node not in self.reserved:
                self.reserved.add(node)
                sid = self.node_state[node]
                self.reserved_in[sid] = self.reserved_in.get(sid, 0) + 1

    def release_reservation(self) -> None:
        self.reserved.clear()
        self.reserved_in.clear()

    def node_in(self, nodes: list[int], avoid: bool, skip: int) -> int:
        """The `skip`-th usable node of a state from the end (O(1) with no reservations)."""
        if not avoid or not self.reserved:
            return nodes[len(nodes) - 1 - skip]
        for node in reversed(nodes):
            if node not in self.reserved:
                if not skip:
                    return node
                skip -= 1
        raise AssertionError("planned more nodes than the state has")

    def _add_member_list(self, sid: int) -> list[int]:
        self.version += 1
        nodes: list[int] = []
        self.members[sid] = nodes
        gkey = self._state_group[sid]
        group = self._groups.get(gkey)
        if group is None:
            group = self._groups[gkey] = {}
        group[sid] = nodes
        return nodes


def _step_key(sid: int, pods: int, direction: int) -> int:
    """One int for (state id, pods below `_MAX_PODS`, -1 or +1)."""
    return (sid << 31 | pods) << 1 | (1 if direction > 0 else 0)
