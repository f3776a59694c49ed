"""Prices: the price book (cloud prices, quotes, CSV in and out), FX rates and bare metal."""

import streamlit as st

from planner.ui import frame
from planner.ui import prices_page as section
from planner.ui.i18n import t

frame.require_menu()

st.title(t("prices.title"))
st.caption(t("prices.caption"))
reporting = section.reporting_currency()
book_tab, add_tab, fx_tab, metal_tab = st.tabs(
    [t(f"prices.tab.{name}") for name in ("book", "add", "fx", "metal")]
)

# Writes come before the read, so a new quote, import or rate shows in the tables at once.
with add_tab:
    section.add_quote_form()
    section.import_section()
with fx_tab:
    fx_table = st.container()
    section.fx_form()

book = section.read_book(reporting)
with book_tab:
    shown = section.price_table(book, reporting)
    section.price_editor(shown)
with fx_table:
    section.fx_table(book)
with metal_tab:
    section.bare_metal(book)
