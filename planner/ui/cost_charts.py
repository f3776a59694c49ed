"""The Compare page's figures: options coloured alike on every chart, cumulative cash, the
break-even curve and the sensitivity tornado (pure functions from tables to figures, on the
"planner" template of `planner.ui.charts`)."""

from collections.abc import Iterable

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from planner.ui.charts import TEMPLATE, count_axis, top_of
from planner.ui.i18n import Language, note_text, t

# The owning options keep their colour on every page ("self-hosted", or "<scenario> ·
# self-hosted" when several saved scenarios are compared). Rented options take colours in the
# order of their names, so the same set of options is coloured alike on every chart.
OPTION_COLORS: dict[str, str] = {"self-hosted": "#3B6EA5", "hybrid": "#8A6BB1"}
# Further owned options of the same kind (two self-hosted sizes side by side): shades of it.
_SHADES = {
    "self-hosted": ("#1F4E79", "#6C9BD2", "#2E8BC0", "#9DB9D9"),
    "hybrid": ("#5E3F8C", "#B39DDB", "#7E57C2", "#D1C4E9"),
}
_RENTED = ("#C4704A", "#5B9A68", "#D08C2F", "#4C9F9F", "#B04E4E", "#9C755F", "#A0A83B")


def option_colors(options: Iterable[str]) -> dict[str, str]:
    """A colour for each option: fixed for the first self-hosted and hybrid (shades for
    more of them), by name for the rented ones."""
    names = list(dict.fromkeys(options))
    colors: dict[str, str] = {}
    for kind, first in OPTION_COLORS.items():
        owned = [name for name in names if _kind(name) == kind]
        shades = (first, *_SHADES[kind]) * (len(owned) // 5 + 1)
        colors.update(zip(owned, shades, strict=False))
    rented = sorted(name for name in names if name not in colors)
    colors.update(zip(rented, _RENTED * (len(rented) // len(_RENTED) + 1), strict=False))
    return {name: colors[name] for name in names}


def _kind(option: str) -> str:
    return option.rsplit(" · ", 1)[-1]


def option_label(option: str, lang: Language | None = None) -> str:
    """An option's name in the session's language: the built-in "self-hosted" and "hybrid"
    (alone or after "<scenario> · ") and the pricing model of a cloud option we named
    (a coded note, `planner.core.notes.cloud_label`) translated, the user's own names as
    they are."""
    option = note_text(option, lang)
    kind = _kind(option)
    if kind not in OPTION_COLORS:
        return option
    return option.removesuffix(kind) + t(f"labels.option.{kind}", lang)


def cumulative_cash(frame: pd.DataFrame, currency: str) -> go.Figure:
    """Cash paid so far, month by month, one line per option."""
    options = list(dict.fromkeys(frame["option"]))
    colors = {option_label(name): color for name, color in option_colors(options).items()}
    fig = px.line(
        frame.assign(option=frame["option"].map(option_label)),
        x="month",
        y="cumulative",
        color="option",
        category_orders={"option": list(colors)},
        color_discrete_map=colors,
        template=TEMPLATE,
        title=t("labels.cash_title"),
        labels={
            "month": t("labels.cash_month"),
            "cumulative": t("labels.cash_axis", currency=currency),
            "option": "",
        },
    )
    fig.update_traces(hovertemplate=f"%{{y:,.0f}} {currency}<extra>%{{fullData.name}}</extra>")
    fig.update_yaxes(rangemode="tozero", tickformat=",.0f")
    count_axis(fig, "x", top_of(frame["month"]))
    return fig


def break_even(
    curve: pd.DataFrame, clouds: pd.DataFrame, allocation: float, currency: str
) -> go.Figure:
    """Self-hosted cost per allocated GPU-hour against allocation (F/u + V), each cloud
    option's price as a flat line, and the break-even allocations as markers."""
    colors = option_colors(["self-hosted", *clouds["option"]])
    owned = option_label("self-hosted")
    fig = go.Figure(layout={"template": TEMPLATE})
    fig.add_scatter(
        x=curve["u"],
        y=curve["cost"],
        name=owned,
        line={"color": colors["self-hosted"], "width": 3},
        hovertemplate=f"%{{x:.0%}}: %{{y:,.2f}} {currency}<extra>{owned}</extra>",
    )
    for row in clouds.itertuples():
        fig.add_scatter(
            x=[0.0, 1.0],
            y=[row.price, row.price],
            mode="lines",
            name=str(row.option),
            line={"color": colors[str(row.option)], "dash": "dash"},
            hovertemplate=f"%{{y:,.2f}} {currency}<extra>{row.option}</extra>",
        )
    found = clouds.dropna(subset=["break_even"])
    fig.add_scatter(
        x=found["break_even"],
        y=found["cost"],
        mode="markers",
        name=t("labels.be_points"),
        marker={"size": 11, "symbol": "diamond", "color": "#1F2937"},
        customdata=found[["option"]],
        hovertemplate=t("labels.be_hover") + " %{customdata[0]}: %{x:.0%}<extra></extra>",
    )
    fig.add_vline(x=allocation, line_dash="dot", line_color="#6B7280")
    now = t("labels.be_now", share=f"{allocation:.0%}")
    fig.add_annotation(x=allocation, y=1, yref="paper", text=now)
    top = max([*clouds["price"].dropna(), float(curve["cost"].iloc[-1])]) * 2.5
    fig.update_layout(title=t("labels.be_title"), hovermode="closest")
    fig.update_xaxes(title=t("labels.be_x"), tickformat=".0%", range=[0, 1])
    fig.update_yaxes(title=t("labels.be_y", currency=currency), range=[0, top])
    return fig


def tornado(frame: pd.DataFrame, base: float, title: str, currency: str) -> go.Figure:
    """How far the NPV of buying moves when each driver moves down or up alone, widest on
    top; bars start at the base NPV."""
    fig = go.Figure(layout={"template": TEMPLATE})
    for side, color in (("low", "#5B9A68"), ("high", "#C4704A")):
        fig.add_bar(
            y=frame["driver"],
            x=frame[side] - base,
            base=base,
            orientation="h",
            name=t("labels.driver_down" if side == "low" else "labels.driver_up"),
            marker_color=color,
            customdata=frame[[side]],
            hovertemplate=f"%{{y}}: {t('labels.npv')} %{{customdata[0]:,.0f}} {currency}"
            "<extra>%{fullData.name}</extra>",
        )
    fig.add_vline(x=base, line_color="#1F2937")
    fig.update_layout(title=title, barmode="overlay", hovermode="closest")
    fig.update_yaxes(title=t("labels.driver_axis"), autorange="reversed")
    fig.update_xaxes(title=t("labels.npv_axis", currency=currency), tickformat=",.0f")
    return fig
