"""Reusable input groups: the node pools editor and a choice with its explanations.

The Cluster & policy page will reuse these; pages pass in defaults and read back values.
"""

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator


def pool_editor(pools: pd.DataFrame, key: str) -> pd.DataFrame:
    """An editable table of node pools (GPU type, GPUs/node, CPU, memory, count); rows may
    be added and deleted. Returns the edited table; validation is the caller's."""
    number = st.column_config.NumberColumn
    edited: pd.DataFrame = st.data_editor(
        pools,
        key=key,
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "gpu_type": st.column_config.TextColumn("GPU type", required=True),
            "gpus_per_node": number("GPUs per node", min_value=0, max_value=64, step=1),
            "cpu": number("CPU cores per node", min_value=0.0, help="0 = not limited"),
            "mem_gib": number("Memory per node (GiB)", min_value=0.0, help="0 = not limited"),
            "count": number("Nodes", min_value=1, step=1, required=True),
        },
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
) -> Any:
    """A selectbox whose tooltip explains every option in one line each."""
    return where.selectbox(
        label,
        options,
        index=list(options).index(value) if value in options else 0,
        help="\n".join(f"- **{name}**: {text}" for name, text in explanations.items()),
        key=key,
    )
