"""Which jobs a TCO report prices (its scope) and where each option serves that demand (its
ledger), for the Compare and Overview pages.

Reads `TcoReport`s by attribute: `scope`, `left_out` (the CPU-only jobs and CPU-hours no
option prices), and each option's `ledger` of the chosen horizon. A report of several saved
scenarios (`compare_saved.combined_report`) holds each scenario's own report under
`scenarios` and its options named by `scenario`; it has no scope of its own.
"""

import re
from typing import Any

import pandas as pd
import streamlit as st

from planner.core.notes import scenario_option
from planner.cost.ledger import SERVED, UNSERVED, Balance, Ledger
from planner.cost.results import TcoReport
from planner.cost.tco import OptionReport
from planner.ui.cost_charts import option_label
from planner.ui.i18n import MISSING, Language, fmt_number, t
from planner.ui.safe import md

SEPARATOR = " · "
TOLERANCE = 1e-6  # relative: an option whose lines miss the demand by more is an error
# planner/cost/scope.py's note of the CPU-only jobs left out: the scope line says it (from the
# report's `left_out`), so the notes need not.
_LEFT_OUT = re.compile(r"^scope \S+: [\d,]+ CPU-only jobs? \([\d,.]+ CPU-hours\) are left out")


def is_scope_note(note: str) -> bool:
    """Whether `note` is the scope note (the scope line says it; the notes need not)."""
    return _LEFT_OUT.match(note) is not None


def scope_line(report: TcoReport, lang: Language | None = None) -> str | None:
    """Which jobs every option prices, in plain words (None for a report without a scope)."""
    scope = report.scope
    if scope not in ("gpu-jobs", "all-jobs"):
        return None
    jobs = report.left_out.cpu_only_jobs
    if not jobs:
        return t(f"compare.scope.{scope}", lang)
    hours = report.left_out.cpu_hours
    key = "gpu_jobs_left_out" if scope == "gpu-jobs" else "no_owned_home"
    return t(f"compare.scope.{key}", lang, jobs=fmt_number(jobs), hours=fmt_number(hours, 1))


def scope_lines(report: TcoReport, lang: Language | None = None) -> list[str]:
    """The scope line of a report, or one per scenario of a combined report (named)."""
    if report.scenarios is None:
        line = scope_line(report, lang)
        return [] if line is None else [line]
    lines = []
    for part in report.scenarios:
        line = scope_line(part, lang)
        if line is not None:
            lines.append(f"{md(part.scenario or '')}: {line}")
    return lines


def _name(option: OptionReport) -> str:
    """As the tables show it (a frame keeps no coded note: worded here)."""
    scenario = option.scenario
    name = scenario_option(scenario, option.name) if scenario else option.name
    return option_label(name)


def ledger_frame(report: TcoReport, horizon: int, unit: str = "gpu_hours") -> pd.DataFrame:
    """One row per option with a ledger: demanded, owned, bridge, burst, rented, not served
    (total) and each reason, in `unit` ("gpu_hours" or "cpu_hours"); empty when no option has
    that part of the ledger. `imbalance` is demanded less every line, computed here."""
    columns = ["option", "demanded", *SERVED, "unserved", *UNSERVED, "imbalance"]
    rows = []
    for option in report.horizons[horizon].options:
        ledger = option.ledger
        lines = None if ledger is None else _unit(ledger, unit)
        if lines is None:
            continue
        row: dict[str, Any] = {"option": _name(option), "demanded": lines.demanded}
        row |= {"owned": lines.owned} | {k: lines.cloud.get(k, 0.0) for k in SERVED[1:]}
        row |= {"unserved": sum(lines.unserved.get(k, 0.0) for k in UNSERVED)}
        row |= {k: lines.unserved.get(k, 0.0) for k in UNSERVED}
        accounted = sum(row[k] for k in SERVED) + row["unserved"]
        rows.append(row | {"imbalance": row["demanded"] - accounted})
    return pd.DataFrame(rows, columns=columns)


def _unit(ledger: Ledger, unit: str) -> Balance | None:
    return ledger.gpu_hours if unit == "gpu_hours" else ledger.cpu_hours


def unbalanced(frame: pd.DataFrame) -> list[str]:
    """Options whose lines miss the demand by more than `TOLERANCE` of it."""
    scale = frame["demanded"].abs().clip(lower=1.0)
    return frame.loc[frame["imbalance"].abs() > TOLERANCE * scale, "option"].tolist()


def shown_frame(frame: pd.DataFrame, lang: Language | None = None) -> pd.DataFrame:
    """The ledger as the page shows it: reasons nothing went unserved for are dropped (the
    total stays), the check column too; headers in `lang`."""
    reasons = [k for k in UNSERVED if (frame[k].abs() > 0).any()]
    shown = frame[["option", "demanded", *SERVED, "unserved", *reasons]]
    return shown.rename(columns={c: t(f"compare.ledger.{c}", lang) for c in shown.columns})


def show_scope(report: TcoReport) -> None:
    """The scope line (one per scenario of a combined report)."""
    for line in scope_lines(report):
        st.markdown(line, help=t("compare.scope_help"))


def show_ledger(report: TcoReport, horizon: int, key: str) -> None:
    """The ledger table(s) of `horizon` and an error per option that does not balance."""
    if not 0 <= horizon < len(report.horizons):
        return
    for unit in ("gpu_hours", "cpu_hours"):
        frame = ledger_frame(report, horizon, unit)
        if frame.empty:
            continue
        st.markdown(t(f"compare.ledger_title.{unit}"), help=t("compare.ledger_help"))
        st.caption(t("compare.ledger_caption"))
        shown = shown_frame(frame)
        config = {c: st.column_config.NumberColumn(format="%,.1f") for c in shown.columns[1:]}
        st.dataframe(
            shown, hide_index=True, column_config=config, key=f"{key}_{unit}", placeholder=MISSING
        )
        for name in unbalanced(frame):
            row = frame.loc[frame["option"] == name].iloc[0]
            st.error(
                t(
                    "compare.ledger_unbalanced",
                    option=md(name),
                    imbalance=fmt_number(float(row["imbalance"]), 3),
                    demanded=fmt_number(float(row["demanded"]), 1),
                ),
                icon=":material/error:",
            )
