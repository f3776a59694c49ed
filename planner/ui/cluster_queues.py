"""The Cluster & policy page's Queues tab: none, Kueue ClusterQueues or Volcano queues, each
with an editor and a YAML import. Widgets only, like `planner.ui.cluster_sections`, whose
revisioned keys and helpers it shares."""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, get_args

import streamlit as st

from planner.core.errors import PlannerError
from planner.engine.preemption import Reclaim, WithinQueue
from planner.engine.scenario import Scenario
from planner.engine.volcano import Plugin
from planner.ui import cluster_import as imports
from planner.ui import cluster_view as view
from planner.ui.cluster_sections import (
    NUMBER,
    SELECT,
    TEXT,
    key,
    labels,
    read_upload,
    show_error,
)
from planner.ui.error_text import note_md
from planner.ui.i18n import MISSING, t
from planner.ui.safe import md
from planner.ui.state import replace_and_rerun

if TYPE_CHECKING:
    import pandas as pd


def queues(base: Scenario, gpus: Mapping[str, float], policy: Mapping[str, Any]) -> dict[str, Any]:
    """The queue model, the Kueue editor or the Volcano queues, and the YAML import
    (`gpus`: installed GPUs by type; `policy`: the policy section's values).
    Returns the `Edits` fields: queue_mode, kueue, local_queues, default_queue, volcano,
    volcano_settings."""
    mode = st.radio(
        t("cluster.queues.mode"),
        view.QUEUE_MODES,
        index=view.QUEUE_MODES.index(view.queue_mode(base)),
        format_func=labels("cluster.queues.mode_", view.QUEUE_MODES),
        captions=[t(f"cluster.queues.mode_{m}_help") for m in view.QUEUE_MODES],
        horizontal=True,
        key=key("queue_mode"),
    )
    values: dict[str, Any] = {"queue_mode": mode}
    if mode != "none" and (policy["admission"] != "gang" or policy["queueing"] == "backfill"):
        st.warning(t("cluster.queues.needs_gang"), icon=":material/warning:")
    if mode == "kueue":
        values |= _kueue_editor(base, gpus)
    elif mode == "volcano":
        values |= _volcano_editor(base)
    with st.expander(t("cluster.queues.import"), icon=":material/upload_file:"):
        _queue_import(base)
    return values


def _kueue_editor(base: Scenario, gpus: Mapping[str, float]) -> dict[str, Any]:
    st.caption(t("cluster.queues.editor_caption"))
    current = base.queues
    within = get_args(WithinQueue)
    reclaim = get_args(Reclaim)
    rows: pd.DataFrame = st.data_editor(
        view.kueue_frame(current, gpus),
        key=key("kueue"),
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "name": TEXT(t("cluster.queues.name"), required=True),
            "cohort": TEXT(t("cluster.queues.cohort"), help=t("cluster.queues.cohort_help")),
            "flavor": SELECT(
                t("cluster.queues.flavor"),
                options=view.flavor_options(current, list(gpus)),
                help=t("cluster.queues.flavor_help"),
                required=True,
            ),
            "gpus": NUMBER(t("cluster.queues.gpus"), min_value=0.0, required=True),
            "borrowing_limit": NUMBER(
                t("cluster.queues.borrowing"), min_value=0.0, help=t("cluster.queues.limit_help")
            ),
            "lending_limit": NUMBER(
                t("cluster.queues.lending"), min_value=0.0, help=t("cluster.queues.limit_help")
            ),
            "within_cluster_queue": SELECT(
                t("cluster.queues.within"), options=within, help=t("cluster.queues.within_help")
            ),
            "reclaim_within_cohort": SELECT(
                t("cluster.queues.reclaim"), options=reclaim, help=t("cluster.queues.reclaim_help")
            ),
        },
        placeholder=MISSING,
    )
    names = list(dict.fromkeys(str(n).strip() for n in rows["name"].dropna() if str(n).strip()))
    first = names[0] if names else ""
    wanted = current.default_cluster_queue if current is not None else first
    choices = ["", *names]
    default = st.selectbox(
        t("cluster.queues.default"),
        choices,
        index=choices.index(wanted) if wanted in choices else 0,
        format_func=labels("cluster.queues.", ("no_default",), names),
        help=t("cluster.queues.default_help"),
        key=key("default_queue"),
    )
    st.markdown(t("cluster.queues.local"))
    local: pd.DataFrame = st.data_editor(
        view.mapping_frame(current.local_queues if current else {}, ("queue", "target")),
        key=key("local_queues"),
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "queue": TEXT(t("cluster.queues.trace_queue"), required=True),
            "target": SELECT(t("cluster.queues.target"), options=names, required=True),
        },
        placeholder=MISSING,
    )
    if current is not None:
        with st.expander(t("cluster.queues.full")):
            _kueue_table(current)
    return {"kueue": rows, "local_queues": local, "default_queue": default or None}


