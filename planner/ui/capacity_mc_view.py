"""What the Capacity page shows of a Monte Carlo over a stored sweep
(`planner.service.montecarlo.SweepMc`): per point, each option's NPV of costs as quantiles
(mean, p5, p50, p95), the share of draws where owning costs less than renting, and a chart of
the quantiles by point. Money is multiplied by an FX rate the caller gives. Nothing here draws
a widget."""

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from planner.cost.montecarlo import McHorizon, Spread
from planner.service.montecarlo import McReport
from planner.service.sweep_keys import BURST_H, SERVERS
from planner.ui.capacity_view import series_colors, short
from planner.ui.charts import TEMPLATE
from planner.ui.cost_charts import option_label
from planner.ui.i18n import Language, fmt_money, fmt_percent, t


def point_label(report: McReport, currency: str, lang: Language, first_gpu: str = "") -> str:
    """'16 A100 servers, burst after 1 h' for a Capacity point (`servers` counts the first
    pool's, of `first_gpu`); other keys as `key=value`."""
    parts = []
    for key, value in (report.point or {}).items():
        if key == SERVERS or key.startswith(f"{SERVERS}."):
            gpu = key.partition(".")[2] or first_gpu
            kind = "pool_servers" if gpu else "servers"
            count = f"{kind}_one" if value == 1 else f"{kind}_many"
            parts.append(t(f"capacity.{count}", lang, n=f"{value:,}", gpu=gpu))
        elif key == BURST_H and isinstance(value, int | float):
            parts.append(t("capacity.mc_burst", lang, hours=short(value, currency)))
        else:
            parts.append(f"{key}={value}")
    return t("capacity.list_sep", lang).join(parts)


def ordered(reports: Sequence[McReport]) -> list[McReport]:
    """Points by their values (numbers by size), as a sweep lists them."""

    def key(report: McReport) -> list[tuple[str, float, str]]:
        return [
            (k, float(v) if isinstance(v, int | float) else float("inf"), str(v))
            for k, v in (report.point or {}).items()
        ]

    return sorted(reports, key=key)


def horizon_of(report: McReport, years: float) -> McHorizon | None:
    return next((h for h in report.horizons if h.years == years), None)


def quantiles(
    reports: Sequence[McReport],
    years: float,
    currency: str,
    rate: float,
    lang: Language,
    *,
    first_gpu: str = "",
) -> pd.DataFrame:
    """One row per point and option: the NPV of costs' mean, p5, p50 and p95."""
    rows = []
    for report in reports:
        horizon = horizon_of(report, years)
        for spread in horizon.options if horizon is not None else ():
            money = [fmt_money(v * rate, currency, 0) for v in _figures(spread)]
            name = option_label(spread.option, lang)
            rows.append([point_label(report, currency, lang, first_gpu), name, *money])
    columns = [
        t(f"capacity.mc_col.{c}", lang) for c in ("point", "option", "mean", "p5", "p50", "p95")
    ]
    return pd.DataFrame(rows, columns=columns)


def _figures(spread: Spread) -> tuple[float, float, float, float]:
    return (spread.mean, spread.p5, spread.p50, spread.p95)


def owning_wins(
    reports: Sequence[McReport],
    years: float,
    currency: str,
    rate: float,
    lang: Language,
    *,
    first_gpu: str = "",
) -> pd.DataFrame:
    """One row per point, owned and rented option: the share of draws where owning costs
    less, and the NPV of buying's mean, p5 and p95."""
    rows = []
    for report in reports:
        horizon = horizon_of(report, years)
        for w in horizon.owning_wins if horizon is not None else ():
            money = [
                fmt_money(v * rate, currency, 0)
                for v in (w.npv_of_buying_mean, w.npv_of_buying_p5, w.npv_of_buying_p95)
            ]
            share = fmt_percent(w.probability, 1, currency)
            owned, rented = option_label(w.owned, lang), option_label(w.rented, lang)
            rows.append(
                [point_label(report, currency, lang, first_gpu), owned, rented, share, *money]
            )
    keys = ("point", "owned", "rented", "probability", "buy_mean", "buy_p5", "buy_p95")
    return pd.DataFrame(rows, columns=[t(f"capacity.mc_col.{c}", lang) for c in keys])


