"""A replay scenario as users write it (YAML) or the app saves it: trace, cluster, policy.

pydantic validates it at the boundary; `Scenario.policy.to_policy()` and the cluster's node
specs are what the engine receives. `planner schema` prints the JSON schema of this model.
"""

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.cluster import Placement
from planner.config import Node, NodePool
from planner.policy import Admission, Policy, Queueing


class _Config(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PolicySpec(_Config):
    """The scheduler: see `planner replay --help` for what each choice does."""

    admission: Admission = "gang"
    placement: Placement = "best-fit"
    queueing: Queueing = "fifo"
    seed: int = 42
    estimate_factor: float = Field(
        default=1.0, ge=1.0, description="backfill estimate = run time x this"
    )
    backfill_depth: int = Field(
        default=500, ge=1, description="jobs tested behind the head per pass"
    )
    pod_timeout_s: float | None = Field(
        default=None, gt=0, description="pod admission: release a partly placed job after this"
    )
    backoff_base_s: float = Field(default=60.0, ge=0)
    backoff_max_s: float = Field(default=3600.0, ge=0)
    backoff_limit: int = Field(default=20, ge=0)
    horizon_s: float | None = Field(
        default=None,
        gt=0,
        description="stop here (seconds from trace start); none = run to the end",
    )

    def to_policy(self) -> Policy:
        return Policy(**self.model_dump())


class ClusterSpec(_Config):
    """A node list file (openb or generic), or pools and/or explicit nodes."""

    node_list: str | None = Field(default=None, description="path of a node list file")
    pools: tuple[NodePool, ...] = ()
    nodes: tuple[Node, ...] = ()

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if self.node_list and (self.pools or self.nodes):
            raise ValueError("give either node_list or pools/nodes, not both")
        if not self.node_list and not self.pools and not self.nodes:
            raise ValueError("a cluster needs node_list, pools or nodes")
        return self


class Scenario(_Config):
    """Everything `planner replay` needs; command-line flags override its fields."""

    name: str = ""
    trace: str | None = Field(default=None, description="job history file or stored trace id")
    cluster: ClusterSpec | None = None
    policy: PolicySpec = PolicySpec()
