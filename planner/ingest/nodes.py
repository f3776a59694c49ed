"""Node lists (the openb node list, or any table of nodes) into a ClusterConfig.

Columns are found by name (`planner.ingest.columns.NODE_SYNONYMS`) like a job history's, and
`--map FIELD=COLUMN` (the app's mapping table) wins. Rows that cannot describe a node are
rejected with a reason, like job rows. Units follow the column's name: `cpu_milli` is in
milli-cores, memory in a column named `..mib`/`..mb` is in MiB, any other in GiB.
"""

from collections.abc import Mapping

import pandas as pd

from planner.core.config import ClusterConfig, Node
from planner.core.errors import MissingColumnError
from planner.ingest.columns import (
    NODE_NEEDS,
    NODE_SYNONYMS,
    ColumnMap,
    file_columns,
    other_matches,
    resolve_columns,
    shown_columns,
)
from planner.ingest.notes import row_message
from planner.ingest.rejections import Rejections
from planner.ingest.report import IngestReport, ReportBuilder
from planner.ingest.source import LineProblems, Source, describe, iter_frames
from planner.ingest.values import cleaned, parse_cpu, parse_memory_gib, parse_numbers


def node_columns(
    header: tuple[str, ...], mapping: Mapping[str, str], *, file: str
) -> tuple[ColumnMap, list[str]]:
    """(each node-list field's column, notes); an unknown field or column is an error,
    a missing one is not (`require` it before reading)."""
    columns = resolve_columns(header, mapping, file=file, synonyms=NODE_SYNONYMS)
    return columns, [*columns.notes, *other_matches(header, columns)]


NODE_FIELD_WORDS = {
    "node_id": "node id",
    "gpu_type": "GPU type",
    "gpus": "GPUs per node",
    "cpu": "CPU cores",
    "mem": "memory",
}


def missing_fields(columns: ColumnMap) -> list[str]:
    """The required node-list fields (node id, GPUs per node) no column was found for."""
    return [need[0] for need in NODE_NEEDS if not columns.has(need[0])]


def _require(columns: ColumnMap, header: tuple[str, ...], *, file: str) -> None:
    for field in missing_fields(columns):
        names = ", ".join(NODE_SYNONYMS[field][:6])
        raise MissingColumnError(
            f"a node list needs a column for '{field}' ({NODE_FIELD_WORDS[field]}) and no "
            f"column is named like one ({names}, ...). Columns in the file: "
            f"{shown_columns(header)}. Name the column with --map {field}=COLUMN.",
            file=file,
        ).coded(
            "node_missing_column",
            file=file,
            field=field,
            names=NODE_SYNONYMS[field][:6],
            **file_columns(header),
        )


def read_cluster(
    source: Source, fmt: str, mapping: Mapping[str, str] | None = None
) -> tuple[ClusterConfig, IngestReport]:
    """All nodes of the list, with rows that cannot be a node rejected; `mapping`
    (field -> column) overrides the columns found by name."""
    columns, notes = node_columns(source.header, mapping or {}, file=source.name)
    _require(columns, source.header, file=source.name)
    id_col, gpu_col = columns.columns["node_id"], columns.columns["gpus"]
    type_col, cpu_col, mem_col = columns.get("gpu_type"), columns.get("cpu"), columns.get("mem")
    report = IngestReport(
        file=source.name,
        format=fmt,
        read_as=describe(source),
        sha256=source.sha256,
        column_mapping=dict(columns.columns),
        warnings=[*source.notes, *notes],
    )
    builder = ReportBuilder(report)
    nodes: list[Node] = []
    problems = LineProblems()
    for frame in iter_frames(source, problems):
        rej = Rejections(frame)
        ids = cleaned(frame[id_col])
        rej.add(ids.isna(), "missing_value", id_col, row_message("node_id_empty"))
        gpus = parse_numbers(frame[gpu_col]).values.fillna(0.0)
        rej.add(
            parse_numbers(frame[gpu_col]).bad,
            "not_a_number",
            gpu_col,
            row_message("expected_number"),
        )
        rej.add(
            (gpus < 0) | (gpus != gpus.round()),
            "negative_value",
            gpu_col,
            row_message("expected_gpus"),
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
    rej.add(parsed.bad, "not_a_number", column, row_message("expected_number"))
    rej.add(parsed.values < 0, "negative_value", column, row_message("expected_zero_or_more"))
    return parsed.values.fillna(0.0)
