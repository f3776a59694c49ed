"""The replay page's glue: scenario from widgets, a cached replay, plot-ready tables.

Plain functions the page calls; the page itself only lays out widgets and figures. A replay
is cached by the database file and the scenario's value, and the scenario names the trace
by its id, which is a hash of the file and the read options: equal scenario and trace
content, one replay. What is cached is the `ReplayView` (summary, timeline, per-job table
and its CSV), never the engine's full result.
"""

import csv
import io
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import ValidationError

from planner.config import NodePool
from planner.errors import ScenarioError
from planner.metrics import summarize
from planner.model import GPU_SIZE_CLASSES
from planner.replay import SCHEDULE_COLUMNS, load_scenario, run_scenario, schedule_rows
from planner.scenario import ClusterSpec, PolicySpec, Scenario
from planner.store import database_path
from planner.ui.cache import cursor
from planner.waits import WAIT_REASONS

SAMPLE_SCENARIO = Path(__file__).resolve().parents[2] / "data" / "scenarios" / "sample.yaml"
POOL_COLUMNS = ("gpu_type", "gpus_per_node", "cpu", "mem_gib", "count")
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
    summary: dict[str, Any]
    """`planner.metrics.summarize` without the timeline (the CLI's `--json`)."""
    timeline: dict[str, Any]
    schedule: pd.DataFrame
    """One row per job run, the columns of `--schedule-out`, times and sizes as numbers."""
    schedule_csv: str
    """Exactly what `planner replay --schedule-out` writes."""


def default_scenario(path: Path = SAMPLE_SCENARIO) -> Scenario:
    """The bundled sample scenario (cluster and policy defaults of the page)."""
    if not path.is_file():
        return FALLBACK_SCENARIO
    return load_scenario(path)


def pool_rows(cluster: ClusterSpec | None) -> pd.DataFrame:
    """The pools of `cluster` as the pool editor's table (one row per pool)."""
    pools = cluster.pools if cluster is not None else ()
    rows = [{column: getattr(pool, column) for column in POOL_COLUMNS} for pool in pools]
    frame = pd.DataFrame(rows, columns=list(POOL_COLUMNS))
    return frame.astype(
        {"gpu_type": "string", "gpus_per_node": "Int64", "cpu": "float64", "mem_gib": "float64"}
        | {"count": "Int64"}
    )


def build_scenario(
    trace_id: str,
    pools: pd.DataFrame | Iterable[Mapping[str, Any]],
    policy: Mapping[str, Any],
    base: Scenario | None = None,
) -> Scenario:
    """A validated scenario from the page's widgets; ScenarioError says what to fix.

    `pools` holds the editor's rows (rows left entirely empty are ignored); `policy` the
    chosen admission, placement, queueing and seed, over the base scenario's other knobs.
    """
    records: list[Mapping[Any, Any]] = []
    records += pools.to_dict("records") if isinstance(pools, pd.DataFrame) else pools
    specs = []
    for number, record in enumerate(records, start=1):
        row = {column: _cell(record.get(column)) for column in POOL_COLUMNS}
        if all(value is None for value in row.values()):
            continue
        specs.append(_pool(number, row))
    if not specs:
        raise ScenarioError("the cluster has no node pool; add a row to the node pools table")
    if not any(pool.gpus_per_node * pool.count for pool in specs):
        raise ScenarioError(
            "the cluster has no GPUs; give at least one pool a GPU count per node above 0"
        )
    start = base or FALLBACK_SCENARIO
    try:
        spec = PolicySpec.model_validate(start.policy.model_dump() | dict(policy))
    except ValidationError as err:
        raise ScenarioError(f"policy: {_problems(err)}") from err
    scenario = Scenario(
        name=f"{trace_id} on {sum(p.count for p in specs):,} nodes",
        trace=trace_id,
        cluster=ClusterSpec(pools=tuple(specs)),
        policy=spec,
    )
    scenario.to_policy()  # raises ScenarioError for impossible combinations (pod + backfill)
    return scenario


def _pool(number: int, row: dict[str, Any]) -> NodePool:
    for column in ("gpus_per_node", "count"):
        if row[column] is None:
            raise ScenarioError(f"node pool row {number}: {column} is empty")
    values = {key: value for key, value in row.items() if value is not None}
    if "gpu_type" in values:
        values["gpu_type"] = str(values["gpu_type"]).strip()
    try:
        return NodePool.model_validate(values)
    except ValidationError as err:
        raise ScenarioError(f"node pool row {number}: {_problems(err)}") from err


