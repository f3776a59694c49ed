"""The overview page, run headlessly through the app's entrypoint with AppTest."""

import csv
from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.cost.results import Horizon, TcoReport, plain_report
from planner.cost.tco import OptionReport
from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.store import connect
from planner.ui import cache
from planner.ui.compare_view import ShownReport
from planner.ui.overview_view import Headline, headline, headline_lines
from tests.pages.app import RUN_CEILING_S

APP = Path(__file__).resolve().parents[2] / "streamlit_app.py"
TIMEOUT_S = RUN_CEILING_S
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
    # until this session compares there is no headline: the sample's answer (renting wins
    # there) is a folded, labelled example, never a big answer a manager reads as theirs
    assert not any(m.label == "Answer" for m in at.metric)
    assert at.info[0].value.startswith("No answer for your own data yet.")
    example = next(e for e in at.expander if "bundled synthetic sample" in e.label)
    assert "not your data" in example.label
    assert any(m.value.startswith("**Rent.**") for m in example.markdown)
    assert "arrives next" not in " ".join(m.value for m in at.markdown)
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
    assert by_size["Jobs"].tolist() == ["1", "2"]
    assert by_size["GPU-hours"].tolist() == ["1", "24"]


def test_without_any_trace_the_page_says_how_to_import_one(
    empty_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
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


# --- the headline answer -------------------------------------------------------------------


def report(costs: dict[str, float], break_even: dict[str, float | None]) -> TcoReport:
    """A TCO report with what the headline reads: one 3-year horizon, options by cost."""
    options = tuple(
        OptionReport(name, 1000.0 * cost, {}, (), (), 0.0, cost) for name, cost in costs.items()
    )
    horizons = (Horizon(3.0, options, ()),)
    return plain_report(
        horizons, scenario="demo", allocation=0.5, break_even_utilization=break_even
    )


BUY = report({"self-hosted": 3.0, "cloud A": 4.0, "cloud B": 5.0}, {"cloud A": 0.4, "cloud B": 0.3})


def test_owning_cheapest_is_buy_with_the_break_even_against_the_cheapest_cloud() -> None:
    answer = headline(BUY)

    assert answer == Headline("buy", "self-hosted", 3.0, 3.0, "demo", 0.5, "cloud A", 0.4)
    assert headline_lines(answer, "USD", "en") == [
        "**Buy.** Owning servers is the cheapest option over 3 years: $3.00 per useful "
        "GPU-hour (demo).",
        "Owning breaks even against cloud A at 40.0% allocation, and the current allocation "
        "is 50.0%: the demand is there.",
    ]
    assert headline_lines(answer, "USD", "zh") == [
        "**购买。** 在 3 年内，自建服务器是最便宜的方案：每有效 GPU 小时 $3.00（demo）。",
        "相对于 cloud A，自建在分配率 40.0% 时达到盈亏平衡；当前分配率为 50.0%，需求足够。",
    ]


def test_a_cheaper_cloud_is_rent_and_the_break_even_is_against_it() -> None:
    answer = headline(report({"self-hosted": 3.0, "cloud A": 2.0}, {"cloud A": 0.75}))

    assert answer is not None
    assert (answer.verdict, answer.option, answer.rival) == ("rent", "cloud A", "cloud A")
    assert headline_lines(answer, "EUR", "en", rate=0.5) == [
        "**Rent.** cloud A is the cheapest option over 3 years and owns no servers: 1,00 € "
        "per useful GPU-hour (demo).",
        "Owning breaks even against cloud A at 75,0 % allocation, but the current allocation "
        "is only 50,0 %.",
    ]
    assert headline_lines(answer, "USD", "zh")[1] == (
        "相对于 cloud A，自建在分配率 75.0% 时达到盈亏平衡，但当前分配率仅为 50.0%。"
    )


def test_hybrid_and_owning_that_never_or_hardly_pays() -> None:
    never = headline(report({"hybrid": 1.5, "self-hosted": 3.0, "cloud A": 2.0}, {"cloud A": None}))
    beyond = headline(report({"self-hosted": 3.0, "cloud A": 2.0}, {"cloud A": 1.25}), 0)

    assert never is not None
    assert beyond is not None
    assert never.verdict == "hybrid"
    assert headline_lines(never, "USD", "en")[1].startswith("Owning never pays against cloud A")
    assert headline_lines(never, "USD", "zh")[0].startswith("**混合。**")
    assert headline_lines(beyond, "USD", "en")[1] == (
        "Owning does not pay against cloud A even at full allocation (it needs 125.0%); the "
        "current allocation is 50.0%."
    )
    assert headline(report({}, {})) is None


def test_an_option_of_several_saved_scenarios_is_named_by_its_own_scenario() -> None:
    plain = report({"self-hosted": 3.0, "cloud A": 4.0}, {})
    first, *rest = plain.horizons[0].options
    options = (replace(first, scenario="plan B"), *rest)
    combined = replace(plain, allocation=None, horizons=(Horizon(3.0, options, ()),))

    answer = headline(combined)

    assert answer is not None
    assert answer.scenario == "plan B"
    assert answer.rival is None  # no break-even in the report: no sentence about it
    assert headline_lines(answer, "USD", "en") == [
        "**Buy.** Owning servers is the cheapest option over 3 years: $3.00 per useful "
        "GPU-hour (plan B)."
    ]
    assert headline(BUY, horizon=3) is None


def run_with(state: dict[str, object]) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    for key, value in state.items():
        at.session_state[key] = value
    return at.run()


def test_the_last_comparison_is_the_headline_with_next_steps(read_db: Path) -> None:
    at = run_with({"compare_last_report": ShownReport(BUY)})

    assert not at.exception
    assert metric(at, "Answer") == "Buy"
    assert metric(at, "Cost per useful GPU-hour") == "$3.00"
    assert metric(at, "Break-even allocation") == "40.0%"
    assert "From your comparison on the Compare page: demo." in [c.value for c in at.caption]
    assert at.success[0].value.startswith("**Buy.** Owning servers is the cheapest option")
    links = {link.proto.page: link.proto.label for link in at.get("page_link")}
    assert list(links) == ["history", "cluster", "replay", "compare", "capacity"]
    assert links["capacity"] == "Find how many servers you need"


def test_the_working_scenario_is_summarised(read_db: Path) -> None:
    at = run_app()

    summary = next(m.value for m in at.markdown if "sample on 128 nodes" in m.value)
    assert "trace sample.csv · " in summary
    assert "(1,024 GPUs)" in summary
    assert "gang" in summary


def test_the_working_scenario_is_summarised_in_chinese(read_db: Path) -> None:
    at = run_with({"lang": "zh"})

    summary = next(m.value for m in at.markdown if "sample on 128 nodes" in m.value)
    assert summary.startswith("场景 **sample on 128 nodes**：作业轨迹 sample.csv · ")
    assert "共 1,024 块 GPU" in summary


def test_money_follows_the_reporting_currency(read_db: Path) -> None:
    eur = replace(BUY, currency="EUR")
    at = run_with({"compare_last_report": ShownReport(eur), "reporting_currency": "EUR"})

    assert not at.exception
    assert metric(at, "Cost per useful GPU-hour") == "3,00 €"
    assert metric(at, "Break-even allocation") == "40,0 %"


def test_a_report_in_another_currency_is_converted_at_the_stored_rate(read_db: Path) -> None:
    at = run_with({"compare_last_report": ShownReport(BUY), "reporting_currency": "CNY"})

    assert not at.exception
    assert metric(at, "Cost per useful GPU-hour") == "¥21.90"  # 3.00 USD x 7.3 (seeded rate)
    assert any("from USD to CNY" in c.value for c in at.caption)


def test_the_page_is_in_chinese(read_db: Path) -> None:
    at = run_with({"lang": "zh", "compare_last_report": ShownReport(BUY)})

    assert not at.exception
    assert at.title[0].value == "GPU 容量规划器"
    assert metric(at, "结论") == "购买"
    assert metric(at, "作业数") == "4,000"
    assert at.success[0].value.startswith("**购买。**")
    assert [h.value for h in at.header][:2] == ["当前工作场景", "核心结论"]
    assert at.get("page_link")[0].proto.label == "上传或查看作业历史"
