"""Node lists (the openb node list, or any table of nodes) into a ClusterConfig.

Rows that cannot describe a node are rejected with a reason, like job rows.
"""

import pandas as pd

from planner.core.config import ClusterConfig, Node
from planner.core.errors import MissingColumnError
from planner.ingest.columns import normalise_name, shown_columns
from planner.ingest.rejections import Rejections
from planner.ingest.report import IngestReport, ReportBuilder
from planner.ingest.source import LineProblems, Source, describe, iter_frames
from planner.ingest.values import cleaned, parse_cpu, parse_memory_gib, parse_numbers

_ID = ("sn", "node_id", "node", "node_name", "nodename", "hostname", "host", "name", "节点")
_GPUS = ("gpu", "gpus", "num_gpu", "gpu_num", "gpu_count", "capacity_gpu", "gpu数")
_TYPE = ("model", "gpu_type", "gpu_model", "gpu型号")
_CPU = ("cpu_milli", "cpu", "cpus", "cores", "cpu_cores")
_MEM = ("memory_mib", "mem_mib", "memory_gib", "mem_gib", "memory", "mem", "memory_gb")


def read_cluster(source: Source, fmt: str) -> tuple[ClusterConfig, IngestReport]:
    """All nodes of the list, with rows that cannot be a node rejected."""
    names = {normalise_name(col): col for col in source.header}
    id_col, gpu_col = _pick(names, _ID), _pick(names, _GPUS)
    if id_col is None or gpu_col is None:
        raise MissingColumnError(
            "a node list needs a node id column (sn, node, hostname) and a GPU count column "
            f"(gpu, gpus); the file has {shown_columns(source.header, 20)}",
            file=source.name,
        )
    type_col, cpu_col, mem_col = _pick(names, _TYPE), _pick(names, _CPU), _pick(names, _MEM)
    report = IngestReport(
        file=source.name,
        format=fmt,
        read_as=describe(source),
        sha256=source.sha256,
        column_mapping={
            k: v
            for k, v in (
                ("node_id", id_col),
                ("gpus", gpu_col),
                ("gpu_type", type_col),
                ("cpu", cpu_col),
                ("mem", mem_col),
            )
            if v
        },
        warnings=list(source.notes),
    )
    builder = ReportBuilder(report)
    nodes: list[Node] = []
    problems = LineProblems()
    for frame in iter_frames(source, problems):
        rej = Rejections(frame)
        ids = cleaned(frame[id_col])
        rej.add(ids.isna(), "missing_value", id_col, "the node id is empty")
        gpus = parse_numbers(frame[gpu_col]).values.fillna(0.0)
        rej.add(parse_numbers(frame[gpu_col]).bad, "not_a_number", gpu_col, "expected a number")
        rej.add(
            (gpus < 0) | (gpus != gpus.round()),
            "negative_value",
            gpu_col,
            "expected a whole number of GPUs >= 0",
        )
        cpu = _resource(frame, cpu_col, rej, is_cpu=True)
        mem = _resource(frame, mem_col, rej, is_cpu=False)
        gpu_type = cleaned(frame[type_col]).fillna("") if type_col else pd.Series("", frame.index)
        keep = rej.alive
        nodes.extend(
            Node(node_id=str(i), gpu_type=str(t), gpus=int(g), cpu=float(c), mem_gib=float(m))
            for i, t, g, c, m in zip(
                ids[keep], gpu_type[keep], gpus[keep], cpu[keep], mem[keep], strict=True
            )
        )
        builder.add_rejected(rej.result())
    cluster = ClusterConfig(name=source.path.stem, nodes=tuple(nodes))
    report = builder.finish(accepted=len(nodes))
    report.nodes = cluster.node_count
    report.gpus_by_type = cluster.gpus_by_type()
    return cluster, report


def _pick(names: dict[str, str], options: tuple[str, ...]) -> str | None:
    return next((names[o] for o in options if o in names), None)


def _resource(
    frame: pd.DataFrame, column: str | None, rej: Rejections, *, is_cpu: bool
) -> pd.Series:
    if column is None:
        return pd.Series(0.0, index=frame.index)
    if is_cpu:
        text = frame[column].str.strip()
        if "milli" in column.lower():  # cpu_milli: 32000 means 32 cores
            text = text.where(text.eq(""), text + "m")
        parsed = parse_cpu(text)
    else:
        unit = 1 / 1024 if "mib" in column.lower() or "mb" in column.lower() else 1.0
        parsed = parse_memory_gib(frame[column], unit_gib=unit)
    rej.add(parsed.bad, "not_a_number", column, "expected a number")
    rej.add(parsed.values < 0, "negative_value", column, "expected a number >= 0")
    return parsed.values.fillna(0.0)
