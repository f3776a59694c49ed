"""`kubectl get nodes -o json` as a node list.

Each node's allocatable resources (capacity when allocatable is absent) give its GPUs
(`nvidia.com/gpu`), CPU and memory; the GPU model comes from the GPU feature discovery label
`nvidia.com/gpu.product` (NVIDIA-A100-SXM4-80GB -> A100). MIG resources, unschedulable
(cordoned) nodes and anything else we do not model are listed in the notes.
"""

import json
import re
from pathlib import Path
from typing import Any

from planner.config import Node
from planner.errors import TraceError

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
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise TraceError(f"not readable as kubectl JSON: {err}", file=path.name) from err
    items = document.get("items") if isinstance(document, dict) else None
    if not isinstance(items, list):
        raise TraceError("expected the output of `kubectl get nodes -o json`", file=path.name)
    nodes: list[Node] = []
    notes: list[str] = []
    for index, item in enumerate(items):
        if item.get("kind", "Node") != "Node":
            notes.append(f"item {index}: kind {item.get('kind')} is not a Node, skipped")
            continue
        node = _node(item, index, notes)
        if node is not None:
            nodes.append(node)
    if not nodes:
        raise TraceError("no usable node in the kubectl output", file=path.name)
    return nodes, notes


def _node(item: dict[str, Any], index: int, notes: list[str]) -> Node | None:
    metadata = item.get("metadata") or {}
    name = str(metadata.get("name") or f"node-{index}")
    status = item.get("status") or {}
    resources = status.get("allocatable") or status.get("capacity") or {}
    if (item.get("spec") or {}).get("unschedulable"):
        notes.append(f"{name}: cordoned (unschedulable), kept as capacity")
    mig = sorted(key for key in resources if key.startswith("nvidia.com/mig-"))
    if mig:
        notes.append(f"{name}: MIG resources {', '.join(mig)} not modelled yet; whole GPUs only")
    try:
        gpus = int(kubernetes_quantity(resources.get("nvidia.com/gpu", 0)))
        cpu = kubernetes_quantity(resources.get("cpu", 0))
        mem_gib = kubernetes_quantity(resources.get("memory", 0)) / 2**30
    except ValueError as err:
        notes.append(f"{name}: skipped, unreadable resource quantity ({err})")
        return None
    labels = metadata.get("labels") or {}
    gpu_type = _gpu_type(labels) if gpus else ""
    if gpus and not gpu_type:
        notes.append(f"{name}: {gpus} GPUs without a GPU product label; GPU type 'GPU'")
        gpu_type = "GPU"
    return Node(node_id=name, gpu_type=gpu_type, gpus=gpus, cpu=cpu, mem_gib=round(mem_gib, 3))


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
    """A Kubernetes quantity: 96, "95500m", "1056709728Ki", "512Gi", "1e3"."""
    text = str(value).strip()
    for suffix, scale in _BINARY.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * scale
    if text.endswith("m"):
        return float(text[:-1]) / 1000
    if text and text[-1] in _DECIMAL:
        return float(text[:-1]) * _DECIMAL[text[-1]]
    return float(text)
