"""Plotly figure builders for the app: pure functions from plot-ready tables to figures.

Every figure uses the "planner" template (registered on import), names its unit on every
axis, and colours GPU types the same way on every page. Tests assert on `fig.data` and
`fig.layout`; nothing here renders an image.
"""

from collections.abc import Iterable, Mapping

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import plotly.io as pio

from planner.ui.i18n import fmt_number, number_style, t

TEMPLATE = "planner"
pio.templates[TEMPLATE] = go.layout.Template(
    layout={
        "font": {"family": "Inter, Segoe UI, Helvetica, Arial, sans-serif", "size": 13},
        "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
        "hovermode": "x unified",
        # Top right, on the title's line, so it never covers the title or the data.
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "right", "x": 1},
        "colorway": px.colors.qualitative.Safe,
    }
)
# One colour per GPU type, on every page; unknown types take the next free colour.
GPU_COLORS: dict[str, str] = {
    "A100": "#3B6EA5",
    "H100": "#C4704A",
    "H800": "#5B9A68",
    "H200": "#8A6BB1",
    "A800": "#6FA8C8",
    "V100": "#B5A642",
    "L40S": "#C75C8E",
    "T4": "#7F7F7F",
}
_SPARE = ("#4C9F9F", "#D08C2F", "#9C755F", "#A0A83B", "#5E5EA8", "#B04E4E")


# Streamlit's plotly theme draws axis titles and tick labels in a faded grey (3.7:1 on white).
# It swaps these placeholder colours for the theme's own on the page, so a figure that asks
# for the placeholder of the body text gets full-contrast text in light and dark themes alike
# (tests/e2e/test_themes.py measures it).
STREAMLIT_TEXT = "#000037"  # streamlit.elements.lib.streamlit_plotly_theme.GRAY_90


def readable(fig: go.Figure) -> go.Figure:
    """`fig` with axis titles and tick labels in the theme's body-text colour, and its title
    below the band where plotly's toolbar shows."""
    fig.update_xaxes(title_font_color=STREAMLIT_TEXT, tickfont_color=STREAMLIT_TEXT)
    fig.update_yaxes(title_font_color=STREAMLIT_TEXT, tickfont_color=STREAMLIT_TEXT)
    return _below_toolbar(fig)


# Plotly's toolbar (the "modebar") shows in the top right corner while the pointer is over a
# chart, about 28 px high; by default the title sits in the middle of the top margin, under it,
# and the legend (top right, see the template) under the title when a column is narrow. The
# title hangs below the toolbar's band instead, a legend gets a line of its own under the
# title, and the plot starts below both (measured in Chromium with Streamlit's theme). The
# settings are the figure's own, not the template's: Streamlit's theme rewrites templates.
TOOLBAR_PX = 34
TITLE_PX = 30
LEGEND_PX = 36
PLOT_CONFIG: dict[str, object] = {
    "displayModeBar": "hover",
    "displaylogo": False,
    # Selection tools select nothing in this app; fewer buttons, a shorter toolbar.
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
}
"""Plotly's `config` for every chart (`st.plotly_chart(..., config=PLOT_CONFIG)`)."""


def _below_toolbar(fig: go.Figure) -> go.Figure:
    legend = LEGEND_PX if _has_legend(fig) else 0
    fig.update_layout(
        title={"yref": "container", "y": 1, "yanchor": "top", "pad": {"t": TOOLBAR_PX}},
        margin_t=TOOLBAR_PX + TITLE_PX + legend,
    )
    return fig


def _has_legend(fig: go.Figure) -> bool:
    """Whether plotly draws a legend: asked for, or by default for two or more traces."""
    if fig.layout.showlegend is not None:
        return bool(fig.layout.showlegend)
    shown = [trace for trace in fig.data if trace.showlegend is not False]
    return len(shown) > 1 or any(trace.showlegend for trace in shown)


# Counts (jobs, GPUs, evictions) take whole-number ticks. Plotly picks at most 10 ticks and
# rounds its step up, so over a range above 10 every step is whole; below, it would step by
# halves that ",d" prints as "0, 0, 1, 1, 2": one tick per unit there instead.
FEW = 10


