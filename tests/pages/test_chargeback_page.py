"""The chargeback on the Compare page: the table by team with the idle-cost rule selectable,
columns that add up to each option's total, names shown as the text they are, en and zh."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.core.file_access import LOCAL_FILES
from planner.core.serialize import to_json
from planner.cost.chargeback import cents
from planner.cost.results import TcoReport
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import connect
from tests.pages.app import RUN_CEILING_S, open_app_page
from tests.report_inputs import HOSTILE, write_scenario


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, TcoReport]:
    """The small replayed scenario's report, as JSON in a file the app function reads."""
    folder = tmp_path_factory.mktemp("chargeback_page")
    with connect(folder / "p.duckdb") as con:
        report = run_tco(con, load_tco_scenario(write_scenario(folder)), files=LOCAL_FILES)
    path = folder / "report.json"
    path.write_text(json.dumps(to_json(report)), encoding="utf-8")
    return path, report


def _section(path: str) -> None:
    import json
    from pathlib import Path

    from planner.core.serialize import from_json
    from planner.cost.results import TcoReport
    from planner.ui.chargeback_view import chargeback_section

    report = from_json(TcoReport, json.loads(Path(path).read_text(encoding="utf-8")))
    chargeback_section([(report.scenario, report)], 0, "cb")


def _app(path: Path, lang: str = "en") -> AppTest:
    at = AppTest.from_function(_section, args=(str(path),), default_timeout=RUN_CEILING_S)
    at.session_state["lang"] = lang
    return at.run()


def test_the_table_splits_each_option_by_team_and_adds_up(
    saved: tuple[Path, TcoReport],
) -> None:
    path, report = saved
    at = _app(path)

    assert not at.exception
    assert at.subheader[0].value == "Chargeback by team"
    frame = at.dataframe[0].value
    options = [o.name for o in report.horizons[0].options]
    assert list(frame.columns) == ["Team (queue)", *options]
    teams = list(frame["Team (queue)"])
    assert HOSTILE in teams  # shown as the text it is, in a table cell (not markdown)
    assert teams[-1] == "Total (sum of the rows above)"
    for k, option in enumerate(report.horizons[0].options):
        column = frame[options[k]]
        assert round(column.iloc[-1] * 100) == cents(option.total)
        assert sum(round(v * 100) for v in column.iloc[:-1]) == cents(option.total)
    assert "Idle (not charged to a team)" not in teams
    assert [b.proto.label for b in at.get("download_button")] == [
        "Download the chargeback (CSV)",
        "Download the per-job table (CSV)",
    ]


def test_choosing_the_idle_rule_adds_the_idle_line_and_states_it(
    saved: tuple[Path, TcoReport],
) -> None:
    at = _app(saved[0])

    at.radio(key="chargeback_rule").set_value("idle").run()

    teams = list(at.dataframe[0].value["Team (queue)"])
    assert "Idle (not charged to a team)" in teams
    assert any("idle cost kept apart" in c.value for c in at.caption)


def test_the_section_is_in_chinese(saved: tuple[Path, TcoReport]) -> None:
    at = _app(saved[0], "zh")

    assert at.subheader[0].value == "按团队分摊成本"
    assert list(at.dataframe[0].value.columns[:3]) == ["团队（队列）", "自建", "混合"]
    assert at.radio(key="chargeback_rule").options == ["按使用量分摊", "按配额分摊", "单列为闲置"]
    assert any("闲置成本按使用量分摊" in c.value for c in at.caption)


def test_the_compare_page_shows_the_section(db: Path) -> None:
    at = open_app_page("pages/compare.py", 60)  # the worked example: a utilization, no trace

    assert not at.exception
    assert "Chargeback by team" in [s.value for s in at.subheader]
    assert "No chargeback: the demand is a utilization, not a replayed trace." in [
        c.value for c in at.caption
    ]
