"""Turn one chunk of string cells into canonical jobs and rejected rows.

Every row either becomes a job or a rejection with a reason code, the column and the value
that caused it: `accepted + rejected == rows` holds per chunk. Values are never guessed;
where we fill something in (an inferred pod count, a derived status) the row is flagged
and the report counts it.
"""

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from planner.ingest.columns import ColumnMap
from planner.ingest.limits import MAX_VALUE_CHARS
from planner.ingest.notes import row_message
from planner.ingest.rejections import Rejections
from planner.ingest.source import ROW
from planner.ingest.times import job_times
from planner.ingest.values import (
    cleaned,
    parse_cpu,
    parse_memory_gib,
    parse_numbers,
)
from planner.ingest.words import PRIORITY_WORDS, STATUS_WORDS

# Far above any real job (the largest published ones use a few thousand GPUs); a larger
# number is a unit or export mistake, and splitting it into pods would never finish.
MAX_GPUS_PER_JOB = 100_000
JOB_COLUMNS = (
    "row",
    "job_id",
    "submit_t",
    "duration_s",
    "pods",
    "gpus",
    "cpu",
    "mem_gib",
    "gpu_types",
    "queue",
    "user",
    "priority",
    "status",
    "start_t",
    "end_t",
    "flags",
    "gpu_util",
)
# Fields read as dates, durations or numbers: their parsers' cost grows with a cell's length.
PARSED_FIELDS = (
    "submit",
    "start",
    "end",
    "duration",
    "gpus",
    "gpus_per_pod",
    "pods",
    "cpu",
    "mem",
    "gpu_util",
    "priority",
)
# C0 controls and DEL: invisible in a table, and a NUL ends a string in C tools downstream.
_CONTROL = r"[\x00-\x1f\x7f]"


@dataclass(frozen=True, slots=True)
class NormalizeOptions:
    tz: str = "UTC"
    censored: str = "window"  # or "reject": see IngestOptions.censored
    decimal_comma: bool = False
    mem_unit_gib: float = 1.0
    max_gpus_per_pod: int = 8
    gpu_totals: bool = True  # `gpus`, `cpu`, `mem` are per job (True) or per pod (False)


@dataclass(slots=True)
class ChunkResult:
    jobs: pd.DataFrame
    rejected: pd.DataFrame
    flags: Counter[str] = field(default_factory=Counter)
    absolute_times: int = 0
    relative_times: int = 0


def normalize(frame: pd.DataFrame, columns: ColumnMap, options: NormalizeOptions) -> ChunkResult:
    """Canonical jobs (times still absolute or as given) and rejections for one chunk."""
    rej = Rejections(frame)
    frame = _without_long_values(frame, columns, rej)
    flags = pd.DataFrame(index=frame.index)
    job_id = _job_ids(frame, columns, rej, flags)
    pods, gpus = _resources(frame, columns, options, rej, flags)
    cpu = _per_pod(frame, columns, "cpu", pods=pods, options=options, rej=rej)
    mem = _per_pod(frame, columns, "mem", pods=pods, options=options, rej=rej)
    status = _statuses(frame, columns, rej)
    times = job_times(
        frame,
        columns,
        tz=options.tz,
        censored=options.censored,
        status=status,
        rej=rej,
        flags=flags,
    )
    priority = _priorities(frame, columns, rej)
    queue = _text(frame, columns, "queue", flags)
    flags["queue_missing"] = queue.isna()
    alive = rej.alive
    jobs = (
        pd.DataFrame(
            {
                "row": frame[ROW].astype("int64"),
                "job_id": job_id,
                "submit_t": times["submit_t"],
                "duration_s": times["duration_s"],
                "pods": pods.fillna(1).astype("int64"),
                "gpus": gpus,
                "cpu": cpu.fillna(0.0),
                "mem_gib": mem.fillna(0.0),
                "gpu_types": _gpu_types(frame, columns, flags),
                "queue": queue.fillna("default"),
                "user": _text(frame, columns, "user", flags).fillna(""),
                "priority": priority,
                "status": times["status"],
                "start_t": times["start_t"],
                "end_t": times["end_t"],
                "flags": _flag_text(flags),
                "gpu_util": _busy_share(frame, columns, rej),
            }
        )
        .loc[alive]
        .reset_index(drop=True)
    )
    counts = Counter({name: int(flags.loc[alive, name].sum()) for name in flags.columns})
    result = ChunkResult(jobs, rej.result(), +counts)
    result.absolute_times = int(times.loc[alive, "absolute"].sum())
    result.relative_times = int(times.loc[alive, "relative"].sum())
    return result


