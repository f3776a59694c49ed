"""`kubectl get nodes -o json` as a node list.

Each node's allocatable resources (capacity when allocatable is absent) give its GPUs
(`nvidia.com/gpu`), CPU and memory; the GPU model comes from the GPU feature discovery label
`nvidia.com/gpu.product` (NVIDIA-A100-SXM4-80GB -> A100). Unschedulable (cordoned) nodes
and anything else we do not model are listed in the notes.

MIG nodes (`nvidia.com/mig-<profile>` resources, or the `single` strategy's product label
`...-MIG-1g.10gb`) count their physical GPUs (label `nvidia.com/gpu.count`, else inferred)
and give their GPU type a MIG layout: the named `nvidia.com/mig.config` layout, else the
instances divided evenly among the GPUs. `kubectl_sharing` returns the layout of each GPU
type for the scenario's `sharing`.
"""

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

from planner.core.config import Node
from planner.core.errors import ScenarioError, TraceError
from planner.engine.sharing import NAMED_LAYOUTS, find_profile, place_layout
from planner.ingest.limits import shorten
from planner.ingest.notes import ingest_note

MigSetup = tuple[str, tuple[str, ...]]
"""(strategy, profiles per GPU); no profiles: dynamic MIG."""

_KNOWN_GPUS = re.compile(
    r"(GB200|B200|H200|H100|H800|H20|A800|A100|A40|A30|A10G?|L40S?|L4|V100|T4|P100|RTX\d+)",
    re.IGNORECASE,
)
_PRODUCT_LABELS = ("nvidia.com/gpu.product", "cloud.google.com/gke-accelerator", "gpu-type")
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50}
_DECIMAL = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


def looks_like_kubectl(path: Path) -> bool:
    with path.open("rb") as handle:
        head = handle.read(4096).lstrip()
    return head.startswith(b"{") and (b'"items"' in head or b'"NodeList"' in head)


def read_kubectl_nodes(path: Path) -> tuple[list[Node], list[str]]:
    nodes, notes, _ = _read(path)
    return nodes, notes


def kubectl_sharing(path: Path) -> tuple[dict[str, MigSetup], list[str]]:
    """The MIG set-up of each GPU type (the most common among its nodes), and notes."""
    nodes, _, setups = _read(path)
    types = {node.node_id: node.gpu_type for node in nodes}
    by_type: dict[str, Counter[MigSetup]] = {}
    for name, setup in setups.items():
        by_type.setdefault(types[name], Counter())[setup] += 1
    chosen: dict[str, MigSetup] = {}
    notes: list[str] = []
    for gpu_type, counts in by_type.items():
        (setup, count), *others = counts.most_common()
        chosen[gpu_type] = setup
        if others:
            said = {"gpu_type": gpu_type, "count": count, "strategy": setup[0]}
            if setup[1]:
                notes.append(ingest_note("kubectl_mig_differs", **said, layout=", ".join(setup[1])))
            else:
                notes.append(ingest_note("kubectl_mig_differs_dynamic", **said))
    return chosen, notes


def _read(path: Path) -> tuple[list[Node], list[str], dict[str, MigSetup]]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise _unreadable(path.name, err) from err
    items = document.get("items") if isinstance(document, dict) else None
    if not isinstance(items, list):
        raise TraceError(
            "expected the output of `kubectl get nodes -o json`", file=path.name
        ).coded("kubectl_not_nodes", file=path.name)
    nodes: list[Node] = []
    notes: list[str] = []
    setups: dict[str, MigSetup] = {}
    for index, item in enumerate(items):
        if item.get("kind", "Node") != "Node":
            notes.append(ingest_note("kubectl_not_node", index=index, kind=item.get("kind")))
            continue
        found = _node(item, index, notes)
        if found is not None:
            nodes.append(found[0])
            if found[1] is not None:
                setups[found[0].node_id] = found[1]
    if not nodes:
        raise TraceError("no usable node in the kubectl output", file=path.name).coded(
            "kubectl_no_nodes", file=path.name, items=len(items)
        )
    return nodes, notes, setups


def _unreadable(file: str, err: Exception) -> TraceError:
    """The refusal of a file that is not JSON text, with where it stops being JSON."""
    error = TraceError(f"not readable as kubectl JSON: {err}", file=file)
    if isinstance(err, json.JSONDecodeError):
        return error.coded("kubectl_not_json", file=file, line=err.lineno, column=err.colno)
    if isinstance(err, UnicodeDecodeError):
        return error.coded("kubectl_not_utf8", file=file, byte=err.start + 1)
    return error.coded("kubectl_unreadable", file=file, reason=str(err))


