"""The overview page, run headlessly through the app's entrypoint with AppTest."""

import csv
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.importer import import_file
from planner.ingest import IngestOptions
from planner.store import connect
from planner.ui import cache

APP = Path(__file__).resolve().parents[2] / "streamlit_app.py"
TIMEOUT_S = 60  # the first run imports the sample trace
SMALL_TRACE = """\
job_id,submit_time,start_time,end_time,duration_s,pods,gpus,gpu_type,cpu,mem_gib,queue,user,priority,status
a1,2026-01-05T00:00:00Z,2026-01-05T00:00:00Z,2026-01-05T02:00:00Z,7200,1,8,A100,64,512,research,u1,0,completed
a2,2026-01-05T01:00:00Z,2026-01-05T01:00:00Z,2026-01-05T02:00:00Z,3600,2,8,A100,64,512,research,u2,0,completed
a3,2026-01-06T00:00:00Z,2026-01-06T00:00:00Z,2026-01-06T01:00:00Z,3600,1,1,A100,8,64,prod,u1,0,failed
"""


def data_rows(path: Path) -> int:
    with path.open(newline="", encoding="utf-8") as file:
        return sum(1 for _ in csv.DictReader(file))


def metric(at: AppTest, label: str) -> str:
    return str(next(m.value for m in at.metric if m.label == label))


def run_app() -> AppTest:
    return AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()


def test_first_run_imports_the_bundled_sample_and_shows_its_job_count(db: Path) -> None:
    assert cache.SAMPLE_TRACE.is_file(), f"the bundled sample {cache.SAMPLE_TRACE} is missing"
    expected = data_rows(cache.SAMPLE_TRACE)

    at = run_app()

    assert not at.exception
    assert at.title[0].value == "GPU Capacity Planner"
    assert metric(at, "Jobs") == f"{expected:,}"
    assert len(at.info) == 1
    assert not at.error


def test_selecting_another_trace_shows_its_numbers(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = tmp_path / "demo.csv"
    sample.write_text(SMALL_TRACE, encoding="utf-8")
    monkeypatch.setattr(cache, "SAMPLE_TRACE", tmp_path / "absent.csv")
    with connect(db) as con:
        trace_id = import_file(con, sample, IngestOptions()).trace_id

    at = run_app()
    at.selectbox(key="trace_select").set_value(trace_id).run()

    assert not at.exception
    assert metric(at, "Jobs") == str(data_rows(sample))
    assert metric(at, "GPU-hours") == "25"  # `gpus` is per job: 2 h x 8 + 1 h x 8 + 1 h x 1
    assert metric(at, "Span (days)") == "1.0"
    by_size = at.dataframe[0].value
    assert by_size["GPUs per job"].tolist() == ["1", "8"]
    assert by_size["Jobs"].tolist() == [1, 2]


def test_without_any_trace_the_page_says_how_to_import_one(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "SAMPLE_TRACE", tmp_path / "absent.csv")

    at = run_app()

    assert not at.exception
    assert "planner ingest" in at.warning[0].value
    assert not at.metric


def test_an_unusable_database_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("PLANNER_DB", str(blocker / "planner.duckdb"))

    at = run_app()

    assert not at.exception
    assert "Cannot open the planner database" in at.error[0].value
