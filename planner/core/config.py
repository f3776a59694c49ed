"""Validated descriptions a user writes or uploads: clusters (pools or explicit nodes).

pydantic lives here, at the boundary; the engine receives plain per-node tuples from
`ClusterConfig.node_specs()`.
"""

from collections.abc import Sequence
from typing import Annotated, NamedTuple, Self

from pydantic import BeforeValidator, Field, model_validator

from planner.core.configbase import ConfigModel
from planner.core.errors import CodedValueError

GPU_TYPE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
MAX_NODES = 100_000
"""Nodes of one cluster, all pools and explicit nodes together: the replay holds each
node's state, so a few lines of YAML (10,000 pools of 100,000) must not ask for 10^9."""


def _not_a_boolean(value: object) -> object:
    """YAML's `true` is not 1: a count given as true/false is a mistake, not a number."""
    if isinstance(value, bool):
        shown = str(value).lower()
        raise CodedValueError(f"expected a whole number, got {shown}", "boolean_count", value=shown)
    return value


Whole = Annotated[int, BeforeValidator(_not_a_boolean)]
"""An integer field of a user's scenario: true/false refused (pydantic would read 1/0)."""


class NodePool(ConfigModel):
    """`count` identical nodes."""

    name: str = Field(default="", description="Optional pool name; defaults to the GPU type.")
    gpu_type: str = Field(default="", description="GPU model; empty for CPU-only nodes.")
    gpus_per_node: Whole = Field(ge=0, le=64)
    cpu: float = Field(default=0.0, ge=0, description="CPU cores per node (0 = not limited).")
    mem_gib: float = Field(default=0.0, ge=0, description="Memory per node (0 = not limited).")
    count: Whole = Field(gt=0, le=MAX_NODES)

    @model_validator(mode="after")
    def _gpu_type_when_gpus(self) -> Self:
        if self.gpus_per_node > 0 and not self.gpu_type:
            raise CodedValueError("a pool with GPUs needs a gpu_type", "pool_without_gpu_type")
        return self


class Node(ConfigModel):
    """One named node, as in an exported node list."""

    node_id: str = Field(min_length=1)
    gpu_type: str = ""
    gpus: Whole = Field(ge=0, le=64)
    cpu: float = Field(default=0.0, ge=0)
    mem_gib: float = Field(default=0.0, ge=0)


def check_node_total(pools: Sequence[NodePool], nodes: Sequence["Node"]) -> None:
    """Refuse a cluster of more than MAX_NODES nodes before any node is built.

    Raises:
        ValueError: naming the total, the limit and what to do (pydantic adds the place).
    """
    total = sum(pool.count for pool in pools) + len(nodes)
    if total > MAX_NODES:
        raise CodedValueError(
            f"the cluster has {total:,} nodes ({len(pools):,} pools, {len(nodes):,} explicit "
            f"nodes), more than the {MAX_NODES:,} the planner replays; describe a cluster of "
            "at most that size (a smaller share of the fleet, or fewer, larger nodes)",
            "too_many_nodes",
            total=total,
            pools=len(pools),
            nodes=len(nodes),
            limit=MAX_NODES,
        )


class NodeSpec(NamedTuple):
    """What the engine sees of a node; cpu and mem_gib 0 mean not limited."""

    node_id: str
    gpu_type: str
    gpus: int
    cpu: float
    mem_gib: float


class ClusterConfig(ConfigModel):
    """Either pools of identical nodes or an explicit node list (or both: pools come first)."""

    name: str = ""
    pools: tuple[NodePool, ...] = ()
    nodes: tuple[Node, ...] = ()

    @model_validator(mode="after")
    def _not_empty_and_unique(self) -> Self:
        if not self.pools and not self.nodes:
            raise CodedValueError("a cluster needs at least one pool or one node", "empty_cluster")
        check_node_total(self.pools, self.nodes)
        ids = [spec.node_id for spec in self.node_specs()]
        if len(ids) != len(set(ids)):
            raise CodedValueError("node ids must be unique", "duplicate_node_ids")
        return self

    def node_specs(self) -> list[NodeSpec]:
        """Every node, pools expanded (ids `<pool>-<n>`), then the explicit nodes."""
        specs: list[NodeSpec] = []
        for index, pool in enumerate(self.pools):
            prefix = pool.name or pool.gpu_type or f"pool{index}"
            specs.extend(
                NodeSpec(
                    f"{prefix}-{n:04d}", pool.gpu_type, pool.gpus_per_node, pool.cpu, pool.mem_gib
                )
                for n in range(pool.count)
            )
        specs.extend(NodeSpec(n.node_id, n.gpu_type, n.gpus, n.cpu, n.mem_gib) for n in self.nodes)
        return specs

    def gpus_by_type(self) -> dict[str, int]:
        """Installed GPUs per GPU type (CPU-only nodes left out)."""
        totals: dict[str, int] = {}
        for spec in self.node_specs():
            if spec.gpus:
                totals[spec.gpu_type] = totals.get(spec.gpu_type, 0) + spec.gpus
        return totals

    @property
    def node_count(self) -> int:
        return sum(pool.count for pool in self.pools) + len(self.nodes)