def _node(
    item: dict[str, Any], index: int, notes: list[str]
) -> tuple[Node, MigSetup | None] | None:
    metadata = item.get("metadata") or {}
    name = str(metadata.get("name") or f"node-{index}")
    status = item.get("status") or {}
    resources = status.get("allocatable") or status.get("capacity") or {}
    if (item.get("spec") or {}).get("unschedulable"):
        notes.append(ingest_note("kubectl_cordoned", name=name))
    labels = metadata.get("labels") or {}
    try:
        gpus = int(kubernetes_quantity(resources.get("nvidia.com/gpu", 0)))
        cpu = kubernetes_quantity(resources.get("cpu", 0))
        mem_gib = kubernetes_quantity(resources.get("memory", 0)) / 2**30
        gpus, setup = _mig(name, labels, resources, gpus, notes)
    except ValueError as err:
        notes.append(ingest_note("kubectl_bad_quantity", name=name, value=err))
        return None
    gpu_type = _gpu_type(labels) if gpus else ""
    if gpus and not gpu_type:
        notes.append(ingest_note("kubectl_no_product", name=name, gpus=gpus))
        gpu_type = "GPU"
    node = Node(node_id=name, gpu_type=gpu_type, gpus=gpus, cpu=cpu, mem_gib=round(mem_gib, 3))
    return node, setup


def _mig(
    name: str, labels: dict[str, Any], resources: dict[str, Any], gpus: int, notes: list[str]
) -> tuple[int, MigSetup | None]:
    """(physical GPUs, MIG set-up or None) of a node."""
    product = str(labels.get("nvidia.com/gpu.product", ""))
    counted = labels.get("nvidia.com/gpu.count")
    physical = int(kubernetes_quantity(counted)) if counted is not None else None
    single = re.search(r"-MIG-(\d+g\.\d+gb)", product, re.IGNORECASE)
    if single or labels.get("nvidia.com/mig.strategy") == "single":
        return _single(name, single.group(1) if single else "", gpus, physical, notes)
    instances: dict[str, int] = {}
    for key, value in resources.items():
        if key.startswith("nvidia.com/mig-") and kubernetes_quantity(value) > 0:
            instances[key.removeprefix("nvidia.com/mig-")] = int(kubernetes_quantity(value))
    if not instances:
        return gpus, None
    unknown = [p for p in instances if find_profile(p) is None]
    if unknown:
        notes.append(ingest_note("kubectl_unknown_mig", name=name, profiles=", ".join(unknown)))
        return gpus, None
    if gpus:
        notes.append(ingest_note("kubectl_whole_beside_mig", name=name, gpus=gpus))
    named = NAMED_LAYOUTS.get(str(labels.get("nvidia.com/mig.config", "")))
    if named is not None and physical is not None:
        return physical, ("mixed", tuple(sorted(named)))
    return _split(name, instances, physical, gpus, notes)


def _single(
    name: str, prof: str, advertised: int, physical: int | None, notes: list[str]
) -> tuple[int, MigSetup | None]:
    layout = NAMED_LAYOUTS.get(f"all-{prof}")
    if layout is None or not advertised:
        notes.append(ingest_note("kubectl_single_unknown", name=name))
        return advertised, None
    per_gpu = advertised // physical if physical else len(layout)
    gpus = physical or math.ceil(advertised / per_gpu)
    if not physical:
        notes.append(ingest_note("kubectl_gpus_inferred", name=name, gpus=gpus))
    return gpus, ("single", (prof,) * min(per_gpu, len(layout)))


def _split(
    name: str, instances: dict[str, int], physical: int | None, whole: int, notes: list[str]
) -> tuple[int, MigSetup | None]:
    """The instances divided evenly among the node's MIG GPUs (counted or inferred)."""
    divisor = math.gcd(*instances.values())
    candidates = [physical - whole] if physical else range(divisor, 0, -1)
    for mig_gpus in candidates:
        if mig_gpus <= 0 or any(count % mig_gpus for count in instances.values()):
            continue
        layout = tuple(sorted(p for p, n in instances.items() for _ in range(n // mig_gpus)))
        try:
            place_layout(layout)
        except ScenarioError:
            continue
        if not physical:
            notes.append(ingest_note("kubectl_mig_gpus_inferred", name=name, gpus=mig_gpus))
        return whole + mig_gpus, ("mixed", layout)
    gpus = physical or whole + max(1, math.ceil(sum(instances.values()) / 7))
    notes.append(ingest_note("kubectl_mig_uneven", name=name, instances=instances))
    return gpus, ("mixed", ())


def _gpu_type(labels: dict[str, Any]) -> str:
    for key in _PRODUCT_LABELS:
        if key in labels:
            return gpu_model(str(labels[key]))
    return ""


def gpu_model(label: str) -> str:
    """The GPU model a product label names (NVIDIA-A100-SXM4-80GB -> A100), else the label."""
    found = _KNOWN_GPUS.search(label)
    return found.group(1).upper() if found else label


def kubernetes_quantity(value: Any) -> float:
    """A Kubernetes quantity: 96, "95500m", "1056709728Ki", "512Gi", "1e3"; a ValueError
    whose text is the value (cut short) when it is none."""
    text = str(value).strip()
    try:
        for suffix, scale in _BINARY.items():
            if text.endswith(suffix):
                return float(text[: -len(suffix)]) * scale
        if text.endswith("m"):
            return float(text[:-1]) / 1000
        if text and text[-1] in _DECIMAL:
            return float(text[:-1]) * _DECIMAL[text[-1]]
        return float(text)
    except ValueError:
        raise ValueError(shorten(text)) from None
