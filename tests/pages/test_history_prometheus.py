"""The Job history page's "From Prometheus" against a real Prometheus (tests/prometheus.py)
serving the hand-made history of tests/test_prometheus_ingest.py: the page imports what
`planner ingest --prometheus` imports from the same server, and a wrong URL, a bad window or
a window with no pods is one message, never a traceback."""

import datetime as dt
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.cli import main
from planner.ui.safe import JOINER
from planner.ui.text import CATALOGS
from tests.pages.app import RUN_CEILING_S, open_app_page
from tests.test_prometheus_ingest import END, START, STEP, H, hand_data, hand_url

PAGE = "pages/history.py"
TIMEOUT_S = RUN_CEILING_S
USED = (hand_data, hand_url)  # module fixtures: the server over the hand-made history


def _moment(epoch: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(epoch, tz=dt.UTC)


def fill(at: AppTest, url: str, start: float, end: float, **more: object) -> AppTest:
    """The section's inputs set: the server, the window from `start` to `end` (epoch seconds,
    shown as UTC dates and times), the step and any of `namespace`, `name`."""
    at.text_input(key="history_prom_url").set_value(url)
    for key, epoch in (("0", start), ("1", end)):
        at.date_input(key=f"history_prom_d{key}").set_value(_moment(epoch).date())
        at.time_input(key=f"history_prom_t{key}").set_value(_moment(epoch).time())
    at.number_input(key="history_prom_step").set_value(more.get("step", STEP))
    if "namespace" in more:
        at.text_input(key="history_prom_ns").set_value(more["namespace"])
    return at.run()


def message(at: AppTest) -> str:
    """The page's one error, as read (without the joiners that keep a URL plain text)."""
    assert len(at.error) == 1, [e.value for e in at.error]
    return str(at.error[0].value).replace(JOINER, "")


def imported(at: AppTest) -> AppTest:
    return at.button(key="history_prom_import").click().run()


def report_metrics(at: AppTest) -> dict[str, str]:
    """The ingest report's four figures (the first metrics of those labels on the page)."""
    shown: dict[str, str] = {}
    for metric in at.metric:
        shown.setdefault(metric.label, str(metric.value))
    return shown


def test_the_page_imports_what_the_command_line_imports_and_makes_it_the_working_trace(
    db: Path, hand_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ingest", "--prometheus", hand_url, "--window", f"{START:.0f}..{END:.0f}"]
    argv += ["--step", f"{STEP:.0f}", "--db", str(tmp_path / "cli.duckdb"), "--json"]
    assert main(argv) == 0
    cli = json.loads(capsys.readouterr().out)

    at = imported(fill(open_app_page(PAGE, TIMEOUT_S), hand_url, START, END))

    assert not at.exception
    assert not at.error
    shown = report_metrics(at)
    # 9 pods, none rejected; GPU-hours 8 (train-2gpu) + 0 + 0 + 11 (long) + 2 (early)
    # + 1 (vanished) + 1 (old-exporter) + 8/7 (mig-two: 4/7 GPU x 2 h) + 0 = 24.14...,
    # as the command line counts them
    assert (cli["rows"], cli["accepted"], cli["rejected"]) == (9, 9, 0)
    assert cli["gpu_hours"] == pytest.approx(23 + 8 / 7)
    assert (shown["Rows"], shown["Accepted"], shown["Rejected"]) == ("9", "9", "0")
    assert shown["GPU-hours"] == "24.1"
    censored = " ".join(m.value for m in at.markdown)
    assert "Already running when the export began: **1**" in censored  # early
    assert "Still running when it ended: **1**" in censored  # long
    assert "Still waiting at the end (also withdrawn: they never ran): **1**" in censored
    # the same trace id as the command line's (same server, window and pods), now chosen
    assert at.session_state["trace_chosen"] == cli["trace_id"]
    assert at.selectbox(key="history_trace").value == cli["trace_id"]
    stored = {m.label: str(m.value) for m in at.metric}  # the stored trace's, shown last
    assert (stored["Jobs"], stored["GPU-hours"]) == ("9", "24")


def test_a_namespace_is_imported_alone(db: Path, hand_url: str) -> None:
    at = fill(open_app_page(PAGE, TIMEOUT_S), hand_url, START, END, namespace="team-a")
    at = imported(at)

    assert not at.exception
    shown = report_metrics(at)
    assert shown["Accepted"] == "2"  # train-2gpu and long
    assert shown["GPU-hours"] == "19.0"  # 8 + 11


def test_a_window_without_pods_is_one_message_naming_the_series(db: Path, hand_url: str) -> None:
    before = START - 30 * 24 * H
    at = imported(fill(open_app_page(PAGE, TIMEOUT_S), hand_url, before, before + 24 * H))

    assert not at.exception
    said = message(at)
    assert said.startswith("Nothing was imported from Prometheus: ")
    assert f"{hand_url} has no kube_pod_created series between" in said


def test_a_wrong_url_and_a_bad_window_are_each_one_message(db: Path) -> None:
    at = imported(fill(open_app_page(PAGE, TIMEOUT_S), "http://127.0.0.1:9/", START, END))

    assert not at.exception
    said = message(at)
    assert said.startswith(
        "Nothing was imported from Prometheus: cannot reach Prometheus at http://127.0.0.1:9/"
    )
    assert "check the URL" in said

    at = imported(fill(at, "http://127.0.0.1:9/", END, START))
    assert not at.exception
    start, end = (_moment(x).strftime("%Y-%m-%d %H:%M UTC") for x in (END, START))
    assert f"the window's end ({end}) must come after its start ({start})" in message(at)

    at = imported(fill(at, "  ", START, END))
    assert not at.exception
    assert "give the Prometheus server's address" in message(at)

    at = imported(fill(at, "prometheus:9090", START, END))
    assert not at.exception
    assert "expects an http:// or https:// address, got 'prometheus:9090'" in message(at)


def test_in_chinese_the_section_and_its_messages_are_chinese(db: Path) -> None:
    zh = CATALOGS["zh"]
    at = open_app_page(PAGE, TIMEOUT_S, lang="zh")
    at = imported(fill(at, "http://127.0.0.1:9/", END, START))

    assert not at.exception
    assert at.text_input(key="history_prom_url").label == zh["history.prom.url"]
    assert at.date_input(key="history_prom_d0").label == zh["history.prom.start_date"]
    assert message(at).startswith("未从 Prometheus 导入任何数据：时间窗口的结束")
