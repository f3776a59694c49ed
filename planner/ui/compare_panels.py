"""The Compare page's two panels: several saved scenarios side by side, and one scenario file
(bundled or uploaded). Widgets and layout only; numbers come from `compare_view` and
`compare_saved`, figures from `charts`.
"""

import io
import zipfile
from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from planner.core.errors import PlannerError
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.report import flips
from planner.report.csv_table import frame_csv
from planner.report.pdf_service import cloud_lines, service_assumptions
from planner.report.text import text as report_text
from planner.ui import (
    cache,
    chargeback_view,
    compare_kept,
    cost_charts,
    ledger_view,
    scenario_box,
    twin_frames,
)
from planner.ui import compare_saved as many
from planner.ui import compare_view as view
from planner.ui.downloads import report_downloads
from planner.ui.error_text import error_text
from planner.ui.i18n import MISSING, fmt_money, fmt_number, fmt_percent, language, note_text, t
from planner.ui.safe import md
from planner.ui.uploader import MIB, file_uploader
from planner.ui.widgets import plot

LAST_REPORT = "compare_last_report"  # a compare_view.ShownReport, for the Overview page
YEARS = (1, 2, 3, 4, 5, 7, 10)
FLASH = "compare_saved_flash"  # a message to show after the rerun that follows a save
PICKED = "compare_saved"  # the multiselect of saved scenarios to compare
ADDED = "compare_saved_added"  # a scenario saved on this page, to join the comparison


def _table(frame: pd.DataFrame, currency: str, key: str) -> None:
    labels = view.column_labels(currency)
    number = st.column_config.NumberColumn
    config = {
        labels["total"]: number(format="%,.0f"),
        labels["per_useful"]: number(format="%.2f"),
        labels["mean_wait_h"]: number(format="%.2f"),
        labels["p95_wait_h"]: number(format="%.2f"),
        labels["served_share"]: number(format="percent", help=t("compare.col_served_share_help")),
        labels["served_elsewhere"]: number(
            format="%,.0f", help=t("compare.col_served_elsewhere_help")
        ),
        labels["packing_overhead"]: number(
            format="%.2fx", help=t("compare.col_packing_overhead_help")
        ),
        labels["price_floor"]: number(format="%,.0f", help=t("compare.col_price_floor_help")),
        labels["eac"]: number(format="%,.0f", help=t("compare.col_eac_help")),
        labels["utilization"]: number(format="percent", help=t("compare.col_utilization_help")),
    }
    shown = frame.assign(option=frame["option"].map(cost_charts.option_label))
    shown = shown.rename(columns=labels)
    st.dataframe(shown, hide_index=True, column_config=config, key=key, placeholder=MISSING)


def _categories(report: TcoReport, horizon: int, key: str) -> None:
    """Each option's total by cost category (`planner.cost.lines` for owning's)."""
    frame = view.category_frame(report, horizon, language())
    with st.expander(t("compare.categories", currency=report.currency)):
        config = {c: st.column_config.NumberColumn(format="%,.0f") for c in frame.columns[1:]}
        shown = frame.rename(columns={"category": t("compare.col_category")})
        st.dataframe(shown, hide_index=True, column_config=config, key=key, placeholder=MISSING)


def _notes(report: TcoReport) -> None:
    warnings, remarks = view.notes(report)
    for warning in warnings:
        st.warning(md(note_text(warning)), icon=":material/warning:")
    for remark in remarks:
        st.caption(t("compare.note", note=md(note_text(remark))))


def _tornado(run: view.CompareRun, swing: float, key: str) -> None:
    sensitivity = run.report.sensitivity
    if not sensitivity:
        st.caption(t("compare.no_tornado"))
        return
    output = note_text(sensitivity.output)  # a chart title: `plot` escapes it
    title = t("compare.tornado_title", output=output, swing=fmt_percent(swing, 0))
    cur = run.report.currency
    plot(
        st,
        cost_charts.tornado(view.tornado_frame(run.report), sensitivity.base, title, cur),
        key=key,
    )
    _flips(run.report, f"{key}_flips")