def _without_long_values(frame: pd.DataFrame, columns: ColumnMap, rej: Rejections) -> pd.DataFrame:
    """Reject rows with an over-long date or number cell, and blank those cells so the
    parsers never see them (the rejection keeps the original)."""
    blanked: dict[str, pd.Series] = {}
    for field_name in PARSED_FIELDS:
        name = columns.get(field_name)
        if name is None or name in blanked or name not in frame:
            continue
        long = frame[name].astype("string").str.len().gt(MAX_VALUE_CHARS).fillna(False)
        if long.any():
            rej.add(
                long,
                "value_too_long",
                name,
                row_message("value_too_long", limit=MAX_VALUE_CHARS),
            )
            blanked[name] = frame[name].mask(long, "")
    return frame.assign(**blanked) if blanked else frame


def _text(
    frame: pd.DataFrame, columns: ColumnMap, field_name: str, flags: pd.DataFrame
) -> pd.Series:
    name = columns.get(field_name)
    if name is None:
        return pd.Series(pd.NA, index=frame.index, dtype="string")
    return _printable(cleaned(frame[name]), flags)


def _printable(text: pd.Series, flags: pd.DataFrame) -> pd.Series:
    """`text` without control characters; the rows that had some are flagged."""
    found = text.str.contains(_CONTROL, regex=True).fillna(False).astype(bool)
    if not found.any():
        return text
    before = flags.get("control_chars_removed", pd.Series(False, index=text.index))
    flags["control_chars_removed"] = before | found
    return text.str.replace(_CONTROL, "", regex=True)


def _job_ids(
    frame: pd.DataFrame, columns: ColumnMap, rej: Rejections, flags: pd.DataFrame
) -> pd.Series:
    name = columns.get("job_id")
    if name is None:
        flags["job_id_generated"] = True
        return "row-" + frame[ROW].astype(str)
    ids = _printable(frame[name].astype("string").str.strip(), flags)
    rej.add(ids.eq("") | ids.isna(), "missing_value", name, row_message("job_id_empty"))
    return ids


def _resources(
    frame: pd.DataFrame,
    columns: ColumnMap,
    options: NormalizeOptions,
    rej: Rejections,
    flags: pd.DataFrame,
) -> tuple[pd.Series, pd.Series]:
    """(pods, GPUs per pod) with the checks that tie them together."""
    per_pod = columns.has("gpus_per_pod") or not options.gpu_totals
    gpu_col = columns.get("gpus_per_pod") or columns.get("gpus") or ""
    gpus = _count(frame, gpu_col, rej, allow_zero=True, decimal=options.decimal_comma)
    pods_col = columns.get("pods")
    if pods_col is not None:
        pods = _count(frame, pods_col, rej, allow_zero=False, decimal=options.decimal_comma)
        pods = pods.fillna(1.0)
        rej.add(pods != np.floor(pods), "not_a_number", pods_col, row_message("pods_not_whole"))
    else:
        pods = pd.Series(1.0, index=frame.index)
    job_total = gpus * pods if per_pod else gpus
    rej.add(
        job_total > MAX_GPUS_PER_JOB,
        "implausible_value",
        gpu_col,
        row_message("too_many_gpus", limit=f"{MAX_GPUS_PER_JOB:,}"),
    )
    rej.add(
        (gpus > 1) & (gpus != np.floor(gpus)),
        "fractional_gpus",
        gpu_col,
        row_message("fractional_gpus"),
    )
    if per_pod:
        return pods, gpus
    if pods_col is None:
        pods = _inferred_pods(gpus, options.max_gpus_per_pod)
        flags["pods_inferred"] = pods > 1
    uneven = (gpus >= 1) & (np.mod(gpus, pods) != 0)
    rej.add(
        uneven,
        "gpus_not_divisible",
        gpu_col,
        row_message("gpus_not_divisible"),
    )
    return pods, gpus / pods


