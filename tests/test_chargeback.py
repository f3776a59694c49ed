"""Chargeback: each option's cost split over teams by a rule (use, quota, a separate idle
line), hand-computed; the split adds up to the option's total to the cent for any usage and
quota (hypothesis); and a small replayed TCO carries per-team GPU-hours and Kueue quotas."""

import csv
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from planner.core.file_access import LOCAL_FILES
from planner.cost.chargeback import RULES, Rule, allocate, cents, split_cents
from planner.cost.chargeback_usage import quotas
from planner.cost.results import TcoReport
from planner.engine.volcano import VolcanoQueueSpec, VolcanoSpec
from planner.engine.volcano_queues import to_queues
from planner.report import build_report
from planner.report.chargeback_sheet import add_chargeback_sheet
from planner.report.chargeback_table import chargeback, totals, wide_rows
from planner.service.tco_files import load_tco_scenario
from planner.service.tco_run import run_tco
from planner.store import connect
from tests.report_inputs import HOSTILE, write_scenario


def _split(rule: Rule, quotas: dict[str, float] | None = None) -> dict[str, float]:
    """100.00 of cost, 40.00 of it idle; team a used 30 GPU-hours, b 10."""
    out = allocate("owned", 100.0, 40.0, {"a": 30.0, "b": 10.0}, quotas or {}, rule=rule)
    shown = {c.team: c.cents / 100 for c in out.charges}
    return shown | ({"idle": out.idle_cents / 100} if out.idle_cents else {})


def test_use_rule_spreads_everything_by_gpu_hours() -> None:
    # used 60 -> a 45, b 15; idle 40 by use -> a 30, b 10
    assert _split("use") == {"a": 75.0, "b": 25.0}


def test_quota_rule_spreads_idle_cost_by_quota() -> None:
    # used 60 by use -> a 45, b 15; idle 40 by quota 1:3 -> a 10, b 30
    assert _split("quota", {"a": 1.0, "b": 3.0}) == {"a": 55.0, "b": 45.0}


def test_idle_rule_keeps_idle_cost_on_its_own_line() -> None:
    assert _split("idle") == {"a": 45.0, "b": 15.0, "idle": 40.0}


def test_a_team_with_quota_and_no_jobs_pays_its_share_of_idle_under_quota() -> None:
    out = allocate("owned", 100.0, 40.0, {"a": 30.0}, {"a": 1.0, "c": 1.0}, rule="quota")
    assert {c.team: c.cents for c in out.charges} == {"a": 6000 + 2000, "c": 2000}


def test_quota_without_quotas_falls_back_to_use_and_says_so() -> None:
    out = allocate("owned", 100.0, 40.0, {"a": 30.0, "b": 10.0}, {}, rule="quota")
    assert out.rule == "use"
    assert [c.cents for c in out.charges] == [7500, 2500]


def test_nothing_used_puts_the_whole_cost_on_the_idle_line() -> None:
    out = allocate("owned", 12.34, 1.0, {}, {"a": 1.0}, rule="use")
    assert out.idle_cents == 1234
    assert out.charges[0].cents == 0


def test_rounding_remainders_go_to_the_largest_fractions_then_the_first() -> None:
    assert split_cents(10000, [1, 1, 1]) == [3334, 3333, 3333]
    assert split_cents(100, [0.2, 0.7, 0.1]) == [20, 70, 10]
    assert split_cents(5, [1, 2]) == [2, 3]  # 1.67 -> 2 (larger remainder), 3.33 -> 3
    assert split_cents(-10000, [1, 1, 1]) == [-3334, -3333, -3333]
    assert split_cents(7, [0, 0]) == [0, 0]


def test_cents_round_half_away_from_zero_without_float_noise() -> None:
    assert cents(25611300.000000004) == 2561130000
    assert cents(0.125) == 13  # 0.125 is exact in binary
    assert cents(-0.125) == -13


money = st.floats(min_value=-1e9, max_value=1e10, allow_nan=False)
weights = st.dictionaries(
    st.text(min_size=1, max_size=4), st.floats(min_value=0, max_value=1e7), max_size=8
)


@settings(max_examples=300, deadline=None)
@given(money, money, weights, weights, st.sampled_from(RULES))
def test_charges_add_up_to_the_option_total_to_the_cent(
    total: float, idle: float, usage: dict[str, float], quotas: dict[str, float], rule: Rule
) -> None:
    out = allocate("x", total, idle, usage, quotas, rule=rule)

    assert sum(c.cents for c in out.charges) + out.idle_cents == cents(total) == out.total_cents
    used = sum(usage.values())
    if total >= 0:
        assert all(c.used_cents >= 0 and c.idle_cents >= 0 for c in out.charges)
        assert out.idle_cents >= 0
    if rule == "use" and used > 0 and total >= 0:
        # everything by use: each team within a cent (per part) of its exact share
        for c in out.charges:
            exact = cents(total) * usage.get(c.team, 0.0) / used
            assert abs(c.cents - exact) <= 2


