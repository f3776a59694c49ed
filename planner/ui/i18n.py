"""The app's language and number formats: English or 简体中文, money in the reporting currency.

Texts live in `planner/ui/text/<page>.py` as two dicts, `EN` and `ZH`, keyed
"<page>.<what>"; `t()` looks a key up in the session's language and fills `{placeholders}`.
A key missing from the chosen language falls back to English, and a key missing from English
is a bug (KeyError), which tests/pages/test_i18n.py catches for every catalog.

Numbers follow the reporting currency, not the language: a CFO reading euros expects
"1.234,50 €" whichever language the labels are in.
"""

import math
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from planner.ui.text import CATALOGS

Language = Literal["en", "zh"]
LANGUAGES: dict[Language, str] = {"en": "English", "zh": "简体中文"}
LANG_KEY = "lang"
CURRENCY_KEY = "reporting_currency"  # the Prices page's reporting currency, kept per session


def language() -> Language:
    """The session's language (English outside a Streamlit session)."""
    try:
        value = st.session_state.get(LANG_KEY, "en")
    except Exception:
        return "en"
    return "zh" if value == "zh" else "en"


def t(key: str, lang: Language | None = None, **values: object) -> str:
    """The text `key` in `lang` (default: the session's), with `{name}` filled from `values`."""
    chosen = CATALOGS[lang or language()]
    text = chosen.get(key) or CATALOGS["en"][key]
    return text.format(**values) if values else text


def reporting_currency() -> str:
    try:
        return str(st.session_state.get(CURRENCY_KEY, "USD")).upper()
    except Exception:
        return "USD"


@dataclass(frozen=True, slots=True)
class NumberStyle:
    """How amounts in one currency are written."""

    symbol: str
    symbol_after: bool = False
    thousands: str = ","
    decimal: str = "."
    decimals: int = 2

    @property
    def plotly_separators(self) -> str:
        """Plotly's `layout.separators`: the decimal mark, then the thousands mark."""
        return self.decimal + self.thousands


STYLES: dict[str, NumberStyle] = {
    "USD": NumberStyle("$"),
    "CNY": NumberStyle("¥"),
    "GBP": NumberStyle("£"),
    "JPY": NumberStyle("¥", decimals=0),
    "EUR": NumberStyle("€", symbol_after=True, thousands=".", decimal=","),
    "CHF": NumberStyle("CHF ", thousands="'"),
    "INR": NumberStyle("₹"),
}


def number_style(currency: str | None = None) -> NumberStyle:
    code = (currency or reporting_currency()).upper()
    return STYLES.get(code, NumberStyle(code + " "))


def fmt_number(value: float | None, decimals: int = 0, currency: str | None = None) -> str:
    """`value` with the reporting currency's thousands and decimal marks; "n/a" if unknown."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return t("common.na")
    style = number_style(currency)
    text = f"{value:,.{decimals}f}"
    return text.translate({ord(","): "\x00", ord("."): style.decimal}).replace(
        "\x00", style.thousands
    )


def fmt_money(value: float | None, currency: str | None = None, decimals: int | None = None) -> str:
    """`value` as money in `currency` (default: the reporting currency): "$1,234.50",
    "1.234,50 €", "¥1,235" for yen."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return t("common.na")
    style = number_style(currency)
    digits = style.decimals if decimals is None else decimals
    body = fmt_number(abs(value), digits, currency)
    sign = "-" if value < 0 else ""
    if style.symbol_after:
        return f"{sign}{body} {style.symbol.strip()}"
    return f"{sign}{style.symbol}{body}"


def fmt_percent(share: float | None, decimals: int = 1, currency: str | None = None) -> str:
    """A share (0.35) as a percentage ("35.0%", "35,0 %" for euros)."""
    if share is None or not math.isfinite(share):
        return t("common.na")
    body = fmt_number(share * 100, decimals, currency)
    return f"{body} %" if number_style(currency).decimal == "," else f"{body}%"


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
