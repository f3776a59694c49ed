"""The cluster's hardware: which class each node is, and GPU arithmetic per class.

Nodes with the same GPU type, GPU count, CPU, memory and sharing mode form one class. For MIG
and time-sliced classes the meaning of a GPU's free value is `SharedGpus`'s; for the others it
is free milli-GPU. This module holds no free capacity: `ClusterState` does.
"""

import random
from collections.abc import Iterable, Mapping, Sequence

from planner.core.config import NodeSpec
from planner.engine.cluster_types import MILLI, Allowed, NodeClass, PodShape
from planner.engine.shared_gpus import Choice, SharedGpus
from planner.engine.sharing import SharingMode, find_profile


class NodeClasses:
    """Node classes of one cluster, in order of first appearance."""

    def __init__(
        self,
        specs: Sequence[NodeSpec],
        sharing: Mapping[str, SharingMode] | None,
        choice: Choice,
        rng: random.Random,
    ) -> None:
        class_of: dict[NodeClass, int] = {}
        self.node_class: list[int] = []
        modes = {k.upper(): v for k, v in (sharing or {}).items()}
        # unpacked, not read by field: callers may pass plain 5-tuples
        for _, gpu_type, gpus, cpu, mem_gib in specs:
            mode = modes.get(gpu_type.upper(), modes.get("*")) if gpus else None
            hw = NodeClass(gpu_type.upper(), gpus, round(cpu * MILLI), round(mem_gib * 1024), mode)
            self.node_class.append(class_of.setdefault(hw, len(class_of)))
        self.classes = list(class_of)
        self.shared = {
            c: SharedGpus(hw.sharing, hw.gpus, choice, rng)
            for c, hw in enumerate(self.classes)
            if hw.sharing is not None
        }

    @property
    def cpu_limited(self) -> bool:
        return any(hw.cpu for hw in self.classes)

    @property
    def mem_limited(self) -> bool:
        return any(hw.mem for hw in self.classes)

    def classes_for(self, gpu_types: Iterable[str]) -> Allowed:
        """The classes whose GPU type is one of `gpu_types` (None: no constraint); a MIG
        profile name (`3g.40gb`) stands for the MIG classes that offer it."""
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

    def refused_by_sharing(self, pod: PodShape, allowed: Allowed) -> bool:
        """Whether every allowed GPU class shares its GPUs in a way that cannot serve `pod`."""
        milli, gpus, _, _ = pod
        gpu_classes = [
            c for c, hw in enumerate(self.classes) if hw.gpus and (allowed is None or c in allowed)
        ]
        return bool(gpu_classes) and all(
            c in self.shared and not self.shared[c].request(milli, gpus)[1] for c in gpu_classes
        )

    def idle_gpus(self, cls: int) -> list[int]:
        """The free value of each GPU of an idle node."""
        shared = self.shared.get(cls)
        return [shared.initial() if shared else MILLI] * self.classes[cls].gpus

    def capacity_milli(self, cls: int) -> int:
        """Free milli of an idle node, in the units `gpu_milli` charges."""
        shared = self.shared.get(cls)
        return shared.capacity_milli() if shared else self.classes[cls].gpus * MILLI

    def gpu_milli(self, cls: int, slices: Iterable[tuple[int, int]]) -> int:
        """Milli-GPUs an allocation's slices take from the class's free milli."""
        shared = self.shared.get(cls)
        if shared is None:
            return sum(amount for _, amount in slices)
        return sum(shared.units(amount) for _, amount in slices)

    def free_gpu_milli(self, cls: int, free: tuple[int, ...]) -> int:
        """Free milli-GPU of a node with these GPU values (a share of the GPUs if shared)."""
        if cls not in self.shared:
            return sum(free)
        return round(self.free_gpu_share(cls, free) * self.classes[cls].gpus * MILLI)

    def free_gpu_share(self, cls: int, free: tuple[int, ...]) -> float:
        """Free fraction (0-1) of a node's GPUs with these GPU values."""
        shared = self.shared.get(cls)
        if shared is not None:
            return shared.free_share(free)
        gpus = self.classes[cls].gpus
        return sum(free) / (gpus * MILLI) if gpus else 0.0
