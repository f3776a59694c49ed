"""Read a Kueue configuration (the YAML you `kubectl apply`) into a scenario's queues.

ResourceFlavor, ClusterQueue, Cohort, LocalQueue and WorkloadPriorityClass documents are
read; quotas on `nvidia.com/gpu`, `cpu` and `memory` become the scenario's quotas. Everything else
a document says is listed in the notes returned beside the queues, never silently ignored:
other resources (MIG slices, pods), fair-sharing preemption, namespace selectors, fair sharing,
admission checks and any kind we do not model.
"""

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from planner.core.errors import ScenarioError
from planner.core.validation import problems as found_problems
from planner.core.yaml_text import load_yaml_all, read_yaml_text
from planner.engine.scenario import QueuesSpec
from planner.ingest.kubectl import gpu_model, kubernetes_quantity
from planner.ingest.limits import shorten
from planner.ingest.notes import ingest_note

GPU_RESOURCE = "nvidia.com/gpu"
_RESOURCES = {GPU_RESOURCE: "gpus", "cpu": "cpu", "memory": "mem_gib"}
_LIMITS = (
    ("nominalQuota", ""),
    ("borrowingLimit", "borrowing_limit"),
    ("lendingLimit", "lending_limit"),
)
_MODELLED = {
    "ClusterQueue": {"cohort", "cohortName", "queueingStrategy", "resourceGroups", "preemption"},
    "Cohort": {"parent", "parentName", "resourceGroups"},
    "ResourceFlavor": {"nodeLabels"},
    "LocalQueue": {"clusterQueue"},
}


def read_kueue(path: Path) -> tuple[QueuesSpec, list[str]]:
    """The queues a Kueue YAML describes, and notes on what was not modelled."""
    text = read_yaml_text(path, "Kueue YAML")
    documents = [d.data for d in load_yaml_all(text, str(path), "Kueue YAML") if d.data]
    reader = _Reader(path.name)
    for document in documents:
        if isinstance(document, dict) and document.get("kind") == "List":
            for item in document.get("items") or []:
                _add(reader, item)
        else:
            _add(reader, document)
    return reader.spec(), reader.notes


