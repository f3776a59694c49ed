"""Reusable saved-scenario widgets: a save form and the library (load, download, upload,
delete), for any page to show.

`save_scenario` and `upload_scenario` are the code path every page's saves take (the
concurrency test drives them from several threads at once); they return a message in the
session's language, or None, and never raise for a user's mistake.
"""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from planner.core.errors import PlannerError
from planner.core.file_access import BUNDLED_FILES
from planner.engine.scenario import Scenario
from planner.service import scenario_store
from planner.service.scenario_store import Kind, Prepared, SavedScenario
from planner.ui.cache import cursor
from planner.ui.error_text import error_text
from planner.ui.i18n import MISSING, t
from planner.ui.safe import md
from planner.ui.state import replace_and_rerun, show_flash
from planner.ui.uploader import file_uploader


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a scenario name (in the session's language), or None."""
    clean = name.strip()
    if not clean:
        return t("scenarios.err_empty")
    if len(clean) > scenario_store.MAX_NAME_CHARS:
        return t("scenarios.err_long", chars=len(clean), max=scenario_store.MAX_NAME_CHARS)
    bad = scenario_store.control_character(clean)
    if bad is not None:
        return t("scenarios.err_control", char=bad)
    return None


def save_scenario(
    name: str,
    prepared: Prepared,
    results: Mapping[str, Any] | None = None,
    *,
    replace: bool = False,
) -> str | None:
    """Save on the app's database; None when saved, else what is wrong."""
    problem = name_problem(name)
    if problem:
        return problem
    try:
        with cursor() as cur:
            same = [s for s in scenario_store.list_saved(cur) if s.name == name.strip()]
            if same and not replace:
                if _unchanged(same[0], prepared):
                    return None  # saved already as it is (Enter in the name box, then Save)
                return t("scenarios.err_exists", name=name.strip())
            # only runnable scenarios are saved
            scenario_store.parse(prepared.yaml_text, name, BUNDLED_FILES)
            scenario_store.save(cur, name, prepared, results=results, replace=replace)
    except PlannerError as err:
        return error_text(err)
    return None


def _unchanged(saved: SavedScenario, prepared: Prepared) -> bool:
    return (saved.kind, saved.yaml_text, saved.trace_id) == (
        prepared.kind,
        prepared.yaml_text,
        prepared.trace_id,
    )


def upload_scenario(name: str, text: str, source: str, *, replace: bool = False) -> str | None:
    """Validate uploaded (or bundled) YAML, import its trace if it is a file under data/traces
    (never elsewhere on the server), and save it under `name`; None when saved, else what
    is wrong."""
    if len(text.encode()) > scenario_store.MAX_YAML_BYTES:
        return t("scenarios.too_large", name=source, kib=scenario_store.MAX_YAML_BYTES // 1024)
    try:
        with cursor() as cur:
            prepared = scenario_store.prepare(cur, text, source, BUNDLED_FILES)
    except PlannerError as err:
        return error_text(err)
    return save_scenario(name, prepared, replace=replace)


def saved_scenarios() -> list[SavedScenario]:
    with cursor() as cur:
        return scenario_store.list_saved(cur)


def has_saved() -> bool:
    """Whether any scenario is saved (False when the database cannot be read)."""
    try:
        return bool(saved_scenarios())
    except PlannerError:
        return False


def save_form(
    kind: Kind,
    yaml_text: str,
    results: Mapping[str, Any] | None,
    trace_id: str | None,
    key: str,
) -> None:
    """A name, a Replace box and Save: saves `yaml_text` (its `trace:` should be `trace_id`)
    with `results`, and says what happened."""
    with st.form(f"{key}_save_form", border=False):
        name = st.text_input(
            t("scenarios.name"),
            max_chars=scenario_store.MAX_NAME_CHARS,
            help=t("scenarios.name_help", max=scenario_store.MAX_NAME_CHARS),
            key=f"{key}_name",
        )
        replace = st.checkbox(t("scenarios.replace"), key=f"{key}_replace")
        submitted = st.form_submit_button(t("scenarios.save"), icon=":material/save:")
    if not submitted:
        return
    problem = save_scenario(name, Prepared(kind, yaml_text, trace_id), results, replace=replace)
    if problem:
        st.error(md(problem), icon=":material/error:")
    else:
        st.success(t("scenarios.saved", name=md(name.strip())), icon=":material/check:")


def library_frame(saved: list[SavedScenario]) -> pd.DataFrame:
    """The saved scenarios as a table with localized headers and states."""
    rows = [
        {
            t("scenarios.col_name"): s.name,
            t("scenarios.col_kind"): t(f"scenarios.kind_{s.kind}"),
            t("scenarios.col_trace"): s.trace_id or "",
            t("scenarios.col_updated"): s.updated_at.isoformat(sep=" ", timespec="minutes"),
            t("scenarios.col_results"): t(f"scenarios.state_{s.state}"),
        }
        for s in saved
    ]
    return pd.DataFrame(rows)


def library(key: str) -> None:
    """The saved scenarios: table, then load / download / delete one, and upload one."""
    show_flash()  # "Loaded 'x'", where the page itself does not show it first
    try:
        saved = saved_scenarios()
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return
    if saved:
        st.dataframe(library_frame(saved), hide_index=True, key=f"{key}_table", placeholder=MISSING)
        _actions(saved, key)
    else:
        st.caption(t("scenarios.empty"))
    _upload(key)


def _actions(saved: list[SavedScenario], key: str) -> None:
    names = [s.name for s in saved]
    name = st.selectbox(t("scenarios.pick"), names, key=f"{key}_pick")
    chosen = next(s for s in saved if s.name == name)
    load_col, download_col, delete_col = st.columns(3)
    if load_col.button(t("scenarios.load"), key=f"{key}_load", icon=":material/input:"):
        _load(chosen)
    download_col.download_button(
        t("scenarios.download"),
        chosen.yaml_text.encode(),
        file_name=f"{file_stem(chosen.name)}.yaml",
        mime="application/x-yaml",
        key=f"{key}_download",
        icon=":material/download:",
    )
    sure = delete_col.checkbox(t("scenarios.confirm_delete", name=md(name)), key=f"{key}_sure")
    if delete_col.button(t("scenarios.delete"), key=f"{key}_delete", disabled=not sure):
        try:
            with cursor() as cur:
                scenario_store.delete(cur, name)
        except PlannerError as err:
            st.error(md(error_text(err)), icon=":material/error:")
            return
        st.success(t("scenarios.deleted", name=md(name)), icon=":material/check:")


def _load(chosen: SavedScenario) -> None:
    try:
        scenario = scenario_store.parse(chosen.yaml_text, chosen.name, BUNDLED_FILES)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return
    if not isinstance(scenario, Scenario):
        st.info(t("scenarios.load_tco", name=md(chosen.name)), icon=":material/info:")
        return
    replace_and_rerun(scenario, t("scenarios.loaded", name=md(chosen.name)), name=chosen.name)


def _upload(key: str) -> None:
    kib = scenario_store.MAX_YAML_BYTES // 1024
    upload = file_uploader(
        t("scenarios.upload"),
        ["yaml", "yml"],
        key=f"{key}_upload",
        max_bytes=scenario_store.MAX_YAML_BYTES,
        help_text=t("scenarios.upload_help", kib=kib),
    )
    if upload is None:
        return
    if upload.size > scenario_store.MAX_YAML_BYTES:
        st.error(t("scenarios.too_large", name=md(upload.name), kib=kib), icon=":material/error:")
        return
    try:
        text = upload.getvalue().decode("utf-8")
    except UnicodeDecodeError:
        st.error(t("scenarios.not_text", name=md(upload.name)), icon=":material/error:")
        return
    with st.form(f"{key}_upload_form", border=False):
        name = st.text_input(
            t("scenarios.name"),
            value=Path(upload.name).stem[: scenario_store.MAX_NAME_CHARS],
            max_chars=scenario_store.MAX_NAME_CHARS,
            key=f"{key}_upload_name",
        )
        replace = st.checkbox(t("scenarios.replace"), key=f"{key}_upload_replace")
        submitted = st.form_submit_button(t("scenarios.upload_save"), icon=":material/save:")
    if submitted:
        problem = upload_scenario(name, text, upload.name, replace=replace)
        if problem:
            st.error(md(problem), icon=":material/error:")
        else:
            st.success(t("scenarios.saved", name=md(name.strip())), icon=":material/check:")


def file_stem(name: str) -> str:
    """A file name from a scenario name: letters, digits, '-' and '_' kept."""
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")
    return stem or "scenario"
