"""The GPU busy share on the Compare page (`planner.cost.busy`): the measured share and its
coverage under the options table, and each team's GPU-hours allocated and busy; nothing but
the report's note when no job has a busy share. Team names are the user's: shown in table
cells, never in markdown."""

import pandas as pd
import streamlit as st

from planner.cost.busy import BusyShare
from planner.cost.results import TcoReport
from planner.ui.i18n import MISSING, fmt_number, fmt_percent, t

TEAM_COLUMNS = ("team", "allocated", "busy", "share")


def per_busy(report: TcoReport, years: float, option: str) -> float | None:
    """An option's cost per busy GPU-hour (None: the busy share is unknown)."""
    cost = report.busy.cost(years, option) if report.busy else None
    return None if cost is None else cost.cost_per_busy_gpu_hour


def teams_frame(busy: BusyShare) -> pd.DataFrame:
    """One row per team: GPU-hours allocated, busy, and the busy share (None: unknown)."""
    rows = [
        (b.team, b.hours.allocated_gpu_hours, b.hours.busy_gpu_hours, b.hours.share)
        for b in busy.teams
    ]
    return pd.DataFrame(rows, columns=list(TEAM_COLUMNS))


def show_busy(report: TcoReport, key: str) -> None:
    """The caption with the share and its coverage, and the teams' table in an expander."""
    busy = report.busy
    if busy is None:
        return
    cur, h = report.currency, busy.hours
    st.caption(
        t(
            "compare.busy_caption",
            share=fmt_percent(busy.share, 1, cur),
            busy=fmt_number(h.busy_gpu_hours, 1, cur),
            known=fmt_number(h.known_gpu_hours, 1, cur),
            jobs_known=f"{busy.jobs_known:,}",
            jobs=f"{busy.jobs:,}",
            hours=fmt_percent(busy.known_hours_share, 1, cur),
        )
    )
    labels = {c: t(f"compare.busy_col_{c}") for c in TEAM_COLUMNS}
    number = st.column_config.NumberColumn
    config = {
        labels["allocated"]: number(format="%,.1f"),
        labels["busy"]: number(format="%,.1f"),
        labels["share"]: number(format="percent"),
    }
    with st.expander(t("compare.busy_teams")):
        shown = teams_frame(busy).rename(columns=labels)
        st.dataframe(shown, hide_index=True, column_config=config, key=key, placeholder=MISSING)
