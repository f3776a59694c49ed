"""The Cluster & policy page's glue: editor tables from a scenario, and what it shows of one.

The page edits the session's working scenario (`planner.ui.state`): its editors start from
the tables here, its widgets hand their values back as an `Edits`, which
`planner.ui.cluster_build` turns into a scenario; uploads are read by
`planner.ui.cluster_import`. `scenario_summary` is the one-line description the Replay and
Overview pages can reuse, in the session's language.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pandas as pd
import yaml

from planner.core.config import Node
from planner.engine.scenario import (
    ClusterQueueSpec,
    ClusterSpec,
    ColocationSpec,
    PrioritiesSpec,
    QueuesSpec,
    QuotaSpec,
    Scenario,
    SharingSpec,
)
from planner.engine.volcano import VolcanoQueueSpec, VolcanoSpec
from planner.ui.i18n import Language, fmt_number, t

POOL_COLUMNS = ("name", "gpu_type", "gpus_per_node", "cpu", "mem_gib", "count")
NODE_COLUMNS = ("node_id", "gpu_type", "gpus", "cpu", "mem_gib")
QUEUE_COLUMNS = (
    "name",
    "cohort",
    "flavor",
    "gpus",
    "borrowing_limit",
    "lending_limit",
    "within_cluster_queue",
    "reclaim_within_cohort",
)
VOLCANO_COLUMNS = (
    "name",
    "parent",
    "weight",
    "reclaimable",
    "gpu_type",
    "deserved",
    "capability",
    "guarantee",
)
VOLCANO_AMOUNTS = ("deserved", "capability", "guarantee")
SHARING_COLUMNS = (
    "gpu_type",
    "mode",
    "mig_strategy",
    "mig_layout",
    "relayout_delay_s",
    "replicas",
    "slowdown",
    "fail_requests_greater_than_one",
)
QueueMode = Literal["none", "kueue", "volcano"]
QUEUE_MODES: tuple[QueueMode, ...] = ("none", "kueue", "volcano")
SHARING_MODES = ("none", "mig", "time-slicing")
TABS = ("pools", "policy", "queues", "priorities", "sharing", "colocation")
DYNAMIC = "dynamic"
HOURS = tuple(f"{hour:02d}" for hour in range(24))


@dataclass(frozen=True, slots=True)
class Edits:
    """Everything the page's widgets hold, as editor tables and plain values."""

    pools: pd.DataFrame
    nodes: pd.DataFrame
    policy: Mapping[str, Any]
    queue_mode: QueueMode = "none"
    kueue: pd.DataFrame | None = None
    local_queues: pd.DataFrame | None = None
    default_queue: str | None = None
    volcano: pd.DataFrame | None = None
    volcano_settings: Mapping[str, Any] = field(default_factory=dict)
    """The Volcano editor's `plugin` and `overcommit_factor`."""
    priority_classes: pd.DataFrame | None = None
    priority_by_queue: pd.DataFrame | None = None
    preemption: Mapping[str, Any] = field(default_factory=dict)
    sharing: pd.DataFrame | None = None
    colocation: Mapping[str, Any] | None = None
    """None: no colocation; else `online_gpus_by_hour` (24 values) and `gpu_types`."""
    overhead: Mapping[str, str] | None = None


# ---------------------------------------------------------------- tables from a scenario


def pool_frame(cluster: ClusterSpec | None) -> pd.DataFrame:
    """The pools of `cluster` as the pool editor's table (one row per pool)."""
    pools = cluster.pools if cluster is not None else ()
    rows = [{column: getattr(pool, column) for column in POOL_COLUMNS} for pool in pools]
    return _typed(
        pd.DataFrame(rows, columns=list(POOL_COLUMNS)),
        strings=("name", "gpu_type"),
        integers=("gpus_per_node", "count"),
    )


