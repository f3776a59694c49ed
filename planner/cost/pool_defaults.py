"""A node pool's packing choice and default delays, with their sources: light enough for the
scenario's model (`planner.cost.scenario`) to read without the pool's simulation and its
numpy (`planner cost --help` stays fast). The delays are also the reference-defaults rows of
`pricing/seeds/assumptions.csv` (a test holds them equal), which a TCO reads first."""

from dataclasses import dataclass
from typing import Literal

Packing = Literal["pool", "per-job"]
"""pool: pods share instances of an autoscaled node pool; per-job: each job on instances of
its own (today's rule, as a Slurm-on-cloud user with exclusive nodes pays)."""


@dataclass(frozen=True, slots=True)
class PoolDefault:
    """A default with where it comes from (the columns of an assumption set's row)."""

    name: str
    value: float
    unit: str
    source: str
    confidence: str
    notes: str


PROVISIONING = PoolDefault(
    "pool.provisioning_s",
    300.0,
    "seconds",
    "practitioners' report: a pod that needs a new node via Karpenter runs after about 5 "
    "minutes, launch, join and start included (news.ycombinator.com/item?id=44053826); "
    "GKE's startup-latency guide splits it into provisioning, image pull and init "
    "(cloud.google.com/kubernetes-engine/docs/concepts/startup-latency-reduction-strategies)",
    "L",
    "launch to ready of a GPU node; large images and driver installs add minutes; "
    "cluster-autoscaler gives up after max-node-provision-time, 15 min by default",
)
SCALE_DOWN = PoolDefault(
    "pool.scale_down_s",
    600.0,
    "seconds",
    "cluster-autoscaler --scale-down-unneeded-time, default 10m "
    "(github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/FAQ.md; AKS's "
    "autoscaler profile documents the same default)",
    "H",
    "Karpenter instead removes an empty node after its NodePool's consolidateAfter "
    "(karpenter.sh/docs/concepts/disruption; 0s unless set): model it with 0",
)
POOL_DEFAULTS = (PROVISIONING, SCALE_DOWN)
