"""Which column of an export holds which canonical field.

Names are matched case- and punctuation-insensitively against English and Chinese synonyms;
a user's `--map FIELD=COLUMN` always wins. The mapping actually used is reported back so the
user can check it.
"""

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from planner.core.errors import MissingColumnError
from planner.ingest.limits import shorten
from planner.ingest.notes import ingest_note

# Canonical field -> synonyms, most specific first. Per-pod and per-job variants are
# separate fields because they mean different numbers.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "job_id": (
        "job_id",
        "jobid",
        "job_name",
        "jobname",
        "id",
        "job",
        "name",
        "uid",
        "instance_sn",
        "instance_id",
        "instance_name",
        "pod_name",
        "task_id",
        "任务id",
        "作业id",
        "任务编号",
        "作业编号",
        "任务名",
        "作业名",
    ),
    "submit": (
        "submit_s",
        "submit_time",
        "submitted",
        "submit",
        "submit_at",
        "submitted_at",
        "creation_time",
        "created",
        "created_at",
        "create_time",
        "enqueue_time",
        "提交时间",
        "创建时间",
        "提交",
    ),
    "start": (
        "start_s",
        "start_time",
        "started",
        "start",
        "started_at",
        "scheduled_time",
        "begin_time",
        "开始时间",
        "启动时间",
        "开始",
    ),
    "end": (
        "end_s",
        "end_time",
        "ended",
        "end",
        "ended_at",
        "finish_time",
        "finished",
        "finished_at",
        "completion_time",
        "completed_at",
        "deletion_time",
        "stop_time",
        "结束时间",
        "完成时间",
        "结束",
    ),
    "duration": (
        "duration_s",
        "duration",
        "run_time",
        "runtime",
        "run_time_s",
        "elapsed",
        "wall_time",
        "walltime",
        "duration_sec",
        "运行时长",
        "运行时间",
        "时长",
        "耗时",
    ),
    "gpus_per_pod": (
        "gpus_per_pod",
        "gpu_per_pod",
        "gpus_per_node",
        "gpu_per_node",
        "gpus_per_worker",
        "每节点gpu数",
        "单节点gpu数",
    ),
    "gpus": (
        "gpus",
        "gpu",
        "num_gpu",
        "num_gpus",
        "gpu_num",
        "gpu_count",
        "ngpus",
        "n_gpu",
        "gpus_requested",
        "gpu_request",
        "total_gpus",
        "gpu数",
        "gpu数量",
        "gpu卡数",
        "卡数",
        "显卡数",
    ),
    "pods": (
        "pods",
        "num_pods",
        "pod_num",
        "nodes",
        "num_nodes",
        "nnodes",
        "node_num",
        "node_count",
        "workers",
        "num_workers",
        "worker_num",
        "replicas",
        "节点数",
        "实例数",
        "副本数",
    ),
    "cpu": (
        "cpu",
        "cpus",
        "num_cpu",
        "cpu_num",
        "ncpus",
        "cores",
        "cpu_cores",
        "cpu_request",
        "cpu数",
        "cpu核数",
        "核数",
    ),
    "mem": (
        "mem_gib",
        "memory_gib",
        "mem_gb",
        "memory_gb",
        "mem_mib",
        "memory_mib",
        "mem_mb",
        "memory_mb",
        "mem",
        "memory",
        "ram",
        "memory_request",
        "mem_request",
        "memory_requested",
        "内存",
        "内存gb",
        "内存gib",
    ),
    "gpu_util": (
        "gpu_util",
        "gpu_utilization",
        "gpu_util_pct",
        "gpu_busy",
        "busy_share",
        "gpu利用率",
        "gpu使用率",
        "显卡利用率",
    ),
    "gpu_type": (
        "gpu_type",
        "gpu_types",
        "gpu_model",
        "gpu_spec",
        "gpu_name",
        "gres_type",
        "model",
        "gpu型号",
        "卡型",
        "显卡型号",
    ),
    "queue": (
        "queue",
        "vc",
        "virtual_cluster",
        "team",
        "tenant",
        "account",
        "partition",
        "namespace",
        "project",
        "group",
        "app_name",
        "application",
        "app",
        "队列",
        "团队",
        "租户",
        "项目",
        "部门",
    ),
    "user": (
        "user",
        "user_id",
        "userid",
        "username",
        "user_name",
        "owner",
        "用户",
        "用户名",
        "提交人",
    ),
    "priority": ("priority", "prio", "priority_class", "优先级"),
    "status": (
        "status",
        "state",
        "job_status",
        "final_status",
        "job_state",
        "result",
        "状态",
        "任务状态",
        "作业状态",
    ),
}