def node_frame(nodes: Sequence[Node]) -> pd.DataFrame:
    """Explicit nodes as the node editor's table."""
    rows = [{column: getattr(node, column) for column in NODE_COLUMNS} for node in nodes]
    return _typed(
        pd.DataFrame(rows, columns=list(NODE_COLUMNS)),
        strings=("node_id", "gpu_type"),
        integers=("gpus",),
    )


def kueue_frame(spec: QueuesSpec | None, gpus: Mapping[str, float]) -> pd.DataFrame:
    """One row per ClusterQueue and flavor; without queues, one queue `default` holding
    every installed GPU, one flavor per GPU type (`gpus`: installed GPUs by type)."""
    if spec is not None:
        rows = [_queue_row(queue, quota) for queue in spec.cluster_queues for quota in queue.quotas]
    else:
        rows = [
            {
                "name": "default",
                "flavor": flavor_name(gpu_type),
                "gpus": total,
                "within_cluster_queue": "Never",
                "reclaim_within_cohort": "Never",
            }
            for gpu_type, total in gpus.items()
            if total > 0
        ]
    frame = pd.DataFrame(rows, columns=list(QUEUE_COLUMNS))
    strings = ("name", "cohort", "flavor", "within_cluster_queue", "reclaim_within_cohort")
    return _typed(frame, strings=strings, floats=("gpus", "borrowing_limit", "lending_limit"))


def _queue_row(queue: ClusterQueueSpec, quota: QuotaSpec) -> dict[str, Any]:
    return {
        "name": queue.name,
        "cohort": queue.cohort,
        "flavor": quota.flavor,
        "gpus": quota.gpus,
        "borrowing_limit": quota.borrowing_limit,
        "lending_limit": quota.lending_limit,
        "within_cluster_queue": queue.preemption.within_cluster_queue,
        "reclaim_within_cohort": queue.preemption.reclaim_within_cohort,
    }


def volcano_frame(spec: VolcanoSpec | None) -> pd.DataFrame:
    """One row per Volcano queue and GPU type it names ('' = any type; a queue naming none
    has one row); without queues, one example queue `default` of weight 1."""
    if spec is not None:
        rows = [row for queue in spec.queues for row in _volcano_rows(queue)]
    else:
        rows = [{"name": "default", "weight": 1, "reclaimable": True, "gpu_type": ""}]
    frame = pd.DataFrame(rows, columns=list(VOLCANO_COLUMNS))
    frame["reclaimable"] = frame["reclaimable"].ne(False).astype("boolean")
    return _typed(
        frame, strings=("name", "parent", "gpu_type"), integers=("weight",), floats=VOLCANO_AMOUNTS
    )


def _volcano_rows(queue: VolcanoQueueSpec) -> list[dict[str, Any]]:
    gpu_types = list(dict.fromkeys([*queue.deserved, *queue.capability, *queue.guarantee]))
    first = {
        "name": queue.name,
        "parent": queue.parent,
        "weight": queue.weight,
        "reclaimable": queue.reclaimable,
    }
    return [
        first
        | {"gpu_type": gpu_type}
        | {amount: getattr(queue, amount).get(gpu_type) for amount in VOLCANO_AMOUNTS}
        for gpu_type in gpu_types or [""]
    ]


def queue_mode(scenario: Scenario) -> QueueMode:
    if scenario.queues is not None:
        return "kueue"
    return "volcano" if scenario.volcano is not None else "none"


def flavor_name(gpu_type: str) -> str:
    """The flavor the editor creates for a GPU type."""
    return gpu_type.lower() or "default-flavor"


def flavor_options(spec: QueuesSpec | None, gpu_types: Sequence[str]) -> list[str]:
    """Flavors a quota row may name: the spec's, and one per installed GPU type."""
    names = [f.name for f in spec.flavors] if spec is not None else []
    return list(dict.fromkeys([*names, *(flavor_name(g) for g in gpu_types)]))


