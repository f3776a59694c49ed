"""The replay page's glue: the working scenario on a trace, a cached replay with progress.

The page calls these plain functions and only lays out widgets and figures. A replay is
cached by the database file and the scenario's value, and the scenario names the trace by
its id, which is a hash of the file and the read options: equal scenario and trace content,
one replay. The cache is explicit (not `st.cache_data`) so that a first run can report its
progress and a cached one shows at once. What is cached is the `ReplayView` (summary,
timeline, per-job table and its CSV), never the engine's full result; pages must not
mutate it. Plot-ready tables for the figures are in `planner.ui.replay_frames`.
"""

import csv
import io
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from planner.core.config import NodePool
from planner.core.file_access import BUNDLED_FILES
from planner.core.serialize import json_dict
from planner.core.spreadsheet_text import safe_row
from planner.engine.metrics import summarize, timeline_series
from planner.engine.scenario import ClusterSpec, Scenario
from planner.engine.summary import ReplaySummary, Stats, TimelineSeries
from planner.engine.wait_scope import ALL_JOBS, GPU_JOBS, TEAM_PREFIX
from planner.service.replay import SCHEDULE_COLUMNS, load_scenario, run_scenario, schedule_rows
from planner.store import database_path
from planner.ui.cache import cursor
from planner.ui.i18n import Language, fmt_duration, fmt_number, fmt_percent, t
from planner.ui.safe import md

SAMPLE_SCENARIO = Path(__file__).resolve().parents[2] / "data" / "scenarios" / "sample.yaml"
# Used when the bundled scenario file is absent: 16 x 8 A100, the CLI's flag defaults.
FALLBACK_SCENARIO = Scenario(
    cluster=ClusterSpec(pools=(NodePool(gpu_type="A100", gpus_per_node=8, count=16),))
)
_NUMERIC_SCHEDULE = (
    "submit_s",
    "start_s",
    "end_s",
    "duration_s",
    "gpus",
    "cpu",
    "mem_gib",
    "wait_s",
)


@dataclass(frozen=True, slots=True)
class ReplayView:
    """What the replay page shows of one run; small enough to cache and copy."""

    trace_id: str
    cluster_name: str
    notes: tuple[str, ...]
    summary: ReplaySummary
    """`planner.engine.metrics.summarize` without the timeline (the CLI's `--json`)."""
    timeline: TimelineSeries
    schedule: pd.DataFrame
    """One row per job run, the columns of `--schedule-out`, times and sizes as numbers."""
    schedule_csv: str
    """Exactly what `planner replay --schedule-out` writes."""

    @property
    def summary_json(self) -> dict[str, Any]:
        """The summary as the scenario store keeps a run's results."""
        return json_dict(self.summary)


def default_scenario(path: Path = SAMPLE_SCENARIO) -> Scenario:
    """The bundled sample scenario (cluster and policy defaults of the page)."""
    if not path.is_file():
        return FALLBACK_SCENARIO
    return load_scenario(path, BUNDLED_FILES)


# --- the run: requested by Run, cancelled by Cancel, cached by value -------------------------

REQUEST_KEY = "replay_scenario"  # the scenario of the last Run, shown until the next one
CANCELLED_KEY = "replay_cancelled"
_ENGINE_SHARE = 0.9  # of the progress bar; reading the trace and the tables take the rest
_CACHED_RUNS = 8


def scenario_on(trace_id: str, working: Scenario) -> Scenario:
    """The working scenario replaying the stored trace `trace_id`."""
    return working.model_copy(update={"trace": trace_id})


def request_run(scenario: Scenario) -> None:
    st.session_state[REQUEST_KEY] = scenario
    st.session_state.pop(CANCELLED_KEY, None)


def cancel_run() -> None:
    """The Cancel button's callback: forget the pending run and say it was cancelled.

    Pressing a button during a run makes Streamlit stop the script at its next call (the next
    progress update) and rerun it; callbacks run first, so the rerun finds no run to do.
    """
    st.session_state.pop(REQUEST_KEY, None)
    st.session_state[CANCELLED_KEY] = True


def requested_run() -> Scenario | None:
    scenario = st.session_state.get(REQUEST_KEY)
    return scenario if isinstance(scenario, Scenario) else None


def was_cancelled() -> bool:
    return bool(st.session_state.get(CANCELLED_KEY))