def _volcano_editor(base: Scenario) -> dict[str, Any]:
    current = base.volcano
    if current is None:
        st.info(t("cluster.queues.volcano_missing"), icon=":material/info:")
    st.caption(t("cluster.queues.volcano_caption"))
    plugins = get_args(Plugin)
    plugin_col, overcommit_col = st.columns(2)
    plugin = plugin_col.selectbox(
        t("cluster.queues.plugin"),
        plugins,
        index=plugins.index(current.plugin) if current is not None else 0,
        format_func=labels("cluster.queues.plugin_", plugins),
        help=t("cluster.queues.plugin_help"),
        key=key("volcano_plugin"),
    )
    overcommit = overcommit_col.number_input(
        t("cluster.queues.overcommit"),
        min_value=1.0,
        value=current.overcommit_factor if current is not None else 1.2,
        step=0.1,
        help=t("cluster.queues.overcommit_help"),
        key=key("volcano_overcommit"),
    )
    rows: pd.DataFrame = st.data_editor(
        view.volcano_frame(current),
        key=key("volcano"),
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "name": TEXT(t("cluster.queues.volcano_name"), required=True),
            "parent": TEXT(t("cluster.queues.parent"), help=t("cluster.queues.parent_help")),
            "weight": NUMBER(
                t("cluster.queues.weight"),
                min_value=1,
                step=1,
                help=t("cluster.queues.weight_help"),
            ),
            "reclaimable": st.column_config.CheckboxColumn(
                t("cluster.queues.reclaimable"), help=t("cluster.queues.reclaimable_help")
            ),
            "gpu_type": TEXT(t("cluster.pools.gpu_type"), help=t("cluster.queues.type_help")),
            "deserved": NUMBER(
                t("cluster.queues.deserved"),
                min_value=0.0,
                help=t("cluster.queues.deserved_help"),
            ),
            "capability": NUMBER(
                t("cluster.queues.capability"),
                min_value=0.0,
                help=t("cluster.queues.capability_help"),
            ),
            "guarantee": NUMBER(
                t("cluster.queues.guarantee"),
                min_value=0.0,
                help=t("cluster.queues.guarantee_help"),
            ),
        },
        placeholder=MISSING,
    )
    if current is not None:
        with st.expander(t("cluster.queues.volcano_full")):
            _volcano_table(current, base)
    return {
        "volcano": rows,
        "volcano_settings": {"plugin": plugin, "overcommit_factor": overcommit},
    }


def _kueue_table(spec: Any) -> None:
    table = imports.kueue_table(spec)
    st.dataframe(
        table,
        hide_index=True,
        column_config={c: t(f"cluster.table.{c}") for c in table.columns},
        placeholder=MISSING,
    )
    if spec.local_queues:
        mapped = ", ".join(f"{k} → {v}" for k, v in spec.local_queues.items())
        st.caption(t("cluster.queues.local_read", mapping=md(mapped)))


def _volcano_table(spec: Any, base: Scenario) -> None:
    table = imports.volcano_table(spec, imports.gpus_by_type(base.cluster))
    st.dataframe(
        table,
        hide_index=True,
        column_config={c: t(f"cluster.table.{c}") for c in table.columns},
        placeholder=MISSING,
    )


def _queue_import(base: Scenario) -> None:
    imported = read_upload(
        "queues", "queue_upload", imports.QUEUE_UPLOAD_TYPES, imports.read_queue_upload
    )
    if imported is None:
        return
    if imported.kueue is not None:
        spec = imported.kueue
        st.markdown(
            t("cluster.queues.read_kueue", file=md(imported.file), queues=len(spec.cluster_queues))
        )
        _kueue_table(spec)
    if imported.volcano is not None:
        st.markdown(
            t(
                "cluster.queues.read_volcano",
                file=md(imported.file),
                queues=len(imported.volcano.queues),
            )
        )
        _volcano_table(imported.volcano, base)
    for note in imported.notes:
        st.caption(t("cluster.note", note=note_md(note)))
    if st.button(t("cluster.queues.use"), icon=":material/done:", key=key("use_queues")):
        try:
            updated, changed = imports.with_queues(base, imported)
        except PlannerError as err:
            show_error(err)
            return
        replace_and_rerun(
            updated,
            t("cluster.queues.used", file=md(imported.file)),
            *(md(change) for change in changed),
        )


# ------------------------------------------------------------------ 4. priorities, preemption
