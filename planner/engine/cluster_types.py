"""The values the cluster model trades in: pod shapes, node hardware, node states, allocations.

Units are integers: milli-GPUs per GPU, milli-CPUs and MiB, so sums never drift. Nothing here
holds state; `ClusterState` and its helpers do.
"""

from dataclasses import dataclass
from typing import Final, NamedTuple

from planner.engine.sharing import SharingMode

MILLI: Final = 1000
UNLIMITED: Final = 1 << 60
"""Free CPU or memory of a node that does not limit it (capacity 0); never decremented."""


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


class NodeAlloc(NamedTuple):
    """Pods placed on one node, with exactly what they took: enough to undo a placement."""

    node: int
    pods: int
    slices: tuple[tuple[int, int], ...]
    """(GPU index, milli-GPU or the sharing's amount) per GPU taken from."""


# NOTE: one shape per job and one allocation per placement are built, so both skip the
# NamedTuples' Python-level __new__ (several times slower than a tuple display).
new_tuple = tuple.__new__

StateKey = tuple[int, tuple[int, ...], int, int]
"""A node's state: (class id, free milli-GPU of each GPU sorted high to low, free milli-CPU,
free MiB). Nodes in the same state are interchangeable."""
Allowed = frozenset[int] | None
"""Node classes a job may use (by GPU type); None means any."""
Score = float | int
"""A placement policy's score of a node after a placement: lower is better."""


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
        return new_tuple(PodShape, (0, 0, cpu_milli, mem_mib))
    if gpus < 1:
        return new_tuple(PodShape, (max(1, round(gpus * MILLI)), 1, cpu_milli, mem_mib))
    whole = int(gpus) if gpus == int(gpus) else int(gpus) + 1
    return new_tuple(PodShape, (MILLI, whole, cpu_milli, mem_mib))