def _flips(report: TcoReport, key: str) -> None:
    """What would flip the verdict of the pair the tornado is drawn for."""
    verdict, lang = report.verdict, language()
    if verdict is None:
        return
    st.markdown(f"**{md(t('compare.flips_title'))}**: {md(flips.title(verdict, lang))}")
    st.dataframe(view.flips_frame(report, lang), hide_index=True, key=key, placeholder=MISSING)
    st.caption(md(report_text("report.flip.how", lang)))


# --- one scenario file -------------------------------------------------------------------


def file_panel() -> None:
    upload_choice = t("compare.upload_choice")
    choices = [*view.bundled_files(), upload_choice]
    source = st.selectbox(t("compare.scenario"), choices, key="compare_scenario")
    try:
        scenario, text = _file_scenario(source, upload_choice)
        with st.spinner(t("compare.pricing")):
            run = view.run(scenario)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return
    report, cur = run.report, run.report.currency
    years = [h.years for h in report.horizons]
    # Labels made now, in the session's language: Streamlit may call format_func later.
    names = [t("compare.years", years=fmt_number(y, 0)) for y in years]
    horizon = st.selectbox(
        t("compare.horizon"),
        range(len(years)),
        format_func=names.__getitem__,
        key="compare_horizon",
    )
    st.session_state[LAST_REPORT] = view.ShownReport(report, horizon)
    _file_summary(report, horizon)
    ledger_view.show_scope(report)
    _notes(report)
    frame = view.options_frame(report, horizon)
    _table(frame, cur, "compare_options")
    _categories(report, horizon, "compare_categories")
    ledger_view.show_ledger(report, horizon, "compare_ledger")
    cash = view.cash_frame(report, horizon)
    plot(st, cost_charts.cumulative_cash(cash, cur), key="compare_cash")
    curve, clouds = view.break_even_frames(run, horizon)
    if report.allocation is None or clouds.empty:
        st.caption(t("compare.no_cloud"))
    else:
        fig = cost_charts.break_even(curve, clouds, report.allocation, cur)
        plot(st, fig, key="compare_break_even")
    if report.allocation is not None:
        _tornado(run, scenario.sensitivity_swing, "compare_tornado")
    yaml_col, csv_col = st.columns(2)
    yaml_col.download_button(
        t("compare.download_yaml"), text.encode(), file_name=_yaml_name(source),
        mime="application/x-yaml", key="compare_download_yaml", icon=":material/download:",
    )  # fmt: skip
    csv_col.download_button(
        t("compare.download_table"), frame_csv(frame).encode(),
        file_name="compare.csv", mime="text/csv", key="compare_download_csv",
        icon=":material/download:",
    )  # fmt: skip
    named = [(report.scenario or source, report)]
    chargeback_view.chargeback_section(named, horizon, "compare_file_chargeback")
    report_downloads(named, horizon, "compare_file_report", chargeback_view.chosen_rule())


def _file_scenario(source: str, upload_choice: str) -> tuple[TcoScenario, str]:
    if source != upload_choice:
        text = (view.SCENARIOS / source).read_text(encoding="utf-8")
        return view.load_bundled(source), text
    upload = file_uploader(
        t("compare.upload"),
        ["yaml", "yml"],
        key="compare_upload",
        max_bytes=view.MAX_UPLOAD_MB * MIB,
        help_text=t("compare.upload_help"),
    )
    if upload is None:
        st.info(t("compare.upload_info"))
        st.stop()
    if upload.size > view.MAX_UPLOAD_MB * 1024 * 1024:
        st.error(t("compare.too_large", name=md(upload.name), mb=view.MAX_UPLOAD_MB))
        st.stop()
    text = upload.getvalue().decode("utf-8", "replace")
    return view.parse_scenario(text, upload.name), text


def _yaml_name(source: str) -> str:
    return source if source.endswith((".yaml", ".yml")) else "scenario.yaml"


