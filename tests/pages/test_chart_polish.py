"""Chart polish (issue 17): titles clear of plotly's toolbar, whole-number ticks on counts,
and a short trace's arrivals on clean hour ticks."""

import json
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import pytest

from planner.engine.metrics import summarize
from planner.ui import charts, cost_charts, history_view, widgets
from planner.ui import replay_frames as frames
from tests.pages.test_history import charts as drawn_charts
from tests.pages.test_history import open_page, upload
from tests.pages.test_replay_view import borrowing

ONE_DAY = (
    "job_id,submit_time,duration_s,gpus,queue\n"
    "d1,2026-03-04T01:00:00Z,600,1,team-x\n"
    "d2,2026-03-04T09:30:00Z,1200,2,team-x\n"
    "d3,2026-03-04T17:45:00Z,60,1,team-y\n"
)


class Recorder:
    """Stands in for `st` (or a column) in `widgets.plot`: keeps what it was asked to draw."""

    def __init__(self) -> None:
        self.figure: go.Figure | None = None
        self.options: dict[str, Any] = {}

    def plotly_chart(self, figure: go.Figure, **options: Any) -> None:
        self.figure, self.options = figure, options


def plotted(fig: go.Figure) -> go.Figure:
    where = Recorder()
    widgets.plot(where, fig, key="chart")
    assert where.figure is not None
    return where.figure


def one_line() -> go.Figure:
    return go.Figure(go.Scatter(x=[0, 1], y=[1, 2]), layout={"title": "A long chart title"})


def two_lines() -> go.Figure:
    fig = one_line()
    fig.add_scatter(x=[0, 1], y=[2, 1])
    return fig


def test_plot_shows_the_toolbar_only_on_hover_and_without_selection_tools() -> None:
    where = Recorder()
    widgets.plot(where, one_line(), key="chart")

    config = where.options["config"]
    assert config["displayModeBar"] == "hover"
    assert {"select2d", "lasso2d"} <= set(config["modeBarButtonsToRemove"])


def test_a_title_hangs_below_the_toolbar_and_a_legend_has_a_line_of_its_own() -> None:
    alone, with_legend = plotted(one_line()), plotted(two_lines())

    for fig in (alone, with_legend):
        title = fig.layout.title
        assert (title.yref, title.y, title.yanchor) == ("container", 1, "top")
        assert title.pad.t == charts.TOOLBAR_PX
    assert alone.layout.margin.t == charts.TOOLBAR_PX + charts.TITLE_PX
    assert with_legend.layout.margin.t == charts.TOOLBAR_PX + charts.TITLE_PX + charts.LEGEND_PX
    assert with_legend.layout.title.text == "A long chart title"  # kept, only moved


def _count_axes() -> list[Any]:
    """(figure, axis) for every axis of counts, on data with few of them."""
    summary = summarize(borrowing(), timeline=True)  # one 8-GPU node, three jobs
    timeline = summary.timeline
    assert timeline is not None
    allocation = frames.allocation_frame(timeline)
    mix = pd.DataFrame({"size": ["1", "2-7"], "jobs": [3, 1], "gpu_hours": [1.0, 2.0]})
    days = pd.DataFrame({"day": [0, 1, 2], "jobs": [2, 0, 5]})
    cash = pd.DataFrame({"option": ["self-hosted"] * 3, "month": [1, 2, 3], "cumulative": 1.0})
    cases = {
        "allocated GPUs": (charts.allocated_gpus(allocation, summary.gpu_capacity_by_pool), "y"),
        "queued jobs": (charts.queue_length(frames.queue_frame(timeline)), "y"),
        "idle GPUs": (charts.fragmentation(frames.fragmentation_frame(timeline)), "y"),
        "preemptions": (charts.preemptions_by_queue(frames.preemptions_frame(summary)), "y"),
        "jobs per GPU count": (history_view.gpu_mix_chart(mix), "y"),
        "jobs per day": (history_view.arrivals_chart(days, dated=False), "y"),
        "day numbers": (history_view.arrivals_chart(days, dated=False), "x"),
        "months": (cost_charts.cumulative_cash(cash, "EUR"), "x"),
    }
    return [pytest.param(fig, axis, id=name) for name, (fig, axis) in cases.items()]