def mapping_frame(mapping: Mapping[str, Any], columns: tuple[str, str]) -> pd.DataFrame:
    """A two-column editor table from a mapping (values as text)."""
    rows = [{columns[0]: key, columns[1]: str(value)} for key, value in mapping.items()]
    return _typed(pd.DataFrame(rows, columns=list(columns)), strings=columns)


def class_frame(priorities: PrioritiesSpec | None) -> pd.DataFrame:
    classes = priorities.classes if priorities is not None else {}
    rows = [{"name": name, "value": value} for name, value in classes.items()]
    return _typed(pd.DataFrame(rows, columns=["name", "value"]), ("name",), ("value",))


def sharing_frame(sharing: Sequence[SharingSpec], gpu_types: Sequence[str]) -> pd.DataFrame:
    """One row per GPU type: the scenario's sharing, then installed types without any."""
    rows = [_sharing_row(spec) for spec in sharing]
    given = {spec.gpu_type.upper() for spec in sharing}
    rows += [
        {"gpu_type": g, "mode": "none", "mig_strategy": "mixed", "slowdown": 1.0}
        for g in gpu_types
        if g and g.upper() not in given
    ]
    frame = pd.DataFrame(rows, columns=list(SHARING_COLUMNS))
    frame["fail_requests_greater_than_one"] = frame["fail_requests_greater_than_one"].eq(True)
    return _typed(
        frame,
        strings=("gpu_type", "mode", "mig_strategy", "mig_layout"),
        integers=("replicas",),
        floats=("relayout_delay_s", "slowdown"),
    )


def _sharing_row(spec: SharingSpec) -> dict[str, Any]:
    row: dict[str, Any] = {"gpu_type": spec.gpu_type, "mig_strategy": "mixed", "slowdown": 1.0}
    row["fail_requests_greater_than_one"] = False
    if spec.mig is not None:
        layout = spec.mig.layout
        text = (
            DYNAMIC if layout is None else layout if isinstance(layout, str) else ", ".join(layout)
        )
        row |= {
            "mode": "mig",
            "mig_strategy": spec.mig.strategy,
            "mig_layout": text,
            "relayout_delay_s": spec.mig.relayout_delay_s,
        }
    elif spec.time_slicing is not None:
        ts = spec.time_slicing
        row |= {
            "mode": "time-slicing",
            "replicas": ts.replicas,
            "slowdown": ts.slowdown,
            "fail_requests_greater_than_one": ts.fail_requests_greater_than_one,
        }
    return row


def colocation_frame(colocation: ColocationSpec | None) -> pd.DataFrame:
    """The 24 hourly online-GPU values as one editable row (columns 00 ... 23)."""
    values = colocation.online_gpus_by_hour if colocation is not None else (0,) * 24
    return pd.DataFrame([dict(zip(HOURS, values, strict=True))]).astype("Int64")


def gpu_totals(pools: pd.DataFrame, nodes: pd.DataFrame) -> dict[str, float]:
    """Installed GPUs by GPU type in the editor tables (rows not yet valid count as 0), in
    order of first appearance."""
    totals: dict[str, float] = {}
    for gpu_type, gpus, count in zip(
        pools["gpu_type"], pools["gpus_per_node"], pools["count"], strict=True
    ):
        _add(totals, gpu_type, cell(gpus), cell(count))
    for gpu_type, gpus in zip(nodes["gpu_type"], nodes["gpus"], strict=True):
        _add(totals, gpu_type, cell(gpus), 1)
    return totals


def _add(totals: dict[str, float], gpu_type: Any, gpus: Any, count: Any) -> None:
    name = cell(gpu_type)
    if name is None:
        return
    try:
        more = float(gpus or 0) * float(count or 0)
    except (TypeError, ValueError):
        more = 0.0
    totals[str(name)] = totals.get(str(name), 0.0) + more


