"""The chargeback on the Compare page: each option's cost by team, the idle-cost rule chosen
with a radio (shared by use, by quota, or kept as an idle line), the rule stated under it, and
the chargeback and per-job CSV files (`planner report --out FILE.csv`'s second and third).

Numbers come from `planner.report.chargeback_table`, the same split the workbook's Chargeback
sheet and the CSV show. Team and scenario names are the user's: they are shown in the table
(plain text cells) and never in markdown.
"""

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from planner.cost.chargeback import RULES, Rule
from planner.cost.results import TcoReport
from planner.report.chargeback_table import Chargeback, chargeback, totals, wide_rows
from planner.report.text import text
from planner.ui.downloads import table_downloads
from planner.ui.i18n import MISSING, Language, language, t
from planner.ui.safe import md

RULE_KEY = "chargeback_rule"


def chosen_rule() -> Rule:
    """The rule the page's radio holds (`use` before it is shown)."""
    found = st.session_state.get(RULE_KEY)
    return found if found in RULES else "use"


def frame(cb: Chargeback, lang: Language) -> pd.DataFrame:
    """Team rows (and the idle line), then the totals row; one money column per option."""
    body: list[list[object]] = [[label, *values] for label, values in wide_rows(cb, lang)]
    body.append([text("report.chargeback.total", lang), *totals(cb)])
    # the labels are in `lang` already (self-hosted, hybrid: `chargeback_table`)
    columns = [t("chargeback.team"), *(c.label for c in cb.columns)]
    return pd.DataFrame(body, columns=columns)


def chargeback_section(
    reports: Sequence[tuple[str, TcoReport]], horizon_index: int, key: str
) -> None:
    """The chargeback table of `reports` at `horizon_index`, with its rule and downloads."""
    st.subheader(t("chargeback.title"))
    # Labels made now, in the session's language: Streamlit may call format_func later.
    names = {r: t(f"chargeback.rule_{r}") for r in RULES}
    rule: Rule = st.radio(
        t("chargeback.rule"), RULES, format_func=names.__getitem__,
        horizontal=True, key=RULE_KEY, help=t("chargeback.rule_help"),
    )  # fmt: skip
    lang = language()
    cb = chargeback(reports, horizon_index, rule, lang)
    if not cb.columns:
        st.caption(t("chargeback.none"))
        return
    shown = frame(cb, lang)
    money = st.column_config.NumberColumn(format="%,.2f")
    config = {str(name): money for name in shown.columns[1:]}
    st.dataframe(
        shown, hide_index=True, column_config=config, key=f"{key}_table", placeholder=MISSING
    )
    for line in cb.statement:
        st.caption(md(line))
    table_downloads(reports, horizon_index, key, rule)
