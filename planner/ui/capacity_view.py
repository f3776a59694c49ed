"""The capacity page's glue: read the sweep's inputs (the servers of one self-hosted pool, the
others held fixed and the answer says so, and with a hybrid its burst threshold), and say the
answer of its stored points' rows (`planner.service.sweep`: the smallest cluster meeting a p95
wait target, the cheapest option) in words, a table and a chart.
"""

import math
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from planner.core.errors import ScenarioError
from planner.cost.scenario import TcoScenario

# the sweep and its answers are planner.service.sweep's (`planner sweep` runs them too); the
# page reaches them through here
from planner.service.sweep import (
    Row,
    balances,
    cheapest,
    convert,
    for_horizon,
    rows_of,
    smallest_meeting,
    with_servers,
)
from planner.ui import compare_view
from planner.ui.charts import MEASURE, TEMPLATE
from planner.ui.cost_charts import option_colors
from planner.ui.i18n import Language, fmt_money, fmt_number, fmt_percent, number_style, t

DEFAULT_SCENARIO = "sample-tco.yaml"
MAX_POINTS = 8  # server counts, and burst thresholds, in one sweep
MAX_RUNS = 60  # (servers, threshold) pairs: each is one replay-and-price run
OWNED = compare_view.OWNED  # ("self-hosted", "hybrid")
__all__ = [  # this module's own names, and the sweep's it passes on
    "DEFAULT_SCENARIO",
    "MAX_POINTS",
    "MAX_RUNS",
    "OWNED",
    "Row",
    "balances",
    "chart",
    "cheapest",
    "check_runs",
    "convert",
    "default_counts",
    "default_thresholds",
    "for_horizon",
    "held_fixed",
    "label",
    "parse_counts",
    "parse_thresholds",
    "pool_label",
    "rows_of",
    "runs",
    "runs_note",
    "scenarios",
    "sentence",
    "series",
    "series_colors",
    "series_name",
    "short",
    "smallest_meeting",
    "table",
    "with_servers",
]


# marker shapes of a hybrid's threshold series (their colours repeat after five shades)
_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "x", "triangle-down", "pentagon")


def scenarios() -> list[str]:
    """The bundled TCO scenarios, the sample with a trace (and a hybrid) first."""
    names = compare_view.bundled_scenarios()
    return sorted(names, key=lambda name: name != DEFAULT_SCENARIO)


