"""A validated scenario from the Cluster & policy page's editors (`Edits`).

`build_scenario` checks every section, then the scenario as a whole exactly as
`planner replay --scenario` would (the same pydantic models, node lists read, Volcano queues
sized to the cluster, the engine's policy built), and reports each problem with the section
of the page and the row or field it is in. It never shows anything itself.
"""

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import pandas as pd
from pydantic import BaseModel, ValidationError

from planner.core.config import ClusterConfig, Node, NodePool
from planner.core.errors import PlannerError, ScenarioError
from planner.core.file_access import BUNDLED_FILES
from planner.engine.scenario import (
    ClusterQueueSpec,
    ClusterSpec,
    ColocationSpec,
    FlavorSpec,
    OverheadSpec,
    PolicySpec,
    PreemptionCostSpec,
    PreemptionSpec,
    PrioritiesSpec,
    QueuesSpec,
    QuotaSpec,
    Scenario,
    SharingSpec,
)
from planner.engine.sharing import NAMED_LAYOUTS
from planner.engine.volcano import VolcanoQueueSpec, VolcanoSpec
from planner.service.replay import cluster_nodes, with_volcano_queues
from planner.ui.cluster_view import (
    DYNAMIC,
    NODE_COLUMNS,
    POOL_COLUMNS,
    QUEUE_COLUMNS,
    SHARING_COLUMNS,
    VOLCANO_AMOUNTS,
    VOLCANO_COLUMNS,
    Edits,
    cell,
    flavor_name,
    gpu_totals,
)
from planner.ui.error_text import error_text
from planner.ui.i18n import t
from planner.ui.safe import md

M = TypeVar("M", bound=BaseModel)


class SectionError(PlannerError):
    """A problem in one section of the page; `section` is its text key's last part."""

    def __init__(self, section: str, problem: str) -> None:
        super().__init__(problem)
        self.section = section


# ---------------------------------------------------------------- a scenario from the tables


def build_scenario(base: Scenario, edits: Edits) -> tuple[Scenario | None, list[str]]:
    """The edited scenario, validated as `planner replay` validates a YAML; or None and the
    problems, each starting with its section's name."""
    problems: list[str] = []
    parts: dict[str, Any] = {}
    steps = (
        ("cluster", lambda: _cluster(edits, base.cluster)),
        ("policy", lambda: _policy(base.policy, edits.policy)),
        ("queues", lambda: _queues(base, edits)),
        ("priorities", lambda: _priorities(edits)),
        ("preemption", lambda: _model(PreemptionCostSpec, _preemption_values(edits))),
        ("sharing", lambda: _sharing(edits.sharing)),
        ("colocation", lambda: _colocation(edits.colocation)),
        ("overhead", lambda: _overhead(edits.overhead)),
    )
    for section, step in steps:
        try:
            parts[section] = step()
        except SectionError as err:
            problems.append(_problem(err.section, str(err)))
        except (PlannerError, ValidationError, ValueError) as err:
            problems.append(_problem(section, error_text(err)))
    if problems:
        return None, problems
    kueue, volcano = parts.pop("queues")
    try:
        scenario = Scenario.model_validate(
            base.model_dump(exclude={"cluster", "queues", "volcano", *parts})
            | {k: v for k, v in parts.items() if v is not None}
            | {"cluster": parts["cluster"], "queues": kueue, "volcano": volcano}
        )
        check_runs(scenario)
    except (PlannerError, ValidationError, ValueError) as err:
        return None, [_problem("scenario", error_text(err))]
    return scenario, []


def check_runs(scenario: Scenario) -> None:
    """ScenarioError unless the replay could start: nodes, Volcano shares, engine policy."""
    if scenario.cluster is None:
        raise ScenarioError("the scenario has no cluster")
    _, nodes, _ = cluster_nodes(scenario.cluster, files=BUNDLED_FILES)
    if scenario.volcano is not None:
        scenario, _ = with_volcano_queues(scenario, nodes)
    try:
        scenario.to_policy()
    except ValueError as err:
        raise ScenarioError(str(err)) from err


def _problem(section: str, text: str) -> str:
    return t("cluster.error.problem", section=t("cluster.section." + section), problem=md(text))


def _model(model: type[M], values: Mapping[str, Any]) -> M:
    return model.model_validate(dict(values))