def chart(
    reports: Sequence[McReport],
    years: float,
    currency: str,
    rate: float,
    lang: Language,
    *,
    first_gpu: str = "",
) -> go.Figure | None:
    """Each option's NPV of costs by point: the median, with a bar from p5 to p95; None
    when no point has the horizon (nothing to draw)."""
    labels = [point_label(r, currency, lang, first_gpu) for r in reports]
    spreads = [horizon_of(r, years) for r in reports]
    names = list(dict.fromkeys(s.option for h in spreads if h is not None for s in h.options))
    if not names:
        return None
    colors = series_colors([(n, None) for n in names])
    fig = go.Figure(layout={"template": TEMPLATE})
    for name in names:
        found = [
            (label, next(s for s in h.options if s.option == name))
            for label, h in zip(labels, spreads, strict=True)
            if h is not None and any(s.option == name for s in h.options)
        ]
        fig.add_scatter(
            x=[label for label, _ in found],
            y=[s.p50 * rate for _, s in found],
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [(s.p95 - s.p50) * rate for _, s in found],
                "arrayminus": [(s.p50 - s.p5) * rate for _, s in found],
            },
            mode="markers",
            name=option_label(name, lang),
            marker={"color": colors[name, None], "size": 10},
        )
    span = short(years, currency)
    fig.update_layout(title=t("capacity.mc_chart_title", lang, years=span))
    fig.update_xaxes(title=t("capacity.mc_col.point", lang), type="category")
    fig.update_yaxes(
        title=t("capacity.mc_y_title", lang, years=span, currency=currency), tickformat=",.0f"
    )
    return fig


def histogram(
    report: McReport, years: float, currency: str, rate: float, lang: Language
) -> go.Figure | None:
    """One point's NPV of costs over `years`, each option's draws as an overlaid histogram
    (the same bins for all); None when the point has no draws over the horizon."""
    horizon = horizon_of(report, years)
    spreads = [s for s in (horizon.options if horizon is not None else ()) if s.draws]
    if not spreads:
        return None
    colors = series_colors([(s.option, None) for s in spreads])
    fig = go.Figure(layout={"template": TEMPLATE})
    for spread in spreads:
        fig.add_histogram(
            x=[v * rate for v in spread.draws],
            name=option_label(spread.option, lang),
            marker={"color": colors[spread.option, None]},
            opacity=0.6,
            nbinsx=40,
        )
    span = short(years, currency)
    fig.update_layout(barmode="overlay", title=t("capacity.mc_hist_title", lang, years=span))
    fig.update_xaxes(
        title=t("capacity.mc_y_title", lang, years=span, currency=currency), tickformat=",.0f"
    )
    fig.update_yaxes(title=t("capacity.mc_hist_y", lang))
    return fig


def wins_sentence(
    report: McReport, years: float, currency: str, lang: Language, *, first_gpu: str = ""
) -> str:
    """'In 812 of 1,000 draws (81.2%), owning (self-hosted, 4 A100 servers) costs less than
    renting (AWS) over 3 years.' per owned and rented pair; '' without a pair."""
    horizon = horizon_of(report, years)
    point = point_label(report, currency, lang, first_gpu)
    sentences = [
        t(
            "capacity.mc_wins_sentence",
            lang,
            wins=f"{round(w.probability * report.draws):,}",
            draws=f"{report.draws:,}",
            share=fmt_percent(w.probability, 1, currency),
            owned=option_label(w.owned, lang),
            point=point,
            rented=option_label(w.rented, lang),
            years=short(years, currency),
        )
        for w in (horizon.owning_wins if horizon is not None else ())
    ]
    return " ".join(sentences)
