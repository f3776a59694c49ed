"""The twin check's glue for the Replay page: whether a trace can be checked, the cached
check with progress, and the tables and texts the page shows of its report.

`planner.service.twin.twin_check` runs 13 to 43 whole replays of the history (about 5 s on
the bundled sample, minutes on a large busy export), so a check is requested by a button,
kept in the session by its scenario, and cached by the database file and the scenario's
value, shared by every session, as the replays are (`planner.ui.replay_view`). The page's
widgets are in `planner.ui.twin_page`, the report's texts and tables in
`planner.ui.twin_frames`.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

import streamlit as st

from planner.core.file_access import BUNDLED_FILES
from planner.engine.scenario import Scenario
from planner.service.job_rows import load_jobs
from planner.service.scenario_store import to_yaml
from planner.service.twin import TwinResult, calibrated, rows_csv, twin_check
from planner.store import database_path
from planner.twin.calibrate import FEWEST_REPLAYS, MOST_REPLAYS
from planner.twin.compare import observed_wait
from planner.twin.progress import Listener, TwinProgress
from planner.twin.report import TwinReport
from planner.twin.trials import default_workers
from planner.ui.cache import cursor

REQUEST_KEY = "twin_scenario"  # the scenario of the last check requested, shown until another
CANCELLED_KEY = "twin_cancelled"
_CACHED_CHECKS = 4
SAMPLE_JOBS = 4_000
SAMPLE_CHECK_S = 5.0
"""The bundled sample's check (`planner twin --scenario data/scenarios/sample.yaml`, 13
replays): 4.7 s of CPU with the compiled engine, 6.3 s in pure Python, on one core."""


@dataclass(frozen=True, slots=True)
class TwinView:
    """One check as the page shows it; cached and shared, so never mutated."""

    scenario: Scenario
    """The scenario checked (the replayed one, without a calibration of its own)."""
    result: TwinResult
    rows_csv: str
    """The per-job table, as `planner twin --out` writes it (text cells spreadsheet-safe)."""
    calibrated_yaml: str
    """The calibrated scenario, as `planner twin --save-scenario` writes it."""
    took: TwinProgress | None = None
    """The replays the check ran and how long they took (None: not measured)."""

    @property
    def report(self) -> TwinReport:
        return self.result.run.report


# --- can the trace be checked? ----------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _counts(db_path: str, trace_id: str) -> tuple[int, int]:
    """The stored trace's jobs, and those with an observed start."""
    with cursor(db_path) as cur:
        jobs = load_jobs(cur, trace_id)
    return len(jobs), sum(observed_wait(job) is not None for job in jobs)


def has_observed_starts(trace_id: str) -> bool:
    """Whether some job of the stored trace has an observed start (not withdrawn and not
    already running when the export began): the twin check needs one. Cached by trace id
    (a stored trace never changes)."""
    return _counts(str(database_path()), trace_id)[1] > 0


def job_count(trace_id: str) -> int:
    return _counts(str(database_path()), trace_id)[0]


def expected_s(jobs: int) -> tuple[float, float]:
    """How long a check of `jobs` jobs takes at the sample's pace per job and replay: with
    the fewest replays, and with the most (a long capacity search); over the cores its tries
    run on (`planner.twin.trials.default_workers`: one below 10,000 jobs)."""
    per_job_replay = SAMPLE_CHECK_S / (SAMPLE_JOBS * FEWEST_REPLAYS) / default_workers(jobs)
    return per_job_replay * jobs * FEWEST_REPLAYS, per_job_replay * jobs * MOST_REPLAYS


# --- the check: requested by the button, cached by value -----------------------------------


def checked_scenario(replayed: Scenario) -> Scenario:
    """What the check runs: the replayed scenario without its own calibration, so that
    "before calibration" is the plain replay."""
    return replayed.model_copy(update={"calibration": None})


def request_check(scenario: Scenario) -> None:
    st.session_state[REQUEST_KEY] = checked_scenario(scenario)
    st.session_state.pop(CANCELLED_KEY, None)


def cancel_check() -> None:
    """The Cancel button's callback (see `replay_view.cancel_run`)."""
    st.session_state.pop(REQUEST_KEY, None)
    st.session_state[CANCELLED_KEY] = True


def was_cancelled() -> bool:
    return bool(st.session_state.get(CANCELLED_KEY))


def requested_for(replayed: Scenario) -> Scenario | None:
    """The requested check if it is of `replayed` (a check of another run is not shown)."""
    wanted = st.session_state.get(REQUEST_KEY)
    if isinstance(wanted, Scenario) and wanted == checked_scenario(replayed):
        return wanted
    return None


class _Checks:
    """The last few checks by (database, scenario JSON), shared by every session."""

    def __init__(self) -> None:
        self.checks: OrderedDict[tuple[str, str], TwinView] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> TwinView | None:
        with self.lock:
            return self.checks.get(key)

    def put(self, key: tuple[str, str], view: TwinView) -> None:
        with self.lock:
            self.checks[key] = view
            while len(self.checks) > _CACHED_CHECKS:
                self.checks.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _checks() -> _Checks:
    return _Checks()


def _key(scenario: Scenario) -> tuple[str, str]:
    return str(database_path()), scenario.model_dump_json()


def cached(scenario: Scenario) -> TwinView | None:
    return _checks().get(_key(scenario))


def check(scenario: Scenario, progress: Listener | None = None) -> TwinView:
    """The twin check of `scenario` on the app's database, or the cached one. Raises
    `NoTwinError` when the trace has no observed starts, `PlannerError` on bad input."""
    key = _key(scenario)
    found = _checks().get(key)
    if found is not None:
        return found
    heard: list[TwinProgress] = []

    def tell(now: TwinProgress) -> None:
        heard[:] = [now]
        if progress is not None:
            progress(now)

    with cursor(key[0]) as cur:
        result = twin_check(cur, scenario, progress=tell, files=BUNDLED_FILES)
    view = TwinView(
        scenario=scenario,
        result=result,
        rows_csv=rows_csv(result.run.rows),
        calibrated_yaml=to_yaml(calibrated(scenario, result), result.trace_id),
        took=heard[-1] if heard else None,
    )
    _checks().put(key, view)
    return view