@pytest.mark.parametrize(("fig", "axis"), _count_axes())
def test_a_few_counts_get_one_whole_number_tick_per_unit(fig: go.Figure, axis: str) -> None:
    ticks = fig.layout[f"{axis}axis"]

    assert ticks.tickformat == ",d"
    assert (ticks.tickmode, ticks.tick0, ticks.dtick) == ("linear", 0, 1)


def test_counts_step_by_one_up_to_ten_then_by_plotlys_own_whole_steps() -> None:
    def y_ticks(most: int) -> Any:
        days = pd.DataFrame({"day": [0, 1], "jobs": [1, most]})
        return history_view.arrivals_chart(days, dated=False).layout.yaxis

    few, many = y_ticks(charts.FEW), y_ticks(1200)

    assert (few.tickformat, few.dtick) == (",d", 1)
    assert (many.tickformat, many.dtick) == (",d", None)  # over 10 plotly steps by 2 or more


def test_hours_and_gpu_hours_print_ticks_to_their_own_precision() -> None:
    summary = summarize(borrowing(), timeline=True)
    assert summary.timeline is not None
    figures = [
        charts.queue_length(frames.queue_frame(summary.timeline)).layout.xaxis,
        charts.waiting_by_reason(frames.waiting_by_reason_frame(summary)).layout.xaxis,
        charts.borrowing_by_queue(frames.borrowing_frame(summary)).layout.yaxis,
        charts.wait_by_team(frames.wait_by_team_frame(summary)).layout.yaxis,
    ]

    assert [axis.tickformat for axis in figures] == [charts.MEASURE] * len(figures)


def _day(value: Any) -> pd.Timestamp:
    """A plotly date as a timestamp without time zone (plotly ignores one)."""
    return pd.Timestamp(value).tz_localize(None)


def test_a_one_day_trace_draws_its_day_over_clean_hour_ticks(db: Path) -> None:
    at = upload(open_page(), "one_day.csv", ONE_DAY)
    at = at.button(key="history_import").click().run()

    assert not at.exception
    chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("history_arrivals_chart"))
    spec = json.loads(chart.proto.spec)
    bars, xaxis = spec["data"][0], spec["layout"]["xaxis"]
    assert [_day(x) for x in bars["x"]] == [pd.Timestamp("2026-03-04")]
    # the bar spans its day (plotly drew a lone date bar one millisecond wide, ticked at
    # "23:59:59.9996"), on an axis from midnight to midnight
    assert bars["xperiod"] == charts.DAY_MS
    assert bars["width"] >= charts.DAY_MS / 2
    assert xaxis["type"] == "date"
    assert [_day(x) for x in xaxis["range"]] == [
        pd.Timestamp("2026-03-04"),
        pd.Timestamp("2026-03-05"),
    ]
    assert spec["layout"]["yaxis"]["dtick"] == 1  # 1 job: one tick per job, not 0, 0, 1, 1


def test_every_history_chart_has_the_toolbar_config_and_its_title_below_it(db: Path) -> None:
    at = open_page()

    shown = at.get("plotly_chart")
    assert len(shown) == 4
    for chart in shown:
        assert json.loads(chart.proto.config)["displayModeBar"] == "hover"
    for spec in drawn_charts(at):
        title = spec["layout"]["title"]
        assert title["yanchor"] == "top"
        assert title["pad"]["t"] == charts.TOOLBAR_PX
        assert spec["layout"]["margin"]["t"] >= charts.TOOLBAR_PX + charts.TITLE_PX
