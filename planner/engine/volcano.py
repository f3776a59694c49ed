"""Volcano queues (`scheduling.volcano.sh/v1beta1` Queue) and the share each one deserves.

A Volcano queue has a `weight`, a `capability` (hard cap), a `guarantee` (reserved, never
lent), `deserved` (capacity plugin only), `reclaimable`, `priority` and `parent`
(`../shared/reference/scheduler-semantics.md` A2). This module validates them and computes
every queue's deserved GPUs; `planner.engine.volcano_queues` turns the result into Kueue-style
ClusterQueues so the engine runs Volcano queues with its one quota machinery.

* proportion plugin (Volcano's default): deserved is water-filled. realCapability =
  min(capability, total - sum(guarantee) + guarantee_q); starting from remaining = total,
  every unsatisfied queue gets deserved += remaining x weight / sum(unsatisfied weights),
  clamped to max(guarantee, min(deserved, realCapability, request)); a queue is satisfied
  once request <= deserved or its deserved stops changing; stop when remaining is empty or
  stops changing.
* capacity plugin: deserved is given; it is clamped the same way, max(guarantee,
  min(deserved, realCapability)).

Simplification: Volcano recomputes deserved every session from each queue's live request
(allocated + pending), so an idle queue's share goes to the busy ones by weight. Our quotas
are static, so the water-filling uses request = realCapability (every queue hungry): deserved
is the share a queue gets when all queues want everything they may have. What an idle queue
leaves unused is then lent through cohort borrowing (first come, first served, up to each
queue's capability), not re-split by weight.

Resources are GPUs by GPU type; the key "" means "any GPU type" (a Volcano Queue's
`nvidia.com/gpu` is not per type). A type left out of `capability` is not capped; left out of
`guarantee` or `deserved`, it is 0. CPU and memory have a capability only (a hard cap).
This module must stay pure: no pandas, no files, no engine.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from planner.core.configbase import ConfigModel
from planner.core.errors import CodedValueError

Plugin = Literal["proportion", "capacity"]
Vector = dict[str, float]
"""GPUs by GPU type ("" = any type)."""
ROOT = "root"
"""Volcano's root queue: the parent of every top-level queue, sized from the cluster."""
_EPSILON = 1e-9
_MAX_ROUNDS = 10_000  # water-filling converges geometrically; this only guards the loop

Gpus = Annotated[float, Field(ge=0)]


class VolcanoQueueSpec(ConfigModel):
    """One Volcano Queue; GPU amounts are counts per GPU type ("" = any type)."""

    name: str = Field(min_length=1)
    weight: int = Field(default=1, ge=1, description="proportion plugin's share weight")
    capability: dict[str, Gpus] = Field(
        default_factory=dict, description="hard cap per GPU type; a type left out is not capped"
    )
    deserved: dict[str, Gpus] = Field(
        default_factory=dict, description="capacity plugin: lendable and reclaimable share"
    )
    guarantee: dict[str, Gpus] = Field(
        default_factory=dict, description="reserved per GPU type, never lent"
    )
    cpu_capability: float | None = Field(default=None, ge=0, description="cores, hard cap")
    mem_gib_capability: float | None = Field(default=None, ge=0, description="GiB, hard cap")
    reclaimable: bool = True
    priority: int = Field(default=0, description="orders queues in Volcano; not modelled")
    parent: str | None = Field(default=None, description="capacity plugin: hierarchical queues")

    @model_validator(mode="after")
    def _guarantee_within_capability(self) -> Self:
        for gpu_type, cap in self.capability.items():
            if self.guarantee.get(gpu_type, 0.0) > cap:
                raise CodedValueError(
                    f"queue '{self.name}': guarantee exceeds capability",
                    "volcano_guarantee_over",
                    queue=self.name,
                )
        return self

    def mentions(self) -> set[str]:
        return set(self.capability) | set(self.deserved) | set(self.guarantee)


