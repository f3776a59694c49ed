"""A database that turns out corrupt in the middle of a replay is one error line on the
page, not a traceback."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.app import APP
from tests.test_store_errors import corrupted_jobs


def test_a_corrupt_database_met_during_a_replay_is_an_error_on_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, trace_id = corrupted_jobs(tmp_path)
    monkeypatch.setenv("PLANNER_DB", str(bad))
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    at = at.switch_page("pages/replay.py").run()
    at.selectbox(key="replay_trace").set_value(trace_id).run()

    at = at.button(key="replay_run").click().run()

    assert not at.exception
    assert any(f"The planner database {bad} is corrupt" in e.value for e in at.error)