def _file_summary(report: TcoReport, horizon: int) -> None:
    cur = report.currency
    options = report.horizons[horizon].options
    best = view.cheapest(options)
    st.header(md(report.scenario or "TCO"))
    useful = fmt_number(report.useful_gpu_hours_per_month, 0, cur)
    if report.allocation is None:
        st.caption(t("compare.cloud_caption", useful=useful))
    else:
        st.caption(
            t(
                "compare.owned_caption",
                gpus=fmt_number(report.installed_gpus, 0, cur),
                allocation=fmt_percent(report.allocation, 1, cur),
                useful=useful,
            )
        )
        own = options[0]
        installed, allocated, per_useful = st.columns(3)
        for col, label, value in (
            (installed, "compare.per_installed", own.cost_per_installed_gpu_hour),
            (allocated, "compare.per_allocated", own.cost_per_allocated_gpu_hour),
            (per_useful, "compare.per_useful", own.cost_per_useful_gpu_hour),
        ):
            col.metric(t(label), fmt_money(value, cur))
    st.metric(
        t("compare.cheapest"),
        md(cost_charts.option_label(best.name)) if best else t("common.na"),
        help=None if best is None else fmt_money(best.cost_per_useful_gpu_hour, cur),
    )
    st.info(view.conclusion(report, horizon, language()), icon=":material/lightbulb:")
    _equal_service(report)


def _equal_service(report: TcoReport) -> None:
    """The served-elsewhere and waiting rates (named assumptions, as on the PDF's page 1)
    and each cloud option's packing figures."""
    lang = language()
    for label, value in service_assumptions(report, lang):
        st.caption(t("compare.assumption", label=md(label), value=md(value)))
    for line in cloud_lines(report, lang):
        st.caption(md(line))


# --- several saved scenarios ------------------------------------------------------------------


def saved_panel() -> None:
    flash = st.session_state.pop(FLASH, None)
    if flash:
        st.success(flash, icon=":material/check:")
    try:
        saved = scenario_box.saved_scenarios()
        traces = cache.stored_traces()
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return
    if saved:
        _saved_comparison(saved, traces)
    else:
        st.info(t("compare.saved_none"), icon=":material/info:")
    with st.expander(t("compare.add_title"), expanded=not saved):
        _save_bundled()
    with st.expander(t("scenarios.library")):
        scenario_box.library("compare_library")


def _picked(names: list[str]) -> str:
    """The multiselect's key, its state first set to: the first two saved scenarios, then
    what the user chose (minus deleted ones) plus a scenario just saved on this page."""
    kept = compare_kept.kept().get("scenarios")
    chosen = st.session_state.get(PICKED, kept if isinstance(kept, list) else names[:2])
    added = st.session_state.pop(ADDED, None)
    chosen = [*chosen, added] if added and added not in chosen else chosen
    st.session_state[PICKED] = [name for name in chosen if name in names]
    return PICKED


def _saved_comparison(saved: list[Any], traces: list[dict[str, Any]]) -> None:
    names = [s.name for s in saved]
    picked = st.multiselect(t("compare.saved_pick"), names, key=_picked(names))
    if not picked:
        compare_kept.keep(picked, None, None)
        st.info(t("compare.saved_pick_info"))
        return
    if not traces:
        st.warning(t("compare.no_trace"), icon=":material/warning:")
        return
    chosen = [next(s for s in saved if s.name == name) for name in picked]
    ids = [row["trace_id"] for row in traces]
    first = chosen[0].trace_id
    trace_col, years_col = st.columns([3, 1])
    compare_kept.restore("compare_saved_trace", "trace", ids)
    compare_kept.restore("compare_years", "years", YEARS)
    trace_id = trace_col.selectbox(
        t("compare.saved_trace"),
        ids,
        index=ids.index(first) if first in ids else 0,
        format_func=lambda i: next(f"{r['name']} · {i}" for r in traces if r["trace_id"] == i),
        help=t("compare.saved_trace_help"),
        key="compare_saved_trace",
    )
    years = years_col.selectbox(t("compare.saved_years"), YEARS, index=2, key="compare_years")
    compare_kept.keep(picked, trace_id, years)
    _error_bars(chosen)
    try:
        with st.spinner(t("compare.pricing")):
            priced = many.price(chosen, trace_id, float(years))
            tornado = many.tornado_run(priced)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return
    _saved_results(priced, tornado)