def default_counts(servers: int, points: int = MAX_POINTS) -> list[int]:
    """Halvings of the scenario's servers down to 1 (at most `points`), ascending."""
    counts: list[int] = []
    n = max(1, servers)
    while len(counts) < points:
        counts.append(n)
        if n == 1:
            break
        n = max(1, n // 2)
    return sorted(set(counts))


def _parts(text: str) -> list[str]:
    return text.replace(",", " ").replace("，", " ").split()


def parse_counts(text: str) -> list[int]:
    """Server counts from '1, 2, 4 8': whole numbers >= 1, at most MAX_POINTS, ascending."""
    try:
        counts = sorted({int(p) for p in _parts(text)})
    except ValueError as err:
        raise ScenarioError(t("capacity.err_not_numbers", text=text)) from err
    if not counts:
        raise ScenarioError(t("capacity.err_empty"))
    if counts[0] < 1:
        raise ScenarioError(t("capacity.err_below_one"))
    if len(counts) > MAX_POINTS:
        raise ScenarioError(t("capacity.err_too_many", max=MAX_POINTS, given=len(counts)))
    return counts


def default_thresholds(burst_h: float) -> list[float]:
    """The hybrid's threshold with half and four times it (0, 0.5, 1 h for a threshold of 0)."""
    return sorted({burst_h / 2, burst_h, burst_h * 4}) if burst_h > 0 else [0.0, 0.5, 1.0]


def parse_thresholds(text: str) -> list[float]:
    """Burst thresholds in hours from '0.5, 1 4': finite numbers >= 0, at most MAX_POINTS,
    ascending, duplicates dropped."""
    try:
        hours = sorted({float(p) for p in _parts(text)})
    except ValueError as err:
        raise ScenarioError(t("capacity.err_thresholds_not_numbers", text=text)) from err
    if not hours:
        raise ScenarioError(t("capacity.err_thresholds_empty"))
    if hours[0] < 0 or not all(math.isfinite(h) for h in hours):
        raise ScenarioError(t("capacity.err_thresholds_negative"))
    if len(hours) > MAX_POINTS:
        raise ScenarioError(t("capacity.err_thresholds_too_many", max=MAX_POINTS, given=len(hours)))
    return hours


def runs(counts: Sequence[int], thresholds_h: Sequence[float]) -> int:
    """How many replay-and-price runs a sweep makes: one per (servers, threshold) pair."""
    return len(counts) * max(1, len(thresholds_h))


def _sizes(counts: Sequence[int], thresholds_h: Sequence[float]) -> dict[str, int]:
    return {
        "runs": runs(counts, thresholds_h),
        "counts": len(counts),
        "thresholds": len(thresholds_h),
        "max": MAX_RUNS,
    }


def check_runs(counts: Sequence[int], thresholds_h: Sequence[float]) -> None:
    """Raise a ScenarioError when the sweep would make more than MAX_RUNS runs."""
    sizes = _sizes(counts, thresholds_h)
    if sizes["runs"] > MAX_RUNS:
        raise ScenarioError(t("capacity.err_too_many_runs", None, **sizes))


def runs_note(counts: Sequence[int], thresholds_h: Sequence[float], lang: Language) -> str:
    """What pressing Run will do, in `lang`: the number of runs and where it comes from."""
    key = "capacity.runs_hybrid" if thresholds_h else "capacity.runs"
    return t(key, lang, **_sizes(counts, thresholds_h))


def pool_label(scenario: TcoScenario, pool: int, lang: Language) -> str:
    """'A100: 16 servers of 8 GPUs' for the pool picker."""
    spec = scenario.self_hosted[pool]
    return t(
        "capacity.pool_label",
        lang,
        gpu=spec.gpu,
        servers=_servers(spec.servers, lang),
        gpus=spec.gpus_per_server,
    )


def held_fixed(scenario: TcoScenario, pool: int, lang: Language) -> str:
    """The pools a sweep of `pool` leaves as they are, e.g. '128 V100 servers' ('' if none)."""
    return t("capacity.list_sep", lang).join(
        _pool_servers(p.servers, p.gpu, lang)
        for k, p in enumerate(scenario.self_hosted)
        if k != pool
    )


def short(value: float, currency: str) -> str:
    """A number as briefly as `:g` writes it, with the currency's decimal mark (0.5, 0,5)."""
    text = f"{value:g}"
    return text if "e" in text else text.replace(".", number_style(currency).decimal)


def label(row: Row, lang: Language, currency: str) -> str:
    """'self-hosted, 16 servers' for owned options ('hybrid with 16 servers bursting after
    1 h' for a hybrid with its threshold), the cloud option's name otherwise; the hours'
    decimal mark is `currency`'s."""
    if row.servers is None:
        return str(row.option)
    servers = _servers(row.servers, lang)
    burst_h = row.burst_after_h
    if burst_h is None:
        return f"{row.option}{t('capacity.list_sep', lang)}{servers}"
    return t(
        "capacity.label_burst",
        lang,
        option=row.option,
        servers=servers,
        hours=short(burst_h, currency),
    )


def _servers(n: int, lang: Language) -> str:
    return t("capacity.servers_one" if n == 1 else "capacity.servers_many", lang, n=f"{n:,}")


def _pool_servers(n: int, gpu: str, lang: Language) -> str:
    key = "capacity.pool_servers_one" if n == 1 else "capacity.pool_servers_many"
    return t(key, lang, n=f"{n:,}", gpu=gpu)


def sentence(
    rows: Sequence[Row],
    target_h: float,
    currency: str,
    lang: Language,
    *,
    swept: str = "",
    fixed: str = "",
) -> str:
    """The answer in one sentence in `lang`: the smallest cluster meeting the target, the
    cheapest option; money in `currency`. With several pools, `swept` names the GPU of the
    pool whose servers were counted and `fixed` the pools held as they are (`held_fixed`)."""
    best = smallest_meeting(rows, target_h)
    target = short(target_h, currency)
    if best is not None:
        n = best.servers or 0  # an owned option's count
        servers = _pool_servers(n, swept, lang) if swept else _servers(n, lang)
        first = t(
            "capacity.smallest",
            lang,
            target=target,
            servers=servers,
            total=fmt_money(best.total, currency, 0),
            years=short(best.years, currency),
            per_hour=fmt_money(best.per_useful_gpu_hour, currency),
        )
    else:
        first = t("capacity.none_meets", lang, target=target)
    low = cheapest(rows)
    if low is None:
        answer = first + t("capacity.full_stop", lang)
    else:
        answer = t(
            "capacity.and_cheapest",
            lang,
            first=first,
            label=label(low, lang, currency),
            per_hour=fmt_money(low.per_useful_gpu_hour, currency),
            total=fmt_money(low.total, currency, 0),
        )
    if fixed:
        answer += t("capacity.held_fixed", lang, gpu=swept, fixed=fixed)
    return answer


def table(rows: Sequence[Row], years: float, currency: str, lang: Language) -> pd.DataFrame:
    """The points for display, in `lang`, money, waits and thresholds written in `currency`'s
    style; each option's points together (a hybrid's by threshold), by servers. The burst
    column only when a hybrid was swept."""
    order = {name: i for i, name in enumerate(dict.fromkeys(r.option for r in rows))}
    rows = sorted(rows, key=lambda r: (order[r.option], _rank(r.burst_after_h), r.servers or 0))
    columns: dict[str, Any] = {
        t("capacity.col.option", lang): [r.option for r in rows],
        t("capacity.col.servers", lang): pd.array([r.servers for r in rows], "Int64"),
    }
    if any(r.burst_after_h is not None for r in rows):
        columns[t("capacity.col.burst", lang)] = [
            "" if r.burst_after_h is None else short(r.burst_after_h, currency) for r in rows
        ]
    owned = [r.servers is not None for r in rows]

    def gpu_h(values: Iterable[float | None]) -> list[str]:
        return [
            fmt_number(v, 0, currency) if mine and v is not None else ""
            for v, mine in zip(values, owned, strict=True)
        ]

    columns |= {
        t("capacity.col.total", lang, years=short(years, currency)): [
            fmt_money(r.total, currency, 0) for r in rows
        ],
        t("capacity.col.per_hour", lang): [
            fmt_money(r.per_useful_gpu_hour, currency) for r in rows
        ],
        t("capacity.col.per_hour_bar", lang): [_bar(r, currency, lang) for r in rows],
        t("capacity.col.wait", lang): [fmt_number(r.p95_wait_h, 2, currency) for r in rows],
        t("capacity.col.wait_bar", lang): [_wait_bar(r, currency, lang) for r in rows],
        t("capacity.col.util", lang): [
            "" if r.utilization is None else fmt_percent(r.utilization, 1, currency) for r in rows
        ],
        t("capacity.col.served", lang): gpu_h(r.served_gpu_h for r in rows),
        # why a short wait need not meet the target: these jobs are in no wait
        t("capacity.col.left_out", lang): gpu_h(r.left_out_gpu_h for r in rows),
        t("capacity.col.carried", lang): gpu_h(r.carried_gpu_h for r in rows),
        t("capacity.col.demanded", lang): gpu_h(r.demanded_gpu_h for r in rows),
    }
    return pd.DataFrame(columns)


def _bar(row: Row, currency: str, lang: Language) -> str:
    """'$2.10 to $3.90 (±30.0%)', 'not calibrated', or '' for a cloud option (no replay)."""
    if row.servers is None:
        return ""
    if row.per_hour_bar is None or row.twin_error is None:
        return t("capacity.not_calibrated", lang)
    low, high = (fmt_money(v, currency) for v in row.per_hour_bar)
    error = fmt_percent(row.twin_error, 1, currency)
    return t("capacity.bar", lang, low=low, high=high, error=error)


def _wait_bar(row: Row, currency: str, lang: Language) -> str:
    """'1.50 to 3.75 (x1.00 to x2.50)': the p95 wait times the twin check's wait factors
    (`planner.cost.montecarlo_twin.wait_bar`), which are shown so it can be redone by hand."""
    if row.servers is None:
        return ""
    if row.twin_error is None:
        return t("capacity.not_calibrated", lang)
    if row.p95_wait_bar_h is None or row.p95_wait_h is None:
        return t("capacity.no_wait_ratio", lang)
    low, high = (fmt_number(v, 2, currency) for v in row.p95_wait_bar_h)
    factors = [v / row.p95_wait_h if row.p95_wait_h else 1.0 for v in row.p95_wait_bar_h]
    low_factor, high_factor = (fmt_number(f, 2, currency) for f in factors)
    return t(
        "capacity.wait_bar",
        lang,
        low=low,
        high=high,
        low_factor=low_factor,
        high_factor=high_factor,
    )


def _rank(burst_h: float | None) -> float:
    """Options without a threshold first, then thresholds ascending."""
    return -1.0 if burst_h is None else float(burst_h)


def series(rows: Iterable[Row]) -> list[tuple[str, float | None]]:
    """The chart's series: (option, burst threshold), options in order of first appearance,
    one per threshold (ascending) for the hybrid, the threshold None for the other options."""
    keys = list(dict.fromkeys((r.option, r.burst_after_h) for r in rows))
    order = {name: i for i, name in enumerate(dict.fromkeys(name for name, _ in keys))}
    return sorted(keys, key=lambda k: (order[k[0]], _rank(k[1])))


def series_name(option: str, burst_h: float | None, currency: str, lang: Language) -> str:
    """'hybrid, burst after 1 h' for a hybrid series, the option's name otherwise."""
    if burst_h is None:
        return option
    return t("capacity.series_burst", lang, option=option, hours=short(burst_h, currency))


def series_colors(keys: Sequence[tuple[str, float | None]]) -> dict[tuple[str, float | None], str]:
    """The options' colours of every chart; a hybrid's thresholds in its shades, in order."""
    # option_colors shades owned options named "<something> · hybrid" by their order
    names = {key: key[0] if key[1] is None else f"{key[1]:g} · {key[0]}" for key in keys}
    colors = option_colors(names.values())
    return {key: colors[name] for key, name in names.items()}


def chart(
    rows: Sequence[Row], target_h: float, currency: str, years: float, lang: Language
) -> go.Figure:
    """Total cost against p95 wait: one labelled point per server count for each owned
    option, the cloud options at wait 0, the target as a vertical line, and the smallest
    cluster meeting it and the cheapest option marked; a hybrid's thresholds as dashed series
    of their own (shades and marker shapes); texts in `lang`."""
    keys = series(rows)
    colors = series_colors(keys)
    fig = go.Figure(layout={"template": TEMPLATE})
    shapes = dict(zip([k for k in keys if k[1] is not None], _SYMBOLS, strict=False))
    for key in keys:
        name, burst_h = key
        points = [r for r in rows if (r.option, r.burst_after_h) == key]
        owned = name in OWNED
        fig.add_scatter(
            x=[r.p95_wait_h or 0.0 for r in points],
            y=[r.total for r in points],
            mode="lines+markers+text" if owned else "markers+text",
            text=[f"{r.servers:,}" if owned else "" for r in points],
            textposition="top center",
            name=series_name(name, burst_h, currency, lang),
            marker={
                "color": colors[key],
                "size": 9 if owned else 12,
                "symbol": shapes.get(key, "circle"),
            },
            line={"color": colors[key], "dash": "solid" if burst_h is None else "dash"},
            hovertext=[_hover(r, currency, lang) for r in points],
            hoverinfo="text",
        )
    for row, mark, symbol in (
        (smallest_meeting(rows, target_h), "capacity.mark_smallest", "star"),
        (cheapest(rows), "capacity.mark_cheapest", "diamond-open"),
    ):
        if row is not None:
            name = t(mark, lang)
            fig.add_scatter(
                x=[row.p95_wait_h or 0.0],
                y=[row.total],
                mode="markers",
                name=name,
                marker={"symbol": symbol, "size": 20, "color": "#1F2937", "line": {"width": 2}},
                hovertext=[f"{name}: {label(row, lang, currency)}"],
                hoverinfo="text",
            )
    span = short(years, currency)
    fig.add_vline(x=target_h, line_dash="dot", line_color="#6B7280")
    fig.add_annotation(
        x=target_h,
        y=1,
        yref="paper",
        text=t("capacity.target_note", lang, target=short(target_h, currency)),
    )
    fig.update_layout(
        title=t("capacity.chart_title", lang, years=span),
        hovermode="closest",
        separators=number_style(currency).plotly_separators,
    )
    fig.update_xaxes(title=t("capacity.x_title", lang), rangemode="tozero", tickformat=MEASURE)
    fig.update_yaxes(
        title=t("capacity.y_title", lang, years=span, currency=currency), tickformat=",.0f"
    )
    return fig


def _hover(row: Row, currency: str, lang: Language) -> str:
    return t(
        "capacity.hover",
        lang,
        label=label(row, lang, currency),
        wait=fmt_number(row.p95_wait_h or 0.0, 2, currency),
        total=fmt_money(row.total, currency, 0),
        per_hour=fmt_money(row.per_useful_gpu_hour, currency),
    )
