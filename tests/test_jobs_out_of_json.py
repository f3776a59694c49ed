"""The per-job replay table stays out of `planner tco --json` and saved results: the JSON
keeps the team totals the reports use, so a report read back from it writes the same xlsx,
PDF, tidy and chargeback CSV bytes as the run itself; the per-job CSV comes from the run's
replay (`planner report` and the Compare page price the scenario again)."""

import csv
import io
import json
from datetime import date

import pytest

from planner.core.file_access import LOCAL_FILES
from planner.core.serialize import from_json, json_dict
from planner.cost.results import TcoReport
from planner.report.render import CHARGEBACK, JOBS, render
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import connect
from tests.report_inputs import write_scenario

DAY = date(2026, 1, 1)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    """The small replayed scenario (four jobs, three teams, a hybrid), priced."""
    folder = tmp_path_factory.mktemp("jobs")
    with connect(folder / "p.duckdb") as con:
        return run_tco(con, load_tco_scenario(write_scenario(folder)), files=LOCAL_FILES)


def test_the_json_has_team_totals_and_no_per_job_rows(run: TcoReport) -> None:
    data = json_dict(run)

    assert run.chargeback is not None
    assert len(run.chargeback.jobs) == 4
    assert set(data["chargeback"]) == {"usage", "quotas", "quota_source"}
    assert "j1" not in json.dumps(data)  # no job id anywhere in the JSON
    assert set(data["chargeback"]["usage"]) == {"self-hosted", "hybrid", "AWS H100 on-demand"}


def test_the_per_job_csv_comes_from_the_run(run: TcoReport) -> None:
    files, _ = render([("small", run)], "csv", generated=DAY)

    rows = list(csv.DictReader(io.StringIO(files[JOBS].decode("utf-8-sig"))))

    assert [r["job_id"] for r in rows] == ["j1", "j2", "j3", "j4"]
    assert {r["status"] for r in rows} == {"completed"}
    assert all(r["hybrid_status"] for r in rows)


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
def test_a_report_read_back_from_json_writes_the_same_files(run: TcoReport, kind: str) -> None:
    read = from_json(TcoReport, json.loads(json.dumps(json_dict(run))))

    fresh, _ = render([("small", run)], kind, generated=DAY)  # type: ignore[arg-type]
    again, _ = render([("small", read)], kind, generated=DAY)  # type: ignore[arg-type]

    same = {suffix: fresh[suffix] == again[suffix] for suffix in fresh}
    expected = {suffix: suffix != JOBS for suffix in fresh}
    assert same == expected  # all but the per-job table, which only the run has
    if kind == "csv":
        assert fresh[CHARGEBACK].count(b"\r\n") > 3  # teams were charged, from the totals


def test_a_result_saved_with_its_per_job_table_still_loads(run: TcoReport) -> None:
    data = json_dict(run)
    data["chargeback"]["jobs"] = {"job_id": ["j1"], "team": ["team-a"]}  # as saved before

    read = from_json(TcoReport, data)

    assert read.chargeback is not None
    assert read.chargeback.usage == run.chargeback.usage  # type: ignore[union-attr]
    assert len(read.chargeback.jobs) == 0
