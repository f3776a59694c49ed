"""Prices: the price book (cloud prices, quotes, CSV in and out), FX rates and bare metal."""

from datetime import date

import streamlit as st
from pydantic import ValidationError

from planner.core.errors import PlannerError
from planner.ui import frame
from planner.ui import prices_edit as edit
from planner.ui import prices_view as view
from planner.ui.i18n import t
from planner.ui.safe import md
from pricing import CURRENCIES, DEFAULT_SET, PRICING_MODELS

frame.require_menu()

REPORT_KEY = "prices_import_report"  # (upload's file id, its ImportReport): import once
ERRORS = (PlannerError, ValidationError)

st.title(t("prices.title"))
st.caption(t("prices.caption"))
current = st.session_state.get("reporting_currency", "USD")
reporting = st.selectbox(
    t("prices.reporting"),
    CURRENCIES,
    CURRENCIES.index(current),
    help=t("prices.reporting_help"),
    key="prices_reporting_currency",
)
st.session_state["reporting_currency"] = reporting  # outlives this page's widgets
book_tab, add_tab, fx_tab, metal_tab = st.tabs(
    [t(f"prices.tab.{name}") for name in ("book", "add", "fx", "metal")]
)

# Writes come before the read, so a new quote, import or rate shows in the tables at once.
with add_tab, st.form("prices_add_form"):
    st.markdown(t("prices.add_heading"))
    a, b, c = st.columns(3)
    quote = {
        "provider": a.text_input(t("prices.provider"), key="prices_add_provider"),
        "region": b.text_input(t("prices.region_optional"), key="prices_add_region"),
        "instance_type": c.text_input(t("prices.instance"), key="prices_add_instance"),
        "gpu_model": a.text_input(
            t("prices.gpu"), placeholder="H800 80GB SXM", key="prices_add_gpu"
        ),
        "gpus_per_instance": b.number_input(
            t("prices.gpus_per_instance"), value=8.0, key="prices_add_gpus"
        ),
        "price_per_instance_hour": c.number_input(
            t("prices.price_per_instance_hour"), value=0.0, format="%.4f", key="prices_add_price"
        ),
        "currency": a.selectbox(t("prices.currency"), CURRENCIES, key="prices_add_currency"),
        "pricing_model": b.selectbox(
            t("prices.pricing_model"), PRICING_MODELS, key="prices_add_model"
        ),
        "as_of": c.date_input(t("prices.as_of"), date.today(), key="prices_add_as_of"),
        "source_url": a.text_input(t("prices.source"), key="prices_add_source"),
        "confidence": b.selectbox(
            t("prices.confidence"),
            ("H", "M", "L"),
            1,
            help=t("prices.confidence_help"),
            key="prices_add_confidence",
        ),
    }
    if st.form_submit_button(t("prices.add_quote"), icon=":material/add:", key="prices_add_submit"):
        try:
            st.success(view.add_quote(quote), icon=":material/check_circle:")
        except ERRORS as err:
            st.error(md(err), icon=":material/error:")
with add_tab:
    upload = st.file_uploader(
        t("prices.import", mb=view.MAX_UPLOAD_MB),
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
            st.error(md(report), icon=":material/error:")
        else:
            (st.warning if report.rejected else st.success)(view.import_summary(report))
            if report.errors:
                rejected = view.rejected_rows(report)
                headers = view.assumption_config(rejected.columns)
                st.dataframe(
                    rejected, hide_index=True, column_config=headers, key="prices_rejected"
                )
with fx_tab:
    fx_table = st.container()
    with st.form("prices_fx_form"):
        base, quote_currency, rate, day, source = st.columns(5)
        fx = {
            "base": base.selectbox(t("prices.fx_base"), CURRENCIES, key="prices_fx_base"),
            "quote": quote_currency.selectbox(
                t("prices.fx_quote"), CURRENCIES, 1, key="prices_fx_quote"
            ),
            "rate": rate.number_input(
                t("prices.fx_rate"), value=1.0, format="%.4f", key="prices_fx_rate"
            ),
            "rate_date": day.date_input(t("prices.fx_date"), date.today(), key="prices_fx_date"),
            "source": source.text_input(t("prices.source"), key="prices_fx_source"),
        }
        if st.form_submit_button(t("prices.add_fx"), icon=":material/add:", key="prices_fx_submit"):
            try:
                st.success(view.add_fx(fx), icon=":material/check_circle:")
            except ERRORS as err:
                st.error(md(err), icon=":material/error:")

try:
    book = view.read_book(reporting)
except PlannerError as err:
    st.error(t("prices.book_error", error=md(err)), icon=":material/error:")
    st.stop()

with book_tab:
    options = view.filter_choices(book.prices)
    provider, gpu, model, currency = st.columns(4)
    chosen = {
        "provider": provider.multiselect(
            t("prices.provider"), options["provider"], key="prices_provider"
        ),
        "gpu_model": gpu.multiselect(t("prices.gpu"), options["gpu_model"], key="prices_gpu"),
        "pricing_model": model.multiselect(
            t("prices.pricing_model"), options["pricing_model"], key="prices_model"
        ),
        "currency": currency.multiselect(
            t("prices.currency"), options["currency"], key="prices_currency"
        ),
    }
    shown = view.filter_prices(book.prices, chosen)
    stale = int(shown["stale"].sum())
    st.caption(t("prices.shown", shown=len(shown), total=len(book.prices), stale=stale))
    config = view.price_config(reporting)
    st.dataframe(shown, hide_index=True, column_config=config, key="prices_table")
    st.download_button(
        t("prices.download"),
        view.export_csv,  # a callable: the file is written only when the button is pressed
        file_name="prices.csv",
        mime="text/csv",
        on_click="ignore",
        icon=":material/download:",
        key="prices_export",
    )
    st.markdown(t("prices.edit_heading"))
    edit.show_outcome("price")
    labels = {row["key"]: edit.price_label(row) for row in shown.to_dict("records")}
    if not labels:
        st.caption(t("prices.nothing_to_edit"))
    else:
        chosen_key = st.selectbox(
            t("prices.edit_pick"), list(labels), format_func=labels.__getitem__, key=edit.PRICE_KEY
        )
        edit.prefill(chosen_key)
        with st.form("prices_edit_form"):
            a, b, c = st.columns(3)
            a.number_input(
                t("prices.price_per_instance_hour"),
                format="%.4f",
                key=edit.widget("price_per_instance_hour"),
            )
            b.selectbox(t("prices.currency"), CURRENCIES, key=edit.widget("currency"))
            c.date_input(t("prices.as_of"), key=edit.widget("as_of"))
            a.text_input(t("prices.source"), key=edit.widget("source_url"))
            b.selectbox(
                t("prices.confidence"),
                ("H", "M", "L"),
                help=t("prices.confidence_help"),
                key=edit.widget("confidence"),
            )
            c.text_input(t("prices.notes"), key=edit.widget("notes"))
            st.form_submit_button(
                t("prices.save_price"),
                icon=":material/save:",
                on_click=edit.guarded("price", edit.save_price),
                key="prices_edit_submit",
            )
with fx_table:
    st.markdown(t("prices.fx_note"))
    fx_headers = view.fx_config(book.fx.columns)
    st.dataframe(book.fx, hide_index=True, column_config=fx_headers, key="prices_fx_table")
with metal_tab:
    st.markdown(t("prices.servers_heading"))
    edit.editor_form("servers", book.servers, "server", edit.server_editor_config)
    st.markdown(t("prices.assumptions_heading", set=DEFAULT_SET))
    edit.editor_form("assumptions", book.assumptions, "name", edit.assumption_editor_config)
