"""Censored and withdrawn jobs, the TCO scope and the ledger, as the pages show them (issue 12).

One small export has a job already running when it began, one still running when it ended,
one deleted while it waited, one still waiting at the end and one CPU-only job.
"""

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from planner.core.file_access import BUNDLED_FILES
from planner.cost.ledger import Balance, Ledger
from planner.cost.results import Horizon, TcoReport, plain_report
from planner.cost.tco import OptionReport
from planner.ingest import IngestOptions
from planner.service.importer import import_file
from planner.service.tco_run import run_tco
from planner.ui import compare_view, ledger_view
from planner.ui.cache import cursor
from planner.ui.compare_view import ShownReport
from tests.pages.app import APP, RUN_CEILING_S, open_app_page

TIMEOUT_S = RUN_CEILING_S


def ledgers(at: AppTest) -> list[Any]:
    """The ledger tables shown (GPU-hours first), known by their Demanded column."""
    return [d.value for d in at.dataframe if "Demanded" in d.value.columns]


EXPORT = (
    "job_id,submit_time,start_time,end_time,gpus,cpu,queue,status\n"
    "a,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z,2026-01-01T02:00:00Z,1,4,team-x,completed\n"
    "b,,,2026-01-01T01:00:00Z,2,4,team-x,completed\n"
    "c,2026-01-01T00:30:00Z,2026-01-01T00:30:00Z,,4,4,team-y,running\n"
    "d,2026-01-01T00:10:00Z,,2026-01-01T00:20:00Z,1,4,team-y,pending\n"
    "e,2026-01-01T01:00:00Z,,,1,4,team-y,pending\n"
    "f,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z,2026-01-01T03:00:00Z,0,16,team-z,completed\n"
)
TCO = """name: censored mix
currency: USD
trace: {trace}
horizons_years: [1, 3]
self_hosted:
  - {{gpu: H100, servers: 1, gpus_per_server: 8}}
cloud:
  - {{name: AWS H100 on-demand, provider: AWS, gpu: H100}}
"""


def stored_export(tmp_path: Path) -> str:
    """The export imported into the app's database; its trace id."""
    path = tmp_path / "censored.csv"
    path.write_text(EXPORT, encoding="utf-8")
    with cursor() as cur:
        return import_file(cur, path, IngestOptions()).trace_id


# --- Job history ---------------------------------------------------------------------------


def test_the_ingest_report_counts_censored_and_withdrawn_jobs(db: Path) -> None:
    at = open_app_page("pages/history.py", TIMEOUT_S)
    at.file_uploader(key="history_upload").set_value(
        ("censored.csv", EXPORT.encode(), "text/csv")
    ).run()
    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert not at.error
    title = next(m for m in at.markdown if "cut off by the export window" in m.value)
    assert "count as demand" in title.help
    assert "Withdrawn jobs did no work" in title.help
    lines = next(m.value for m in at.markdown if m.value.startswith("- Already running"))
    assert lines.splitlines() == [
        "- Already running when the export began: **1** (their start is taken as the "
        "export's start)",
        "- Still running when it ended: **1** (they run to its end)",
        "- Created and deleted without ever running (withdrawn): **1**",
        "- Still waiting at the end (also withdrawn: they never ran): **1**",
    ]


def test_a_clean_export_says_nothing_was_cut_off(db: Path) -> None:
    text = "job_id,submit_time,duration_s,gpus\na1,2026-01-01T00:00:00Z,3600,1\n"
    at = open_app_page("pages/history.py", TIMEOUT_S)
    at.file_uploader(key="history_upload").set_value(("clean.csv", text.encode(), "text/csv")).run()
    at = at.button(key="history_import").click().run()

    assert not at.exception
    assert any(m.value.startswith("No job was cut off") for m in at.markdown)
    assert not any(m.value.startswith("- Already running") for m in at.markdown)


# --- Replay --------------------------------------------------------------------------------


