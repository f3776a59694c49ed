"""Read Volcano queues (the YAML you `kubectl apply`, or `kubectl get queues -o yaml`).

`Queue` documents (`scheduling.volcano.sh/v1beta1`) give weight, capability, deserved,
guarantee, reclaimable, priority and parent; quantities of `nvidia.com/gpu` count GPUs of any
type (a Volcano queue does not split them by model), `cpu` and `memory` capabilities become
hard caps. The scheduler's ConfigMap (`volcano-scheduler.conf`), if the file holds it, gives
the actions (`preempt`, `reclaim`), the plugin (`proportion` or `capacity`) and the overcommit
factor; without it Volcano's defaults are assumed and said so. Everything else (other
resources, other spec fields, other kinds and plugins) is listed in the notes returned beside
the spec, never silently ignored.
"""

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from planner.core.errors import ScenarioError
from planner.core.validation import problems as found_problems
from planner.core.yaml_text import load_yaml, load_yaml_all, read_yaml_text
from planner.engine.volcano import ROOT, VolcanoSpec
from planner.ingest.kueue_yaml import quantity
from planner.ingest.notes import ingest_note

API_GROUP = "scheduling.volcano.sh/"
CONF_KEY = "volcano-scheduler.conf"
GPU_RESOURCE = "nvidia.com/gpu"
_MODELLED = {"weight", "capability", "deserved", "guarantee", "reclaimable", "priority", "parent"}
_PLUGINS_MODELLED = {"gang", "priority", "conformance", "predicates", "proportion", "capacity"}
_PLUGINS_NOTED = {"overcommit"}  # noted with the enqueue action


def looks_like_volcano(path: Path) -> bool:
    """The YAML holds a Volcano Queue (else `--queues` reads it as Kueue)."""
    try:
        documents = _documents(path)
    except ScenarioError:
        return False  # the Kueue reader reports the problem
    return any(
        str(doc.get("apiVersion", "")).startswith(API_GROUP) or doc.get("kind") == "Queue"
        for doc in _flatten(documents)
    )


def read_volcano(path: Path) -> tuple[VolcanoSpec, list[str]]:
    """The Volcano queues a YAML describes, and notes on what was not modelled."""
    reader = _Reader(path.name)
    for document in _flatten(_documents(path)):
        reader.add(document)
    return reader.spec(), reader.notes


def _documents(path: Path) -> list[Any]:
    text = read_yaml_text(path, "Volcano YAML")
    return [document.data for document in load_yaml_all(text, str(path), "Volcano YAML")]