def count_axis(fig: go.Figure, axis: str, top: float) -> None:
    """Whole-number ticks on the `axis` ("x" or "y") of a count whose largest value is `top`."""
    ticks: dict[str, object] = {"tickformat": ",d"}
    if top <= FEW:
        ticks |= {"tickmode": "linear", "tick0": 0, "dtick": 1}
    (fig.update_yaxes if axis == "y" else fig.update_xaxes)(**ticks)


DAY_MS = 86_400_000


def day_bars(fig: go.Figure, days: pd.Series) -> None:
    """Bars of per-day counts (`days`: each bar's midnight) drawn over their day on a date
    axis from the first midnight to the end of the last day, so ticks fall on whole hours or
    days: plotly would draw a lone date bar one millisecond wide and tick it in fractions of
    a millisecond ("23:59:59.9996")."""
    fig.update_traces(xperiod=DAY_MS, xperiodalignment="middle", width=0.9 * DAY_MS)
    fig.update_xaxes(type="date", hoverformat="%b %-d, %Y")
    if len(days):
        # plotly ignores a time zone on dates; the range is written without one
        first, last = (pd.Timestamp(day).tz_localize(None) for day in (days.min(), days.max()))
        fig.update_xaxes(range=[first.isoformat(), (last + pd.Timedelta(days=1)).isoformat()])


# Measures (hours, GPU-hours, minutes) print each tick to its own precision: a fixed number
# of decimals prints the steps of a short range alike ("0, 0, 1, 1" at 0, 0.25, 0.5, ...).
MEASURE = ",~r"


def top_of(values: pd.Series) -> float:
    """The largest of `values`, 0 when there are none."""
    top = values.max()
    return float(top) if pd.notna(top) else 0.0


def gpu_colors(pools: Iterable[str]) -> dict[str, str]:
    """A colour for each pool (named by GPU type), stable for the known types."""
    colors: dict[str, str] = {}
    spare = iter(_SPARE * 4)
    for pool in pools:
        if pool not in colors:
            colors[pool] = GPU_COLORS.get(pool.upper()) or next(spare, "#888888")
    return colors


# One colour per wait reason, on both reason charts.
REASON_COLORS: dict[str, str] = {
    "cluster_full": "#3B6EA5",
    "gpu_type_busy": "#6FA8C8",
    "fragmented": "#C4704A",
    "cpu_mem_short": "#B5A642",
    "behind_head": "#8A6BB1",
    "partial_gang": "#C75C8E",
    "backoff": "#7F7F7F",
    "quota": "#5B9A68",
    "preempted": "#B04E4E",
    "over_budget": "#D08C2F",
    "evicted_online": "#4C9F9F",
    "start_latency": "#A0A0C8",
}


def _localized(fig: go.Figure) -> go.Figure:
    """Thousands and decimal marks of the reporting currency, as the metrics above use."""
    fig.update_layout(separators=number_style().plotly_separators)
    return fig


def _hours_axis(fig: go.Figure) -> None:
    fig.update_xaxes(title=t("replay.hours_axis"), tickformat=MEASURE)


def allocated_gpus(frame: pd.DataFrame, capacity_by_pool: Mapping[str, float]) -> go.Figure:
    """Allocated GPUs over time, stacked by pool, with the installed total as a line."""
    pools = list(dict.fromkeys(frame["pool"]))
    fig = px.area(
        frame,
        x="hours",
        y="gpus",
        color="pool",
        line_shape="hv",
        category_orders={"pool": pools},
        color_discrete_map=gpu_colors(pools),
        template=TEMPLATE,
        title=t("replay.allocated_title"),
        labels={"gpus": t("replay.allocated_axis"), "pool": ""},
    )
    installed = float(sum(capacity_by_pool.values()))
    top = max(installed, top_of(frame.groupby("hours")["gpus"].sum()))
    if installed:
        fig.add_hline(
            y=installed,
            line_dash="dash",
            line_color="#6B7280",
            annotation_text=t("replay.installed", gpus=fmt_number(installed)),
            annotation_position="top left",
        )
    return _gpus_over_time(fig, top)


def _gpus_over_time(fig: go.Figure, top: float) -> go.Figure:
    """GPU counts (up to `top`) against hours since the trace start: hover text, axes,
    number marks."""
    unit = t("replay.gpus_hover")
    fig.update_traces(hovertemplate=f"%{{y:,.1f}} {unit}<extra>%{{fullData.name}}</extra>")
    fig.update_yaxes(rangemode="tozero")
    count_axis(fig, "y", top)
    _hours_axis(fig)
    return _localized(fig)