class VolcanoSpec(ConfigModel):
    """Volcano queues, the scheduler's plugin and actions, and which trace queue goes where."""

    plugin: Plugin = "proportion"
    queues: tuple[VolcanoQueueSpec, ...] = Field(min_length=1)
    overcommit_factor: float | None = Field(
        default=1.2,
        ge=1.0,
        description="enqueue: waiting requests up to this x cluster - allocated; "
        "none: no enqueue gate (action enqueue or plugin overcommit off)",
    )
    preempt: bool = Field(default=False, description="action preempt: within a queue")
    reclaim: bool = Field(default=False, description="action reclaim: across queues")
    local_queues: dict[str, str] = Field(
        default_factory=dict, description="a trace's queue value -> Volcano queue name"
    )
    default_queue: str | None = Field(
        default="default", description="for queue values that name no queue (if declared)"
    )

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        names = [q.name for q in self.queues]
        if len(names) != len(set(names)):
            raise CodedValueError("a Volcano queue name is used twice", "volcano_name_twice")
        if ROOT in names:
            raise CodedValueError(
                "'root' is Volcano's root queue, sized from the cluster", "volcano_root_named"
            )
        if self.any_gpu_type and any(q.mentions() - {""} for q in self.queues):
            raise CodedValueError(
                'give GPUs either for any type ("") or per GPU type, not both',
                "volcano_gpu_types_mixed",
            )
        parents = set(self.hierarchy.values()) - {ROOT}
        for queue in self.queues:
            if queue.parent not in (None, ROOT, *names):
                raise CodedValueError(
                    f"queue '{queue.name}': unknown parent '{queue.parent}'",
                    "volcano_unknown_parent",
                    queue=queue.name,
                    parent=queue.parent,
                )
        _no_cycle({q.name: q.parent for q in self.queues if q.parent})
        targets = list(self.local_queues.values())
        if "default_queue" in self.model_fields_set and self.default_queue:
            targets.append(self.default_queue)
        for target in targets:
            if target not in names:
                raise CodedValueError(
                    f"'{target}' is not a Volcano queue", "volcano_not_a_queue", target=target
                )
            if target in parents:
                raise CodedValueError(
                    f"'{target}' has child queues; only leaf queues take jobs",
                    "volcano_not_leaf",
                    target=target,
                )
        self._children_within_parents()
        return self

    def _children_within_parents(self) -> None:
        """Volcano refuses to schedule when children's deserved or guarantee add up to more
        than their parent's (`hierarchical-queue-on-capacity-plugin.md`)."""
        by_name = {q.name: q for q in self.queues}
        for name, queue in by_name.items():
            children = [by_name[n] for n, p in self.hierarchy.items() if p == name]
            for field in ("deserved", "guarantee"):
                own: dict[str, float] = getattr(queue, field)
                for gpu_type in {t for c in children for t in getattr(c, field)}:
                    below = sum(getattr(c, field).get(gpu_type, 0.0) for c in children)
                    if below > own.get(gpu_type, 0.0) + _EPSILON:
                        raise CodedValueError(
                            f"queue '{name}': its children's {field} ({below:g}) exceeds its own",
                            "volcano_children_over",
                            queue=name,
                            field=field,
                            below=f"{below:g}",
                        )

    @property
    def any_gpu_type(self) -> bool:
        """GPUs are counted over all GPU types (or no queue names a type at all)."""
        mentioned = set().union(*(q.mentions() for q in self.queues))
        return "" in mentioned or not mentioned

    @property
    def hierarchy(self) -> dict[str, str]:
        """Queue -> parent queue, capacity plugin only (proportion has no hierarchy)."""
        if self.plugin != "capacity":
            return {}
        return {q.name: q.parent or ROOT for q in self.queues}


def _no_cycle(parent: Mapping[str, str]) -> None:
    for name in parent:
        seen, node = {name}, parent[name]
        while node in parent:
            if node in seen:
                raise CodedValueError(
                    f"queue '{name}' is its own ancestor", "volcano_cycle", queue=name
                )
            seen.add(node)
            node = parent[node]