def _inferred_pods(gpus: pd.Series, limit: int) -> pd.Series:
    """Fewest pods with at most `limit` GPUs each that divide the total evenly."""

    def pods_for(total: float) -> float:
        if not math.isfinite(total) or total <= limit or total != math.floor(total):
            return 1.0
        # fewest pods = total / the largest pod size up to `limit` that divides it: at most
        # `limit` tries, where counting pods up from total / limit could take `total` tries
        # (a huge prime)
        size = next(g for g in range(int(limit), 0, -1) if total % g == 0)
        return float(total // size)

    return gpus.map(pods_for).astype("float64")


def _count(
    frame: pd.DataFrame, column: str, rej: Rejections, *, allow_zero: bool, decimal: bool
) -> pd.Series:
    parsed = parse_numbers(frame[column], decimal_comma=decimal)
    rej.add(parsed.values.isna() & ~parsed.bad, "missing_value", column, row_message("value_empty"))
    rej.add(parsed.bad, "not_a_number", column, row_message("expected_number"))
    low = parsed.values < 0 if allow_zero else parsed.values <= 0
    rej.add(
        low,
        "negative_value",
        column,
        row_message("expected_zero_or_more" if allow_zero else "expected_one_or_more"),
    )
    return parsed.values


def _per_pod(
    frame: pd.DataFrame,
    columns: ColumnMap,
    field_name: str,
    *,
    pods: pd.Series,
    options: NormalizeOptions,
    rej: Rejections,
) -> pd.Series:
    name = columns.get(field_name)
    if name is None:
        return pd.Series(0.0, index=frame.index)
    if field_name == "cpu":
        parsed = parse_cpu(frame[name], decimal_comma=options.decimal_comma)
    else:
        unit = 1 / 1024 if "mib" in name.lower() or "mb" in name.lower() else options.mem_unit_gib
        parsed = parse_memory_gib(frame[name], unit_gib=unit, decimal_comma=options.decimal_comma)
    rej.add(parsed.bad, "not_a_number", name, row_message("expected_number"))
    rej.add(parsed.values < 0, "negative_value", name, row_message("expected_zero_or_more"))
    return parsed.values / pods if options.gpu_totals else parsed.values


def _busy_share(frame: pd.DataFrame, columns: ColumnMap, rej: Rejections) -> pd.Series:
    """The GPUs' busy share, 0-1: `35%` and numbers above 1 are percentages (write `1%`
    for one percent: a bare 1 is fully busy); empty where not given."""
    name = columns.get("gpu_util")
    if name is None:
        return pd.Series(np.nan, index=frame.index)
    text = cleaned(frame[name])
    percent = text.str.endswith("%").fillna(False).astype(bool)
    parsed = parse_numbers(text.str.rstrip("%").str.strip(), decimal_comma=False)
    values = parsed.values.where(~(percent | (parsed.values > 1)), parsed.values / 100)
    rej.add(parsed.bad, "not_a_number", name, row_message("expected_number"))
    rej.add(parsed.values < 0, "negative_value", name, row_message("expected_zero_or_more"))
    rej.add(values > 1, "implausible_value", name, row_message("busy_over_100"))
    return values


def _statuses(frame: pd.DataFrame, columns: ColumnMap, rej: Rejections) -> pd.Series:
    name = columns.get("status")
    if name is None:
        return pd.Series(pd.NA, index=frame.index, dtype="string")
    text = cleaned(frame[name])
    # "CANCELLED by 1001" -> "cancelled"; Arrow-vectorised, no per-cell split.
    first_word = text.str.lower().str.replace(r"[ \t].*$", "", regex=True).str.rstrip("+")
    status = first_word.map(STATUS_WORDS).astype("string")
    known = ", ".join(sorted(set(STATUS_WORDS) - {"running-at-end"})[:12])
    rej.add(
        text.notna() & status.isna(),
        "unknown_status",
        name,
        row_message("expected_status", known=known),
    )
    return status


def _priorities(frame: pd.DataFrame, columns: ColumnMap, rej: Rejections) -> pd.Series:
    name = columns.get("priority")
    if name is None:
        return pd.Series(0, index=frame.index, dtype="int64")
    text = cleaned(frame[name])
    numbers = pd.to_numeric(text, errors="coerce")
    named = text.str.lower().map(PRIORITY_WORDS)
    value = numbers.fillna(named.astype("float64"))
    rej.add(
        text.notna() & value.isna(),
        "unknown_priority",
        name,
        row_message("expected_priority"),
    )
    return value.fillna(0).round().astype("int64")


def _gpu_types(frame: pd.DataFrame, columns: ColumnMap, flags: pd.DataFrame) -> pd.Series:
    text = _text(frame, columns, "gpu_type", flags).fillna("")
    parts = text.str.replace(r"[ ]*[|,;/+][ ]*", "|", regex=True).str.strip("|")
    return parts.astype(str)


def _flag_text(flags: pd.DataFrame) -> pd.Series:
    """Comma-joined names of the flags set on each row ('' for none)."""
    text = np.full(len(flags), "", dtype=object)
    for name in flags.columns:
        text = text + np.where(flags[name].fillna(False).astype(bool), name + ",", "")
    return pd.Series(text, index=flags.index, dtype=str).str.rstrip(",")
