"""The Cluster & policy page's input sections: widgets only, one function per tab.

Each function shows one section's widgets with the working scenario's values as defaults and
returns what they hold; `planner.ui.cluster_view` turns that into a scenario. Widget keys
carry the working scenario's revision, which goes up whenever it is replaced (Apply, an
import, Reset, a saved scenario loaded), so every widget starts again from the new one.
"""

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pandas as pd
import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from planner.core.errors import PlannerError
from planner.engine.cluster import PLACEMENTS
from planner.engine.overhead import NETWORK_HELP, STORAGE_HELP
from planner.engine.policy import ADMISSIONS, QUEUEINGS
from planner.engine.scenario import Scenario
from planner.engine.sharing import NAMED_LAYOUTS
from planner.ui import cluster_import as imports
from planner.ui import cluster_view as view
from planner.ui import node_upload, widgets
from planner.ui.error_text import error_text, note_md
from planner.ui.i18n import MISSING, t
from planner.ui.safe import code, md
from planner.ui.state import replace_and_rerun, revision
from planner.ui.uploader import MIB, file_uploader

T = TypeVar("T")
PREEMPTION_FIELDS = (
    "checkpoint_interval_s",
    "restart_overhead_s",
    "min_run_s",
    "termination_grace_s",
)
MAX_POOLS = 12  # an import with more node shapes than this is offered as explicit nodes
TEXT = st.column_config.TextColumn
NUMBER = st.column_config.NumberColumn
SELECT = st.column_config.SelectboxColumn


def key(name: str) -> str:
    """The widget key of `name` in the current revision."""
    return f"cluster_{name}_{revision()}"


def explain(prefix: str, options: Sequence[str]) -> dict[str, str]:
    return {option: t(f"cluster.{prefix}.{option}") for option in options}


def labels(
    prefix: str, options: Sequence[str], names: Sequence[str] = (), **values: object
) -> Callable[[str], str]:
    """A format function with its labels fixed now: AppTest calls it outside the session,
    where the language would read as English. `names` are shown as they are ('' is the
    first option's label)."""
    labels = {option: t(prefix + option, None, **values) for option in options}
    labels |= {name: name for name in names}
    if names:
        labels[""] = labels.pop(options[0])
    return labels.__getitem__


def show_error(err: Exception) -> None:
    st.error(md(error_text(err)), icon=":material/error:")


# ------------------------------------------------------------------ 1. node pools


