"""A replay scenario as users write it (YAML) or the app saves it: trace, cluster, policy,
and what `planner twin` calibrated (`planner.engine.calibration`).

pydantic validates it at the boundary; `Scenario.policy.to_policy()` and the cluster's node
specs are what the engine receives. `planner schema` prints the JSON schema of this model.
"""

from dataclasses import replace
from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from planner.core.config import Node, NodePool, Whole, check_node_total
from planner.core.configbase import ConfigModel
from planner.core.errors import CodedValueError, ScenarioError
from planner.engine.calibration import CalibrationSpec
from planner.engine.cluster import Placement
from planner.engine.colocation import Colocation
from planner.engine.overhead import Network, Overhead, Storage
from planner.engine.policy import MAX_SIMULATED_S, Admission, Policy, Queueing
from planner.engine.preemption import BorrowWithin, PreemptionPolicy, Reclaim, WithinQueue
from planner.engine.quota import FlavorQuota, QueueSetup, QuotaNode
from planner.engine.sharing import MigConfig, SharingMode, TimeSlicing, layout_names
from planner.engine.volcano import VolcanoSpec

Seconds = Annotated[float, Field(le=MAX_SIMULATED_S)]
"""A finite time in seconds of simulated time, at most `MAX_SIMULATED_S` (100 years): more
is a unit mistake, and would make a replay run for ever."""


class PolicySpec(ConfigModel):
    """The scheduler: see `planner replay --help` for what each choice does."""

    admission: Admission = "gang"
    placement: Placement = "best-fit"
    queueing: Queueing = "fifo"
    seed: Whole = 42
    estimate_factor: float = Field(
        default=1.0, ge=1.0, description="backfill estimate = run time x this"
    )
    backfill_depth: Whole = Field(
        default=500, ge=1, description="jobs tested behind the head per pass"
    )
    pod_timeout_s: Seconds | None = Field(
        default=None, gt=0, description="pod admission: release a partly placed job after this"
    )
    backoff_base_s: Seconds = Field(default=60.0, ge=0)
    backoff_max_s: Seconds = Field(default=3600.0, ge=0)
    backoff_limit: Whole = Field(default=20, ge=0)
    horizon_s: Seconds | None = Field(
        default=None,
        gt=0,
        description="stop here (seconds from trace start); none = run to the end",
    )
    enqueue_overcommit: float | None = Field(
        default=None,
        ge=1.0,
        description="Volcano enqueue: jobs are considered while waiting requests fit "
        "this x the cluster minus what is allocated (set from `volcano`)",
    )

    def to_policy(
        self, queues: QueueSetup | None = None, overhead: Overhead | None = None
    ) -> Policy:
        return Policy(**self.model_dump(), queues=queues, overhead=overhead)


class ClusterSpec(ConfigModel):
    """A node list file (openb or generic), or pools and/or explicit nodes."""

    node_list: str | None = Field(default=None, description="path of a node list file")
    pools: tuple[NodePool, ...] = ()
    nodes: tuple[Node, ...] = ()

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if self.node_list and (self.pools or self.nodes):
            raise CodedValueError(
                "give either node_list or pools/nodes, not both", "cluster_two_sources"
            )
        if not self.node_list and not self.pools and not self.nodes:
            raise CodedValueError("a cluster needs node_list, pools or nodes", "cluster_no_source")
        check_node_total(self.pools, self.nodes)
        return self


class FlavorSpec(ConfigModel):
    """A Kueue ResourceFlavor: the nodes with this GPU type (empty: every node)."""

    name: str = Field(min_length=1)
    gpu_type: str = ""