# --- through the TCO: a small replayed trace with Kueue quotas -----------------------------


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> TcoReport:
    folder = tmp_path_factory.mktemp("chargeback")
    path = write_scenario(folder)
    with connect(folder / "p.duckdb") as con:
        return run_tco(con, load_tco_scenario(path), files=LOCAL_FILES)


def test_the_replayed_tco_carries_gpu_hours_and_quotas_by_team(small: TcoReport) -> None:
    data = small.chargeback
    assert data is not None
    hostile = HOSTILE
    owned = data.usage["self-hosted"]
    # per month: each team's GPU x hours, scaled by the same factor (the trace's span)
    assert owned["team-a"] / owned["team-b"] == pytest.approx((8 * 10 + 4 * 5) / (4 * 10))
    assert owned[hostile] / owned["team-b"] == pytest.approx(4 * 1 / (4 * 10))
    assert data.usage["AWS H100 on-demand"] == pytest.approx(owned)
    # the hybrid keeps one server: what waits an hour bursts, and still counts as served
    assert sum(data.usage["hybrid"].values()) == pytest.approx(sum(owned.values()))
    # the hostile team goes to the default ClusterQueue `spare`, so it gets spare's quota
    assert data.quotas == {"team-a": 8.0, "team-b": 4.0, hostile: 4.0}
    assert data.quota_source == "kueue"
    assert len(data.jobs) == 4
    assert set(data.jobs.status) == {"completed"}
    assert "burst" in data.jobs.hybrid_status


@pytest.mark.parametrize("rule", RULES)
def test_each_options_column_adds_up_to_its_total(small: TcoReport, rule: Rule) -> None:
    report = build_report([("s", small)], 0, "en")
    cb = chargeback(report.sources, 0, rule, "en")
    options = small.horizons[0].options
    assert [c.charges.option for c in cb.columns] == [o.name for o in options]
    rows = wide_rows(cb, "en")
    for k, option in enumerate(options):
        column = sum(round((values[k] or 0.0) * 100) for _, values in rows)
        assert column == cents(option.total) == round(totals(cb)[k] * 100)
    idle_rows = [label for label, _ in rows if label.startswith("Idle")]
    assert bool(idle_rows) == (rule == "idle")


def test_the_sheet_is_in_chinese_and_states_the_rule(small: TcoReport) -> None:
    book = Workbook()
    sheet = add_chargeback_sheet(book, build_report([("s", small)], 0, "zh"), "quota")

    values = [c.value for row in sheet.iter_rows() for c in row if c.value is not None]
    assert sheet.title == "成本分摊"
    assert {"团队（队列）", "自建", "混合", "合计（以上各行之和）"} <= set(values)
    assert any("按配额分摊" in str(v) and "Kueue" in str(v) for v in values)


def test_volcano_queues_quota_is_their_deserved_share() -> None:
    volcano = VolcanoSpec(
        queues=(VolcanoQueueSpec(name="team-a", weight=3), VolcanoQueueSpec(name="team-b"))
    )
    setup = to_queues(volcano, {"A100": 16.0}).to_setup(strict_default=False)

    # 16 GPUs by weight 3:1; a team no queue takes (no default queue declared) has none
    assert quotas(setup, ["team-a", "team-b", "other"]) == {"team-a": 12.0, "team-b": 4.0}


def test_quota_without_quotas_says_so_on_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sample sets no queue quotas: `--chargeback quota` splits by use, and says so in
    the CLI's notes as the report's files do."""
    from planner.cli.main import main

    scenario = Path(__file__).resolve().parents[1] / "data" / "scenarios" / "sample-tco.yaml"
    out = tmp_path / "cb.csv"
    argv = ["report", "--scenario", str(scenario), "--out", str(out), "--db", str(tmp_path / "d")]

    assert main([*argv, "--chargeback", "quota", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)["notes"]
    assert said == [
        "The scenario sets no queue quotas, so idle cost is shared in proportion to use."
    ]
    with (tmp_path / "cb-chargeback.csv").open(encoding="utf-8-sig") as handle:
        rules = {row["rule"] for row in csv.DictReader(handle)}
    assert rules == {"use"}

    assert main([*argv, "--chargeback", "use", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == []
