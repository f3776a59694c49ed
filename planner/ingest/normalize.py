"""Turn one chunk of string cells into canonical jobs and rejected rows.

Every row either becomes a job or a rejection with a reason code, the column and the value
that caused it: `accepted + rejected == rows` holds per chunk. Values are never guessed;
where we fill something in (an inferred pod count, a derived status) the row is flagged
and the report counts it.
"""

import json
import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from planner.engine.policy import MAX_SIMULATED_S
from planner.ingest.columns import ColumnMap
from planner.ingest.limits import MAX_VALUE_CHARS, SHOWN_CHARS, shorten
from planner.ingest.source import ROW
from planner.ingest.values import (
    ParsedTimes,
    cleaned,
    parse_cpu,
    parse_durations,
    parse_memory_gib,
    parse_numbers,
    parse_times,
)

STATUS_WORDS: dict[str, str] = {
    **dict.fromkeys(
        (
            "completed",
            "complete",
            "succeeded",
            "success",
            "successful",
            "done",
            "finished",
            "ok",
            "pass",
            "passed",
            "成功",
            "完成",
            "已完成",
        ),
        "completed",
    ),
    **dict.fromkeys(
        (
            "failed",
            "fail",
            "failure",
            "error",
            "timeout",
            "node_fail",
            "out_of_memory",
            "oom",
            "boot_fail",
            "deadline",
            "失败",
            "超时",
        ),
        "failed",
    ),
    **dict.fromkeys(
        (
            "cancelled",
            "canceled",
            "cancel",
            "killed",
            "terminated",
            "stopped",
            "preempted",
            "revoked",
            "取消",
            "已取消",
            "终止",
            "已终止",
        ),
        "cancelled",
    ),
    **dict.fromkeys(
        ("running", "run", "active", "in_progress", "运行中", "running-at-end"), "running-at-end"
    ),
    **dict.fromkeys(
        ("pending", "queued", "waiting", "requeued", "排队", "等待", "排队中"), "pending"
    ),
}
PRIORITY_WORDS: dict[str, int] = {
    "lowest": -2,
    "low": -1,
    "normal": 0,
    "medium": 0,
    "default": 0,
    "high": 1,
    "highest": 2,
    "critical": 3,
    "urgent": 3,
    "低": -1,
    "中": 0,
    "普通": 0,
    "高": 1,
    "紧急": 3,
}
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


