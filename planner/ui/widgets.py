"""Reusable input groups: the node pools editor and a choice with its explanations.

The Replay and Cluster & policy pages use these; pages pass in defaults and read back values.
"""

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from planner.ui.charts import PLOT_CONFIG, readable
from planner.ui.i18n import MISSING
from planner.ui.safe import safe_figure

POOL_LABELS = {
    "name": "Pool name",
    "name_help": "optional; node ids are <pool name>-0001, ... (default: the GPU type)",
    "gpu_type": "GPU type",
    "gpus_per_node": "GPUs per node",
    "cpu": "CPU cores per node",
    "mem_gib": "Memory per node (GiB)",
    "not_limited": "0 = not limited",
    "count": "Nodes",
}
"""The pool editor's column titles and help, in English; pages pass their language's."""


def pool_editor(
    pools: pd.DataFrame, key: str, *, labels: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """An editable table of node pools (GPU type, GPUs/node, CPU, memory, count, and the
    pool's name if `pools` has a `name` column); rows may be added and deleted. `labels`
    overrides `POOL_LABELS`. Returns the edited table; validation is the caller's."""
    text = {**POOL_LABELS, **(labels or {})}
    number = st.column_config.NumberColumn
    config = {
        "gpu_type": st.column_config.TextColumn(text["gpu_type"], required=True),
        "gpus_per_node": number(text["gpus_per_node"], min_value=0, max_value=64, step=1),
        "cpu": number(text["cpu"], min_value=0.0, help=text["not_limited"]),
        "mem_gib": number(text["mem_gib"], min_value=0.0, help=text["not_limited"]),
        "count": number(text["count"], min_value=1, step=1, required=True),
    }
    if "name" in pools.columns:
        config["name"] = st.column_config.TextColumn(text["name"], help=text["name_help"])
    edited: pd.DataFrame = st.data_editor(
        pools,
        key=key,
        num_rows="dynamic",
        hide_index=True,
        column_config=config,
        placeholder=MISSING,
    )
    return edited


def choice(
    where: DeltaGenerator,
    label: str,
    options: Sequence[str],
    value: str,
    explanations: Mapping[str, str],
    *,
    key: str,
    names: Mapping[str, str] | None = None,
) -> Any:
    """A selectbox whose tooltip explains every option in one line each; `names` are the
    options' readable names (in the reader's language), shown with the code YAML uses."""
    shown = {o: _named(o, (names or {}).get(o, o)) for o in options}
    return where.selectbox(
        label,
        options,
        index=list(options).index(value) if value in options else 0,
        format_func=shown.__getitem__,  # fixed now: AppTest calls it outside the session
        help="\n".join(f"- **{shown.get(o, o)}**: {text}" for o, text in explanations.items()),
        key=key,
    )


def _named(code: str, name: str) -> str:
    return code if name == code else f"{name} ({code})"


def explained_choice(
    where: DeltaGenerator,
    label: str,
    options: Sequence[str],
    value: str,
    explanations: Mapping[str, str],
    *,
    key: str,
    names: Mapping[str, str] | None = None,
) -> Any:
    """`choice`, with the chosen option's one-line explanation shown under it."""
    chosen = choice(where, label, options, value, explanations, key=key, names=names)
    where.caption(explanations.get(str(chosen), ""))
    return chosen


def plot(where: Any, fig: go.Figure, key: str) -> None:
    """Draw `fig` in `where` (st, a column, ...) with text readable in light and dark; names,
    categories and hover text from the data are shown as text, never as plotly's HTML; the
    toolbar shows on hover, above the title."""
    where.plotly_chart(readable(safe_figure(fig)), key=key, config=PLOT_CONFIG)