def _add(reader: "_Reader", document: Any) -> None:
    """One document; a part of the wrong shape (a list where Kueue has a mapping, or the
    other way round) is named instead of failing deep inside the reader."""
    try:
        reader.add(document)
    except (AttributeError, TypeError) as err:
        kind = str(document.get("kind", "document"))
        name = str((document.get("metadata") or {}).get("name", ""))
        raise ScenarioError(
            f"{reader.file}: {kind} {name} is not shaped as Kueue writes it (a list where a "
            "mapping belongs, or the other way round); compare it with `kubectl get "
            f"{kind.lower()} {name} -o yaml`"
        ).coded(
            "kueue_shape",
            file=reader.file,
            kind=kind,
            name=name,
            command=f"kubectl get {kind.lower()} {name} -o yaml",
        ) from err


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.flavors: list[dict[str, str]] = []
        self.cohorts: list[dict[str, Any]] = []
        self.queues: list[dict[str, Any]] = []
        self.local: dict[str, str] = {}
        self.notes: list[str] = []

    def add(self, document: Any) -> None:
        if not isinstance(document, dict):
            self.notes.append(ingest_note("yaml_not_mapping", file=self.file))
            return
        kind = str(document.get("kind", ""))
        name = str((document.get("metadata") or {}).get("name", ""))
        spec = document.get("spec") or {}
        where = f"{kind} {name}"
        if kind not in {*_MODELLED, "WorkloadPriorityClass"}:
            self.notes.append(ingest_note("yaml_kind_skipped", kind=kind, name=name))
            return
        if not name:
            raise ScenarioError(f"{self.file}: a {kind} has no metadata.name").coded(
                "kueue_no_name", file=self.file, kind=kind
            )
        for key in sorted(set(spec) - _MODELLED.get(kind, set())):
            self.notes.append(ingest_note("yaml_key_ignored", where=where, key=key))
        if kind == "ResourceFlavor":
            self.flavors.append({"name": name, "gpu_type": _gpu_type(spec.get("nodeLabels") or {})})
        elif kind == "ClusterQueue":
            self._cluster_queue(name, spec, where)
        elif kind == "Cohort":
            quotas = self._quotas(spec.get("resourceGroups") or [], where)
            parent = spec.get("parentName") or spec.get("parent")
            self.cohorts.append({"name": name, "parent": parent, "quotas": quotas})
        elif kind == "LocalQueue":
            target = str(spec.get("clusterQueue", ""))
            namespace = (document.get("metadata") or {}).get("namespace")
            self.local[name] = target
            if namespace:
                self.local[f"{namespace}/{name}"] = target
        else:
            value = document.get("value")
            self.notes.append(ingest_note("kueue_priority", where=where, value=value))

    def _cluster_queue(self, name: str, spec: dict[str, Any], where: str) -> None:
        strategy = spec.get("queueingStrategy")
        queue: dict[str, Any] = {
            "name": name,
            "cohort": spec.get("cohortName") or spec.get("cohort"),
            "quotas": self._quotas(spec.get("resourceGroups") or [], where),
        }
        if strategy in ("StrictFIFO", "BestEffortFIFO"):
            queue["strategy"] = strategy
        preemption = spec.get("preemption") or {}
        if preemption:
            queue["preemption"] = self._preemption(preemption, where)
        self.queues.append(queue)

    def _preemption(self, spec: dict[str, Any], where: str) -> dict[str, Any]:
        rules: dict[str, Any] = {}
        for key, field in (
            ("withinClusterQueue", "within_cluster_queue"),
            ("reclaimWithinCohort", "reclaim_within_cohort"),
        ):
            if key in spec:
                rules[field] = spec[key]
        borrow = spec.get("borrowWithinCohort") or {}
        if borrow:
            rules["borrow_within_cohort"] = borrow.get("policy", "Never")
            if borrow.get("maxPriorityThreshold") is not None:
                rules["max_priority_threshold"] = int(borrow["maxPriorityThreshold"])
        for key in sorted(
            set(spec) - {"withinClusterQueue", "reclaimWithinCohort", "borrowWithinCohort"}
        ):
            self.notes.append(ingest_note("kueue_preemption_ignored", where=where, key=key))
        return rules

    def _quotas(self, groups: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
        """One quota entry per flavor: GPUs, CPU cores and memory (GiB) with their limits."""
        quotas = []
        for group in groups:
            for flavor in group.get("flavors") or []:
                quota: dict[str, Any] = {"flavor": flavor.get("name"), "gpus": 0.0}
                for resource in flavor.get("resources") or []:
                    prefix = _RESOURCES.get(str(resource.get("name")))
                    if prefix is None:
                        self.notes.append(
                            ingest_note(
                                "kueue_quota_ignored",
                                where=where,
                                resource=resource.get("name"),
                                flavor=flavor.get("name"),
                            )
                        )
                        continue
                    scale = 2**30 if prefix == "mem_gib" else 1.0
                    for key, suffix in _LIMITS:
                        if resource.get(key) is not None:
                            field = prefix if not suffix else _limit_field(prefix, suffix)
                            quota[field] = quantity(resource[key], where) / scale
                quotas.append(quota)
        return quotas

    def spec(self) -> QueuesSpec:
        if not self.queues:
            raise ScenarioError(f"{self.file}: no ClusterQueue found").coded(
                "kueue_no_queue", file=self.file
            )
        flavors = self.flavors or [{"name": "default-flavor", "gpu_type": ""}]
        try:
            return QueuesSpec.model_validate(
                {
                    "flavors": flavors,
                    "cohorts": self.cohorts,
                    "cluster_queues": self.queues,
                    "local_queues": self.local,
                }
            )
        except ValidationError as err:
            problems = "; ".join(str(e["msg"]) for e in err.errors())
            raise ScenarioError(f"{self.file}: {problems}").coded(
                "validation", source=self.file, problems=tuple(found_problems(err))
            ) from err


def _limit_field(prefix: str, suffix: str) -> str:
    """QuotaSpec's names: GPUs' limits are plain, CPU's and memory's carry their prefix."""
    return suffix if prefix == "gpus" else f"{prefix}_{suffix}"


def _gpu_type(labels: dict[str, Any]) -> str:
    """The GPU model a flavor's node labels select ('' if they do not name one)."""
    for key, value in labels.items():
        if "gpu" in key.lower() or "accelerator" in key.lower():
            return gpu_model(str(value))
    return ""


def quantity(value: Any, where: str) -> float:
    """A Kubernetes quantity: 8, "8", "95500m", "1Ti", "512Gi", "1k"."""
    try:
        return kubernetes_quantity(value)
    except ValueError as err:
        raise ScenarioError(f"{where}: '{value}' is not a resource quantity").coded(
            "not_a_quantity", where=where, value=shorten(str(value))
        ) from err
