"""Edge of the twin check: read a scenario's trace and cluster, run `planner.twin`, write its
per-job table and the calibrated scenario."""

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from planner.core import atomic_file
from planner.core.errors import ScenarioError
from planner.core.file_access import FileAccess
from planner.core.spreadsheet_text import safe_row
from planner.engine.calibration import CalibrationSpec
from planner.engine.scenario import PolicySpec, Scenario
from planner.ingest import IngestOptions
from planner.service.replay import prepare
from planner.service.scenario_store import to_yaml
from planner.store import Connection
from planner.twin.calibrate import NoObservedStartsError, TwinInput, TwinRun, run_twin
from planner.twin.progress import Listener
from planner.twin.report import JobRow
from planner.twin.trials import default_workers

ROW_COLUMNS = tuple(f.name for f in fields(JobRow))


class NoTwinError(ScenarioError):
    """The history cannot support a twin check (no observed starts)."""


@dataclass(frozen=True, slots=True)
class TwinResult:
    trace_id: str
    run: TwinRun
    notes: list[str]


def twin_check(
    con: Connection,
    scenario: Scenario,
    options: IngestOptions | None = None,
    progress: Listener | None = None,
    *,
    files: FileAccess,
    fit_until_s: float | None = None,
    bin_s: float = 3600.0,
) -> TwinResult:
    """Replay the scenario's trace on its cluster against what happened, calibrated;
    `progress` hears after every replay how many are done of how many, and how long
    they took (`planner.twin.progress`)."""
    ready = prepare(con, scenario, options, files=files)
    spec = TwinInput(
        trace=scenario.trace or ready.trace_id,
        cluster=ready.cluster_name,
        jobs=ready.jobs,
        nodes=ready.nodes,
        policy=ready.policy,
        fit_until_s=fit_until_s,
        bin_s=bin_s,
        seed=ready.policy.seed,
        workers=default_workers(len(ready.jobs)),
    )
    try:
        run = run_twin(spec, progress)
    except NoObservedStartsError as err:
        raise NoTwinError(str(err)) from err
    return TwinResult(ready.trace_id, run, ready.notes)


def rows_csv(rows: Sequence[JobRow]) -> str:
    """The per-job table as CSV (text cells made safe for spreadsheets)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(ROW_COLUMNS)
    writer.writerows(safe_row(getattr(row, name) for name in ROW_COLUMNS) for row in rows)
    return out.getvalue()


def write_rows(rows: Sequence[JobRow], path: Path) -> int:
    atomic_file.write_text(path, rows_csv(rows), newline="")
    return len(rows)


def calibrated(scenario: Scenario, result: TwinResult) -> Scenario:
    """The scenario with the fitted policy and a `calibration:` block: every replay of it
    adds the start latency and carries the validation window's error as its error bar."""
    report = result.run.report
    cal, after = report.calibration, report.after
    seen, replayed = after.withdrawn
    block = CalibrationSpec.from_fit(
        result.run.latency,
        fitted_on=f"{report.trace} ({result.trace_id})",
        fit_until_s=cal.fit_until_s,
        validation_window_s=after.window_s,
        effective_gpu_share=cal.effective_gpu_share,
        policy_fit={
            "admission": cal.policy.admission,
            "queueing": cal.policy.queueing,
            "score": cal.policy.score,
        },
        validation={
            "p50_ratio": after.ratios["p50"],
            "p90_ratio": after.ratios["p90"],
            "p99_ratio": after.ratios["p99"],
            "withdrawn_ratio": replayed / seen if seen else None,
            "verdict": after.verdict,
            "allocation_error": after.allocation_error,
            "allocation_level_error": after.allocation_level_error,
        },
    )
    policy = PolicySpec.model_validate(
        scenario.policy.model_dump()
        | {"admission": cal.policy.admission, "queueing": cal.policy.queueing}
    )
    name = scenario.name or f"calibrated on {report.trace}"
    return scenario.model_copy(update={"calibration": block, "policy": policy, "name": name})


def save_calibrated(scenario: Scenario, result: TwinResult, path: Path) -> None:
    atomic_file.write_text(path, to_yaml(calibrated(scenario, result), result.trace_id))
