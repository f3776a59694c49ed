"""Hostile uploads in the app: a gzip bomb, 10,000 columns and a 5 MB line on the Job history
page, a "billion laughs" scenario and a typo on Compare, a Kueue bomb on Cluster & policy.

Each page shows the reader's message (file, line, limit, what to do) as an error, never a
traceback, and stores nothing. The app has no --max-unpacked-gib flag; the limit is lowered
here with the variable whoever runs the app would set, so the bomb stays a few MiB.
"""

import gzip
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.app import RUN_CEILING_S, open_app_page
from tests.pages.test_cluster_page import key
from tests.test_hostile_inputs import HEADER, ROWS, bomb_under

TIMEOUT_S = RUN_CEILING_S


def errors(at: AppTest) -> str:
    return "\n".join(e.value for e in at.error)


def history_upload(at: AppTest, name: str, data: bytes) -> AppTest:
    return at.file_uploader(key="history_upload").set_value((name, data, "text/csv")).run()


def test_the_history_page_refuses_a_gzip_bomb_a_wide_file_and_a_long_line(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANNER_MAX_UNPACKED_GIB", "0.001")
    member = gzip.compress((ROWS * 40_000).encode(), 9)  # 1.4 MiB of rows in ~3 KiB
    bomb = gzip.compress(HEADER.encode()) + member * 8
    at = open_app_page("pages/history.py", TIMEOUT_S)

    at = history_upload(at, "bomb.csv.gz", bomb)

    assert not at.exception
    shown = errors(at)
    assert "bomb.csv.gz: the gzip data unpacks to more than 1.0 MiB" in shown
    assert "PLANNER_MAX_UNPACKED_GIB" in shown
    assert not _has_import(at)

    names = ",".join(["job_id", "submit_time", "duration_s", "gpus", "queue"])
    wide = f"{names}," + ",".join(f"c{i}" for i in range(9_995)) + "\nj1,2024-01-05,60,1,q\n"
    at = history_upload(at, "wide.csv", wide.encode())

    assert not at.exception
    assert "wide.csv: the header has 10,000 columns, more than the 1,000" in errors(at)

    at = history_upload(at, "oneline.csv", ("job_id," + "x," * (5 << 19)).encode())

    assert not at.exception
    assert "oneline.csv: the first line (the header) is longer than 64 KiB" in errors(at)
    assert not _has_import(at)  # nothing offered to import, so nothing stored


def _has_import(at: AppTest) -> bool:
    return "history_import" in [b.key for b in at.button]


def test_compare_shows_a_yaml_bomb_and_a_typo_as_messages(db: Path) -> None:
    at = open_app_page("pages/compare.py", TIMEOUT_S)
    at.selectbox(key="compare_scenario").set_value("Upload a scenario (YAML)…").run()
    bomb = "name: lol\nself_hosted: [{gpu: H100, servers: 1}]\n" + bomb_under("overrides")

    at.file_uploader(key="compare_upload").set_value(("lol.yaml", bomb.encode(), "text/yaml"))
    at = at.run()

    assert not at.exception
    assert "lol.yaml: line 11, column 9: this value expands to more than 1,000,000" in errors(at)
    assert not at.metric

    typo = "name: t\nself_hosted: [{gpu: H100, servers: 1}]\nhorizon_years: [3]\n"
    at.file_uploader(key="compare_upload").set_value(("typo.yaml", typo.encode(), "text/yaml"))
    at = at.run()

    assert not at.exception
    assert (
        "typo.yaml: horizon_years: unknown key; did you mean 'horizons_years'? (line 3)"
        in errors(at)
    )


def test_the_cluster_page_shows_a_kueue_bomb_as_a_message(db: Path) -> None:
    at = open_app_page("pages/cluster.py", TIMEOUT_S)
    kueue = "kind: ClusterQueue\nmetadata: {name: q}\n" + bomb_under("spec")

    at.file_uploader(key=key(at, "queue_upload")).set_value(
        ("kueue.yaml", kueue.encode(), "text/yaml")
    )
    at = at.run()

    assert not at.exception
    assert "this value expands to more than 1,000,000 values" in errors(at)
    assert "no Kueue YAML needs that many" in errors(at)
