"""A chunk's submit, start and end times, run times and final statuses, with the export
window's rules for censored rows and withdrawn jobs (docs/status-mapping.md)."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from planner.engine.policy import MAX_SIMULATED_S
from planner.ingest.columns import ColumnMap
from planner.ingest.notes import row_message
from planner.ingest.rejections import Rejections
from planner.ingest.values import ParsedTimes, parse_durations, parse_times


def job_times(
    frame: pd.DataFrame,
    columns: ColumnMap,
    *,
    tz: str,
    censored: str,
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
        times = parse_times(frame[name], tz=tz)
        rej.add(
            times.nonexistent,
            "nonexistent_time",
            name,
            row_message("nonexistent_time", tz=tz),
        )
        rej.add(
            times.ambiguous,
            "ambiguous_time",
            name,
            row_message("ambiguous_time", tz=tz),
        )
        rej.add(
            times.bad,
            "bad_time",
            name,
            row_message("bad_time"),
        )
        parsed[field_name] = times
    nan = pd.Series(np.nan, index=frame.index)
    submit = parsed["submit"].values if "submit" in parsed else nan
    start = parsed["start"].values if "start" in parsed else nan
    end = parsed["end"].values if "end" in parsed else nan
    duration = _durations(frame, columns, rej)
    end_col = columns.get("end")
    if end_col is not None:
        rej.add(end < start, "end_before_start", end_col, row_message("end_before_start"))
    absolute = _time_base(parsed, frame.index, rej, columns.get("submit") or "")
    run = duration.fillna(end - start)
    rej.add(
        run > MAX_SIMULATED_S,
        "implausible_value",
        columns.get("duration") or end_col or "",
        row_message("run_over_100_years"),
    )
    final = _final_status(status, run, end, columns, flags)
    # a row with no time at all (censored on both sides) is neither absolute nor relative
    relative = ~absolute & (submit.notna() | start.notna() | end.notna())
    flags["no_submit_time"] = submit.isna() & start.notna()
    flags["start_before_submit"] = (start < submit).fillna(False)
    observed = _Observed(submit.fillna(start).fillna(end - run), start, end, run)
    submit, final, withdrawn = _censor(observed, final, columns, censored, rej=rej, flags=flags)
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
        row_message("never_started"),
    )
    rej.add(
        withdrawn & (end < submit),
        "end_before_start",
        end_col,
        row_message("deleted_before_submit"),
    )
    no_start = ~withdrawn & start.isna()
    if censored == "reject":
        rej.add(
            no_start & (columns.has("start") | run.isna()),
            "never_started",
            never,
            row_message("no_start_censored"),
        )
    from_submit = no_start & run.isna() & submit.notna()
    rej.add(
        from_submit & (end < submit), "end_before_start", end_col, row_message("ends_before_submit")
    )
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
    rej.add(parsed.bad, "bad_duration", name, row_message("bad_duration"))
    rej.add(parsed.values < 0, "negative_value", name, row_message("negative_run_time"))
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
        row_message("mixed_time_bases"),
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