def pools(base: Scenario) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The pool editor, the explicit-node editor and the node list import."""
    st.caption(t("cluster.pools.caption"))
    cluster = base.cluster
    if cluster is not None and cluster.node_list:
        st.info(t("cluster.pools.node_list", file=code(cluster.node_list)))
    labels = {name: t(f"cluster.pools.{name}") for name in widgets.POOL_LABELS}
    edited = widgets.pool_editor(view.pool_frame(cluster), key=key("pools"), labels=labels)
    listed = cluster.nodes if cluster is not None else ()
    with st.expander(t("cluster.nodes.title", nodes=len(listed)), expanded=bool(listed)):
        nodes: pd.DataFrame = st.data_editor(
            view.node_frame(listed),
            key=key("nodes"),
            num_rows="dynamic",
            hide_index=True,
            column_config={
                "node_id": TEXT(t("cluster.nodes.node_id"), required=True),
                "gpu_type": TEXT(t("cluster.pools.gpu_type")),
                "gpus": NUMBER(t("cluster.nodes.gpus"), min_value=0, max_value=64, step=1),
                "cpu": NUMBER(t("cluster.nodes.cpu"), min_value=0.0),
                "mem_gib": NUMBER(t("cluster.nodes.mem_gib"), min_value=0.0),
            },
            placeholder=MISSING,
        )
    with st.expander(t("cluster.import.title"), icon=":material/upload_file:"):
        _node_import(base)
    return edited, nodes


def read_upload(
    texts: str, name: str, types: Sequence[str], read: Callable[[bytes, str], T]
) -> T | None:
    """An uploader (labels `cluster.<texts>.upload*`, widget `name`) and what `read` makes of
    the file; None until a file is given, or when it cannot be read (the error is shown)."""
    upload = uploader(texts, name, types)
    if upload is None:
        return None
    try:
        return read(upload.getvalue(), upload.name)
    except PlannerError as err:
        show_error(err)
        return None


def uploader(texts: str, name: str, types: Sequence[str]) -> UploadedFile | None:
    return file_uploader(
        t(f"cluster.{texts}.upload"),
        types,
        key=key(name),
        max_bytes=int(imports.MAX_UPLOAD_MB * MIB),
        help_text=t(f"cluster.{texts}.upload_help"),
    )


def _node_import(base: Scenario) -> None:
    upload = uploader("import", "node_upload", imports.NODE_UPLOAD_TYPES)
    if upload is None:
        return
    imported = node_upload.read(upload, key("node_mapping"))
    if imported is None:
        return
    gpus = sum(node.gpus for node in imported.nodes)
    st.markdown(
        t("cluster.import.read", file=md(imported.file), nodes=len(imported.nodes), gpus=gpus)
    )
    st.dataframe(
        imports.import_summary(imported),
        hide_index=True,
        column_config={
            "gpu_type": t("cluster.pools.gpu_type"),
            "gpus_per_node": t("cluster.pools.gpus_per_node"),
            "nodes": t("cluster.pools.count"),
            "gpus": t("cluster.import.gpus"),
            "cpu": t("cluster.pools.cpu"),
            "mem_gib": t("cluster.pools.mem_gib"),
        },
        placeholder=MISSING,
    )
    for note in imported.notes:
        st.caption(t("cluster.note", note=note_md(note)))
    shapes = len(imports.shapes(imported.nodes))
    how = st.radio(
        t("cluster.import.as"),
        ("pools", "nodes"),
        index=0 if shapes <= MAX_POOLS else 1,
        format_func=labels("cluster.import.as_", ("pools", "nodes"), shapes=shapes),
        key=key("node_as"),
    )
    if st.button(t("cluster.import.use"), icon=":material/done:", key=key("use_nodes")):
        try:
            updated = imports.with_nodes(base, imported, as_pools=how == "pools")
        except PlannerError as err:
            show_error(err)
            return
        replace_and_rerun(updated, t("cluster.import.used", file=md(imported.file)))


# ------------------------------------------------------------------ 2. scheduler policy


def policy(base: Scenario) -> dict[str, Any]:
    """Admission, placement and queueing with their explanations, and their knobs."""
    p = base.policy
    left, middle, right = st.columns(3)
    values: dict[str, Any] = {}
    for where, name, options, value in (
        (left, "admission", ADMISSIONS, p.admission),
        (middle, "placement", PLACEMENTS, p.placement),
        (right, "queueing", QUEUEINGS, p.queueing),
    ):
        values[name] = widgets.explained_choice(
            where,
            t(f"cluster.policy.{name}"),
            options,
            value,
            explain(name, options),
            key=key(name),
            names={o: t(f"cluster.{name}_name.{o}") for o in options},
        )
    seed, second, third = st.columns(3)
    values["seed"] = seed.number_input(
        t("cluster.policy.seed"),
        min_value=0,
        value=p.seed,
        step=1,
        help=t("cluster.policy.seed_help"),
        key=key("seed"),
    )
    if values["queueing"] == "backfill":
        values["backfill_depth"] = second.number_input(
            t("cluster.policy.depth"),
            min_value=1,
            value=p.backfill_depth,
            step=50,
            help=t("cluster.policy.depth_help"),
            key=key("depth"),
        )
        values["estimate_factor"] = third.number_input(
            t("cluster.policy.estimate"),
            min_value=1.0,
            value=p.estimate_factor,
            step=0.5,
            help=t("cluster.policy.estimate_help"),
            key=key("estimate"),
        )
    if values["admission"] == "pod":
        timeout = second.number_input(
            t("cluster.policy.timeout"),
            min_value=0.0,
            value=p.pod_timeout_s or 0.0,
            step=60.0,
            help=t("cluster.policy.timeout_help"),
            key=key("timeout"),
        )
        values["pod_timeout_s"] = timeout or None
    return values


# ------------------------------------------------------------------ 3. queues


def priorities(base: Scenario) -> dict[str, Any]:
    """Priority classes, priorities by queue, and what a preemption costs.
    Returns the `Edits` fields: priority_classes, priority_by_queue, preemption."""
    st.caption(t("cluster.priorities.caption"))
    given = base.priorities
    classes_col, by_queue_col = st.columns(2)
    classes = classes_col.data_editor(
        view.class_frame(given),
        key=key("classes"),
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "name": TEXT(t("cluster.priorities.class"), required=True),
            "value": NUMBER(t("cluster.priorities.value"), step=1, required=True),
        },
        placeholder=MISSING,
    )
    by_queue = by_queue_col.data_editor(
        view.mapping_frame(given.by_queue if given else {}, ("queue", "priority")),
        key=key("by_queue"),
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "queue": TEXT(t("cluster.queues.trace_queue"), required=True),
            "priority": TEXT(
                t("cluster.priorities.priority"),
                help=t("cluster.priorities.priority_help"),
                required=True,
            ),
        },
        placeholder=MISSING,
    )
    st.subheader(t("cluster.preemption.title"))
    st.caption(t("cluster.preemption.caption"))
    costs = base.preemption
    preemption = {
        name: column.number_input(
            t(f"cluster.preemption.{name}"),
            min_value=0.0,
            value=float(getattr(costs, name) or 0.0),
            step=60.0,
            help=t(f"cluster.preemption.{name}_help"),
            key=key(name),
        )
        for column, name in zip(st.columns(4), PREEMPTION_FIELDS, strict=True)
    }
    return {"priority_classes": classes, "priority_by_queue": by_queue, "preemption": preemption}


# ------------------------------------------------------------------ 5. GPU sharing


def sharing(base: Scenario, gpu_types: Sequence[str]) -> pd.DataFrame:
    """One row per GPU type: none, MIG or time-slicing, and each mode's settings."""
    st.caption(t("cluster.sharing.caption", layouts=", ".join(NAMED_LAYOUTS)))
    edited: pd.DataFrame = st.data_editor(
        view.sharing_frame(base.sharing, gpu_types),
        key=key("sharing"),
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "gpu_type": TEXT(t("cluster.pools.gpu_type"), help=t("cluster.sharing.type_help")),
            "mode": SELECT(t("cluster.sharing.mode"), options=view.SHARING_MODES, required=True),
            "mig_strategy": SELECT(
                t("cluster.sharing.strategy"),
                options=("single", "mixed"),
                help=t("cluster.sharing.strategy_help"),
            ),
            "mig_layout": TEXT(t("cluster.sharing.layout"), help=t("cluster.sharing.layout_help")),
            "relayout_delay_s": NUMBER(
                t("cluster.sharing.relayout"),
                min_value=0.0,
                help=t("cluster.sharing.relayout_help"),
            ),
            "replicas": NUMBER(
                t("cluster.sharing.replicas"), step=1, help=t("cluster.sharing.replicas_help")
            ),
            "slowdown": NUMBER(
                t("cluster.sharing.slowdown"), help=t("cluster.sharing.slowdown_help")
            ),
            "fail_requests_greater_than_one": st.column_config.CheckboxColumn(
                t("cluster.sharing.fail"), help=t("cluster.sharing.fail_help")
            ),
        },
        placeholder=MISSING,
    )
    return edited


