"""A damaged database is one error line on the page, not a traceback: one that turns out
corrupt in the middle of a replay, and one cut short (it cannot even be opened), whose error
names the way out (`planner db reset`)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.cli import main
from tests.pages.app import APP, RUN_CEILING_S, open_app_page
from tests.test_store_errors import JOBS, corrupted_jobs


def test_a_corrupt_database_met_during_a_replay_is_an_error_on_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, trace_id = corrupted_jobs(tmp_path)
    monkeypatch.setenv("PLANNER_DB", str(bad))
    at = AppTest.from_file(str(APP), default_timeout=RUN_CEILING_S).run()
    at = at.switch_page("pages/replay.py").run()
    at.selectbox(key="replay_trace").set_value(trace_id).run()

    at = at.button(key="replay_run").click().run()

    assert not at.exception
    assert any(f"The planner database {bad} is corrupt" in e.value for e in at.error)


@pytest.fixture(scope="module")
def cut_short(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The first half of a database holding one trace."""
    folder = tmp_path_factory.mktemp("cut")
    (folder / "jobs.csv").write_text(JOBS, encoding="utf-8")
    assert main(["ingest", str(folder / "jobs.csv"), "--db", str(folder / "good.duckdb")]) == 0
    data = (folder / "good.duckdb").read_bytes()
    return data[: len(data) // 2]


@pytest.mark.parametrize("page", ["pages/overview.py", "pages/history.py", "pages/compare.py"])
def test_a_database_cut_short_is_an_error_naming_it_and_the_way_out_on_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut_short: bytes, page: str
) -> None:
    bad = tmp_path / "planner.duckdb"
    bad.write_bytes(cut_short)
    monkeypatch.setenv("PLANNER_DB", str(bad))

    at = open_app_page(page)

    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert f"The planner database {bad} is cut short" in errors
    assert f"planner db reset --db {bad}" in errors
    assert bad.read_bytes() == cut_short
