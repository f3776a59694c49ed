"""The Replay page's twin check ("Does the replay match what happened?") and the error bar
of a calibrated scenario, headlessly with AppTest.

One database for the module: the check (about 30 replays) runs once on the page and once
through the service, and every later test reuses the page's cached check. The check runs on
the sample's first 800 jobs (its first four days): what is asserted is that the page shows the
service's figures, which does not depend on the history's length, and a check of the whole
sample cost about 19 s of CPU on each side against 4 s for the slice. The section's offer is
still checked on the whole sample.
"""

import itertools
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from planner.core.file_access import BUNDLED_FILES
from planner.engine.scenario import Scenario
from planner.ingest import IngestOptions
from planner.service import scenario_store
from planner.service.importer import import_file
from planner.service.scenario_store import Prepared, to_yaml
from planner.service.twin import TwinResult, calibrated, twin_check
from planner.twin.calibrate import FEWEST_REPLAYS, MOST_REPLAYS
from planner.twin.progress import TwinProgress
from planner.ui import scenario_box, twin_frames, twin_view
from planner.ui.cache import cursor
from planner.ui.i18n import fmt_duration
from planner.ui.state import SCENARIO_KEY
from planner.ui.trace_choice import CHOSEN_KEY
from tests.pages.app import RUN_CEILING_S, open_app_page
from tests.pages.test_replay import PAGE, TIMEOUT_S, open_page, run, sample

TWIN_TIMEOUT_S = RUN_CEILING_S
SAVED = "sample, calibrated"
SAMPLE_CSV = Path(__file__).resolve().parents[2] / "data" / "traces" / "sample.csv"
CHECKED_JOBS = 800
NO_STARTS = """job_id,submit_time,end_time,duration_s,gpus,gpu_type,queue,status
a1,2026-01-05T00:00:00Z,2026-01-05T01:00:00Z,3600,8,A100,team-x,completed
a2,2026-01-05T00:10:00Z,2026-01-05T02:00:00Z,3600,16,A100,team-y,completed
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One database file for the module (the page's cached check keys on its path)."""
    path = tmp_path_factory.mktemp("twin") / "planner.duckdb"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLANNER_DB", str(path))
        yield path