def queue_length(frame: pd.DataFrame) -> go.Figure:
    """Jobs waiting over time (bin means); the GPUs they ask for on hover."""
    fig = px.line(
        frame,
        x="hours",
        y="jobs",
        line_shape="hv",
        custom_data=["gpus"],
        template=TEMPLATE,
        title=t("replay.queue_title"),
        labels={"jobs": t("replay.queue_axis")},
    )
    hover = t("replay.queue_hover", gpus="%{customdata[0]:,.0f}")
    fig.update_traces(
        name=t("replay.queue_trace"), hovertemplate=f"%{{y:,.1f}} {hover}<extra></extra>"
    )
    fig.update_yaxes(rangemode="tozero")
    count_axis(fig, "y", top_of(frame["jobs"]))
    _hours_axis(fig)
    return _localized(fig)


def _wait_bars(frame: pd.DataFrame, x: str, title: str, x_title: str) -> go.Figure:
    """Median and 95th-percentile wait per group (grouped bars, minutes)."""
    fig = px.bar(
        frame,
        x=x,
        y="minutes",
        color="statistic",
        barmode="group",
        custom_data=["jobs"],
        category_orders={"statistic": ["p50", "p95"]},
        color_discrete_map={"p50": "#6FA8C8", "p95": "#3B6EA5"},
        template=TEMPLATE,
        title=title,
        labels={x: x_title, "minutes": t("replay.wait_axis"), "statistic": ""},
    )
    minutes, jobs = t("replay.minutes"), t("replay.jobs_hover")
    fig.update_traces(
        hovertemplate=f"%{{y:,.1f}} {minutes} (%{{customdata[0]:,}} {jobs})"
        "<extra>%{fullData.name}</extra>"
    )
    fig.update_xaxes(type="category")
    fig.update_yaxes(rangemode="tozero", tickformat=MEASURE)
    return _localized(fig)


def wait_by_size(frame: pd.DataFrame) -> go.Figure:
    """Median and 95th-percentile wait by GPU-size class (grouped bars)."""
    return _wait_bars(frame, "size", t("replay.size_title"), t("replay.size_axis"))


def wait_by_team(frame: pd.DataFrame) -> go.Figure:
    """Median and 95th-percentile wait by team (the trace's queue, or the ClusterQueue)."""
    return _wait_bars(frame, "team", t("replay.team_title"), t("replay.team_axis"))


def _reason_colors(frame: pd.DataFrame) -> dict[str, str]:
    """Each reason's label (in the reader's language) in its code's colour."""
    labels = dict(zip(frame["reason"], frame["label"], strict=True))
    return {labels[code]: REASON_COLORS.get(code, "#888888") for code in labels}


def waiting_by_reason(frame: pd.DataFrame) -> go.Figure:
    """GPU-hours spent waiting, per reason (horizontal bars, largest on top)."""
    fig = px.bar(
        frame,
        x="gpu_hours",
        y="label",
        color="label",  # the reason in the reader's language, coloured by its code
        orientation="h",
        custom_data=["meaning"],
        color_discrete_map=_reason_colors(frame),
        template=TEMPLATE,
        title=t("replay.reasons_title"),
        labels={"gpu_hours": t("replay.gpu_hours_axis"), "label": t("replay.reason_axis")},
    )
    hours = t("replay.gpu_hours_axis")
    fig.update_traces(
        hovertemplate=f"%{{y}}: %{{x:,.1f}} {hours}<br>%{{customdata[0]}}<extra></extra>"
    )
    fig.update_layout(hovermode="closest", showlegend=False)
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(tickformat=MEASURE)
    return _localized(fig)