FIELDS: tuple[str, ...] = tuple(SYNONYMS)

# A node list's fields -> synonyms, most specific first (plain GPU counts before capacity
# columns: when a file has both, the mapping table shows the choice and a note names the
# other). CPU and memory units follow the chosen column's name (see `planner.ingest.nodes`).
NODE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "node_id": (
        "sn", "node_id", "node_name", "nodename", "node", "hostname", "host_name", "host",
        "node_sn", "machine_id", "machine", "server", "name", "节点", "节点名", "主机名",
    ),
    "gpu_type": (
        "gpu_type", "gpu_model", "gpu_product", "gpu_card", "gpu_card_type", "gpu_name",
        "gpu_spec", "model", "card", "card_type", "gpu型号", "卡型", "显卡型号",
    ),
    "gpus": (
        "gpus", "gpu", "num_gpu", "num_gpus", "gpu_num", "gpu_count", "ngpus", "gpus_per_node",
        "gpu_capacity_num", "gpu_capacity", "capacity_gpu", "gpu_cap", "gpu数", "gpu数量",
        "gpu卡数", "卡数",
    ),
    "cpu": (
        "cpu_milli", "cpu_num", "cpu", "cpus", "num_cpu", "cpu_count", "cores", "cpu_cores",
        "vcpu", "vcpus", "cpu_capacity_num", "cpu_capacity", "cpu核数", "核数",
    ),
    "mem": (
        "memory_mib", "mem_mib", "memory_mb", "mem_mb", "memory_gib", "mem_gib", "memory_gb",
        "mem_gb", "memory", "mem", "ram", "memory_capacity", "内存",
    ),
}  # fmt: skip
NODE_FIELDS: tuple[str, ...] = tuple(NODE_SYNONYMS)
NODE_NEEDS: tuple[tuple[str], ...] = (("node_id",), ("gpus",))


def normalise_name(name: str) -> str:
    """Lower case, with spaces, dashes, dots and brackets folded to `_` or dropped."""
    folded = re.sub(r"[\s\-./]+", "_", name.strip().lower())
    folded = re.sub(r"[()（）\[\]【】]", "", folded)
    return folded.strip("_")


def match_key(name: str) -> str:
    """The key a column name matches a synonym by: `normalise_name` without its `_`, so
    `SubmitTime`, `submit-time` and `Submit Time` all match `submit_time`, and `NumGPUs` and
    `MemoryMiB` match `num_gpus` and `memory_mib` (no synonyms of two fields share a key:
    tests/test_column_names.py)."""
    return normalise_name(name).replace("_", "")


@dataclass(frozen=True, slots=True)
class ColumnMap:
    """Canonical field -> source column name, for the fields the file has."""

    columns: Mapping[str, str]
    notes: tuple[str, ...] = ()
    """Choices the user should know about (several columns matching one field)."""

    def get(self, field: str) -> str | None:
        return self.columns.get(field)

    def has(self, field: str) -> bool:
        return field in self.columns


def resolve_columns(
    header: Sequence[str],
    overrides: Mapping[str, str],
    *,
    file: str,
    synonyms: Mapping[str, tuple[str, ...]] = SYNONYMS,
) -> ColumnMap:
    """Match `header` to fields; `overrides` (field -> column) are checked and win.

    Where several columns spell the same name (`Submit Time`, `submit_time`), the first is
    used and the map's notes say so. `synonyms` is a job history's fields unless given
    (NODE_SYNONYMS for a node list).
    """
    same_name: dict[str, list[str]] = {}
    for col in header:
        same_name.setdefault(match_key(col), []).append(col)
    chosen: dict[str, str] = {}
    for field, column in overrides.items():
        if field not in synonyms:
            raise MissingColumnError(
                f"--map names an unknown field '{shorten(field)}'; fields are: "
                f"{', '.join(synonyms)}",
                file=file,
            ).coded("map_unknown_field", file=file, field=shorten(field), fields=tuple(synonyms))
        if column not in header:
            close = _close_columns(column, header)
            code = "map_no_column_close" if close else "map_no_column"
            raise MissingColumnError(
                f"--map {shorten(field)}={shorten(column)}: the file has no column "
                f"'{shorten(column)}'{_close_hint(close)}",
                file=file,
            ).coded(
                code, file=file, field=shorten(field), column=shorten(column), close=_cut(close)
            )
        chosen[field] = column
    taken = set(chosen.values())
    notes: list[str] = []
    for field, names in synonyms.items():
        if field in chosen:
            continue
        for name in names:
            found = same_name.get(match_key(name), [None])[0]
            if found is not None and found not in taken:
                chosen[field] = found
                taken.add(found)
                notes.extend(_same_name_note(field, same_name[match_key(name)]))
                break
    return ColumnMap(chosen, tuple(notes))


