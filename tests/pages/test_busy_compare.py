"""The Compare page with a trace whose jobs carry busy shares (`gpu_util`): the options
table's cost per busy GPU-hour, the share and its coverage, and each team's GPU-hours
allocated and busy; a trace without shares shows none of them. AppTest on the real store."""

from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.core.file_access import BUNDLED_FILES
from planner.service.tco_files import tco_scenario_from_text
from planner.service.tco_run import run_tco
from planner.store import open_store
from planner.ui.compare_saved import table
from tests.conftest import ingest, write
from tests.pages.app import open_app_page
from tests.pages.test_compare_view import priced
from tests.test_busy_share import HAND

SCENARIO = """name: busy
trace: {trace}
horizons_years: [1]
self_hosted: [{{gpu: A100, servers: 1, gpus_per_server: 8, price: 100000, idle_kw: 1,
  load_kw: 5, max_kw: 6}}]
cloud: [{{name: rent, gpu: A100, price_per_gpu_hour: 2.0, packing: per-job}}]
overrides: {{lead_time_months: 0}}
"""


def _priced(db: Path, tmp_path: Path, history: str) -> AppTest:
    con = open_store(db)
    try:
        trace = ingest(con, write(tmp_path, "busy.csv", history)).trace_id
    finally:
        con.close()
    at = open_app_page("pages/compare.py", 60)
    at.selectbox(key="compare_scenario").set_value("Upload a scenario (YAML)…").run()
    text = SCENARIO.format(trace=trace).encode()
    at.file_uploader(key="compare_upload").set_value(("busy.yaml", text, "text/yaml")).run()
    assert not at.exception
    assert not at.error
    return at


def test_the_options_table_shows_the_cost_per_busy_gpu_hour_and_the_teams(
    db: Path, tmp_path: Path
) -> None:
    at = _priced(db, tmp_path, HAND)

    table = at.dataframe[0].value.set_index("Option")
    per_useful = table["Per useful GPU-hour (USD)"]
    # busy share 2 / 6 (2 x 0.50 + 4 x 0.25 busy of 2 + 4 GPU-h): per busy = 3 x per useful
    assert table["Per busy GPU-hour (USD)"].tolist() == pytest.approx((3 * per_useful).tolist())
    captions = " ".join(c.value for c in at.caption)
    assert "GPU busy share 33.3%: 2.0 GPU-hours busy of the 6.0 GPU-hours" in captions
    assert "known for 2 of 3 jobs, 85.7% of the GPU-hours allocated" in captions
    teams = next(d.value for d in at.dataframe if "Team" in d.value.columns).set_index("Team")
    # team-b: 4 GPU-h at 25 % = 1 busy, 1 GPU-h unknown: 5 allocated, share 1 / 4
    assert teams.loc["team-b"].tolist() == pytest.approx([5.0, 1.0, 0.25])
    assert teams.loc["team-a"].tolist() == pytest.approx([2.0, 1.0, 0.5])


def test_a_trace_without_busy_shares_shows_no_busy_figure(db: Path, tmp_path: Path) -> None:
    plain = "\n".join(line.rsplit(",", 1)[0] for line in HAND.splitlines()) + "\n"
    at = _priced(db, tmp_path, plain)

    assert "Per busy GPU-hour (USD)" not in at.dataframe[0].value.columns
    captions = " ".join(c.value for c in at.caption)
    assert "GPU busy share" not in captions
    shown = " ".join(e.value for e in [*at.caption, *at.warning, *at.info, *at.markdown])
    assert "note: busy share unknown: add a gpu_util column or import DCGM" in shown


def test_the_saved_scenarios_table_has_the_column_only_when_a_share_is_known(
    tmp_path: Path,
) -> None:
    con = open_store(tmp_path / "p.duckdb")
    try:
        with_shares = ingest(con, write(tmp_path, "busy.csv", HAND)).trace_id
        text = SCENARIO.format(trace=with_shares)
        report = run_tco(
            con, tco_scenario_from_text(text, "busy.yaml", BUNDLED_FILES), files=BUNDLED_FILES
        )
    finally:
        con.close()
    plain = replace(report, busy=None)

    frame = table([priced("busy", report), priced("plain", plain)]).set_index("option")
    busy = frame[frame["scenario"] == "busy"]
    # 1/3 busy: per busy GPU-hour = 3 x per useful; the scenario without a share has none
    assert busy["per_busy"].tolist() == pytest.approx((3 * busy["per_useful"]).tolist())
    assert frame[frame["scenario"] == "plain"]["per_busy"].isna().all()
    assert "per_busy" not in table([priced("plain", plain)]).columns
