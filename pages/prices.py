"""Prices: the price book (cloud prices, quotes, CSV in and out), FX rates and bare metal."""

from datetime import date

import streamlit as st
from pydantic import ValidationError

from planner.errors import PlannerError
from planner.ui import frame
from planner.ui import prices_view as view
from pricing import CURRENCIES, DEFAULT_SET, PRICING_MODELS

frame.require_menu()

REPORT_KEY = "prices_import_report"  # (upload's file id, its ImportReport): import once
ERRORS = (PlannerError, ValidationError)

st.title("Prices")
st.caption(
    "The price book the cost pages use: cloud prices in their native currency with their date, "
    "source and confidence, FX rates, and bare-metal servers. The same data as `planner prices`."
)
current = st.session_state.get("reporting_currency", "USD")
reporting = st.selectbox(
    "Reporting currency", CURRENCIES, CURRENCIES.index(current), key="prices_reporting_currency"
)
st.session_state["reporting_currency"] = reporting  # outlives this page's widgets
book_tab, add_tab, fx_tab, metal_tab = st.tabs(
    ["Cloud prices", "Add or import", "FX", "Bare metal"]
)

# Writes come before the read, so a new quote, import or rate shows in the tables at once.
with add_tab, st.form("prices_add_form"):
    st.markdown("**Add a quote** (same key as a stored price: it replaces that price)")
    a, b, c = st.columns(3)
    quote = {
        "provider": a.text_input("Provider", key="prices_add_provider"),
        "region": b.text_input("Region (optional)", key="prices_add_region"),
        "instance_type": c.text_input("Instance", key="prices_add_instance"),
        "gpu_model": a.text_input("GPU", placeholder="H800 80GB SXM", key="prices_add_gpu"),
        "gpus_per_instance": b.number_input("GPUs per instance", value=8.0, key="prices_add_gpus"),
        "price_per_instance_hour": c.number_input(
            "Price per instance-hour", value=0.0, format="%.4f", key="prices_add_price"
        ),
        "currency": a.selectbox("Currency", CURRENCIES, key="prices_add_currency"),
        "pricing_model": b.selectbox("Pricing model", PRICING_MODELS, key="prices_add_model"),
        "as_of": c.date_input("As of", date.today(), key="prices_add_as_of"),
        "source_url": a.text_input("Source", key="prices_add_source"),
        "confidence": b.selectbox(
            "Confidence", ("H", "M", "L"), 1, help=view.CONFIDENCE_HELP, key="prices_add_confidence"
        ),
    }
    if st.form_submit_button("Add quote", icon=":material/add:", key="prices_add_submit"):
        try:
            st.success(view.add_quote(quote), icon=":material/check_circle:")
        except ERRORS as err:
            st.error(str(err), icon=":material/error:")
with add_tab:
    upload = st.file_uploader(
        f"Import prices (CSV as `planner prices export` writes it, up to {view.MAX_UPLOAD_MB} MB)",
        type=["csv"],
        max_upload_size=view.MAX_UPLOAD_MB,
        key="prices_import",
    )
    if upload is not None and st.session_state.get(REPORT_KEY, (None,))[0] != upload.file_id:
        try:  # once per uploaded file, not on every rerun
            outcome = view.import_csv(upload.getvalue(), upload.name)
        except ERRORS as err:
            outcome = str(err)
        st.session_state[REPORT_KEY] = (upload.file_id, outcome)
    if upload is not None:
        report = st.session_state[REPORT_KEY][1]
        if isinstance(report, str):
            st.error(report, icon=":material/error:")
        else:
            (st.warning if report.rejected else st.success)(report.summary_lines()[0])
            if report.errors:
                st.dataframe(view.rejected_rows(report), hide_index=True, key="prices_rejected")
with fx_tab:
    fx_table = st.container()
    with st.form("prices_fx_form"):
        base, quote_currency, rate, day, source = st.columns(5)
        fx = {
            "base": base.selectbox("Base", CURRENCIES, key="prices_fx_base"),
            "quote": quote_currency.selectbox("Quote", CURRENCIES, 1, key="prices_fx_quote"),
            "rate": rate.number_input("Rate", value=1.0, format="%.4f", key="prices_fx_rate"),
            "rate_date": day.date_input("Date", date.today(), key="prices_fx_date"),
            "source": source.text_input("Source", key="prices_fx_source"),
        }
        if st.form_submit_button("Add FX rate", icon=":material/add:", key="prices_fx_submit"):
            try:
                st.success(view.add_fx(fx), icon=":material/check_circle:")
            except ERRORS as err:
                st.error(str(err), icon=":material/error:")

try:
    book = view.read_book(reporting)
except PlannerError as err:
    st.error(str(err), icon=":material/error:")
    st.stop()

with book_tab:
    options = view.filter_choices(book.prices)
    provider, gpu, model, currency = st.columns(4)
    chosen = {
        "provider": provider.multiselect("Provider", options["provider"], key="prices_provider"),
        "gpu_model": gpu.multiselect("GPU", options["gpu_model"], key="prices_gpu"),
        "pricing_model": model.multiselect(
            "Pricing model", options["pricing_model"], key="prices_model"
        ),
        "currency": currency.multiselect("Currency", options["currency"], key="prices_currency"),
    }
    shown = view.filter_prices(book.prices, chosen)
    st.caption(f"{len(shown)} of {len(book.prices)} prices; {int(shown['stale'].sum())} stale.")
    config = view.price_config(reporting)
    st.dataframe(shown, hide_index=True, column_config=config, key="prices_table")
    st.download_button(
        "Download the price book (CSV)",
        view.export_csv,  # a callable: the file is written only when the button is pressed
        file_name="prices.csv",
        mime="text/csv",
        on_click="ignore",
        icon=":material/download:",
        key="prices_export",
    )
with fx_table:
    st.markdown("1 **base** = **rate** **quote** on the date. Replace placeholder rates.")
    st.dataframe(book.fx, hide_index=True, column_config=view.FX_CONFIG, key="prices_fx_table")
with metal_tab:
    st.markdown("**Servers**: price, and power at maximum, idle and full load (kW)")
    st.dataframe(book.servers, hide_index=True, column_config=view.SERVER_CONFIG)
    st.markdown(f"**Assumptions** (set `{DEFAULT_SET}`, read-only)")
    st.dataframe(book.assumptions, hide_index=True, column_config=view.ASSUMPTION_CONFIG)