class Rejections:
    """First reason per row wins; later checks only see rows still alive."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self.alive = pd.Series(True, index=frame.index)
        self.parts: list[pd.DataFrame] = []

    def add(self, mask: pd.Series, reason: str, column: str, message: str) -> None:
        hit = mask.fillna(False).astype(bool) & self.alive
        if not hit.any():
            return
        values = self.frame[column] if column in self.frame else pd.Series("", index=hit.index)
        shown = values[hit].astype(str)
        long = shown.str.len() > SHOWN_CHARS
        if long.any():  # the whole cell stays in raw_json; the value column is for reading
            shown = shown.where(~long, shown[long].map(shorten))
        self.parts.append(
            pd.DataFrame(
                {
                    "row": self.frame.loc[hit, ROW].astype("int64"),
                    "reason": reason,
                    "column_name": column,
                    "value": shown,
                    "message": message,
                }
            )
        )
        self.alive &= ~hit

    def result(self) -> pd.DataFrame:
        if not self.parts:
            return empty_rejected()
        rejected = pd.concat(self.parts, ignore_index=False)
        originals = self.frame.loc[rejected.index].drop(columns=[ROW])
        raw = [json.dumps(rec, ensure_ascii=False) for rec in originals.to_dict(orient="records")]
        return rejected.assign(raw_json=raw).reset_index(drop=True)


def empty_rejected() -> pd.DataFrame:
    return pd.DataFrame(
        {
            name: pd.Series(dtype=dtype)
            for name, dtype in (
                ("row", "int64"),
                ("reason", str),
                ("column_name", str),
                ("value", str),
                ("message", str),
                ("raw_json", str),
            )
        }
    )


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
    times = _times(frame, columns, options, status=status, rej=rej, flags=flags)
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
                f"longer than {MAX_VALUE_CHARS} characters: no date, duration or number is "
                "that long (is the right column mapped?)",
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
    rej.add(ids.eq("") | ids.isna(), "missing_value", name, "the job id is empty")
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
        rej.add(pods != np.floor(pods), "not_a_number", pods_col, "the pod count must be whole")
    else:
        pods = pd.Series(1.0, index=frame.index)
    job_total = gpus * pods if per_pod else gpus
    rej.add(
        job_total > MAX_GPUS_PER_JOB,
        "implausible_value",
        gpu_col,
        f"more than {MAX_GPUS_PER_JOB:,} GPUs for one job; check the column and its unit",
    )
    rej.add(
        (gpus > 1) & (gpus != np.floor(gpus)),
        "fractional_gpus",
        gpu_col,
        "GPUs above one must be whole; a fraction is only allowed for a shared GPU (<1)",
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
        "the job's total GPUs cannot be split evenly over its pods; give GPUs per pod "
        "with --map gpus_per_pod=COLUMN",
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
    rej.add(parsed.values.isna() & ~parsed.bad, "missing_value", column, "the value is empty")
    rej.add(parsed.bad, "not_a_number", column, "expected a number")
    low = parsed.values < 0 if allow_zero else parsed.values <= 0
    rej.add(
        low,
        "negative_value",
        column,
        "expected a number >= 0" if allow_zero else "expected a number >= 1",
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
    rej.add(parsed.bad, "not_a_number", name, "expected a number")
    rej.add(parsed.values < 0, "negative_value", name, "expected a number >= 0")
    return parsed.values / pods if options.gpu_totals else parsed.values


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
        text.notna() & status.isna(), "unknown_status", name, f"expected a status such as {known}"
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
        "expected a whole number or one of low, normal, high, critical",
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


def _times(
    frame: pd.DataFrame,
    columns: ColumnMap,
    options: NormalizeOptions,
    *,
    status: pd.Series,
    rej: Rejections,
    flags: pd.DataFrame,
) -> pd.DataFrame:
    """submit/start/end times, run time and final status, with their checks."""
    parsed: dict[str, ParsedTimes] = {}
    for field_name in ("submit", "start", "end"):
        name = columns.get(field_name)
        if name is None:
            continue
        times = parse_times(frame[name], tz=options.tz)
        rej.add(
            times.nonexistent,
            "nonexistent_time",
            name,
            f"this local time does not exist in {options.tz}: the clocks skipped it when "
            "daylight saving began; fix the value or write it with its UTC offset",
        )
        rej.add(
            times.ambiguous,
            "ambiguous_time",
            name,
            f"this local time happens twice in {options.tz} (daylight saving ended), so the "
            "instant is unknown; write it with its UTC offset (e.g. +01:00)",
        )
        rej.add(
            times.bad,
            "bad_time",
            name,
            "expected a date/time (ISO 8601, "
            "'2024-01-05 10:00:00', epoch seconds) or seconds from the trace start",
        )
        parsed[field_name] = times
    nan = pd.Series(np.nan, index=frame.index)
    submit = parsed["submit"].values if "submit" in parsed else nan
    start = parsed["start"].values if "start" in parsed else nan
    end = parsed["end"].values if "end" in parsed else nan
    duration = _durations(frame, columns, rej)
    end_col = columns.get("end")
    if end_col is not None:
        rej.add(end < start, "end_before_start", end_col, "the end time is before the start time")
    absolute = _time_base(parsed, frame.index, rej, columns.get("submit") or "")
    run = duration.fillna(end - start)
    rej.add(
        run > MAX_SIMULATED_S,
        "implausible_value",
        columns.get("duration") or end_col or "",
        "a run time over 100 years: is the duration in milliseconds, or the end year wrong?",
    )
    final = _final_status(status, run, end, columns, flags)
    # a row with no time at all (censored on both sides) is neither absolute nor relative
    relative = ~absolute & (submit.notna() | start.notna() | end.notna())
    flags["no_submit_time"] = submit.isna() & start.notna()
    flags["start_before_submit"] = (start < submit).fillna(False)
    observed = _Observed(submit.fillna(start).fillna(end - run), start, end, run)
    submit, final, withdrawn = _censor(
        observed, final, columns, options.censored, rej=rej, flags=flags
    )
    return pd.DataFrame(
        {
            "submit_t": submit,
            "start_t": start,
            "end_t": end,
            "duration_s": run.mask(withdrawn, 0.0),
            "status": final,
            "absolute": absolute,
            "relative": relative,
        }
    )


@dataclass(frozen=True, slots=True)
class _Observed:
    """A chunk's times as read: submit (filled from start or end - run), start, end, run."""

    submit: pd.Series
    start: pd.Series
    end: pd.Series
    run: pd.Series


