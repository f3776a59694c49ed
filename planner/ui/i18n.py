"""The app's language and number formats: English or 简体中文, money in the reporting currency.

Texts live in `planner/ui/text/<page>.py` as two dicts, `EN` and `ZH`, keyed
"<page>.<what>"; `t()` looks a key up in the session's language and fills `{placeholders}`.
A key missing from the chosen language falls back to English, and a key missing from English
is a bug (KeyError), which tests/pages/test_i18n.py catches for every catalog.

Numbers follow the reporting currency, not the language: a CFO reading euros expects
"1.234,50 €" whichever language the labels are in.
"""

import math

import streamlit as st

from planner.core import i18n as core
from planner.core.i18n import STYLES, Language, NumberStyle
from planner.core.notes import worded
from planner.ui.text import CATALOGS

__all__ = [
    "CURRENCY_KEY",
    "LANGUAGES",
    "LANG_KEY",
    "STYLES",
    "Language",
    "NumberStyle",
    "fmt_duration",
    "fmt_money",
    "fmt_number",
    "fmt_percent",
    "language",
    "language_switch",
    "note_text",
    "number_style",
    "reporting_currency",
    "t",
]

LANGUAGES: dict[Language, str] = {"en": "English", "zh": "简体中文"}
LANG_KEY = "lang"
CURRENCY_KEY = "reporting_currency"  # the Prices page's reporting currency, kept per session
MISSING = "–"
"""What a table shows in a cell with no value (Streamlit writes "None" unless told), in every
language: `st.dataframe(..., placeholder=MISSING)`."""


def language() -> Language:
    """The session's language (English outside a Streamlit session)."""
    try:
        value = st.session_state.get(LANG_KEY, "en")
    except Exception:
        return "en"
    return "zh" if value == "zh" else "en"


def t(key: str, lang: Language | None = None, **values: object) -> str:
    """The text `key` in `lang` (default: the session's), with `{name}` filled from `values`."""
    return core.lookup(CATALOGS, key, lang or language(), **values)


def note_text(note: str, lang: Language | None = None) -> str:
    """A core note (`planner.core.notes.Note`) worded in `lang` (default: the session's), as
    the reports word it; any other text as it is."""
    return worded(note, lang or language())


def reporting_currency() -> str:
    try:
        return str(st.session_state.get(CURRENCY_KEY, "USD")).upper()
    except Exception:
        return "USD"


def number_style(currency: str | None = None) -> NumberStyle:
    return core.number_style(currency or reporting_currency())


def fmt_number(value: float | None, decimals: int = 0, currency: str | None = None) -> str:
    """`value` with the reporting currency's thousands and decimal marks; "n/a" if unknown."""
    return core.fmt_number(value, decimals, currency or reporting_currency(), t("common.na"))


def fmt_money(value: float | None, currency: str | None = None, decimals: int | None = None) -> str:
    """`value` as money in `currency` (default: the reporting currency): "$1,234.50",
    "1.234,50 €", "¥1,235" for yen."""
    return core.fmt_money(value, currency or reporting_currency(), decimals, t("common.na"))


def fmt_percent(share: float | None, decimals: int = 1, currency: str | None = None) -> str:
    """A share (0.35) as a percentage ("35.0%", "35,0 %" for euros)."""
    return core.fmt_percent(share, decimals, currency or reporting_currency(), t("common.na"))


def fmt_duration(seconds: float | None) -> str:
    """A wait or run time in the largest unit that keeps it readable (s, min, h, d)."""
    if seconds is None or not math.isfinite(seconds):
        return t("common.na")
    for limit, divisor, unit in ((60, 1, "s"), (3600, 60, "min"), (86_400, 3600, "h")):
        if seconds < limit:
            return f"{fmt_number(seconds / divisor, 0 if divisor == 1 else 1)} {t('unit.' + unit)}"
    return f"{fmt_number(seconds / 86_400, 1)} {t('unit.d')}"


def language_switch() -> None:
    """The sidebar's language choice; it outlives every page's widgets."""
    current = language()
    choice = st.sidebar.segmented_control(
        "Language / 语言",
        list(LANGUAGES),
        default=current,
        format_func=LANGUAGES.__getitem__,
        key="lang_choice",
    )
    st.session_state[LANG_KEY] = choice or current