@dataclass(frozen=True, slots=True)
class Claim:
    """What one queue brings to the water-filling, per dimension of the total."""

    weight: int
    real_capability: Vector
    request: Vector
    guarantee: Vector


def water_fill(total: Vector, claims: Mapping[str, Claim]) -> dict[str, Vector]:
    """Volcano's proportion plugin: deserved per queue, exactly as the reference describes
    (a dimension missing from a claim's vectors is unlimited, or 0 for guarantee)."""
    dims = list(total)
    deserved = {name: dict.fromkeys(dims, 0.0) for name in claims}
    remaining = dict(total)
    met: set[str] = set()
    for _ in range(_MAX_ROUNDS):
        weights = sum(c.weight for name, c in claims.items() if name not in met)
        if weights == 0:
            break
        before = dict(remaining)
        change = dict.fromkeys(dims, 0.0)
        for name, claim in claims.items():
            if name in met:
                continue
            old = deserved[name]
            new = {d: _clamp(claim, d, old[d] + before[d] * claim.weight / weights) for d in dims}
            if all(claim.request.get(d, float("inf")) <= new[d] + _EPSILON for d in dims) or all(
                abs(new[d] - old[d]) <= _EPSILON for d in dims
            ):
                met.add(name)
            deserved[name] = new
            for d in dims:
                change[d] += new[d] - old[d]
        remaining = {d: max(0.0, before[d] - change[d]) for d in dims}
        if all(v <= _EPSILON for v in remaining.values()) or all(
            abs(remaining[d] - before[d]) <= _EPSILON for d in dims
        ):
            break
    return deserved


def _clamp(claim: Claim, dim: str, value: float) -> float:
    inf = float("inf")
    capped = min(value, claim.real_capability.get(dim, inf), claim.request.get(dim, inf))
    return max(claim.guarantee.get(dim, 0.0), capped)


def real_capability(spec: VolcanoSpec, total: Vector) -> dict[str, Vector]:
    """min(capability, total - sum of all guarantees + the queue's own guarantee); with
    hierarchical queues, the parent's real capability stands for the total and the sum runs
    over the queue and its siblings."""
    parent_of = spec.hierarchy or dict.fromkeys((q.name for q in spec.queues), ROOT)
    by_name = {q.name: q for q in spec.queues}
    out: dict[str, Vector] = {ROOT: dict(total)}

    def real(name: str) -> Vector:
        if name not in out:
            queue, parent = by_name[name], parent_of[name]
            above = real(parent)
            siblings = [by_name[n] for n, p in parent_of.items() if p == parent]
            out[name] = {
                d: min(
                    queue.capability.get(d, float("inf")),
                    max(0.0, above[d] - _guaranteed(siblings, d) + queue.guarantee.get(d, 0.0)),
                )
                for d in total
            }
        return out[name]

    return {q.name: real(q.name) for q in spec.queues}


def _guaranteed(queues: list[VolcanoQueueSpec], dim: str) -> float:
    return sum(q.guarantee.get(dim, 0.0) for q in queues)


def deserved_gpus(spec: VolcanoSpec, total: Vector) -> dict[str, Vector]:
    """Each queue's static deserved GPUs per dimension of `total`, in milli-GPUs' precision
    (rounded down, so that deserved shares never add up to more than the cluster)."""
    real = real_capability(spec, total)
    if spec.plugin == "capacity":
        shares = {
            q.name: {
                d: max(q.guarantee.get(d, 0.0), min(q.deserved.get(d, 0.0), real[q.name][d]))
                for d in total
            }
            for q in spec.queues
        }
    else:
        claims = {
            q.name: Claim(q.weight, real[q.name], real[q.name], _only(q.guarantee, total))
            for q in spec.queues
        }
        shares = water_fill(total, claims)
    return {name: {d: _milli_floor(v) for d, v in share.items()} for name, share in shares.items()}


def _only(vector: Mapping[str, float], total: Vector) -> Vector:
    return {d: v for d, v in vector.items() if d in total}


def _milli_floor(gpus: float) -> float:
    return int(gpus * 1000 + 1e-6) / 1000