def _censor(
    times: _Observed,
    final: pd.Series,
    columns: ColumnMap,
    censored: str,
    *,
    rej: Rejections,
    flags: pd.DataFrame,
) -> tuple[pd.Series, pd.Series, pd.Series]:
    """(submit, status, withdrawn) once the window rules are applied: withdrawn jobs need a
    submit time; start-less rows start at submit or the window start (--censored window) or
    are rejected (--censored reject). See docs/status-mapping.md."""
    submit, start, end, run = times.submit, times.start, times.end, times.run
    end_col = columns.get("end") or ""
    withdrawn = _withdrawn(final, start=start, run=run, end=end, columns=columns)
    never = columns.get("start") or columns.get("status") or columns.get("duration") or ""
    rej.add(
        withdrawn & submit.isna(),
        "never_started",
        never,
        "the job never started and has no submit time: there is nothing to replay",
    )
    rej.add(withdrawn & (end < submit), "end_before_start", end_col, "deleted before submit")
    no_start = ~withdrawn & start.isna()
    if censored == "reject":
        rej.add(
            no_start & (columns.has("start") | run.isna()),
            "never_started",
            never,
            "the job has no start time or run time (--censored reject)",
        )
    from_submit = no_start & run.isna() & submit.notna()
    rej.add(from_submit & (end < submit), "end_before_start", end_col, "ends before submit")
    final = final.mask(withdrawn, "withdrawn")
    flags["running_at_end"] = final.eq("running-at-end")
    flags["running_at_start"] = no_start & submit.isna()
    flags["start_from_submit"] = from_submit
    flags["pending_at_end"] = withdrawn & end.isna()
    return submit, final, withdrawn


def _withdrawn(
    final: pd.Series, *, start: pd.Series, run: pd.Series, end: pd.Series, columns: ColumnMap
) -> pd.Series:
    """Jobs that never started and will not: pending at the export (with an end: deleted
    while pending), or cancelled with no start and no run time (Slurm's cancelled while
    pending)."""
    cancelled_waiting = (
        final.eq("cancelled")
        & start.isna()
        & run.fillna(0.0).eq(0.0)
        & end.notna()
        & columns.has("start")
    )
    return (final.eq("pending") | cancelled_waiting).fillna(False).astype(bool)


def _durations(frame: pd.DataFrame, columns: ColumnMap, rej: Rejections) -> pd.Series:
    name = columns.get("duration")
    if name is None:
        return pd.Series(np.nan, index=frame.index)
    parsed = parse_durations(frame[name])
    rej.add(parsed.bad, "bad_duration", name, "expected seconds, HH:MM:SS or D-HH:MM:SS")
    rej.add(parsed.values < 0, "negative_value", name, "a run time cannot be negative")
    return parsed.values


def _time_base(
    parsed: dict[str, ParsedTimes], index: pd.Index, rej: Rejections, column: str
) -> pd.Series:
    """Rows whose times are dates; a row mixing dates and relative seconds is rejected."""
    absolute = pd.Series(False, index=index)
    relative = pd.Series(False, index=index)
    for times in parsed.values():
        absolute |= times.absolute
        relative |= ~times.absolute & times.values.notna()
    rej.add(
        absolute & relative,
        "mixed_time_bases",
        column,
        "one time is a date, another seconds-from-start",
    )
    return absolute


def _final_status(
    status: pd.Series, run: pd.Series, end: pd.Series, columns: ColumnMap, flags: pd.DataFrame
) -> pd.Series:
    """The given status; without one, completed if the run time or end is known. A job
    with neither a run time nor an end (and not pending) was still running at the export."""
    running = run.isna() & end.isna()
    derived = pd.Series(np.where(running, "running-at-end", "completed"), index=run.index)
    if not columns.has("status"):
        flags["status_derived"] = True
        final = derived.astype("string")
    else:
        final = status.fillna(derived.astype("string"))
    return final.mask(running & final.ne("pending"), "running-at-end")