def test_the_replay_shows_withdrawn_jobs_next_to_the_metrics(db: Path, tmp_path: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
    trace_id = stored_export(tmp_path)
    at = at.switch_page("pages/replay.py").run()
    at.selectbox(key="replay_trace").set_value(trace_id).run()
    at = at.button(key="replay_run").click().run()

    assert not at.exception
    assert not at.error
    shown = [str(m.label) for m in at.metric]
    assert shown == ["GPU allocation", "Completed", "Unschedulable", "Mean wait", "p95 wait"]
    jobs = at.dataframe[-1].value
    replayed = int((jobs["status"] == "withdrawn").sum())
    after_start = int((jobs["status"] == "withdrawn-after-start").sum())
    assert replayed + after_start == 2  # d and e: both observed withdrawn
    caption = next(c.value for c in at.caption if c.value.startswith("**Withdrawn**"))
    assert f": {replayed} jobs in this replay; the export had 2. {after_start} of them" in caption
    assert at.selectbox(key="replay_wait_scope").value == "gpu-jobs"  # the lead's select stays


# --- Compare and Overview ------------------------------------------------------------------


def priced(tmp_path: Path) -> tuple[str, TcoReport]:
    """The TCO scenario text on the stored export and what `planner tco` reports for it."""
    text = TCO.format(trace=stored_export(tmp_path))
    with cursor() as cur:
        scenario = compare_view.parse_scenario(text, "mix.yaml")
        return text, run_tco(cur, scenario, files=BUNDLED_FILES)


def test_compare_states_the_scope_and_shows_the_ledger_of_the_horizon(
    db: Path, tmp_path: Path
) -> None:
    at = open_app_page("pages/compare.py", TIMEOUT_S)
    text, report = priced(tmp_path)
    at.selectbox(key="compare_scenario").set_value("Upload a scenario (YAML)…").run()
    at.file_uploader(key="compare_upload").set_value(("mix.yaml", text.encode(), "text/yaml"))
    at = at.run()
    at.selectbox(key="compare_horizon").set_value(1).run()

    assert not at.exception
    assert not at.error
    scope = next(m for m in at.markdown if m.value.startswith("**Priced: GPU jobs only.**"))
    assert "CPU-only jobs left out of every option: 1 (48.0 CPU-hours)." in scope.value
    assert "both sides" in scope.help
    assert not any("scope gpu-jobs" in c.value for c in at.caption)  # said once, in words
    assert any(c.value.startswith("Every option prices the same demand") for c in at.caption)
    ledger = ledgers(at)[0]
    assert ledger["Option"].tolist() == ["self-hosted", "AWS H100 on-demand"]
    for row, option in zip(ledger.to_dict("records"), report.horizons[1].options, strict=True):
        lines = option.ledger.gpu_hours
        assert row["Demanded"] == pytest.approx(lines.demanded)
        assert row["On owned servers"] == pytest.approx(lines.owned)
        assert row["Cloud: bridge"] == pytest.approx(lines.cloud["bridge"])
        assert row["Cloud: rented"] == pytest.approx(lines.cloud["rented"])
        assert row["Not served"] == pytest.approx(sum(lines.unserved.values()))
    assert ledger["Demanded"].nunique() == 1  # every option prices the same demand


def test_an_option_whose_ledger_does_not_balance_is_an_error(db: Path, tmp_path: Path) -> None:
    _, report = priced(tmp_path)
    first, second, *rest = report.horizons[0].options
    gpu_hours = replace(second.ledger.gpu_hours, owned=1.0)
    second = replace(second, ledger=replace(second.ledger, gpu_hours=gpu_hours))
    horizon = replace(report.horizons[0], options=(first, second, *rest))
    broken = replace(report, horizons=(horizon, *report.horizons[1:]))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.session_state["compare_last_report"] = ShownReport(broken)
    at = at.run()

    assert not at.exception
    assert any(m.value.startswith("**Priced: GPU jobs only.**") for m in at.markdown)
    ledger = ledgers(at)[0]
    assert ledger["Demanded"].tolist() == [
        o.ledger.gpu_hours.demanded for o in report.horizons[0].options
    ]
    assert [e.value for e in at.error] == [
        "The ledger of AWS H100 on-demand does not balance: its lines miss the demand "
        "(40,880.0) by -1.000. Its costs cannot be compared with the others'; please report "
        "this."
    ]


def test_the_scope_and_ledger_speak_chinese_and_name_scenarios(db: Path) -> None:
    lines = Balance(10.0, 4.0, {"burst": 6.0}, {}, 0.0)
    hybrid = OptionReport("hybrid", 0.0, {}, (), (), 0.0, None, ledger=Ledger(lines))
    part = plain_report((), scope="all-jobs", scenario="[plan B](http://x.example)")
    combined = replace(
        plain_report(()),
        horizons=(Horizon(3.0, (replace(hybrid, scenario="plan B"),), ()),),
        scenarios=(part, plain_report((), scenario="old")),  # "old" has no scope to state
    )

    assert ledger_view.scope_lines(combined, "zh") == [
        "\\[plan B\\](http:\u2060//x.example): **计价范围：全部作业**。纯 CPU 作业（不用 GPU）"
        "在每个方案中都按云端 CPU 实例和自有 CPU 计价。"
    ]
    frame = ledger_view.ledger_frame(combined, 0)
    assert frame["option"].tolist() == ["plan B · hybrid"]
    assert ledger_view.unbalanced(frame) == []
    shown = ledger_view.shown_frame(frame, "zh")
    assert list(shown.columns) == [
        "方案", "需求", "自有服务器", "云端：过渡", "云端：突发", "云端：租用", "未满足",
    ]  # fmt: skip
    assert ledger_view.ledger_frame(combined, 0, "cpu_hours").empty


def test_saved_scenarios_show_their_scope_and_ledger_by_scenario(db: Path) -> None:
    at = open_app_page("pages/compare.py", TIMEOUT_S)
    at.radio(key="compare_mode").set_value("saved").run()
    at.selectbox(key="compare_add_source").set_value("cloud-on-demand.yaml").run()
    at = at.button(key="FormSubmitter:compare_add_form-Save").click().run()

    assert not at.exception
    assert not at.error
    scope = [m.value for m in at.markdown if "**Priced: GPU jobs only**" in m.value]
    assert scope == ["cloud-on-demand: **Priced: GPU jobs only** (no CPU-only job was left out)."]
    ledger = ledgers(at)[0]
    assert ledger["Option"].tolist() == [
        "cloud-on-demand · AWS H100 on-demand",
        "cloud-on-demand · AWS H100 1-year reserved",
    ]
    assert ledger["Demanded"].nunique() == 1