def _cluster(edits: Edits, current: ClusterSpec | None) -> ClusterSpec:
    pools = [
        _row_model(NodePool, "cluster", n, row, required=("gpus_per_node", "count"))
        for n, row in _rows(edits.pools, POOL_COLUMNS)
    ]
    nodes = [
        _row_model(Node, "nodes", n, row, required=("node_id", "gpus"))
        for n, row in _rows(edits.nodes, NODE_COLUMNS)
    ]
    if not pools and not nodes:
        if current is not None and current.node_list:
            return current  # the node list file stays until pools or nodes replace it
        raise ScenarioError(t("cluster.error.no_pools"))
    prefixes = Counter(p.name or p.gpu_type or "pool" for p in pools)
    twice = sorted(name for name, count in prefixes.items() if count > 1)
    if twice:
        raise ScenarioError(t("cluster.error.pool_names", name=twice[0]))
    config = ClusterConfig(pools=tuple(pools), nodes=tuple(nodes))
    if not any(gpus for _, _, gpus, _, _ in config.node_specs()):
        raise ScenarioError(t("cluster.error.no_gpus"))
    return ClusterSpec(pools=tuple(pools), nodes=tuple(nodes))


def _policy(current: PolicySpec, values: Mapping[str, Any]) -> PolicySpec:
    return PolicySpec.model_validate(current.model_dump() | dict(values))


def _preemption_values(edits: Edits) -> dict[str, Any]:
    values = dict(edits.preemption)
    if not values.get("checkpoint_interval_s"):
        values["checkpoint_interval_s"] = None  # 0 in the form: no checkpoints
    return values


def _rows(frame: pd.DataFrame | None, columns: Sequence[str]) -> list[tuple[int, dict[str, Any]]]:
    """Numbered (from 1) rows of an editor table, empty cells as None, empty rows left out."""
    if frame is None:
        return []
    out = []
    for number, record in enumerate(frame.to_dict("records"), start=1):
        row = {c: cell(record.get(c)) for c in columns}
        if any(value is not None for value in row.values()):
            out.append((number, row))
    return out


def _row_model(
    model: type[M], section: str, number: int, row: dict[str, Any], required: Sequence[str]
) -> M:
    for column in required:
        if row.get(column) is None:
            raise SectionError(section, t("cluster.error.empty_cell", row=number, column=column))
    try:
        return model.model_validate({k: v for k, v in row.items() if v is not None})
    except ValidationError as err:
        raise SectionError(
            section, t("cluster.error.row", row=number, problem=error_text(err))
        ) from err


def _queues(base: Scenario, edits: Edits) -> tuple[QueuesSpec | None, VolcanoSpec | None]:
    if edits.queue_mode == "none":
        return None, None
    if edits.queue_mode == "volcano":
        if edits.volcano is None:  # no editor (a caller without one): keep the queues
            if base.volcano is None:
                raise ScenarioError(t("cluster.error.no_volcano"))
            return None, base.volcano
        return None, volcano_from_rows(edits, base.volcano)
    return queues_from_rows(edits, base.queues), None


def volcano_from_rows(edits: Edits, current: VolcanoSpec | None) -> VolcanoSpec:
    """Volcano queues from the editor's rows (one per queue and GPU type, '' = any type),
    with the editor's plugin and overcommit factor; what the table does not show (actions,
    trace queue mapping, a queue's CPU and memory caps and priority) is kept from the
    current spec and its queues of the same name."""
    kept = {q.name: q for q in current.queues} if current is not None else {}
    grouped: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for number, row in _rows(edits.volcano, VOLCANO_COLUMNS):
        if row["name"] is None:
            raise ScenarioError(t("cluster.error.empty_cell", row=number, column="name"))
        grouped.setdefault(str(row["name"]), []).append((number, row))
    if not grouped:
        raise ScenarioError(t("cluster.error.no_volcano"))
    queues = [_volcano_queue(name, rows, kept.get(name)) for name, rows in grouped.items()]
    values = current.model_dump(exclude_unset=True) if current is not None else {}
    values |= {k: v for k, v in edits.volcano_settings.items() if k != "overcommit_factor"}
    if "overcommit_factor" in edits.volcano_settings:
        values["overcommit_factor"] = cell(edits.volcano_settings["overcommit_factor"])
    values["queues"] = queues
    return VolcanoSpec.model_validate(values)


