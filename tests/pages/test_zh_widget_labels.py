"""Choices keep the session's language when AppTest (or Streamlit) formats them later.

Streamlit keeps a widget's `format_func` and AppTest calls it outside the script run, where
the session's language cannot be read and `t()` answers in English: a lambda calling `t()`
there words a Chinese page's options in English, and setting a value fails ("not in list").
The labels are made during the run instead; each widget below is set by value in 简体中文.
"""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.pages.app import RUN_CEILING_S, open_app_page

TIMEOUT_S = RUN_CEILING_S


def _compare_in_chinese() -> AppTest:
    return open_app_page("pages/compare.py", TIMEOUT_S, lang="zh")


def test_the_option_forms_choices_are_set_by_value_in_chinese(db: Path) -> None:
    at = _compare_in_chinese()

    at.radio(key="opt_kind").set_value("cloud").run()
    at.selectbox(key="opt_payment").set_value("reserved").run()
    at.selectbox(key="opt_instance_AWS_H100").set_value(None).run()

    assert not at.exception
    payment = at.selectbox(key="opt_payment")
    assert payment.value == "reserved"
    assert payment.options[payment.index] == "预留实例"
    assert not any(o.isascii() for o in payment.options)


def test_the_horizon_and_chargeback_rule_are_set_by_value_in_chinese(db: Path) -> None:
    at = _compare_in_chinese()
    horizon = at.selectbox(key="compare_horizon")

    horizon.set_value(len(horizon.options) - 1).run()
    at.radio(key="chargeback_rule").set_value("quota").run()

    assert not at.exception
    assert at.selectbox(key="compare_horizon").value == len(horizon.options) - 1
    assert all("年" in o for o in at.selectbox(key="compare_horizon").options)
    rule = at.radio(key="chargeback_rule")
    assert (rule.value, rule.options[rule.index]) == ("quota", "按配额分摊")