# ------------------------------------------------------------------ 6. colocation, overhead


def colocation(base: Scenario, gpu_types: Sequence[str]) -> dict[str, Any] | None:
    """Online services' GPUs by hour of day, and the GPU types hosting them (None: off)."""
    given = base.colocation
    on = st.toggle(
        t("cluster.colocation.on"),
        value=given is not None,
        help=t("cluster.colocation.help"),
        key=key("colocate"),
    )
    if not on:
        return None
    st.caption(t("cluster.colocation.caption"))
    hours: pd.DataFrame = st.data_editor(
        view.colocation_frame(given),
        key=key("hours"),
        hide_index=True,
        column_config={h: NUMBER(h, min_value=0, step=1, required=True) for h in view.HOURS},
        placeholder=MISSING,
    )
    known = list(dict.fromkeys([*gpu_types, *(given.gpu_types if given else ())]))
    chosen = st.multiselect(
        t("cluster.colocation.types"),
        known,
        default=list(given.gpu_types) if given else [],
        help=t("cluster.colocation.types_help"),
        key=key("colocation_types"),
    )
    return {"online_gpus_by_hour": hours.iloc[0].tolist(), "gpu_types": chosen}


def overhead(base: Scenario) -> dict[str, str] | None:
    """Container overhead of multi-pod jobs: network and storage class (None: off)."""
    given = base.overhead
    on = st.toggle(
        t("cluster.overhead.on"),
        value=given is not None,
        help=t("cluster.overhead.help"),
        key=key("overhead"),
    )
    if not on:
        return None
    network_col, storage_col = st.columns(2)
    networks, storages = tuple(NETWORK_HELP), tuple(STORAGE_HELP)
    return {
        "network": widgets.explained_choice(
            network_col,
            t("cluster.overhead.network"),
            networks,
            given.network if given else "rdma",
            explain("network", networks),
            key=key("network"),
        ),
        "storage": widgets.explained_choice(
            storage_col,
            t("cluster.overhead.storage"),
            storages,
            given.storage if given else "local-nvme",
            explain("storage", storages),
            key=key("storage"),
        ),
    }
