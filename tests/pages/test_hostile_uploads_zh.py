"""Hostile uploads in 简体中文: the reader's and the validator's refusals reach the page in
Chinese, with the file, the line (and column) and the limit, and no English sentence.

The same uploads as tests/pages/test_hostile_uploads.py (whose English texts are the CLI's,
unchanged). What may stay in Latin letters is what the page tests for 简体中文 allow: file
names, YAML keys and commands as inline code, technical tokens (gzip, MiB, YAML, Kueue).
"""

import gzip
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from planner.ui.text import CATALOGS
from tests.pages.app import APP
from tests.pages.test_cluster_page import key
from tests.test_hostile_inputs import HEADER, ROWS, bomb_under

TIMEOUT_S = 120
_CODE_SPAN = re.compile(r"`[^`]*`")
# Three or more Latin words in a row ("is not allowed here") make an English phrase; a file
# name, a key in a code span, "Kueue YAML" or "true/false" do not.
_ENGLISH = re.compile(r"[A-Za-z]{2,}(?:[ ,;']+[A-Za-z]{2,}){2,}")


def english_phrases(text: str) -> list[str]:
    return _ENGLISH.findall(_CODE_SPAN.sub("", text.replace("\\", "")))


def open_in_chinese(page: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.session_state["lang"] = "zh"
    return at.run().switch_page(page).run()


def only_error(at: AppTest) -> str:
    assert not at.exception
    [shown] = [e.value for e in at.error]
    assert not english_phrases(shown), shown
    return shown


def test_english_phrases_are_found_outside_code_spans_only() -> None:
    assert english_phrases("a.yaml: line 3: unknown key; did you mean") != []
    assert english_phrases("a.yaml：第 3 行：`horizon_years`：未知的键（Kueue YAML）") == []


def test_the_history_page_words_a_bomb_a_wide_file_and_a_long_line_in_chinese(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANNER_MAX_UNPACKED_GIB", "0.001")
    member = gzip.compress((ROWS * 40_000).encode(), 9)
    bomb = gzip.compress(HEADER.encode()) + member * 8
    at = open_in_chinese("pages/history.py")

    at = at.file_uploader(key="history_upload").set_value((
        "bomb.csv.gz", bomb, "application/gzip"
    )).run()  # fmt: skip

    shown = only_error(at)
    assert re.search(
        r"bomb\.csv\.gz：gzip 数据解压后超过 1\.0 MiB（在第 [\d,]+ 行停止读取）", shown
    )
    assert "`PLANNER_MAX_UNPACKED_GIB=N`" in shown

    names = "job_id,submit_time,duration_s,gpus,queue,"
    wide = names + ",".join(f"c{i}" for i in range(9_995)) + "\nj1,2024-01-05,60,1,q\n"
    at = at.file_uploader(key="history_upload").set_value((
        "wide.csv", wide.encode(), "text/csv"
    )).run()  # fmt: skip

    assert "wide.csv：表头有 10,000 列，超过作业历史或节点列表最多 1,000 列的上限" in only_error(at)

    at = at.file_uploader(key="history_upload").set_value((
        "oneline.csv", ("job_id," + "x," * (5 << 19)).encode(), "text/csv"
    )).run()  # fmt: skip

    assert "oneline.csv：第一行（表头）超过 64 KiB" in only_error(at)
    assert "history_import" not in [b.key for b in at.button]


def _upload_scenario(at: AppTest, name: str, text: str) -> str:
    at.file_uploader(key="compare_upload").set_value((name, text.encode(), "text/yaml"))
    return only_error(at.run())


def test_compare_words_yaml_bombs_tags_typos_and_limits_in_chinese(db: Path) -> None:
    at = open_in_chinese("pages/compare.py")
    at.selectbox(key="compare_scenario").set_value(CATALOGS["zh"]["compare.upload_choice"]).run()
    owned = "name: t\nself_hosted: [{gpu: H100, servers: 1}]\n"

    bomb = _upload_scenario(at, "lol.yaml", owned + bomb_under("overrides"))
    tag = _upload_scenario(at, "tag.yaml", owned + "overrides: !!python/object:os.system x\n")
    typo = _upload_scenario(at, "typo.yaml", owned + "horizon_years: [3]\n")
    huge = _upload_scenario(
        at, "huge.yaml", "name: t\nself_hosted: [{gpu: H100, servers: 1000000000}]\n"
    )
    many = (
        "name: t\nself_hosted:\n  - {gpu: H100, servers: 60000}\n  - {gpu: A100, servers: 60000}\n"
    )
    too_many = _upload_scenario(at, "many.yaml", many)
    nan = _upload_scenario(at, "nan.yaml", owned + "discount_rate: .nan\n")

    assert "lol.yaml：第 11 行第 9 列：这个值经层层嵌套的锚点和别名" in bomb
    assert "超过 1,000,000 个值" in bomb
    assert "任何 TCO 场景都用不了这么多值" in bomb
    assert "tag.yaml：第 3 行第 12 列：不允许使用标签 !!python/object:" in tag
    assert "typo.yaml：`horizon_years`：未知的键；您是否想写 `horizons_years`？（第 3 行）" in typo
    assert "huge.yaml：`self_hosted.0.servers`：应小于或等于 100,000（第 2 行）" in huge
    assert "many.yaml：`self_hosted`：共 120,000 台服务器（2 个池），超过" in too_many
    assert "nan.yaml：`discount_rate`：应为有限的数字（不能是 NaN 或无穷大）（第 3 行）" in nan
    assert not at.metric


def test_the_cluster_page_words_a_kueue_bomb_in_chinese(db: Path) -> None:
    at = open_in_chinese("pages/cluster.py")
    kueue = "kind: ClusterQueue\nmetadata: {name: q}\n" + bomb_under("spec")

    at.file_uploader(key=key(at, "queue_upload")).set_value((
        "kueue.yaml", kueue.encode(), "text/yaml"
    ))  # fmt: skip
    shown = only_error(at.run())

    assert "第 11 行第 9 列" in shown
    assert "超过 1,000,000 个值" in shown
    assert "任何 Kueue YAML 都用不了这么多值" in shown
