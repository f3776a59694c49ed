"""Coded notes: the CLI prints the English text; the app and the reports word the code."""

import json
import pickle
import string

from planner.core.notes import CHINESE, ENGLISH, Note, note, worded
from planner.engine.calibration import CalibrationSpec, error_bar_text
from planner.ui.i18n import note_text
from planner.ui.text import CATALOGS


def test_a_note_is_its_english_text_and_keeps_its_code() -> None:
    said = note("bridge_cloud", months=4, option="AWS H100")
    assert said == (
        "servers are paid at order and cost to run and depreciate from delivery, 4 months "
        "later; meanwhile the demand runs on AWS H100 (the bridge category, left out of the "
        "cost per installed GPU-hour)"
    )
    assert json.dumps([said]) == json.dumps([str(said)])  # saved results read the same
    again = pickle.loads(pickle.dumps(said))  # st.cache_data pickles reports
    assert (again, again.code, again.values) == (said, "bridge_cloud", said.values)


def test_the_page_words_every_code_in_chinese() -> None:
    assert set(ENGLISH) == {
        key.removeprefix("notes.") for key in CATALOGS["zh"] if key.startswith("notes.")
    }
    said = note("placeholder_fx", price=note("server", name="A100"), base="EUR", quote="USD")
    assert note_text(said, "en") == str(said)
    assert note_text(said, "zh").startswith("服务器 A100：按占位汇率把 EUR 换算为 USD")
    assert note_text("a note saved as text", "zh") == "a note saved as text"
    assert note_text(Note("no such code", "nope"), "zh") == "no such code"


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_code_is_worded_in_both_languages_with_the_same_values() -> None:
    assert set(CHINESE) == set(ENGLISH)
    for code, english in ENGLISH.items():
        assert _placeholders(CHINESE[code]) == _placeholders(english), code


def test_the_reports_word_a_note_and_its_noted_values_without_the_app() -> None:
    said = note("stale_price", price=note("server", name="8xH100"), as_of="2024-08-01", age=853,
                limit=90)  # fmt: skip

    assert worded(said, "en") == str(said)
    assert worded(said, "zh") == (
        "服务器 8xH100：价格日期为 2024-08-01，已过时（853 天，超过 90 天的期限）；"
        "请在“价格”页面或用 `planner prices` 更新"
    )
    assert worded("typed by hand", "zh") == "typed by hand"
    assert worded(Note("an unknown code", "nope"), "zh") == "an unknown code"


def test_a_calibrated_replays_error_bar_is_a_coded_note() -> None:
    spec = CalibrationSpec.from_fit(
        None,
        fitted_on="",
        fit_until_s=100.0,
        validation_window_s=(100.0, 200.0),
        validation={"p50_ratio": 1.0, "p90_ratio": None, "p99_ratio": 1.06, "verdict": ""},
    )
    bar = spec.error_bar()
    assert bar is not None

    said = error_bar_text(bar)

    assert said == (
        "calibrated on a history: validation window p50 x1.0, p90 n/a, p99 x1.06 of observed; "
        "withdrawn n/a"
    )
    assert worded(said, "zh") == (
        "已按 一段作业历史 校准：验证窗口内 p50 为实测的 x1.0、p90 为 无、p99 为 x1.06；撤回为 无"
    )