class QuotaSpec(ConfigModel):
    """One flavor's quota: GPUs (nominal, borrowing and lending limits), and optionally CPU
    cores and memory with their own limits (left out: that resource is not under quota)."""

    flavor: str
    gpus: float = Field(ge=0, description="nominalQuota")
    borrowing_limit: float | None = Field(default=None, ge=0)
    lending_limit: float | None = Field(default=None, ge=0)
    cpu: float | None = Field(default=None, ge=0, description="cores")
    cpu_borrowing_limit: float | None = Field(default=None, ge=0)
    cpu_lending_limit: float | None = Field(default=None, ge=0)
    mem_gib: float | None = Field(default=None, ge=0)
    mem_gib_borrowing_limit: float | None = Field(default=None, ge=0)
    mem_gib_lending_limit: float | None = Field(default=None, ge=0)


class PreemptionSpec(ConfigModel):
    """Kueue ClusterQueue .spec.preemption (classic mode)."""

    within_cluster_queue: WithinQueue = "Never"
    reclaim_within_cohort: Reclaim = "Never"
    borrow_within_cohort: BorrowWithin = "Never"
    max_priority_threshold: Whole | None = None


class ClusterQueueSpec(ConfigModel):
    name: str = Field(min_length=1)
    preemption: PreemptionSpec = PreemptionSpec()
    budget_gpu_hours_per_month: float | None = Field(
        default=None, ge=0, description="stop admitting once this is used (30-day months)"
    )
    cohort: str | None = None
    strategy: Literal["BestEffortFIFO", "StrictFIFO"] | None = Field(
        default=None,
        description="default: StrictFIFO with --queueing strict-fifo, else BestEffortFIFO",
    )
    quotas: tuple[QuotaSpec, ...] = Field(description="flavors in the order they are tried")
    reclaimable: bool = Field(
        default=True, description="Volcano: whether other queues may reclaim from it"
    )


class CohortSpec(ConfigModel):
    name: str = Field(min_length=1)
    parent: str | None = None
    quotas: tuple[QuotaSpec, ...] = Field(default=(), description="extra shared quota")