def _flatten(documents: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for document in documents:
        if isinstance(document, dict) and document.get("kind") == "List":
            out.extend(item for item in document.get("items") or [] if isinstance(item, dict))
        elif isinstance(document, dict):
            out.append(document)
    return out


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.queues: list[dict[str, Any]] = []
        self.scheduler: dict[str, Any] | None = None
        self.notes: list[str] = []

    def add(self, document: dict[str, Any]) -> None:
        kind = str(document.get("kind", ""))
        metadata = document.get("metadata") or {}
        name = str(metadata.get("name", ""))
        if kind == "ConfigMap" and CONF_KEY in (document.get("data") or {}):
            self._scheduler_conf(str(document["data"][CONF_KEY]), f"ConfigMap {name}")
            return
        if kind != "Queue":
            skipped = ingest_note("yaml_kind_skipped", kind=kind, name=name)
            self.notes.append(skipped if kind else ingest_note("yaml_document_skipped", name=name))
            return
        if not name:
            raise ScenarioError(f"{self.file}: a Queue has no metadata.name").coded(
                "volcano_no_name", file=self.file
            )
        if name == ROOT:
            self.notes.append(ingest_note("volcano_root_skipped"))
            return
        self._queue(name, document.get("spec") or {})

    def _queue(self, name: str, spec: dict[str, Any]) -> None:
        where = f"Queue {name}"
        for key in sorted(set(spec) - _MODELLED):
            self.notes.append(ingest_note("yaml_key_ignored", where=where, key=key))
        queue: dict[str, Any] = {"name": name}
        for key in ("weight", "priority", "reclaimable", "parent"):
            if spec.get(key) is not None:
                queue[key] = spec[key]
        guarantee = spec.get("guarantee") or {}
        for key in sorted(set(guarantee) - {"resource"}):
            self.notes.append(ingest_note("volcano_guarantee_ignored", where=where, key=key))
        for field, resources in (
            ("capability", spec.get("capability") or {}),
            ("deserved", spec.get("deserved") or {}),
            ("guarantee", guarantee.get("resource") or {}),
        ):
            self._resources(queue, field, resources, where)
        self.queues.append(queue)

    def _resources(
        self, queue: dict[str, Any], field: str, resources: dict[str, Any], where: str
    ) -> None:
        """GPUs of any type; CPU cores and memory GiB for a capability only."""
        for resource, value in resources.items():
            amount = quantity(value, f"{where}: spec.{field}.{resource}")
            said = {"where": where, "field": field, "resource": resource}
            if resource == GPU_RESOURCE:
                queue[field] = {"": amount}
            elif field == "capability" and resource in ("cpu", "memory"):
                key = "cpu_capability" if resource == "cpu" else "mem_gib_capability"
                queue[key] = amount if resource == "cpu" else amount / 2**30
            elif resource in ("cpu", "memory"):
                self.notes.append(ingest_note("volcano_cpu_memory_ignored", **said))
            else:
                self.notes.append(ingest_note("volcano_resource_ignored", **said))

    def _scheduler_conf(self, text: str, where: str) -> None:
        conf = load_yaml(text, f"{self.file}: {where}: {CONF_KEY}", CONF_KEY).data or {}
        actions = [a.strip() for a in str(conf.get("actions", "")).split(",") if a.strip()]
        plugins = {
            str(p.get("name")): p.get("arguments") or {}
            for tier in conf.get("tiers") or []
            for p in tier.get("plugins") or []
        }
        factor = plugins.get("overcommit", {}).get("overcommit-factor")
        self.scheduler = {
            "preempt": "preempt" in actions,
            "reclaim": "reclaim" in actions,
            "plugins": set(plugins),
            "overcommit_factor": float(factor) if factor is not None else None,
            "gate": "enqueue" in actions and "overcommit" in plugins,
        }
        modelled = {"enqueue", "allocate", "preempt", "reclaim", "backfill"}
        for action in actions:
            if action not in modelled:
                self.notes.append(ingest_note("volcano_action_ignored", where=where, action=action))
        for plugin in sorted(set(plugins) - _PLUGINS_MODELLED - _PLUGINS_NOTED):
            self.notes.append(ingest_note("volcano_plugin_ignored", where=where, plugin=plugin))

    def spec(self) -> VolcanoSpec:
        if not self.queues:
            raise ScenarioError(f"{self.file}: no Volcano Queue found").coded(
                "volcano_no_queue", file=self.file
            )
        data: dict[str, Any] = {"queues": self.queues, "plugin": self._plugin()}
        if self.scheduler is None:
            self.notes.append(ingest_note("volcano_no_conf", file=self.file, conf=CONF_KEY))
        else:
            data["preempt"] = self.scheduler["preempt"]
            data["reclaim"] = self.scheduler["reclaim"]
            if self.scheduler["overcommit_factor"] is not None:
                data["overcommit_factor"] = self.scheduler["overcommit_factor"]
            if not self.scheduler["gate"]:
                data["overcommit_factor"] = None
        try:
            return VolcanoSpec.model_validate(data)
        except ValidationError as err:
            problems = "; ".join(str(e["msg"]) for e in err.errors())
            raise ScenarioError(f"{self.file}: {problems}").coded(
                "validation", source=self.file, problems=tuple(found_problems(err))
            ) from err

    def _plugin(self) -> str:
        """capacity if the scheduler enables it (or, without its ConfigMap, if a queue sets
        `deserved`, which only the capacity plugin reads); else proportion."""
        if self.scheduler is not None:
            plugins = self.scheduler["plugins"]
            if "capacity" in plugins and "proportion" in plugins:
                self.notes.append(ingest_note("volcano_both_plugins"))
            if "capacity" in plugins:
                return "capacity"
            if "proportion" not in plugins:
                self.notes.append(ingest_note("volcano_no_plugin"))
            return "proportion"
        if any("deserved" in q for q in self.queues):
            self.notes.append(ingest_note("volcano_deserved", file=self.file))
            return "capacity"
        return "proportion"
