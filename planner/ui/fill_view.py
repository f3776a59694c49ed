"""The Fill test page's data: the test's run (cached by what it reads), its curves as tables
and its chart. Widgets are in `planner.ui.fill_page`."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from planner.core.config import NodeSpec
from planner.core.file_access import BUNDLED_FILES
from planner.engine.cluster import Placement
from planner.engine.fill import FillResult, PodRequest
from planner.engine.scenario import ClusterSpec
from planner.ingest import IngestOptions, IngestReport
from planner.service import fill as service
from planner.service.replay import cluster_nodes
from planner.ui import cache
from planner.ui.charts import TEMPLATE
from planner.ui.i18n import fmt_number, number_style, t

DEFAULT_PLACEMENTS: tuple[Placement, ...] = ("best-fit", "fgd")
TABLE_STEP = 10
"""The table shows the curves at every 10% of arrived demand, as `planner fill` prints."""


@dataclass(frozen=True, slots=True)
class FillRequest:
    """What one run reads: `source` is a stored trace id or a staged pod list's path."""

    source: str
    from_file: bool
    cluster_json: str
    placements: tuple[Placement, ...]
    seeds: int
    until: float


def nodes_of(cluster: ClusterSpec) -> list[NodeSpec]:
    """The working scenario's nodes, as a replay of it would read them."""
    return cluster_nodes(cluster, files=BUNDLED_FILES)[1]


def node_groups(nodes: Sequence[NodeSpec]) -> str:
    """ "96 × 8 A100 + 32 × 8 H800": node counts by GPU type and GPUs per node."""
    groups = Counter((gpu_type, gpus) for _, gpu_type, gpus, _, _ in nodes)
    return " + ".join(
        f"{fmt_number(count)} × {fmt_number(gpus)} {gpu_type}"
        for (gpu_type, gpus), count in groups.items()
    )


def read_file(path: Path) -> tuple[int, IngestReport]:
    """Pods read from a staged pod list and the report of rows that could not be used."""
    pods, report = _file_pods(str(path))
    return len(pods), report


@st.cache_data(show_spinner=False, max_entries=8)
def _file_pods(path: str) -> tuple[list[PodRequest], IngestReport]:
    return service.file_pods(Path(path), IngestOptions())


def _pods(request: FillRequest) -> list[PodRequest]:
    if request.from_file:
        return _file_pods(request.source)[0]
    with cache.cursor() as con:
        return service.trace_pods(con, request.source)


@st.cache_data(show_spinner=False, max_entries=16)
def run(request: FillRequest) -> tuple[FillResult, ...]:
    """The test for each placement asked, mean over seeds 1..`request.seeds`.

    Raises:
        PlannerError: the pods or the cluster cannot be filled (no GPUs, ...).
    """
    cluster = ClusterSpec.model_validate_json(request.cluster_json)
    comparison = service.compare_placements(
        _pods(request),
        nodes_of(cluster),
        request.placements,
        seeds=range(1, request.seeds + 1),
        until=request.until,
    )
    return comparison.results


def placement_name(placement: str) -> str:
    return t(f"cluster.placement_name.{placement}")


def peak(result: FillResult) -> float:
    """The most of the cluster's GPUs allocated at any point, as a share."""
    return max((p.gpu_allocation_pct for p in result.points), default=0.0) / 100


def curves(results: Sequence[FillResult]) -> pd.DataFrame:
    """Every point of every placement: placement, measure, arrived %, % of the GPUs."""
    rows = []
    for result in results:
        for p in result.points:
            name = placement_name(result.placement)
            rows.append((name, "allocated", p.arrived_pct, p.gpu_allocation_pct))
            rows.append((name, "fragmented", p.arrived_pct, p.frag_gpu_pct))
    return pd.DataFrame(rows, columns=["placement", "measure", "arrived_pct", "pct"])


def table(results: Sequence[FillResult]) -> pd.DataFrame:
    """The curves at every TABLE_STEP % of arrived demand, a column per placement and
    measure, in the page's language."""
    frame = pd.DataFrame(
        {t("fill.col.arrived"): [p.arrived_pct for p in results[0].points[::TABLE_STEP]]}
    )
    for result in results:
        name = placement_name(result.placement)
        points = result.points[::TABLE_STEP]
        frame[t("fill.col.allocated", placement=name)] = [p.gpu_allocation_pct for p in points]
        frame[t("fill.col.fragmented", placement=name)] = [p.frag_gpu_pct for p in points]
        frame[t("fill.col.frag_ratio", placement=name)] = [100 * p.frag_ratio for p in points]
    return frame.round(2)


def curves_csv(results: Sequence[FillResult]) -> str:
    """Every point of every placement, the columns `planner fill --json` names."""
    rows = [
        {"placement": r.placement, "seeds": len(r.seeds), **point}
        for r in results
        for point in r.curve()
    ]
    return pd.DataFrame(rows).to_csv(index=False)


def figure(frame: pd.DataFrame) -> go.Figure:
    """Allocation (solid) and fragmentation (dotted) against arrived demand, a colour per
    placement."""
    fig = go.Figure()
    colors = dict(zip(frame["placement"].unique(), TEMPLATE_COLORS, strict=False))
    for (name, measure), part in frame.groupby(["placement", "measure"], sort=False):
        label = t("fill.series", placement=name, measure=t(f"fill.measure.{measure}"))
        fig.add_trace(
            go.Scatter(
                x=part["arrived_pct"],
                y=part["pct"],
                name=label,
                mode="lines",
                line={"color": colors.get(name), "dash": "dot" if measure != "allocated" else None},
                hovertemplate=f"%{{x}}%: %{{y:.1f}}%<extra>{label}</extra>",
            )
        )
    fig.update_layout(template=TEMPLATE, title=t("fill.chart_title"), hovermode="closest")
    fig.update_xaxes(title=t("fill.chart_x"), ticksuffix="%")
    fig.update_yaxes(title=t("fill.chart_y"), range=[0, 101], ticksuffix="%")
    fig.update_layout(separators=number_style().plotly_separators)
    return fig


TEMPLATE_COLORS = ("#3B6EA5", "#C4704A", "#5B9A68", "#8A6BB1", "#7F7F7F")
