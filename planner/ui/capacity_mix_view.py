"""What the Capacity page shows of a cheapest-mix search (`planner.service.sweep_mix`): the mix
in a sentence against owning alone, every count tried as a cost-against-wait frontier (a table
and a chart). Nothing here draws a widget."""

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from planner.service.sweep_mix import Mix, MixPoint, YearCloud
from planner.service.sweep_search import Target
from planner.ui.capacity_search_view import servers_of
from planner.ui.capacity_view import short
from planner.ui.charts import MEASURE, TEMPLATE
from planner.ui.i18n import Language, fmt_money, fmt_number, t

_MEETS, _MISSES, _BEST = "#15803D", "#B91C1C", "#1F2937"


def _overflow(point: MixPoint, lang: Language) -> str:
    on_spot = point.spot_gpu_hours > 0 or dict(point.result.point).get("hybrid.cloud")
    return t("capacity.mix_on_spot" if on_spot else "capacity.mix_on_demand", lang)


def sentence(mix: Mix, words: dict[str, str], currency: str, rate: float, lang: Language) -> str:
    """The cheapest mix (or that none meets the target) against owning alone, money in
    `currency` at `rate`; `words` name the pool's `gpu`, the `target` and its `scope`."""
    gpu = words["gpu"]
    best = mix.answer
    if best is None:
        text = t("capacity.mix_none", lang, ceiling=f"{mix.ceiling:,}", **words)
    else:
        years = best.hybrid.years
        text = t(
            "capacity.mix_found",
            lang,
            kept=_servers(best.servers, gpu, lang),
            committed=f"{best.committed_gpus:,}",
            model=t(f"labels.pricing.{mix.terms.commit_model}", lang),
            overflow=_overflow(best, lang),
            total=fmt_money(best.total * rate, currency, 0),
            years=short(years, currency),
            **words,
        )
    alone = mix.alone.answer
    if alone is None:
        return text + t("capacity.mix_alone_none", lang, ceiling=f"{mix.ceiling:,}", gpu=gpu)
    owned = alone.option("self-hosted")
    total = fmt_money(owned.total * rate if owned else None, currency, 0)
    return text + t(
        "capacity.mix_alone", lang, kept=_servers(servers_of(alone), gpu, lang), total=total
    )


def _servers(n: int, gpu: str, lang: Language) -> str:
    key = "capacity.pool_servers_one" if n == 1 else "capacity.pool_servers_many"
    return t(key, lang, n=f"{n:,}", gpu=gpu)


def table(
    mix: Mix, target: Target, currency: str, rate: float, lang: Language, *, gpu: str
) -> pd.DataFrame:
    """Every count tried, by servers: the commitment, what the cloud serves a month, the
    hybrid's wait, jobs never run and total (in `currency` at `rate`), whether it meets."""
    points = mix.frontier
    stat = t(f"capacity.stat.{target.stat}", lang)
    years = points[0].hybrid.years if points else 0.0
    return pd.DataFrame(
        {
            t("capacity.mix_col.servers", lang, gpu=gpu): [p.servers for p in points],
            **_cloud_columns(points, currency, lang),
            t("capacity.search_col.wait", lang, stat=stat): [
                _hours(target.wait_of(p.result), currency) for p in points
            ],
            t("capacity.search_col.never", lang): [
                "" if p.hybrid.never_ran is None else f"{p.hybrid.never_ran:,}" for p in points
            ],
            t("capacity.col.total", lang, years=short(years, currency)): [
                fmt_money(p.total * rate, currency, 0) for p in points
            ],
            t("capacity.search_col.meets", lang): [
                t("capacity.yes" if p.meets else "capacity.no", lang) for p in points
            ],
        }
    )


def years_table(mix: Mix, currency: str, lang: Language) -> pd.DataFrame | None:
    """The answer year by year under demand growth (None: one year, or no answer): each
    year's arrival factor, commitment and what the cloud serves a month."""
    best = mix.answer
    if best is None or len(best.by_year) < 2:
        return None
    rows = best.by_year
    return pd.DataFrame(
        {
            t("capacity.mix_year.year", lang): [y.year for y in rows],
            t("capacity.mix_year.rate", lang): [
                fmt_number(y.arrival_rate, 2, currency) for y in rows
            ],
            **_cloud_columns(rows, currency, lang),
        }
    )


def _cloud_columns(
    rows: Sequence[MixPoint] | Sequence[YearCloud], currency: str, lang: Language
) -> dict[str, list[object]]:
    """GPUs committed and what the cloud serves a month (committed, on demand, on spot)."""
    hours = {
        "capacity.mix_col.committed_h": [r.committed_gpu_hours for r in rows],
        "capacity.mix_col.on_demand_h": [r.on_demand_gpu_hours for r in rows],
        "capacity.mix_col.spot_h": [r.spot_gpu_hours for r in rows],
    }
    return {
        t("capacity.mix_col.committed", lang): [r.committed_gpus for r in rows],
        **{t(k, lang): [fmt_number(h, 0, currency) for h in v] for k, v in hours.items()},
    }


def _hours(seconds: float | None, currency: str) -> str:
    return "" if seconds is None else fmt_number(seconds / 3600, 2, currency)


def chart(mix: Mix, target: Target, currency: str, rate: float, lang: Language) -> go.Figure | None:
    """The frontier: each count's total against the hybrid's wait, labelled by servers, the
    cheapest mix starred; None when no count has a wait to draw."""
    drawn = [p for p in mix.frontier if target.wait_of(p.result) is not None]
    if not drawn:
        return None
    stat = t(f"capacity.stat.{target.stat}", lang)
    fig = go.Figure(layout={"template": TEMPLATE})
    for met, name, color in (
        (True, "capacity.search_meets", _MEETS),
        (False, "capacity.search_misses", _MISSES),
    ):
        points = [p for p in drawn if p.meets == met]
        if points:
            fig.add_scatter(
                x=[(target.wait_of(p.result) or 0.0) / 3600 for p in points],
                y=[p.total * rate for p in points],
                mode="markers+text",
                text=[f"{p.servers:,}" for p in points],
                textposition="top center",
                name=t(name, lang),
                marker={"color": color, "size": 11},
            )
    best = mix.answer
    if best is not None:
        fig.add_scatter(
            x=[(target.wait_of(best.result) or 0.0) / 3600],
            y=[best.total * rate],
            mode="markers",
            name=t("capacity.mix_best", lang),
            marker={"symbol": "star", "size": 20, "color": _BEST},
        )
    fig.add_vline(x=target.seconds / 3600, line_dash="dot", line_color="#6B7280")
    years = short(drawn[0].hybrid.years, currency)
    fig.update_layout(title=t("capacity.mix_chart_title", lang, years=years))
    fig.update_xaxes(
        title=t("capacity.search_y_title", lang, stat=stat), rangemode="tozero", tickformat=MEASURE
    )
    fig.update_yaxes(
        title=t("capacity.y_title", lang, years=years, currency=currency), tickformat=",.0f"
    )
    return fig