def _volcano_queue(
    name: str, rows: list[tuple[int, dict[str, Any]]], kept: VolcanoQueueSpec | None
) -> VolcanoQueueSpec:
    first = rows[0][1]
    amounts: dict[str, dict[str, Any]] = {column: {} for column in VOLCANO_AMOUNTS}
    for number, row in rows:
        gpu_type = str(row["gpu_type"] or "")
        if any(gpu_type in given for given in amounts.values()):
            problem = t("cluster.error.volcano_type_twice", queue=name, gpu_type=gpu_type or "-")
            raise ScenarioError(t("cluster.error.row", row=number, problem=problem))
        for column in VOLCANO_AMOUNTS:
            if row[column] is not None:
                amounts[column][gpu_type] = row[column]
    values = (kept.model_dump() if kept is not None else {}) | amounts
    values |= {
        "name": name,
        "parent": first["parent"],
        "weight": 1 if first["weight"] is None else first["weight"],
        "reclaimable": first["reclaimable"] is not False,
    }
    try:
        return VolcanoQueueSpec.model_validate(values)
    except ValidationError as err:
        raise ScenarioError(
            t("cluster.error.row", row=rows[0][0], problem=error_text(err))
        ) from err


def queues_from_rows(edits: Edits, current: QueuesSpec | None) -> QueuesSpec:
    """ClusterQueues from the editor's rows (one per queue and flavor, in order), keeping
    what the table does not show (strategy, budgets, CPU and memory quotas, cohorts'
    own quotas) from the current queues of the same name."""
    kept = {q.name: q for q in current.cluster_queues} if current is not None else {}
    grouped: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for number, row in _rows(edits.kueue, QUEUE_COLUMNS):
        for column in ("name", "flavor", "gpus"):
            if row[column] is None:
                raise ScenarioError(t("cluster.error.empty_cell", row=number, column=column))
        grouped.setdefault(str(row["name"]), []).append((number, row))
    if not grouped:
        raise ScenarioError(t("cluster.error.no_queues"))
    queues = [_cluster_queue(name, rows, kept.get(name)) for name, rows in grouped.items()]
    gpu_types = list(gpu_totals(edits.pools, edits.nodes))
    flavors = list(current.flavors) if current is not None else []
    known = {f.name for f in flavors}
    for gpu_type in gpu_types:
        wanted = flavor_name(gpu_type)
        used = any(q.flavor == wanted for queue in queues for q in queue.quotas)
        if used and wanted not in known:
            flavors.append(FlavorSpec(name=wanted, gpu_type=gpu_type))
            known.add(wanted)
    offered = known | {flavor_name(gpu_type) for gpu_type in gpu_types}
    for number, row in _rows(edits.kueue, QUEUE_COLUMNS):
        if row["flavor"] not in known:
            names = ", ".join(sorted(offered)) or "-"
            problem = t("cluster.error.unknown_flavor", flavor=row["flavor"], known=names)
            raise ScenarioError(t("cluster.error.row", row=number, problem=problem))
    local: dict[str, str] = {}
    for number, row in _rows(edits.local_queues, ("queue", "target")):
        if row["queue"] is None or row["target"] is None:
            raise ScenarioError(t("cluster.error.local_row", row=number))
        local[str(row["queue"])] = str(row["target"])
    values: dict[str, Any] = {
        "flavors": flavors,
        "cohorts": list(current.cohorts) if current is not None else [],
        "cluster_queues": queues,
        "local_queues": local,
        "default_cluster_queue": edits.default_queue or None,
        "queue_priority": dict(current.queue_priority) if current is not None else {},
    }
    return QueuesSpec.model_validate(values)


