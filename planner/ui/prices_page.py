"""The Prices page's sections: each draws its widgets and calls `prices_view`/`prices_edit`.

`pages/prices.py` lays these out in its tabs; nothing here reads the store directly.
"""

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any, cast

import pandas as pd
import streamlit as st
from pydantic import ValidationError

from planner.core.errors import PlannerError
from planner.ui import prices_edit as edit
from planner.ui import prices_view as view
from planner.ui.i18n import MISSING, t
from planner.ui.safe import md
from planner.ui.uploader import MIB, file_uploader
from pricing import CURRENCIES, DEFAULT_SET, PRICING_MODELS, ImportReport

REPORT_KEY = "prices_import_report"  # (upload's file id, its ImportReport): import once
ERRORS = (PlannerError, ValidationError)


def reporting_currency() -> str:
    """The reporting currency's choice; it outlives this page's widgets."""
    current = st.session_state.get("reporting_currency", "USD")
    reporting: str = st.selectbox(
        t("prices.reporting"),
        CURRENCIES,
        CURRENCIES.index(current),
        help=t("prices.reporting_help"),
        key="prices_reporting_currency",
    )
    st.session_state["reporting_currency"] = reporting
    return reporting


def add_quote_form() -> None:
    """The form for one cloud price quote; saved on submit. The pricing model is chosen
    outside the form, so the term field shows only for the models that take a term."""
    st.markdown(t("prices.add_heading"))
    models = {m: t(f"labels.pricing.{m}") for m in PRICING_MODELS}  # fixed now, for AppTest
    model = st.selectbox(
        t("prices.pricing_model"), PRICING_MODELS, format_func=models.__getitem__,
        key="prices_add_model",
    )  # fmt: skip
    with st.form("prices_add_form"):
        quote = _quote_fields() | {"pricing_model": model}
        if view.needs_term(model):
            quote["term_months"] = st.number_input(
                t("prices.term_months"),
                value=None,
                step=1,
                help=t("prices.term_help"),
                key="prices_add_term",
            )
        if st.form_submit_button(
            t("prices.add_quote"), icon=":material/add:", key="prices_add_submit"
        ):
            _say_saved(view.add_quote, quote)


def _quote_fields() -> dict[str, object]:
    a, b, c = st.columns(3)
    return {
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


def _say_saved(save: Callable[[Mapping[str, object]], str], fields: Mapping[str, object]) -> None:
    try:
        st.success(save(fields), icon=":material/check_circle:")
    except ERRORS as err:
        st.error(md(err), icon=":material/error:")


def import_section() -> None:
    """The CSV import: each uploaded file is imported once, its report shown on every run."""
    upload = file_uploader(
        t("prices.import"), ["csv"], key="prices_import", max_bytes=view.MAX_UPLOAD_MB * MIB
    )
    if upload is None:
        return
    if st.session_state.get(REPORT_KEY, (None,))[0] != upload.file_id:
        try:  # once per uploaded file, not on every rerun
            outcome: ImportReport | str = view.import_csv(upload.getvalue(), upload.name)
        except ERRORS as err:
            outcome = str(err)
        st.session_state[REPORT_KEY] = (upload.file_id, outcome)
    _import_report(st.session_state[REPORT_KEY][1])


def _import_report(report: ImportReport | str) -> None:
    if isinstance(report, str):
        st.error(md(report), icon=":material/error:")
        return
    (st.warning if report.rejected else st.success)(view.import_summary(report))
    if report.errors:
        rejected = view.rejected_rows(report)
        headers = view.assumption_config(rejected.columns)
        st.dataframe(
            rejected,
            hide_index=True,
            column_config=headers,
            key="prices_rejected",
            placeholder=MISSING,
        )


def fx_form() -> None:
    """The form for one FX rate; saved on submit."""
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
            _say_saved(view.add_fx, fx)


def read_book(reporting: str) -> view.Book:
    """The price book in `reporting`; on a store error, say so and stop the page."""
    try:
        return view.read_book(reporting)
    except PlannerError as err:
        st.error(t("prices.book_error", error=md(err)), icon=":material/error:")
        st.stop()


def _pricing_label(model: str) -> str:
    return t(f"labels.pricing.{model}") if model in PRICING_MODELS else model


def price_table(book: view.Book, reporting: str) -> pd.DataFrame:
    """The filters, the filtered prices and their download; returns the rows shown."""
    options = view.filter_choices(book.prices)
    provider, gpu, model, currency = st.columns(4)
    chosen = {
        "provider": provider.multiselect(
            t("prices.provider"), options["provider"], key="prices_provider"
        ),
        "gpu_model": gpu.multiselect(t("prices.gpu"), options["gpu_model"], key="prices_gpu"),
        "pricing_model": model.multiselect(
            t("prices.pricing_model"),
            options["pricing_model"],
            format_func=_pricing_label,  # in words, with the price book's code
            key="prices_model",
        ),
        "currency": currency.multiselect(
            t("prices.currency"), options["currency"], key="prices_currency"
        ),
    }
    shown = view.filter_prices(book.prices, chosen)
    stale = int(shown["stale"].sum())
    st.caption(t("prices.shown", shown=len(shown), total=len(book.prices), stale=stale))
    config = view.price_config(reporting)
    st.dataframe(
        view.in_words(shown),
        hide_index=True,
        column_config=config,
        key="prices_table",
        placeholder=MISSING,
    )
    st.download_button(
        t("prices.download"),
        view.export_csv,  # a callable: the file is written only when the button is pressed
        file_name="prices.csv",
        mime="text/csv",
        on_click="ignore",
        icon=":material/download:",
        key="prices_export",
    )
    return shown


def price_editor(shown: pd.DataFrame) -> None:
    """Pick one of the shown prices and edit it in a form."""
    st.markdown(t("prices.edit_heading"))
    edit.show_outcome("price")
    rows = cast("list[dict[str, Any]]", shown.to_dict("records"))  # pandas types keys loosely
    labels = {row["key"]: edit.price_label(row) for row in rows}
    if not labels:
        st.caption(t("prices.nothing_to_edit"))
        return
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


def fx_table(book: view.Book) -> None:
    st.markdown(t("prices.fx_note"))
    fx_headers = view.fx_config(book.fx.columns)
    st.dataframe(
        book.fx,
        hide_index=True,
        column_config=fx_headers,
        key="prices_fx_table",
        placeholder=MISSING,
    )


def bare_metal(book: view.Book) -> None:
    """The editable servers and the default assumption set."""
    st.markdown(t("prices.servers_heading"))
    edit.editor_form("servers", book.servers, "server", edit.server_editor_config)
    st.markdown(t("prices.assumptions_heading", set=DEFAULT_SET))
    edit.editor_form("assumptions", book.assumptions, "name", edit.assumption_editor_config)