class _RunCache:
    """The last few replays by (database, scenario JSON), shared by every session."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.runs: OrderedDict[tuple[str, str], ReplayView] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> "ReplayView | None":
        with self.lock:
            found = self.runs.get(key)
            if found is not None:
                self.runs.move_to_end(key)
            return found

    def put(self, key: tuple[str, str], run: "ReplayView") -> None:
        with self.lock:
            self.runs[key] = run
            self.runs.move_to_end(key)
            while len(self.runs) > self.size:
                self.runs.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _runs() -> _RunCache:
    # a resource, so Streamlit's "Clear caches" empties it too
    return _RunCache(_CACHED_RUNS)


def _key(scenario: Scenario) -> tuple[str, str]:
    return str(database_path()), scenario.model_dump_json()


def is_cached(scenario: Scenario) -> bool:
    """Whether `replay(scenario)` would return at once."""
    return _runs().get(_key(scenario)) is not None


def replay(scenario: Scenario, progress: Callable[[float], None] | None = None) -> ReplayView:
    """Run `scenario` on the app's database, or return the cached run of an equal scenario.

    `progress` is called with the fraction done (0-1, rising) while a new run computes;
    it may raise to abandon the run (nothing is cached then).
    """
    key = _key(scenario)
    found = _runs().get(key)
    if found is not None:
        return found
    run = compute(key[0], scenario, progress)
    _runs().put(key, run)
    return run


def replay_with_progress(scenario: Scenario, trace_label: str) -> ReplayView:
    """`replay(scenario)`, at once when cached; else with a Cancel button and a progress
    bar, both removed when the run ends."""
    if is_cached(scenario):
        return replay(scenario)
    cancel, bar = st.empty(), st.empty()
    cancel.button(t("replay.cancel"), on_click=cancel_run, key="replay_cancel")
    progress = bar.progress(0.0, text=t("replay.running", trace=md(trace_label), percent=""))

    def report(done: float) -> None:
        text = t("replay.running", trace=md(trace_label), percent=fmt_percent(done, 0))
        progress.progress(min(done, 1.0), text=text)

    run = replay(scenario, report)
    cancel.empty()
    bar.empty()
    return run


def compute(
    db_path: str, scenario: Scenario, progress: Callable[[float], None] | None = None
) -> ReplayView:
    """Replay `scenario` (uncached) and build what the page shows of it."""
    scaled = None
    if progress is not None:
        report = progress

        def scaled(fraction: float) -> None:
            report(_ENGINE_SHARE * fraction)

    with cursor(db_path) as cur:
        run = run_scenario(cur, scenario, progress=scaled, files=BUNDLED_FILES)
    result = run.result
    summary = summarize(result)
    timeline = timeline_series(result)
    rows = list(schedule_rows(result))
    view = ReplayView(
        trace_id=run.trace_id,
        cluster_name=run.cluster_name,
        notes=tuple(run.notes),
        summary=summary,
        timeline=timeline,
        schedule=schedule_frame(rows),
        schedule_csv=schedule_csv(rows),
    )
    if progress is not None:
        progress(1.0)
    return view


def schedule_frame(rows: Iterable[tuple[object, ...]]) -> pd.DataFrame:
    """Schedule rows as a table, with times, sizes and waits as numbers (empty: missing)."""
    frame = pd.DataFrame(list(rows), columns=list(SCHEDULE_COLUMNS))
    for column in _NUMERIC_SCHEDULE:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return frame


def schedule_csv(rows: Iterable[tuple[object, ...]]) -> str:
    """The schedule as `--schedule-out` writes it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(SCHEDULE_COLUMNS)
    writer.writerows(safe_row(row) for row in rows)
    return out.getvalue()


# --- the per-job table's filters ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JobFilter:
    """Rows to keep: any of `queues` and `statuses` (empty: all), waited >= `min_wait_s`."""

    queues: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    min_wait_s: float = 0.0

    @property
    def active(self) -> bool:
        return bool(self.queues or self.statuses or self.min_wait_s > 0)


def job_mask(schedule: pd.DataFrame, keep: JobFilter) -> np.ndarray:
    """Which schedule rows `keep` keeps (a job that never started waited nothing yet)."""
    mask = np.ones(len(schedule), dtype=bool)
    if keep.queues:
        mask &= schedule["queue"].isin(keep.queues).to_numpy()
    if keep.statuses:
        mask &= schedule["status"].isin(keep.statuses).to_numpy()
    if keep.min_wait_s > 0:
        mask &= (schedule["wait_s"] >= keep.min_wait_s).fillna(value=False).to_numpy(dtype=bool)
    return mask


