"""Uploads on the Cluster & policy page: node lists and Kueue/Volcano queue YAMLs.

Files are read with the CLI's own readers (`planner.service.replay.read_nodes` with
`planner.ingest.kubectl`, and `planner.ingest.kueue_yaml` / `planner.ingest.volcano_yaml`,
told apart as `planner replay --queues` does), then offered as pools or nodes, or as queues, for the
working scenario; the tables here show what was read.
"""

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import ValidationError

from planner.core.config import Node, NodePool
from planner.core.errors import PlannerError, ScenarioError
from planner.core.file_access import BUNDLED_FILES
from planner.engine.scenario import (
    ClusterSpec,
    MigSpec,
    QueuesSpec,
    QuotaSpec,
    Scenario,
    SharingSpec,
)
from planner.engine.sharing import mode_label
from planner.engine.volcano import VolcanoSpec, deserved_gpus
from planner.engine.volcano_queues import gpu_total
from planner.ingest import IngestOptions
from planner.ingest.kubectl import kubectl_sharing, looks_like_kubectl
from planner.ingest.kueue_yaml import read_kueue
from planner.ingest.volcano_yaml import looks_like_volcano, read_volcano
from planner.service.replay import cluster_nodes, read_nodes
from planner.ui import uploads
from planner.ui.cluster_build import check_runs
from planner.ui.error_text import error_text, mode_words
from planner.ui.i18n import fmt_number, t

MAX_UPLOAD_MB: float = 50
NODE_UPLOAD_TYPES = ["json", "csv", "tsv", "txt", "xlsx", "gz"]
QUEUE_UPLOAD_TYPES = ["yaml", "yml"]


# ---------------------------------------------------------------- uploads


