"""Where each job ran, as a result reports it: ((node index, GPUs), ...) per job.

A finished job's allocations (`NodeAlloc`s with every GPU slice they took) are only needed to
undo them, so the replay records the job's placement when it finishes and drops them. Equal
placements are one shared tuple: most jobs of a trace run on one node with one of a few GPU
counts, so a million finished jobs hold thousands of placements, not a million (issue 33:
the allocations and placements were a third of a replay's bytes per job).
"""

from collections.abc import Sequence
from typing import Final

from planner.engine.cluster import MILLI, NodeAlloc, PodShape

Placement = tuple[tuple[int, float], ...]

NO_ALLOCS: Final[list[NodeAlloc]] = []
"""What a job holding nothing points to, shared by all of them: never appended to (a job's
first pod gets a list of its own, `PodAdmission`)."""


class Placements:
    """Each job's placement (`of`, indexed like the replay's jobs), equal ones shared."""

    def __init__(self, jobs: int) -> None:
        self.of: list[Placement] = [()] * jobs
        self._shared: dict[Placement, Placement] = {}
        self._one_node: dict[int, Placement] = {}
        """`_one_key(node, milli)` -> the placement of that many milli-GPUs on that one node:
        most jobs run on one node, and an int key is found without building a tuple."""

    def placement(self, allocs: Sequence[NodeAlloc], pod: PodShape) -> Placement:
        """GPUs per node of `allocs` (pods of shape `pod`), nodes in the order first taken."""
        each, gpus, _, _ = pod  # compiled, unpacked natively; a field read by name is not
        if len(allocs) == 1:
            node, pods, _ = allocs[0]
            milli = each * gpus * pods
            key = _one_key(node, milli)
            found = self._one_node.get(key)
            if found is None:
                found = self._one_node[key] = self._share(((node, milli / MILLI),))
            return found
        per_node: dict[int, int] = {}
        for node, pods, _ in allocs:
            per_node[node] = per_node.get(node, 0) + each * gpus * pods
        return self._share(tuple((node, milli / MILLI) for node, milli in per_node.items()))

    def _share(self, found: Placement) -> Placement:
        return self._shared.setdefault(found, found)


def _one_key(node: int, milli: int) -> int:
    # node ids are below 2**32 (a cluster of billions of nodes is not planned)
    return milli << 32 | node