def waiting_by_reason_per_team(frame: pd.DataFrame) -> go.Figure:
    """GPU-hours spent waiting per team, stacked by reason (teams with most waiting first)."""
    fig = px.bar(
        frame,
        x="team",
        y="gpu_hours",
        color="label",
        custom_data=["meaning"],
        category_orders={"team": list(dict.fromkeys(frame["team"]))},
        color_discrete_map=_reason_colors(frame),
        template=TEMPLATE,
        title=t("replay.reasons_team_title"),
        labels={
            "team": t("replay.team_axis"),
            "gpu_hours": t("replay.gpu_hours_axis"),
            "label": "",
        },
    )
    fig.update_traces(
        hovertemplate="%{x}: %{y:,.1f}<br>%{customdata[0]}<extra>%{fullData.name}</extra>"
    )
    fig.update_layout(barmode="stack", hovermode="closest")
    fig.update_xaxes(type="category")
    fig.update_yaxes(rangemode="tozero", tickformat=MEASURE)
    return _localized(fig)


def fragmentation(frame: pd.DataFrame) -> go.Figure:
    """Idle GPUs that waiting jobs cannot use, and the FGD measure, over time."""
    fig = px.line(
        frame,
        x="hours",
        y="gpus",
        color="label",
        line_shape="hv",
        color_discrete_sequence=["#C4704A", "#8A6BB1"],
        template=TEMPLATE,
        title=t("replay.frag_title"),
        labels={"gpus": t("replay.frag_axis"), "label": ""},
    )
    return _gpus_over_time(fig, top_of(frame["gpus"]))


def preemptions_by_queue(frame: pd.DataFrame) -> go.Figure:
    """Evictions of each queue's jobs (bars)."""
    fig = px.bar(
        frame,
        x="queue",
        y="preemptions",
        template=TEMPLATE,
        title=t("replay.preempt_title"),
        labels={"queue": t("replay.queue_axis_name"), "preemptions": t("replay.preempt_axis")},
    )
    fig.update_traces(marker_color="#B04E4E", hovertemplate="%{x}: %{y:,}<extra></extra>")
    fig.update_layout(hovermode="closest")
    fig.update_xaxes(type="category")
    fig.update_yaxes(rangemode="tozero")
    count_axis(fig, "y", top_of(frame["preemptions"]))
    return _localized(fig)


def borrowing_by_queue(frame: pd.DataFrame) -> go.Figure:
    """GPU-hours each ClusterQueue borrowed above its quota and lent of its idle quota."""
    fig = px.bar(
        frame,
        x="queue",
        y="gpu_hours",
        color="label",
        barmode="group",
        color_discrete_sequence=["#C4704A", "#5B9A68"],
        template=TEMPLATE,
        title=t("replay.borrow_title"),
        labels={
            "queue": t("replay.queue_axis_name"),
            "gpu_hours": t("replay.borrow_axis"),
            "label": "",
        },
    )
    fig.update_traces(hovertemplate="%{x}: %{y:,.1f}<extra>%{fullData.name}</extra>")
    fig.update_layout(hovermode="closest")
    fig.update_xaxes(type="category")
    fig.update_yaxes(rangemode="tozero", tickformat=MEASURE)
    return _localized(fig)


def wait_cdf(curves: pd.DataFrame, points: pd.DataFrame) -> go.Figure:
    """Wait distributions (share of jobs waiting at most x) on a log axis: one line per
    series of `curves` (series, wait_s, share), and `points` drawn as markers (a replay
    known only by its quantiles)."""
    fig = go.Figure()
    colors = iter(("#3B6EA5", "#C4704A", "#7F7F7F"))
    for series, part in curves.groupby("series", sort=False):
        fig.add_trace(
            go.Scatter(
                x=part["wait_s"],
                y=part["share"],
                name=str(series),
                mode="lines",
                line={"shape": "hv", "color": next(colors)},
            )
        )
    for series, part in points.groupby("series", sort=False):
        fig.add_trace(
            go.Scatter(
                x=part["wait_s"],
                y=part["share"],
                name=str(series),
                mode="markers",
                marker={"symbol": "diamond", "size": 10, "color": next(colors, "#888888")},
            )
        )
    seconds = t("unit.s")
    fig.update_traces(
        hovertemplate=f"%{{x:,.0f}} {seconds}: %{{y:.1%}}<extra>%{{fullData.name}}</extra>"
    )
    fig.update_layout(template=TEMPLATE, title=t("twin.cdf_title"), hovermode="closest")
    fig.update_xaxes(type="log", title=t("twin.cdf_x"))
    fig.update_yaxes(title=t("twin.cdf_y"), range=[0, 1.02], tickformat=".0%")
    return _localized(fig)