def _cell(value: Any) -> Any:
    """An editor cell, None when empty (pandas gives NaN, <NA> or '' for empty cells)."""
    if value is None or value is pd.NA or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _problems(err: ValidationError) -> str:
    parts = []
    for problem in err.errors(include_url=False):
        where = ".".join(str(p) for p in problem["loc"])
        parts.append(f"{where}: {problem['msg']}" if where else problem["msg"])
    return "; ".join(parts)


def replay(scenario: Scenario) -> ReplayView:
    """Run `scenario` on the app's database, cached by its value (trace id included)."""
    return _replay(str(database_path()), scenario)


@st.cache_data(show_spinner=False, max_entries=8)
def _replay(db_path: str, scenario: Scenario) -> ReplayView:
    with cursor(db_path) as cur:
        run = run_scenario(cur, scenario)
    result = run.result
    summary = summarize(result, timeline=True)
    timeline = summary.pop("timeline")
    rows = list(schedule_rows(result))
    return ReplayView(
        trace_id=run.trace_id,
        cluster_name=run.cluster_name,
        notes=tuple(run.notes),
        summary=summary,
        timeline=timeline,
        schedule=schedule_frame(rows),
        schedule_csv=schedule_csv(rows),
    )


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
    writer.writerows(rows)
    return out.getvalue()


def allocation_frame(timeline: Mapping[str, Any]) -> pd.DataFrame:
    """Mean allocated GPUs per timeline bin and pool: hours (bin start), pool, gpus."""
    hours = _bin_hours(timeline, len(timeline["allocated_gpus"]))
    rows = [
        {"hours": hour, "pool": pool, "gpus": gpus}
        for hour, per_pool in zip(hours, timeline["allocated_gpus"], strict=True)
        for pool, gpus in zip(timeline["pools"], per_pool, strict=True)
    ]
    return pd.DataFrame(rows, columns=["hours", "pool", "gpus"])


def queue_frame(timeline: Mapping[str, Any]) -> pd.DataFrame:
    """Mean queued jobs and GPUs per timeline bin: hours (bin start), jobs, gpus."""
    hours = _bin_hours(timeline, len(timeline["queued_jobs"]))
    return pd.DataFrame(
        {"hours": hours, "jobs": timeline["queued_jobs"], "gpus": timeline["queued_gpus"]}
    )


def _bin_hours(timeline: Mapping[str, Any], bins: int) -> list[float]:
    return [i * float(timeline["bin_s"]) / 3600.0 for i in range(bins)]


def wait_by_size_frame(summary: Mapping[str, Any]) -> pd.DataFrame:
    """Wait percentiles by GPU-size class, in size order: size, jobs, statistic, minutes."""
    groups = summary["wait_s_by_gpu_size"]
    rows = [
        {"size": label, "jobs": groups[label]["jobs"], "statistic": stat, "minutes": value / 60}
        for label, _, _ in GPU_SIZE_CLASSES
        if label in groups
        for stat in ("p50", "p95")
        if (value := groups[label][stat]) is not None
    ]
    return pd.DataFrame(rows, columns=["size", "jobs", "statistic", "minutes"])


def waiting_by_reason_frame(summary: Mapping[str, Any]) -> pd.DataFrame:
    """GPU-hours of waiting per reason that occurred, largest first: reason, gpu_hours,
    meaning (the reason's one-line explanation)."""
    rows = [
        {"reason": reason, "gpu_hours": hours, "meaning": WAIT_REASONS[reason]}
        for reason, hours in summary["waiting_gpu_hours_by_reason"].items()
        if hours
    ]
    frame = pd.DataFrame(rows, columns=["reason", "gpu_hours", "meaning"])
    return frame.sort_values("gpu_hours", ascending=False, ignore_index=True)


def run_caption(trace_label: str, summary: Mapping[str, Any]) -> str:
    """One line saying what ran: trace, installed GPUs and the policy."""
    policy = summary["policy"]
    return (
        f"{trace_label} on {summary['gpu_capacity']:,} GPUs: {policy['admission']} admission, "
        f"{policy['placement']} placement, {policy['queueing']} queueing, seed {policy['seed']}"
    )


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