class QueuesSpec(ConfigModel):
    """Kueue-style queues: flavors, ClusterQueues in (hierarchical) cohorts, LocalQueues."""

    flavors: tuple[FlavorSpec, ...] = Field(min_length=1)
    cohorts: tuple[CohortSpec, ...] = ()
    cluster_queues: tuple[ClusterQueueSpec, ...] = Field(min_length=1)
    local_queues: dict[str, str] = Field(
        default_factory=dict, description="a trace's queue value -> ClusterQueue name"
    )
    default_cluster_queue: str | None = Field(
        default=None, description="for queue values that name no LocalQueue or ClusterQueue"
    )
    queue_priority: dict[str, Whole] = Field(
        default_factory=dict,
        description="a trace's queue value -> priority of its jobs (else the trace's priority)",
    )

    @model_validator(mode="after")
    def _references(self) -> Self:
        _unique("flavor", [f.name for f in self.flavors])
        _unique(
            "cohort or ClusterQueue",
            [c.name for c in self.cohorts] + [q.name for q in self.cluster_queues],
        )
        flavors = {f.name for f in self.flavors}
        queues = {q.name for q in self.cluster_queues}
        owners: list[tuple[str, tuple[QuotaSpec, ...]]] = [
            (q.name, q.quotas) for q in self.cluster_queues
        ] + [(c.name, c.quotas) for c in self.cohorts]
        for owner, quotas in owners:
            for quota in quotas:
                if quota.flavor not in flavors:
                    raise CodedValueError(
                        f"{owner}: unknown flavor '{quota.flavor}'",
                        "kueue_unknown_flavor",
                        owner=owner,
                        flavor=quota.flavor,
                    )
        for local, target in self.local_queues.items():
            if target not in queues:
                raise CodedValueError(
                    f"local queue '{local}' points to unknown ClusterQueue '{target}'",
                    "kueue_local_unknown",
                    local=local,
                    target=target,
                )
        if self.default_cluster_queue and self.default_cluster_queue not in queues:
            raise CodedValueError(
                f"default_cluster_queue '{self.default_cluster_queue}' is not a ClusterQueue",
                "kueue_default_unknown",
                queue=self.default_cluster_queue,
            )
        cohort_names = {c.name for c in self.cohorts} | {c.parent for c in self.cohorts if c.parent}
        cohort_names |= {q.cohort for q in self.cluster_queues if q.cohort}
        clash = sorted(cohort_names & queues)
        if clash:
            raise CodedValueError(
                f"'{clash[0]}' names both a cohort and a ClusterQueue",
                "kueue_cohort_clash",
                name=clash[0],
            )
        cohorts = {c.name: c.parent for c in self.cohorts}
        for name, first_parent in cohorts.items():
            seen = {name}
            parent = first_parent
            while parent:
                if parent in seen:
                    raise CodedValueError(
                        f"cohort '{name}' is its own ancestor", "kueue_cohort_cycle", name=name
                    )
                seen.add(parent)
                parent = cohorts.get(parent)
        return self

    def to_setup(self, *, strict_default: bool) -> QueueSetup:
        """Plain quota nodes for the engine; cohorts named but not declared are implicit."""
        flavor_index = {f.name: i for i, f in enumerate(self.flavors)}
        declared = {c.name: c for c in self.cohorts}
        names = list(declared)
        for queue in self.cluster_queues:
            if queue.cohort and queue.cohort not in names:
                names.append(queue.cohort)
        for cohort in self.cohorts:
            if cohort.parent and cohort.parent not in names:
                names.append(cohort.parent)
        index = {name: i for i, name in enumerate(names)}
        nodes: list[QuotaNode] = []
        for name in names:
            spec = declared.get(name)
            parent = index[spec.parent] if spec and spec.parent else -1
            given = spec.quotas if spec else ()
            nodes.append(
                QuotaNode(
                    name,
                    parent,
                    queue=False,
                    quotas=_quotas(given, flavor_index),
                    cpu_quotas=_resource_quotas(given, flavor_index, "cpu"),
                    mem_quotas=_resource_quotas(given, flavor_index, "mem_gib"),
                )
            )
        order: dict[int, tuple[int, ...]] = {}
        for queue in self.cluster_queues:
            strict = queue.strategy == "StrictFIFO" or (queue.strategy is None and strict_default)
            order[len(nodes)] = tuple(flavor_index[q.flavor] for q in queue.quotas)
            index[queue.name] = len(nodes)
            parent = index[queue.cohort] if queue.cohort else -1
            nodes.append(
                QuotaNode(
                    queue.name,
                    parent,
                    True,
                    _quotas(queue.quotas, flavor_index),
                    strict,
                    PreemptionPolicy(**queue.preemption.model_dump()),
                    _gpu_seconds(queue.budget_gpu_hours_per_month),
                    _resource_quotas(queue.quotas, flavor_index, "cpu"),
                    _resource_quotas(queue.quotas, flavor_index, "mem_gib"),
                    queue.reclaimable,
                )
            )
        mapping = {q.name: index[q.name] for q in self.cluster_queues}
        mapping.update({local: index[target] for local, target in self.local_queues.items()})
        return QueueSetup(
            flavors=tuple((f.name, f.gpu_type) for f in self.flavors),
            nodes=tuple(nodes),
            queue_of=mapping,
            default_queue=index[self.default_cluster_queue] if self.default_cluster_queue else None,
            flavor_order=order,
            queue_priority=dict(self.queue_priority),
        )


