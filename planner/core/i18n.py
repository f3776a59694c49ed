"""Number and money formats with an explicit currency, and catalog lookup with an explicit
language: the parts of the app's i18n that need no Streamlit session.

`planner/ui/i18n.py` wraps these with the session's language and reporting currency; the
report writers (`planner/report/`) call them directly. Nothing here may import Streamlit.

Numbers follow the currency, not the language: a CFO reading euros expects "1.234,50 €"
whichever language the labels are in.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Language = Literal["en", "zh"]


def lookup(
    catalogs: Mapping[str, Mapping[str, str]], key: str, lang: Language, **values: object
) -> str:
    """The text `key` in `lang`, falling back to English, with `{name}` filled from `values`;
    a key missing from English is a bug (KeyError)."""
    text = catalogs[lang].get(key) or catalogs["en"][key]
    return text.format(**values) if values else text


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

    def excel_format(self, decimals: int | None = None) -> str:
        """An Excel number format for money in this currency (Excel applies the reader's
        own thousands and decimal marks; the symbol and its side are ours)."""
        digits = self.decimals if decimals is None else decimals
        body = "#,##0" + ("." + "0" * digits if digits else "")
        symbol = self.symbol.strip()
        shown = f'{body} "{symbol}"' if self.symbol_after else f'"{self.symbol}"{body}'
        return f"{shown};-{shown}"


STYLES: dict[str, NumberStyle] = {
    "USD": NumberStyle("$"),
    "CNY": NumberStyle("¥"),
    "GBP": NumberStyle("£"),
    "JPY": NumberStyle("¥", decimals=0),
    "EUR": NumberStyle("€", symbol_after=True, thousands=".", decimal=","),
    "CHF": NumberStyle("CHF ", thousands="'"),
    "INR": NumberStyle("₹"),
}


def number_style(currency: str) -> NumberStyle:
    code = currency.upper()
    return STYLES.get(code, NumberStyle(code + " "))


def _unknown(value: float | None) -> bool:
    return value is None or not math.isfinite(value)


def fmt_number(value: float | None, decimals: int, currency: str, na: str = "n/a") -> str:
    """`value` with the currency's thousands and decimal marks; `na` if unknown."""
    if value is None or _unknown(value):
        return na
    style = number_style(currency)
    text = f"{value:,.{decimals}f}"
    return text.translate({ord(","): "\x00", ord("."): style.decimal}).replace(
        "\x00", style.thousands
    )


def fmt_money(
    value: float | None, currency: str, decimals: int | None = None, na: str = "n/a"
) -> str:
    """`value` as money in `currency`: "$1,234.50", "1.234,50 €", "¥1,235" for yen."""
    if value is None or _unknown(value):
        return na
    style = number_style(currency)
    digits = style.decimals if decimals is None else decimals
    body = fmt_number(abs(value), digits, currency)
    sign = "-" if value < 0 else ""
    if style.symbol_after:
        return f"{sign}{body} {style.symbol.strip()}"
    return f"{sign}{style.symbol}{body}"


def fmt_percent(share: float | None, decimals: int, currency: str, na: str = "n/a") -> str:
    """A share (0.35) as a percentage ("35.0%", "35,0 %" for euros)."""
    if share is None or _unknown(share):
        return na
    body = fmt_number(share * 100, decimals, currency)
    return f"{body} %" if number_style(currency).decimal == "," else f"{body}%"