def filtered_csv(text: str, mask: Sequence[bool] | np.ndarray) -> str:
    """The rows of a schedule CSV that `mask` keeps (one flag per row after the header),
    written exactly as the full file writes them."""
    reader = csv.reader(io.StringIO(text, newline=""))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(next(reader))
    writer.writerows(row for row, keep in zip(reader, mask, strict=True) if keep)
    return out.getvalue()


# --- texts ----------------------------------------------------------------------------------


def trace_labels(traces: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Stored traces by id, each with a label for the trace select."""
    return {
        row["trace_id"]: t(
            "replay.trace_label",
            name=row["name"],
            jobs=fmt_number(row["jobs"]),
            trace_id=row["trace_id"],
        )
        for row in traces
    }


def run_caption(trace_label: str, s: ReplaySummary) -> str:
    """One line saying what ran: trace, installed GPUs and the policy."""
    policy = s.policy
    return t(
        "replay.run_caption",
        trace=md(trace_label),
        gpus=fmt_number(s.gpu_capacity),
        admission=t(f"cluster.admission_name.{policy.admission}"),
        placement=t(f"cluster.placement_name.{policy.placement}"),
        queueing=t(f"cluster.queueing_name.{policy.queueing}"),
        seed=policy.seed,
    )


def withdrawn_caption(s: ReplaySummary, lang: Language | None = None) -> str | None:
    """Jobs deleted by their users before they ran: replayed, observed in the export, and
    observed ones the replay started (None when the run has none of them)."""
    counts = {
        "replayed": s.withdrawn,
        "observed": s.withdrawn_observed,
        "after_start": s.withdrawn_after_start,
    }
    if not any(counts.values()):
        return None
    return t("replay.withdrawn", lang, **{k: fmt_number(v) for k, v in counts.items()})


def duration_text(seconds: float | None) -> str:
    """A wait for a headline: '42 s', '12.5 min', '3.2 h', '2.1 days'; 'n/a' when none."""
    if seconds is None:
        return "n/a"
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    if seconds < 86_400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86_400:,.1f} days"


def stop_alerts(s: ReplaySummary, lang: Language | None = None) -> list[str]:
    """Why the replay ended before every job settled: a deadlock, a livelock (the CLI says
    the same in its text output)."""
    alerts = []
    dead, live = s.deadlock, s.livelock
    if dead and not live:  # a livelock ends in jobs stuck: say the cause
        alerts.append(
            t(
                "replay.deadlock",
                lang,
                at=fmt_duration(dead.at_s),
                jobs=fmt_number(dead.jobs_waiting),
                gpus=fmt_number(dead.gpus_held_idle, 1),
            )
        )
    if live:
        alerts.append(
            t(
                "replay.livelock",
                lang,
                since=fmt_duration(live.since_s),
                at=fmt_duration(live.at_s),
                waiting=fmt_number(live.jobs_waiting),
                running=fmt_number(live.jobs_running),
            )
        )
    return alerts


# --- whose waits the headline shows ---------------------------------------------------------


def cpu_only_started(s: ReplaySummary) -> int:
    """CPU-only jobs that ran in the replay (they compete with GPU jobs for CPUs and memory,
    and a TCO of GPU jobs replays without them)."""
    by_scope = s.wait_s_by_scope
    if ALL_JOBS not in by_scope or GPU_JOBS not in by_scope:
        return 0
    return by_scope[ALL_JOBS].jobs - by_scope[GPU_JOBS].jobs


def wait_scopes(summary: ReplaySummary) -> list[str]:
    """The scopes the headline waits can show: GPU jobs, all jobs, then each team."""
    queues = summary.wait_s_by_queue
    return [GPU_JOBS, ALL_JOBS, *(f"{TEAM_PREFIX}{q}" for q in queues)]


def scoped_waits(summary: ReplaySummary, scope: str) -> Stats:
    """Wait statistics of `scope`'s started jobs (a team's are all its jobs')."""
    if scope.startswith(TEAM_PREFIX):
        return summary.wait_s_by_queue[scope.removeprefix(TEAM_PREFIX)]
    return summary.wait_s_by_scope[scope]


def wait_scope_label(scope: str, lang: Language | None = None) -> str:
    if scope.startswith("team:"):
        return t("replay.wait_scope_team", lang, team=scope.removeprefix("team:"))
    return t(f"replay.wait_scope_{scope.replace('-', '_')}", lang)