def _typed(
    frame: pd.DataFrame,
    strings: Sequence[str] = (),
    integers: Sequence[str] = (),
    floats: Sequence[str] = (),
) -> pd.DataFrame:
    types = dict.fromkeys(strings, "string") | dict.fromkeys(integers, "Int64")
    types |= dict.fromkeys(floats, "float64")
    return frame.astype(types)


def cell(value: Any) -> Any:
    """An editor cell, None when empty (pandas gives NaN, <NA> or '' for empty cells)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value


def scenario_yaml(scenario: Scenario) -> str:
    """The scenario as `planner replay --scenario` reads it (defaults left out)."""
    data = scenario.model_dump(mode="json", exclude_defaults=True)
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100
    )


def scenario_summary(scenario: Scenario, lang: Language | None = None) -> str:
    """One line: cluster · admission · placement · queueing · queues (· sharing ...), e.g.
    "16 nodes × 8 A100 (128 GPUs) · gang · best-fit · FIFO · Kueue: 3 ClusterQueues in
    1 cohort"."""
    p = scenario.policy
    parts = [
        _cluster_text(scenario.cluster, lang),
        t(f"cluster.admission_name.{p.admission}", lang),
        t(f"cluster.placement_name.{p.placement}", lang),
        t(f"cluster.queueing_name.{p.queueing}", lang),
    ]
    if scenario.queues is not None:
        q = scenario.queues
        cohorts = {c.name for c in q.cohorts} | {x.cohort for x in q.cluster_queues if x.cohort}
        queues = _count("queues", len(q.cluster_queues), lang)
        if cohorts:
            parts.append(
                t(
                    "cluster.summary.kueue",
                    lang,
                    queues=queues,
                    cohorts=_count("cohorts", len(cohorts), lang),
                )
            )
        else:
            parts.append(t("cluster.summary.kueue_alone", lang, queues=queues))
    elif scenario.volcano is not None:
        v = scenario.volcano
        parts.append(t("cluster.summary.volcano", lang, queues=len(v.queues), plugin=v.plugin))
    for spec in scenario.sharing:
        mode = "mig" if spec.mig is not None else "time_slicing"
        replicas = spec.time_slicing.replicas if spec.time_slicing is not None else 0
        parts.append(t(f"cluster.summary.{mode}", lang, gpu_type=spec.gpu_type, replicas=replicas))
    if scenario.colocation is not None:
        peak = max(scenario.colocation.online_gpus_by_hour)
        parts.append(t("cluster.summary.colocation", lang, peak=peak))
    if scenario.overhead is not None:
        o = scenario.overhead
        parts.append(t("cluster.summary.overhead", lang, network=o.network, storage=o.storage))
    return " · ".join(parts)


def _count(what: str, n: int, lang: Language | None) -> str:
    form = "one" if n == 1 else "many"
    return t(f"cluster.summary.{what}.{form}", lang, n=fmt_number(n))


def _cluster_text(cluster: ClusterSpec | None, lang: Language | None) -> str:
    if cluster is None:
        return t("cluster.summary.no_cluster", lang)
    if cluster.node_list:
        return t("cluster.summary.node_list", lang, file=Path(cluster.node_list).name)
    pieces = []
    for pool in cluster.pools:
        nodes = _count("nodes", pool.count, lang)
        if pool.gpus_per_node:
            text = t(
                "cluster.summary.pool",
                lang,
                nodes=nodes,
                gpus=pool.gpus_per_node,
                gpu_type=pool.gpu_type,
            )
        else:
            text = t("cluster.summary.cpu_pool", lang, nodes=nodes)
        pieces.append(text)
    if cluster.nodes:
        pieces.append(
            t("cluster.summary.listed", lang, nodes=_count("nodes", len(cluster.nodes), lang))
        )
    total = sum(p.gpus_per_node * p.count for p in cluster.pools)
    total += sum(n.gpus for n in cluster.nodes)
    return t("cluster.summary.cluster", lang, pools=" + ".join(pieces), gpus=fmt_number(total))