def other_matches(header: Sequence[str], columns: ColumnMap) -> list[str]:
    """Notes for a node list's fields that more columns could fill than the one chosen
    (`gpu_num` and `gpu_capacity_num`), each naming the others and how to pick one."""
    by_name = {match_key(col): col for col in header}
    used = set(columns.columns.values())
    notes: list[str] = []
    for field, names in NODE_SYNONYMS.items():
        chosen = columns.get(field)
        keys = [match_key(n) for n in names]
        others = [by_name[k] for k in keys if k in by_name and by_name[k] not in used]
        if chosen is not None and others:
            shown = ", ".join(f"'{shorten(col)}'" for col in others)
            notes.append(
                ingest_note("other_columns", column=shorten(chosen), field=field, others=shown)
            )
    return notes


def _same_name_note(field: str, columns: Sequence[str]) -> list[str]:
    if len(columns) < 2:
        return []
    shown = ", ".join(f"'{shorten(col)}'" for col in columns)
    return [ingest_note("same_name_columns", columns=shown, field=field)]


def require(
    columns: ColumnMap,
    needs: Sequence[Sequence[str]],
    header: Sequence[str],
    *,
    file: str,
    synonyms: Mapping[str, tuple[str, ...]] = SYNONYMS,
) -> None:
    """Each entry of `needs` lists alternatives; at least one of each must be mapped."""
    for alternatives in needs:
        if any(columns.has(field) for field in alternatives):
            continue
        field = alternatives[0]
        names = " or ".join(f"'{f}'" for f in alternatives)
        close = _close_columns(field, header, synonyms)
        code = "missing_column_close" if close else "missing_column"
        raise MissingColumnError(
            f"no column for {names} was found{_close_hint(close)}. Columns in the file: "
            f"{shown_columns(header)}. Name the column with --map {field}=COLUMN.",
            file=file,
        ).coded(
            code,
            file=file,
            field=field,
            fields=tuple(alternatives),
            close=_cut(close),
            **file_columns(header),
        )


def file_columns(header: Sequence[str], most: int = 30) -> dict[str, object]:
    """A message's values for the file's columns: the first `most` (cut short) and how many
    there are, for `error.coded(..., **file_columns(header))`."""
    return {"columns": _cut(header[:most]), "count": len(header)}


def _cut(names: Sequence[str]) -> tuple[str, ...]:
    """Column names cut short for a message, as `shown_columns` shows them."""
    return tuple(shorten(col, 40) for col in names)


def _close_hint(close: Sequence[str]) -> str:
    """'; close matches in the file: a, b', or '' when there are none."""
    return f"; close matches in the file: {shown_columns(close)}" if close else ""


def _close_columns(
    wanted: str, header: Sequence[str], synonyms: Mapping[str, tuple[str, ...]] = SYNONYMS
) -> tuple[str, ...]:
    """Up to five columns of `header` whose names are close to `wanted` or its synonyms."""
    candidates = {normalise_name(col): col for col in header}
    pool = list(candidates) + list(synonyms.get(wanted, ()))
    matches = difflib.get_close_matches(normalise_name(wanted), pool, n=6, cutoff=0.5)
    shown = [candidates[m] for m in matches if m in candidates]
    for synonym in synonyms.get(wanted, ()):
        for norm, col in candidates.items():
            if col not in shown and (synonym in norm or norm in synonym) and len(norm) > 1:
                shown.append(col)
    return tuple(shown[:5])


def shown_columns(header: Sequence[str], most: int = 30) -> str:
    """The first `most` column names, each cut short, for a message."""
    names = ", ".join(shorten(col, 40) for col in header[:most])
    return names + (f", ... ({len(header):,} columns)" if len(header) > most else "")