@dataclass(frozen=True, slots=True)
class NodeImport:
    """What a node list upload holds: its nodes, MIG set-ups (kubectl) and notes."""

    file: str
    nodes: tuple[Node, ...]
    sharing: tuple[SharingSpec, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class QueueImport:
    """What a queues YAML holds: Kueue queues or Volcano queues, and notes."""

    file: str
    kueue: QueuesSpec | None
    volcano: VolcanoSpec | None
    notes: tuple[str, ...]


def stage(data: bytes, name: str) -> Path:
    """Write an upload to a temporary folder under its own name (readers sniff by name);
    refused over MAX_UPLOAD_MB."""
    if len(data) > MAX_UPLOAD_MB * 1024 * 1024:
        size = fmt_number(len(data) / 1024 / 1024, 1)
        raise PlannerError(t("cluster.error.too_big", file=name, size=size, limit=MAX_UPLOAD_MB))
    return uploads.write_once(data, name, "upload")


def read_node_upload(data: bytes, name: str) -> NodeImport:
    """Nodes of a `kubectl get nodes -o json` file or a node list (openb or a table)."""
    path = stage(data, name)
    try:
        return node_import(path, name)
    finally:
        uploads.discard(path)


def node_import(path: Path, name: str, mapping: Mapping[str, str] | None = None) -> NodeImport:
    """The nodes of a staged upload; `mapping` (field -> column) names a table's columns
    the reader does not find by name (kubectl JSON has none)."""
    specs, notes = read_nodes(path, IngestOptions(mapping=dict(mapping or {})))
    nodes = tuple(Node(node_id=i, gpu_type=g, gpus=n, cpu=c, mem_gib=m) for i, g, n, c, m in specs)
    sharing: list[SharingSpec] = []
    if looks_like_kubectl(path):
        setups, more = kubectl_sharing(path)
        notes = [*notes, *more]
        for gpu_type, (strategy, layout) in setups.items():
            spec = SharingSpec(
                gpu_type=gpu_type, mig=MigSpec(strategy=strategy, layout=layout or None)
            )
            sharing.append(spec)
            notes.append(
                t(
                    "cluster.import.mig_found",
                    gpu_type=gpu_type,
                    mode=mode_words(mode_label(spec.to_mode())),
                )
            )
    return NodeImport(Path(name).name, nodes, tuple(sharing), tuple(notes))


def read_queue_upload(data: bytes, name: str) -> QueueImport:
    """A Kueue or Volcano YAML, told apart the way `planner replay --queues` does."""
    path = stage(data, name)
    try:
        if looks_like_volcano(path):
            volcano, notes = read_volcano(path)
            return QueueImport(path.name, None, volcano, tuple(notes))
        kueue, notes = read_kueue(path)
        return QueueImport(path.name, kueue, None, tuple(notes))
    finally:
        uploads.discard(path)


def shapes(nodes: Sequence[Node]) -> dict[tuple[str, int, float, float], list[Node]]:
    """Nodes grouped by GPU type, GPUs, CPU and whole GiB of memory (rounded down)."""
    groups: dict[tuple[str, int, float, float], list[Node]] = {}
    for node in nodes:
        key = (node.gpu_type, node.gpus, node.cpu, float(math.floor(node.mem_gib)))
        groups.setdefault(key, []).append(node)
    return groups


def pools_of(nodes: Sequence[Node]) -> tuple[NodePool, ...]:
    """Identical nodes as pools, named by GPU type (`a100`, `a100-2`, ...)."""
    pools = []
    names: Counter[str] = Counter()
    for (gpu_type, gpus, cpu, mem_gib), group in shapes(nodes).items():
        stem = gpu_type.lower() or "cpu"
        names[stem] += 1
        name = stem if names[stem] == 1 else f"{stem}-{names[stem]}"
        pools.append(
            NodePool(
                name=name,
                gpu_type=gpu_type,
                gpus_per_node=gpus,
                cpu=cpu,
                mem_gib=mem_gib,
                count=len(group),
            )
        )
    return tuple(pools)


def import_summary(imported: NodeImport) -> pd.DataFrame:
    """What was read, by GPU type and GPUs per node: nodes, GPUs, CPU and memory ranges."""
    groups: dict[tuple[str, int], list[Node]] = {}
    for node in imported.nodes:
        groups.setdefault((node.gpu_type, node.gpus), []).append(node)
    rows = [
        {
            "gpu_type": gpu_type,
            "gpus_per_node": gpus,
            "nodes": len(group),
            "gpus": gpus * len(group),
            "cpu": _span([n.cpu for n in group]),
            "mem_gib": _span([n.mem_gib for n in group]),
        }
        for (gpu_type, gpus), group in groups.items()
    ]
    return pd.DataFrame(
        rows, columns=["gpu_type", "gpus_per_node", "nodes", "gpus", "cpu", "mem_gib"]
    )


def _span(values: list[float]) -> str:
    low, high = min(values), max(values)
    return fmt_number(low, 1) if low == high else f"{fmt_number(low, 1)} – {fmt_number(high, 1)}"


def with_nodes(base: Scenario, imported: NodeImport, as_pools: bool) -> Scenario:
    """The scenario on the imported nodes (as pools or as listed), with the MIG layouts the
    upload shows for GPU types its sharing does not set; ScenarioError if it cannot run."""
    cluster = (
        ClusterSpec(pools=pools_of(imported.nodes))
        if as_pools
        else ClusterSpec(nodes=imported.nodes)
    )
    given = {s.gpu_type.upper() for s in base.sharing}
    added = tuple(s for s in imported.sharing if s.gpu_type.upper() not in given)
    scenario = base.model_copy(update={"cluster": cluster, "sharing": (*base.sharing, *added)})
    return _revalidated(scenario)


def with_queues(base: Scenario, imported: QueueImport) -> tuple[Scenario, list[str]]:
    """The scenario with the imported queues in place of its own, and what had to change
    for them to run (queues need gang admission and no backfill)."""
    policy, notes = base.policy, []
    if policy.admission != "gang":
        policy = policy.model_copy(update={"admission": "gang"})
        notes.append(t("cluster.import.gang"))
    if policy.queueing == "backfill":
        policy = policy.model_copy(update={"queueing": "fifo"})
        notes.append(t("cluster.import.fifo"))
    update = {"queues": imported.kueue, "volcano": imported.volcano, "policy": policy}
    return _revalidated(base.model_copy(update=update)), notes


def _revalidated(scenario: Scenario) -> Scenario:
    """`scenario` (made by `model_copy`, which validates nothing) checked as a whole; its
    parts are valid models already and are passed as they are (a dump would lose which
    fields were set, which Volcano's checks read)."""
    try:
        checked = Scenario.model_validate({k: getattr(scenario, k) for k in Scenario.model_fields})
    except ValidationError as err:
        raise ScenarioError(error_text(err)) from err
    check_runs(checked)
    return checked


# ---------------------------------------------------------------- what the page shows


def kueue_table(spec: QueuesSpec) -> pd.DataFrame:
    """Cohorts and ClusterQueues, one row per flavor quota (a cohort without any: one row)."""
    gpu_type = {f.name: f.gpu_type for f in spec.flavors}
    rows = [
        _quota_row("Cohort", cohort.name, cohort.parent, quota, gpu_type)
        for cohort in spec.cohorts
        for quota in cohort.quotas or (None,)
    ]
    for queue in spec.cluster_queues:
        preemption = queue.preemption
        rows += [
            _quota_row("ClusterQueue", queue.name, queue.cohort, quota, gpu_type)
            | {
                "strategy": queue.strategy or "",
                "within_cluster_queue": preemption.within_cluster_queue,
                "reclaim_within_cohort": preemption.reclaim_within_cohort,
                "borrow_within_cohort": preemption.borrow_within_cohort,
            }
            for quota in queue.quotas
        ]
    columns = [*_QUOTA_COLUMNS, *_QUEUE_EXTRA]
    return pd.DataFrame(rows, columns=columns).fillna(dict.fromkeys(_QUEUE_EXTRA, ""))


_QUOTA_COLUMNS = (
    "kind",
    "name",
    "cohort",
    "flavor",
    "gpu_type",
    "gpus",
    "borrowing_limit",
    "lending_limit",
    "cpu",
    "mem_gib",
)
_QUEUE_EXTRA = ("strategy", "within_cluster_queue", "reclaim_within_cohort", "borrow_within_cohort")


def _quota_row(
    kind: str, name: str, parent: str | None, quota: QuotaSpec | None, types: Mapping[str, str]
) -> dict[str, Any]:
    row: dict[str, Any] = {"kind": kind, "name": name, "cohort": parent or ""}
    if quota is not None:
        row |= {
            "flavor": quota.flavor,
            "gpu_type": types.get(quota.flavor, ""),
            "gpus": quota.gpus,
            "borrowing_limit": quota.borrowing_limit,
            "lending_limit": quota.lending_limit,
            "cpu": quota.cpu,
            "mem_gib": quota.mem_gib,
        }
    return row


def volcano_table(spec: VolcanoSpec, gpus_by_type: Mapping[str, float]) -> pd.DataFrame:
    """The Volcano queues, with the GPUs each deserves on this cluster when it can be said."""
    try:
        shares = deserved_gpus(spec, gpu_total(spec, gpus_by_type))
    except PlannerError:
        shares = {}
    return pd.DataFrame(
        [
            {
                "name": q.name,
                "weight": q.weight,
                "capability": _vector(q.capability),
                "deserved": _vector(q.deserved),
                "guarantee": _vector(q.guarantee),
                "on_this_cluster": _vector(shares.get(q.name, {})),
                "reclaimable": q.reclaimable,
                "priority": q.priority,
                "parent": q.parent or "",
            }
            for q in spec.queues
        ]
    )


def _vector(vector: Mapping[str, float]) -> str:
    return ", ".join(f"{k}: {v:g}" if k else f"{v:g}" for k, v in vector.items())


def gpus_by_type(cluster: ClusterSpec | None) -> dict[str, float]:
    """Installed GPUs per type ({} when the cluster cannot be read)."""
    if cluster is None:
        return {}
    try:
        _, nodes, _ = cluster_nodes(cluster, files=BUNDLED_FILES)
    except PlannerError:
        return {}
    totals: dict[str, float] = {}
    for _, gpu_type, gpus, _, _ in nodes:
        totals[gpu_type] = totals.get(gpu_type, 0.0) + gpus
    return totals