def _cluster_queue(
    name: str, rows: list[tuple[int, dict[str, Any]]], kept: ClusterQueueSpec | None
) -> ClusterQueueSpec:
    first = rows[0][1]
    old_quotas = {q.flavor: q for q in kept.quotas} if kept is not None else {}
    quotas = []
    for number, row in rows:
        old = old_quotas.get(str(row["flavor"]))
        extra = (
            old.model_dump(exclude={"flavor", "gpus", "borrowing_limit", "lending_limit"})
            if old
            else {}
        )
        try:
            quotas.append(
                QuotaSpec.model_validate(
                    extra
                    | {
                        "flavor": row["flavor"],
                        "gpus": row["gpus"],
                        "borrowing_limit": row["borrowing_limit"],
                        "lending_limit": row["lending_limit"],
                    }
                )
            )
        except ValidationError as err:
            raise ScenarioError(
                t("cluster.error.row", row=number, problem=error_text(err))
            ) from err
    preemption = (kept.preemption if kept is not None else PreemptionSpec()).model_dump()
    for column in ("within_cluster_queue", "reclaim_within_cohort"):
        if first[column] is not None:
            preemption[column] = first[column]
    values = (kept.model_dump() if kept is not None else {}) | {
        "name": name,
        "cohort": first["cohort"],
        "quotas": quotas,
        "preemption": preemption,
    }
    try:
        return ClusterQueueSpec.model_validate(values)
    except ValidationError as err:
        raise ScenarioError(
            t("cluster.error.row", row=rows[0][0], problem=error_text(err))
        ) from err


def _priorities(edits: Edits) -> PrioritiesSpec | None:
    classes: dict[str, Any] = {}
    for number, row in _rows(edits.priority_classes, ("name", "value")):
        if row["name"] is None or row["value"] is None:
            raise ScenarioError(t("cluster.error.class_row", row=number))
        classes[str(row["name"])] = row["value"]
    by_queue: dict[str, Any] = {}
    for number, row in _rows(edits.priority_by_queue, ("queue", "priority")):
        if row["queue"] is None or row["priority"] is None:
            raise ScenarioError(t("cluster.error.by_queue_row", row=number))
        value = str(row["priority"])
        by_queue[str(row["queue"])] = int(value) if value.lstrip("-").isdigit() else value
    if not classes and not by_queue:
        return None
    return PrioritiesSpec.model_validate({"classes": classes, "by_queue": by_queue})


def _sharing(frame: pd.DataFrame | None) -> tuple[SharingSpec, ...]:
    specs = []
    for number, row in _rows(frame, SHARING_COLUMNS):
        mode = row["mode"] or "none"
        if mode == "none":
            continue
        if row["gpu_type"] is None:
            raise ScenarioError(t("cluster.error.empty_cell", row=number, column="gpu_type"))
        values: dict[str, Any] = {"gpu_type": row["gpu_type"]}
        if mode == "mig":
            values["mig"] = {
                "strategy": row["mig_strategy"] or "mixed",
                "layout": parse_layout(row["mig_layout"]),
                "relayout_delay_s": row["relayout_delay_s"],
            }
        elif mode == "time-slicing":
            if row["replicas"] is None:
                raise ScenarioError(t("cluster.error.empty_cell", row=number, column="replicas"))
            values["time_slicing"] = {
                "replicas": row["replicas"],
                "slowdown": row["slowdown"] or 1.0,
                "fail_requests_greater_than_one": bool(row["fail_requests_greater_than_one"]),
            }
        else:
            raise ScenarioError(t("cluster.error.sharing_mode", row=number, mode=mode))
        try:
            specs.append(SharingSpec.model_validate(values))
        except ValidationError as err:
            raise ScenarioError(
                t("cluster.error.row", row=number, problem=error_text(err))
            ) from err
    return tuple(specs)


def parse_layout(text: str | None) -> str | tuple[str, ...] | None:
    """A MIG layout cell: empty or `dynamic`, a named layout, or profiles split by , or +."""
    if text is None or text.strip().lower() in ("", DYNAMIC):
        return None
    if text.strip().lower() in NAMED_LAYOUTS:
        return text.strip().lower()
    return tuple(p.strip() for p in text.replace("+", ",").split(",") if p.strip())


def _colocation(values: Mapping[str, Any] | None) -> ColocationSpec | None:
    if values is None:
        return None
    hours = [cell(v) for v in values["online_gpus_by_hour"]]
    if any(v is None for v in hours):
        raise ScenarioError(t("cluster.error.hours"))
    return ColocationSpec.model_validate(
        {"online_gpus_by_hour": hours, "gpu_types": list(values.get("gpu_types") or ())}
    )


def _overhead(values: Mapping[str, str] | None) -> OverheadSpec | None:
    return None if values is None else OverheadSpec.model_validate(dict(values))