@pytest.fixture(scope="module")
def first_days(db: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The stored trace the check runs on: the sample's first `CHECKED_JOBS` jobs."""
    lines = SAMPLE_CSV.read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path_factory.mktemp("first_days") / "sample_first_days.csv"
    path.write_text("".join(lines[: CHECKED_JOBS + 1]), encoding="utf-8")
    with cursor(str(db)) as con:
        return import_file(con, path, IngestOptions()).trace_id


@pytest.fixture(scope="module")
def replayed(first_days: str) -> Scenario:
    """The scenario the page replays: the sample scenario on the stored slice."""
    return twin_view.checked_scenario(sample().model_copy(update={"trace": first_days}))


@pytest.fixture(scope="module")
def heard() -> list[TwinProgress]:
    """What the service's check told its progress listener."""
    return []


@pytest.fixture(scope="module")
def service(db: Path, replayed: Scenario, heard: list[TwinProgress]) -> TwinResult:
    """What `planner twin` computes for the page's scenario."""
    with cursor(str(db)) as con:
        return twin_check(con, replayed, progress=heard.append, files=BUNDLED_FILES)


def open_first_days(first_days: str, working: Scenario | None = None) -> AppTest:
    """The Replay page with the slice chosen, as a pick on any page leaves it."""
    state: dict[str, object] = {CHOSEN_KEY: first_days}
    if working is not None:
        state[SCENARIO_KEY] = working
    return open_app_page(PAGE, TIMEOUT_S, **state)


def check(first_days: str) -> AppTest:
    """The page after Run on the slice and the twin check's button."""
    at = run(open_first_days(first_days))
    return at.button(key="twin_run").click().run(timeout=TWIN_TIMEOUT_S)


@pytest.fixture(scope="module")
def checked(first_days: str) -> AppTest:
    return check(first_days)


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    """The page's table that has `column`."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def table(at: AppTest) -> dict[str, list[str]]:
    frame = frame_with(at, "Measure")
    return {row.iloc[0]: list(row.iloc[1:]) for _, row in frame.iterrows()}


def test_the_section_offers_the_check_for_the_sample_trace(db: Path) -> None:
    at = run(open_page())

    assert not at.exception
    assert "Does the replay match what happened?" in [s.value for s in at.subheader]
    assert at.button(key="twin_run").label == "Check the replay against what happened"
    assert not at.success  # the check waits for the button
    assert not at.warning
    assert "twin_cdf" not in str([c.proto.id for c in at.get("plotly_chart")])


def test_the_check_shows_the_services_verdict_and_numbers(
    checked: AppTest, service: TwinResult
) -> None:
    at, report = checked, service.run.report
    after = report.after

    assert not at.exception
    assert not at.error
    shown = [a.value for a in (*at.success, *at.warning)]
    assert after.verdict in shown  # the service's own words, thresholds stated
    assert twin_frames.verdict(after, "en") == after.verdict
    assert "within a factor of 2" in after.verdict
    notes = [i.value for i in at.info]
    assert any(n.startswith("The history's own jobs held") for n in notes)
    assert set(twin_frames.notes(report, "en")) | {
        n for n in report.notes if n.startswith("The history cannot tell")
    } >= set(report.notes)

    rows = table(at)
    assert rows["Wait p90"] == [
        fmt_duration(after.observed.p90),
        fmt_duration(report.before.replayed.p90),
        fmt_duration(after.replayed.p90),
        fmt_duration(report.fit.observed.p90),  # the naive baseline: the fit window's own
    ]
    assert rows["Wait p50"][0] == fmt_duration(after.observed.p50)
    assert rows["Withdrawn jobs"][0] == f"{after.withdrawn[0]:,}"
    assert rows["KS distance of the waits (0 to 1)"][0] == "—"
    assert "Allocated GPUs: correlation (1.0 h bins)" in rows
    assert all("None" not in cell for cells in rows.values() for cell in cells)


def test_the_checks_progress_counts_up_to_its_total_and_reaches_the_page(
    checked: AppTest, service: TwinResult, heard: list[TwinProgress]
) -> None:
    dones = [p.done for p in heard]
    assert dones == sorted(dones)
    assert dones[0] == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(dones))
    last = heard[-1]
    assert last.done == last.total
    assert FEWEST_REPLAYS <= last.total <= MOST_REPLAYS

    # the page ran the same check: the same replays, counted to the same total
    shown = [c.value for c in checked.caption if c.value.startswith("Checked in ")]
    assert len(shown) == 1
    assert f": {last.total} replays, " in shown[0]
    promise = next(c.value for c in checked.caption if "replays of the whole history" in c.value)
    assert f"in {FEWEST_REPLAYS} to {MOST_REPLAYS} replays" in promise
    # 800 jobs at the sample's 5 s for 4,000 jobs and 13 replays: 5 x 800 / 4,000 = 1.0 s
    # with 13 replays, x 43 / 13 = 3.3 s with the most
    assert f"this trace's {CHECKED_JOBS} jobs take 1.0 s to 3.3 s" in promise
    assert "tens of seconds" not in promise


def test_the_fit_groups_chart_and_download_are_shown(checked: AppTest, service: TwinResult) -> None:
    at, report = checked, service.run.report
    latency = frame_with(at, "Pod-size class")
    assert list(latency["Pod-size class"]) == [c.description for c in report.calibration.latency]
    assert any("Start latency is the time between" in c.value for c in at.caption)
    assert any("Effective capacity" in m.value for m in at.markdown)
    policy = report.calibration.policy
    assert any(f"{policy.admission} admission" in m.value for m in at.markdown)
    assert list(frame_with(at, "Team")["Team"]) == [g.group for g in report.after.by_team]
    assert len(frame_with(at, "GPUs per job")) == len(report.after.by_size)
    cdf = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("twin_cdf"))
    assert '"type":"log"' in cdf.proto.spec.replace(" ", "")
    download = at.download_button(key="twin_download")
    assert download.proto.label == "Download the per-job table (CSV)"


def test_the_calibrated_scenario_is_saved_and_its_replays_carry_the_error_bar(
    checked: AppTest, db: Path, first_days: str
) -> None:
    at = checked
    at.text_input(key="twin_save_name").set_value(SAVED)
    at.button(key="FormSubmitter:twin_save_save_form-Save").click().run(timeout=TWIN_TIMEOUT_S)

    assert not at.exception
    assert any(SAVED in s.value for s in at.success)
    with cursor(str(db)) as con:
        saved = scenario_store.load(con, SAVED)
    assert saved.kind == "replay"
    parsed = scenario_store.parse(saved.yaml_text, SAVED, BUNDLED_FILES)
    assert isinstance(parsed, Scenario)
    assert parsed.calibration is not None
    assert parsed.calibration.start_latency is not None
    assert parsed.calibration.validation is not None

    again = run(open_first_days(first_days, parsed))
    assert not again.exception
    line = twin_frames.scenario_error_bar(parsed, "en")
    assert line is not None
    assert line.startswith("Calibrated on ")
    assert "of observed, withdrawn ×" in line
    assert any(i.value.startswith("Calibrated on ") for i in again.info)


def test_compare_shows_the_error_bar_of_a_saved_calibrated_scenario(
    db: Path, replayed: Scenario, service: TwinResult
) -> None:
    name = "calibrated by the service"
    text = to_yaml(calibrated(replayed, service), service.trace_id)
    problem = scenario_box.save_scenario(
        name, Prepared("replay", text, service.trace_id), replace=True
    )
    assert problem is None
    at = open_app_page("pages/compare.py", TWIN_TIMEOUT_S)
    at = at.multiselect(key="compare_saved").set_value([name]).run(timeout=TWIN_TIMEOUT_S)

    assert not at.exception  # the sample's H800 servers may have no price: an error, shown
    assert any(i.value.startswith(f"{name}: Calibrated on ") for i in at.info)


def test_a_history_without_start_times_says_so_instead_of_a_button(
    db: Path, tmp_path: Path
) -> None:
    path = tmp_path / "no_starts.csv"
    path.write_text(NO_STARTS, encoding="utf-8")
    with cursor(str(db)) as con:
        trace_id = import_file(con, path, IngestOptions()).trace_id
    at = open_page()
    at.selectbox(key="replay_trace").set_value(trace_id).run()
    at = run(at)

    assert not at.exception
    assert "twin_run" not in [b.key for b in at.button]
    assert any(i.value.startswith("This history has no start times") for i in at.info)


def test_without_a_calibration_there_is_no_error_bar() -> None:
    assert twin_frames.error_bar(None) is None
    assert twin_frames.scenario_error_bar(Scenario()) is None


def test_the_check_speaks_chinese(first_days: str, service: TwinResult) -> None:
    at = check(first_days)  # cached when another test ran the check first
    # switched after the run, as the sidebar does: AppTest formats the Replay page's select
    # options in English, so a run started in Chinese could not be clicked on
    at.session_state["lang_choice"] = "zh"  # the sidebar's language switch
    at = at.run()

    assert not at.exception
    assert "回放是否重现了实际情况？" in [s.value for s in at.subheader]
    verdict = twin_frames.verdict(service.run.report.after, "zh")
    assert verdict.startswith("回放与实际情况")
    assert verdict in [a.value for a in (*at.success, *at.warning)]
    assert "实际" in frame_with(at, "指标").columns
    assert at.download_button(key="twin_download").proto.label == "下载每个作业的对比表（CSV）"
