"""The language catalogs and number formats (pure: no app run needed)."""

import re
import string

import pytest

from planner.ui.i18n import fmt_duration, fmt_money, fmt_number, fmt_percent, t
from planner.ui.text import CATALOGS


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_text_exists_in_both_languages() -> None:
    missing_zh = sorted(set(CATALOGS["en"]) - set(CATALOGS["zh"]))
    missing_en = sorted(set(CATALOGS["zh"]) - set(CATALOGS["en"]))
    assert missing_zh == [], f"texts without a Chinese version: {missing_zh}"
    assert missing_en == [], f"Chinese texts without an English key: {missing_en}"


def test_translations_keep_their_placeholders() -> None:
    differ = {
        key: (_fields(text), _fields(CATALOGS["zh"][key]))
        for key, text in CATALOGS["en"].items()
        if _fields(text) != _fields(CATALOGS["zh"].get(key, text))
    }
    assert differ == {}


def test_chinese_texts_are_translated() -> None:
    # A Chinese text with no CJK character is almost always an untranslated copy. Its
    # placeholders ("{placement}，{measure}") are filled in at run time, not text to translate.
    cjk = re.compile(r"[\u4e00-\u9fff]")
    words = re.compile(r"[A-Za-z]{4,}")
    untranslated = [
        key
        for key, text in CATALOGS["zh"].items()
        if not cjk.search(text) and words.search(re.sub(r"\{[^}]*\}|GPU", "", text))
    ]
    assert untranslated == []


def test_lookup_fills_placeholders_and_falls_back() -> None:
    assert t("nav.replay", "zh") == "回放"
    assert t("nav.replay", "en") == "Replay"
    with pytest.raises(KeyError):
        t("no.such.text", "en")


@pytest.mark.parametrize(
    ("value", "currency", "expected"),
    [
        (1234.5, "USD", "$1,234.50"),
        (-1234.5, "USD", "-$1,234.50"),
        (1234.5, "EUR", "1.234,50 €"),
        (1234.5, "JPY", "¥1,234"),
        (1234567.891, "CNY", "¥1,234,567.89"),
        (None, "USD", "n/a"),
    ],
)
def test_money_follows_the_currency(value: float | None, currency: str, expected: str) -> None:
    assert fmt_money(value, currency) == expected


def test_numbers_and_percentages_follow_the_currency() -> None:
    assert fmt_number(1234567.5, 1, "EUR") == "1.234.567,5"
    assert fmt_number(1234567.5, 1, "USD") == "1,234,567.5"
    assert fmt_percent(0.3629, 1, "USD") == "36.3%"
    assert fmt_percent(0.3629, 1, "EUR") == "36,3 %"


def test_durations_pick_a_readable_unit() -> None:
    assert fmt_duration(42) == "42 s"
    assert fmt_duration(90 * 60) == "1.5 h"
    assert fmt_duration(3 * 86_400) == "3.0 days"