def _unique(what: str, names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise CodedValueError(
                f"{what} name '{name}' is used twice", "name_used_twice", what=what, name=name
            )
        seen.add(name)


def _resource_quotas(
    quotas: tuple[QuotaSpec, ...], flavor_index: dict[str, int], resource: str
) -> dict[int, FlavorQuota]:
    """CPU quotas in milli-cores or memory quotas in MiB, for the flavors that give one."""
    scale = 1000 if resource == "cpu" else 1024

    def unit(value: float | None) -> int | None:
        return None if value is None else round(value * scale)

    table: dict[int, FlavorQuota] = {}
    for q in quotas:
        nominal = getattr(q, resource)
        if nominal is not None:
            table[flavor_index[q.flavor]] = FlavorQuota(
                round(nominal * scale),
                unit(getattr(q, f"{resource}_borrowing_limit")),
                unit(getattr(q, f"{resource}_lending_limit")),
            )
    return table


def _gpu_seconds(hours: float | None) -> float | None:
    return None if hours is None else hours * 3600.0


def _milli(gpus: float | None) -> int | None:
    return None if gpus is None else round(gpus * 1000)


def _quotas(quotas: tuple[QuotaSpec, ...], flavor_index: dict[str, int]) -> dict[int, FlavorQuota]:
    return {
        flavor_index[q.flavor]: FlavorQuota(
            round(q.gpus * 1000), _milli(q.borrowing_limit), _milli(q.lending_limit)
        )
        for q in quotas
    }


class OverheadSpec(ConfigModel):
    """Container overhead of multi-pod jobs (see planner/engine/overhead.py for the defaults)."""

    network: Network = "rdma"
    storage: Storage = "local-nvme"


class ColocationSpec(ConfigModel):
    """Online services' GPUs by hour of day (Koordinator-style colocation)."""

    online_gpus_by_hour: tuple[Whole, ...] = Field(min_length=24, max_length=24)
    gpu_types: tuple[str, ...] = Field(default=(), description="nodes hosting online services")


class PreemptionCostSpec(ConfigModel):
    """What a preemption costs the victim, and when it may happen (every queue alike)."""

    checkpoint_interval_s: Seconds | None = Field(
        default=None, gt=0, description="preempted jobs keep work up to their last checkpoint"
    )
    restart_overhead_s: Seconds = Field(default=0.0, ge=0, description="added on each restart")
    min_run_s: Seconds = Field(default=0.0, ge=0, description="no preemption before this run time")
    termination_grace_s: Seconds = Field(
        default=0.0, ge=0, description="preempted pods hold GPUs and quota this long"
    )


class PrioritiesSpec(ConfigModel):
    """Priorities by queue (Kueue WorkloadPriorityClasses): they override the trace's."""

    classes: dict[str, Whole] = Field(
        default_factory=dict, description="priority class name -> value (WorkloadPriorityClass)"
    )
    by_queue: dict[str, Whole | str] = Field(
        default_factory=dict, description="a trace's queue value -> a priority or a class name"
    )

    @model_validator(mode="after")
    def _known_classes(self) -> Self:
        for queue, value in self.by_queue.items():
            if isinstance(value, str) and value not in self.classes:
                known = ", ".join(self.classes) or "none defined"
                code = "unknown_priority_class" if self.classes else "no_priority_classes"
                raise CodedValueError(
                    f"queue '{queue}': unknown priority class '{value}' ({known})",
                    code,
                    queue=queue,
                    value=value,
                    classes=tuple(self.classes),
                )
        return self

    def values(self) -> dict[str, int]:
        return {
            queue: self.classes[value] if isinstance(value, str) else value
            for queue, value in self.by_queue.items()
        }


class MigSpec(ConfigModel):
    """MIG on a pool's GPUs (NVIDIA GPU Operator / device plugin)."""

    strategy: Literal["single", "mixed"] = "mixed"
    layout: str | tuple[str, ...] | None = Field(
        default=None,
        description="named layout (all-balanced, all-1g.10gb, ...) or a list of profiles "
        "per GPU; none: dynamic MIG, instances created where requests land",
    )
    relayout_delay_s: Seconds | None = Field(
        default=None, ge=0, description="re-partition idle GPUs on demand, taking this long"
    )


class TimeSlicingSpec(ConfigModel):
    replicas: Whole = Field(ge=2, le=64, description="each GPU is advertised this many times")
    slowdown: float = Field(default=1.0, ge=1.0, description="run-time factor when sharing")
    fail_requests_greater_than_one: bool = False


class SharingSpec(ConfigModel):
    """How the GPUs of one type are shared: MIG or time-slicing."""

    gpu_type: str = Field(min_length=1, description="'*': every GPU type not listed")
    mig: MigSpec | None = None
    time_slicing: TimeSlicingSpec | None = None

    @model_validator(mode="after")
    def _one_mode(self) -> Self:
        if (self.mig is None) == (self.time_slicing is None):
            raise CodedValueError(
                f"{self.gpu_type}: give exactly one of `mig` or `time_slicing`",
                "sharing_one_mode",
                gpu=self.gpu_type,
            )
        try:
            self.to_mode()
        except ScenarioError as err:
            raise ValueError(f"{self.gpu_type}: {err}") from err
        return self

    def to_mode(self) -> SharingMode:
        if self.time_slicing is not None:
            return TimeSlicing(**self.time_slicing.model_dump())
        assert self.mig is not None
        layout = layout_names(self.mig.layout) if self.mig.layout else ()
        return MigConfig(self.mig.strategy, layout, self.mig.relayout_delay_s)


class Scenario(ConfigModel):
    """Everything `planner replay` needs; command-line flags override its fields."""

    name: str = ""
    trace: str | None = Field(default=None, description="job history file or stored trace id")
    cluster: ClusterSpec | None = None
    policy: PolicySpec = PolicySpec()
    queues: QueuesSpec | None = None
    volcano: VolcanoSpec | None = Field(
        default=None, description="Volcano queues instead of Kueue `queues`"
    )
    overhead: OverheadSpec | None = None
    colocation: ColocationSpec | None = None
    sharing: tuple[SharingSpec, ...] = Field(default=(), description="MIG or time-slicing")
    priorities: PrioritiesSpec | None = None
    preemption: PreemptionCostSpec = PreemptionCostSpec()
    calibration: CalibrationSpec | None = Field(
        default=None,
        description="what `planner twin` fitted: the start latency every job gets, and the "
        "validation error every result carries",
    )

    @model_validator(mode="after")
    def _one_queue_model(self) -> Self:
        if self.queues is not None and self.volcano is not None:
            raise CodedValueError(
                "give either queues (Kueue) or volcano, not both", "queues_and_volcano"
            )
        _unique("sharing gpu_type", [s.gpu_type.upper() for s in self.sharing])
        if self.priorities and self.priorities.by_queue and not (self.queues or self.volcano):
            raise CodedValueError(
                "priorities.by_queue needs queues (Kueue) or volcano", "priorities_no_queues"
            )
        return self

    def to_policy(self) -> Policy:
        if self.volcano is not None and self.queues is None:
            # Volcano's shares are parts of the cluster: planner.service.replay converts them
            # first (with_volcano_queues)
            raise ValueError("convert `volcano` with planner.engine.volcano_queues.to_queues first")
        setup = None
        if self.queues is not None:
            setup = self.queues.to_setup(strict_default=self.policy.queueing == "strict-fifo")
            if self.priorities is not None:
                by_queue = {**setup.queue_priority, **self.priorities.values()}
                setup = replace(setup, queue_priority=by_queue)
        overhead = None
        if self.overhead is not None:
            overhead = Overhead(self.overhead.network, self.overhead.storage)
        policy = replace(self.policy.to_policy(setup, overhead), **self.preemption.model_dump())
        if self.colocation is not None:
            colocation = Colocation(self.colocation.online_gpus_by_hour, self.colocation.gpu_types)
            policy = replace(policy, colocation=colocation)
        if self.sharing:
            policy = replace(policy, sharing={s.gpu_type: s.to_mode() for s in self.sharing})
        latency = self.calibration.start_latency if self.calibration else None
        if latency is not None:
            policy = replace(policy, start_latency=latency.to_start_latency())
        return policy
