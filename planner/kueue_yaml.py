"""Read a Kueue configuration (the YAML you `kubectl apply`) into a scenario's queues.

ResourceFlavor, ClusterQueue, Cohort, LocalQueue and WorkloadPriorityClass documents are
read; quotas on `nvidia.com/gpu` (and `nvidia.com/mig-*` later) become the scenario's GPU
quotas. Everything else a document says is listed in the notes returned beside the queues,
never silently ignored: CPU and memory quotas, preemption policies, namespace selectors,
fair sharing, admission checks and any kind we do not model.
"""

import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from planner.errors import ScenarioError
from planner.scenario import QueuesSpec

GPU_RESOURCE = "nvidia.com/gpu"
_KNOWN_GPUS = re.compile(
    r"(GB200|B200|H200|H100|H800|H20|A800|A100|A40|A30|A10G?|L40S?|L4|V100|T4|P100|RTX\d+)",
    re.IGNORECASE,
)
_MODELLED = {
    "ClusterQueue": {"cohort", "cohortName", "queueingStrategy", "resourceGroups"},
    "Cohort": {"parent", "parentName", "resourceGroups"},
    "ResourceFlavor": {"nodeLabels"},
    "LocalQueue": {"clusterQueue"},
}


def read_kueue(path: Path) -> tuple[QueuesSpec, list[str]]:
    """The queues a Kueue YAML describes, and notes on what was not modelled."""
    try:
        documents = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    except (OSError, yaml.YAMLError) as err:
        raise ScenarioError(f"{path}: cannot read the Kueue YAML: {err}") from err
    reader = _Reader(path.name)
    for document in documents:
        if isinstance(document, dict) and document.get("kind") == "List":
            for item in document.get("items") or []:
                reader.add(item)
        else:
            reader.add(document)
    return reader.spec(), reader.notes


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
            self.notes.append(f"{self.file}: skipped a document that is not a mapping")
            return
        kind = str(document.get("kind", ""))
        name = str((document.get("metadata") or {}).get("name", ""))
        spec = document.get("spec") or {}
        where = f"{kind} {name}"
        if kind not in {*_MODELLED, "WorkloadPriorityClass"}:
            self.notes.append(f"{where}: kind not modelled, skipped")
            return
        if not name:
            raise ScenarioError(f"{self.file}: a {kind} has no metadata.name")
        for key in sorted(set(spec) - _MODELLED.get(kind, set())):
            self.notes.append(f"{where}: spec.{key} not modelled, ignored")
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
            self.notes.append(f"{where}: priority {value} noted; use the trace's priority column")

    def _cluster_queue(self, name: str, spec: dict[str, Any], where: str) -> None:
        strategy = spec.get("queueingStrategy")
        queue: dict[str, Any] = {
            "name": name,
            "cohort": spec.get("cohortName") or spec.get("cohort"),
            "quotas": self._quotas(spec.get("resourceGroups") or [], where),
        }
        if strategy in ("StrictFIFO", "BestEffortFIFO"):
            queue["strategy"] = strategy
        self.queues.append(queue)

    def _quotas(self, groups: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
        quotas = []
        for group in groups:
            for flavor in group.get("flavors") or []:
                for resource in flavor.get("resources") or []:
                    rname = resource.get("name")
                    if rname != GPU_RESOURCE:
                        self.notes.append(
                            f"{where}: quota on {rname} (flavor {flavor.get('name')}) not "
                            "modelled: only GPU quotas are"
                        )
                        continue
                    quota = {
                        "flavor": flavor.get("name"),
                        "gpus": _quantity(resource.get("nominalQuota"), where),
                    }
                    for key, field in (
                        ("borrowingLimit", "borrowing_limit"),
                        ("lendingLimit", "lending_limit"),
                    ):
                        if resource.get(key) is not None:
                            quota[field] = _quantity(resource[key], where)
                    quotas.append(quota)
        return quotas

    def spec(self) -> QueuesSpec:
        if not self.queues:
            raise ScenarioError(f"{self.file}: no ClusterQueue found")
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
            raise ScenarioError(f"{self.file}: {problems}") from err


def _gpu_type(labels: dict[str, Any]) -> str:
    """The GPU model a flavor's node labels select ('' if they do not name one)."""
    for key, value in labels.items():
        if "gpu" in key.lower() or "accelerator" in key.lower():
            found = _KNOWN_GPUS.search(str(value))
            return found.group(1).upper() if found else str(value)
    return ""


def _quantity(value: Any, where: str) -> float:
    """A Kubernetes quantity of GPUs: 8, "8", "1k" are accepted."""
    text = str(value).strip()
    scale = {"k": 1e3, "M": 1e6}
    try:
        if text and text[-1] in scale:
            return float(text[:-1]) * scale[text[-1]]
        return float(text)
    except ValueError as err:
        raise ScenarioError(f"{where}: '{value}' is not a GPU quantity") from err
