"""Recognise an export's format from its header, and adapt the special ones.

Alibaba openb pod lists and Slurm `sacct --parsable2` exports are rewritten chunk by chunk
into columns the generic normaliser understands; a generic job history goes through as is.
"""

import re
from collections.abc import Sequence

import pandas as pd

from planner.core.errors import UnknownFormatError
from planner.ingest.columns import (
    SYNONYMS,
    ColumnMap,
    file_columns,
    match_key,
    normalise_name,
    shown_columns,
)
from planner.ingest.options import FORMATS, JOB_FORMATS, NODE_FORMATS, Format
from planner.ingest.source import ROW

# The format names live in `options` (no pandas) and are re-exported here, their old home.
__all__ = [
    "FORMATS",
    "JOB_FORMATS",
    "NODE_FORMATS",
    "Format",
    "detect_format",
    "openb_pods",
    "slurm",
]

_OPENB_PODS = {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "creation_time"}
_OPENB_NODES = {"sn", "cpu_milli", "memory_mib", "gpu", "model"}
_SLURM = {"jobid", "state"}
_NODE_IDS = {"sn", "node", "node_id", "node_name", "nodename", "hostname", "host", "节点"}
_TIME_FIELDS = ("submit", "start", "end", "duration")
_TRES_GPU = re.compile(r"gres/gpu(?::([A-Za-z0-9_.-]+))?=(\d+)")
_OPENB_QOS_PRIORITY = {"LS": "3", "Guaranteed": "2", "Burstable": "1", "BE": "0"}


def detect_format(header: Sequence[str], *, file: str) -> Format:
    """The format whose signature columns the header has; generic if it looks like jobs."""
    names = {normalise_name(col) for col in header}
    if names >= _OPENB_PODS:
        return "openb-pods"
    if names >= _OPENB_NODES and "num_gpu" not in names:
        return "openb-nodes"
    if names >= _SLURM and ({"elapsed", "submit", "start"} & names):
        return "slurm"
    keys = {match_key(col) for col in header}
    job_like = any(match_key(s) in keys for f in _TIME_FIELDS for s in SYNONYMS[f])
    if keys & {match_key(n) for n in _NODE_IDS} and not job_like:
        return "nodes"
    gpu_like = any(match_key(s) in keys for s in SYNONYMS["gpus"] + SYNONYMS["gpus_per_pod"])
    if job_like or gpu_like:
        return "generic"
    raise UnknownFormatError(
        f"the columns ({shown_columns(header, 12)}) match no format we know. Recognised: "
        "Alibaba openb pod and node lists, Slurm sacct --parsable2, generic job histories "
        "(CSV/TSV/XLSX with columns such as job_id, submit_time, duration, gpus) and node "
        "lists. Use --format generic with --map FIELD=COLUMN, e.g. --map gpus=卡数 "
        "--map submit=提交时间 --map duration=运行时长",
        file=file,
    ).coded("unknown_format", file=file, **file_columns(header, 12))


def openb_pods(frame: pd.DataFrame) -> tuple[pd.DataFrame, ColumnMap]:
    """One job per pod; per-pod GPUs are num_gpu x gpu_milli / 1000 (shared GPUs < 1)."""
    gpus_col = "num_gpu x gpu_milli"
    num = pd.to_numeric(frame["num_gpu"], errors="coerce")
    milli = pd.to_numeric(frame["gpu_milli"].replace("", "1000"), errors="coerce")
    gpus = (num * milli.where(num > 0, 1000.0) / 1000.0).round(6)
    derived = frame.assign(
        **{
            gpus_col: gpus.map(_number_text).where(gpus.notna(), frame["num_gpu"]),
            "cpu_milli": frame["cpu_milli"].where(
                frame["cpu_milli"].str.strip().eq(""), frame["cpu_milli"].str.strip() + "m"
            ),
            "qos_priority": frame.get("qos", pd.Series("", index=frame.index))
            .map(_OPENB_QOS_PRIORITY)
            .fillna(""),
        }
    )
    mapping = {
        "job_id": "name",
        "submit": "creation_time",
        "start": "scheduled_time",
        "end": "deletion_time",
        "gpus_per_pod": gpus_col,
        "cpu": "cpu_milli",
        "mem": "memory_mib",
        "gpu_type": "gpu_spec",
        "queue": "qos",
        "priority": "qos_priority",
        "status": "pod_phase",
    }
    return derived, ColumnMap({k: v for k, v in mapping.items() if v in derived.columns})


def slurm(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, ColumnMap]:
    """(job lines rewritten, step lines as (row, parent job id), column map)."""
    columns = {normalise_name(col): col for col in frame.columns}
    job_ids = frame[columns["jobid"]].str.strip()
    is_step = job_ids.str.contains(".", regex=False)
    steps = pd.DataFrame(
        {
            "row": frame.loc[is_step, ROW].astype("int64"),
            "parent": job_ids[is_step].str.split(".").str[0],
        }
    )
    jobs = frame.loc[~is_step]
    tres = _tres(jobs, columns)
    gpu = tres.str.extractall(_TRES_GPU).reset_index(level=1, drop=True)
    derived = jobs.assign(
        **{
            "gres/gpu": _gpu_totals(gpu, jobs.index),
            "gres/gpu type": gpu[0]
            .dropna()
            .groupby(level=0)
            .agg("|".join)
            .reindex(jobs.index)
            .fillna(""),
            "TRES cpu": tres.str.extract(r"(?:^|,)cpu=(\d+)")[0].fillna(""),
            "TRES mem": tres.str.extract(r"(?:^|,)mem=([0-9.]+[KMGTP]?)")[0].fillna(""),
        }
    )
    mapping = {
        "job_id": "jobid",
        "submit": "submit",
        "start": "start",
        "end": "end",
        "duration": "elapsed",
        "pods": "nnodes",
        "user": "user",
        "queue": "account" if "account" in columns else "partition",
        "priority": "priority",
        "status": "state",
    }
    resolved = {k: columns[v] for k, v in mapping.items() if v in columns}
    resolved.update(
        {"gpus": "gres/gpu", "gpu_type": "gres/gpu type", "cpu": "TRES cpu", "mem": "TRES mem"}
    )
    return derived, steps, ColumnMap(resolved)


def _tres(jobs: pd.DataFrame, columns: dict[str, str]) -> pd.Series:
    """AllocTRES where the job got an allocation, else what it asked for (ReqTRES)."""
    empty = pd.Series("", index=jobs.index)
    alloc = jobs[columns["alloctres"]] if "alloctres" in columns else empty
    req = jobs[columns["reqtres"]] if "reqtres" in columns else empty
    return alloc.where(alloc.str.strip().ne(""), req).fillna("")


def _gpu_totals(gpu: pd.DataFrame, index: pd.Index) -> pd.Series:
    """GPUs per job: the untyped gres/gpu count, else the sum of the typed ones; 0 if none."""
    counts = pd.to_numeric(gpu[1], errors="coerce")
    untyped = counts[gpu[0].isna()].groupby(level=0).max()
    typed = counts[gpu[0].notna()].groupby(level=0).sum()
    total = untyped.reindex(index).fillna(typed.reindex(index)).fillna(0.0)
    return total.map(_number_text)


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))