def _saved_results(priced: list[many.Priced], tornado: view.CompareRun | None) -> None:
    combined = many.combined_report(priced)
    st.session_state[LAST_REPORT] = view.ShownReport(combined)
    currencies = sorted({p.report.currency for p in priced})
    if len(currencies) > 1:
        st.warning(t("compare.currencies", currencies=", ".join(currencies)))
    cur = currencies[0]
    st.info(many.conclusion(priced, language()), icon=":material/lightbulb:")
    ledger_view.show_scope(combined)
    frame = many.table(priced)
    _table(frame, cur, "compare_saved_table")
    ledger_view.show_ledger(combined, 0, "compare_saved_ledger")
    plot(st, cost_charts.cumulative_cash(many.cash_frame(priced), cur), key="compare_saved_cash")
    owner, run = many.first_owned(priced), many.break_even_run(priced)
    if owner is None or run is None:
        st.caption(t("compare.no_owned"))
    else:
        st.caption(t("compare.break_even_of", name=md(owner.name)))
        curve, clouds = view.break_even_frames(run, 0)
        if clouds.empty:
            st.caption(t("compare.no_cloud"))
        else:
            fig = cost_charts.break_even(curve, clouds, owner.report.allocation or 0.0, cur)
            plot(st, fig, key="compare_saved_break_even")
        if tornado is None:
            st.caption(t("compare.no_tornado"))
        else:
            _tornado(tornado, owner.scenario.sensitivity_swing, "compare_saved_tornado")
    for p in priced:
        _notes(p.report)
    yaml_col, csv_col = st.columns(2)
    yaml_col.download_button(
        t("compare.download_yamls"), _zip({p.name: p for p in priced}),
        file_name="scenarios.zip", mime="application/zip", key="compare_saved_yaml",
        icon=":material/download:",
    )  # fmt: skip
    csv_col.download_button(
        t("compare.download_table"), frame_csv(frame).encode(),
        file_name="compare.csv", mime="text/csv", key="compare_saved_csv",
        icon=":material/download:",
    )  # fmt: skip
    named = [(p.name, p.report) for p in priced]
    chargeback_view.chargeback_section(named, 0, "compare_saved_chargeback")
    report_downloads(named, 0, "compare_saved_report", chargeback_view.chosen_rule())


def _error_bars(chosen: list[Any]) -> None:
    """One line per calibrated replay scenario: the error its replays carry (`planner twin`'s
    validation window), whether or not the scenario can be priced."""
    for saved in chosen:
        try:
            line = twin_frames.error_bar(many.calibration_of(saved))
        except PlannerError:
            continue  # pricing it says what is wrong
        if line is not None:
            named = t("twin.error_bar_named", name=saved.name, line=line)
            st.info(md(named), icon=":material/straighten:")


def _zip(priced: Mapping[str, many.Priced]) -> bytes:
    """The saved YAML of each scenario compared, one file each."""
    texts = {s.name: s.yaml_text for s in scenario_box.saved_scenarios() if s.name in priced}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in texts.items():
            archive.writestr(f"{scenario_box.file_stem(name)}.yaml", text)
    return buffer.getvalue()


def _save_bundled() -> None:
    files = view.bundled_files()
    source = st.selectbox(t("compare.add_source"), files, key="compare_add_source")
    with st.form("compare_add_form", border=False):
        name = st.text_input(
            t("scenarios.name"),
            value=source.removesuffix(".yaml"),
            max_chars=80,
            key=f"compare_add_name_{source}",  # one per file: its default follows the file
        )
        replace = st.checkbox(t("scenarios.replace"), key="compare_add_replace")
        submitted = st.form_submit_button(t("scenarios.save"), icon=":material/save:")
    if submitted:
        text = (view.SCENARIOS / source).read_text(encoding="utf-8")
        problem = scenario_box.upload_scenario(name, text, source, replace=replace)
        if problem:
            st.error(md(problem), icon=":material/error:")
        else:
            st.session_state[FLASH] = t("scenarios.saved", name=md(name.strip()))
            st.session_state[ADDED] = name.strip()
            st.rerun()  # the new scenario appears in the choice above
