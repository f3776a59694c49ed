"""The capacity page's glue: sweep the servers of the first self-hosted pool, price every
point with the compare page's cached `run_tco`, and find the smallest cluster that meets a
p95 wait target and the cheapest option overall.

A point's rows are plain dicts (option, servers, years, total, per useful GPU-hour, p95 wait
in hours) so the helpers that pick answers can be tested on hand-made rows.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from planner.errors import ScenarioError
from planner.tco_scenario import TcoScenario
from planner.ui import compare_view
from planner.ui.charts import TEMPLATE, option_colors
from planner.ui.i18n import Language, fmt_money, fmt_number, number_style, t

DEFAULT_SCENARIO = "sample-tco.yaml"
MAX_POINTS = 8
OWNED = compare_view.OWNED  # ("self-hosted", "hybrid")
Row = dict[str, Any]


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


def parse_counts(text: str) -> list[int]:
    """Server counts from '1, 2, 4 8': whole numbers >= 1, at most MAX_POINTS, ascending."""
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        counts = sorted({int(p) for p in parts})
    except ValueError as err:
        raise ScenarioError(t("capacity.err_not_numbers", text=text)) from err
    if not counts:
        raise ScenarioError(t("capacity.err_empty"))
    if counts[0] < 1:
        raise ScenarioError(t("capacity.err_below_one"))
    if len(counts) > MAX_POINTS:
        raise ScenarioError(t("capacity.err_too_many", max=MAX_POINTS, given=len(counts)))
    return counts


def with_servers(
    scenario: TcoScenario, servers: int, burst_after_s: float | None = None
) -> TcoScenario:
    """The scenario with its first self-hosted pool at `servers` (and the hybrid keeping as
    many of that pool when it names it); the hybrid's burst threshold replaced if given."""
    first, *rest = scenario.self_hosted
    update: dict[str, Any] = {"self_hosted": (first.model_copy(update={"servers": servers}), *rest)}
    hybrid = scenario.hybrid
    if hybrid is not None:
        gpu = first.gpu.upper()
        kept = {k: (servers if k.upper() == gpu else v) for k, v in hybrid.servers.items()}
        changes: dict[str, Any] = {"servers": kept}
        if burst_after_s is not None:
            changes["burst_after_s"] = burst_after_s
        update["hybrid"] = hybrid.model_copy(update=changes)
    return scenario.model_copy(update=update)


def point_rows(report: Mapping[str, Any], servers: int) -> list[Row]:
    """Every option of every horizon of one point's report, as rows."""
    rows: list[Row] = []
    for horizon in report["horizons"]:
        for o in horizon["options"]:
            owned = o["name"] in OWNED
            wait = o["wait_p95_s"]
            rows.append(
                {
                    "option": o["name"],
                    "servers": servers if owned else None,
                    "years": horizon["years"],
                    "total": o["total"],
                    "per_useful_gpu_hour": o["cost_per_useful_gpu_hour"],
                    "p95_wait_h": None if wait is None else wait / 3600,
                }
            )
    return rows


def sweep(
    scenario: TcoScenario,
    counts: Sequence[int],
    burst_after_s: float | None = None,
    on_point: Callable[[int, int], None] | None = None,
    run: Callable[[TcoScenario], Mapping[str, Any]] | None = None,
) -> tuple[list[Row], str]:
    """Price each server count (cached per scenario value); rows and the currency. Cloud
    options do not depend on the servers, so they are kept from the first point only."""
    price = run or (lambda s: compare_view.run(s).report)
    rows: list[Row] = []
    currency = scenario.currency.upper()
    for done, servers in enumerate(counts, start=1):
        report = price(with_servers(scenario, servers, burst_after_s))
        currency = report["currency"]
        rows += [r for r in point_rows(report, servers) if r["option"] in OWNED or done == 1]
        if on_point is not None:
            on_point(done, len(counts))
    return rows, currency


def for_horizon(rows: Iterable[Row], years: float) -> list[Row]:
    return [r for r in rows if r["years"] == years]


def smallest_meeting(
    rows: Iterable[Row], target_h: float, option: str = "self-hosted"
) -> Row | None:
    """The fewest servers of `option` whose p95 wait is at most the target (None if none)."""
    meeting = [
        r
        for r in rows
        if r["option"] == option and r["p95_wait_h"] is not None and r["p95_wait_h"] <= target_h
    ]
    return min(meeting, key=lambda r: r["servers"], default=None)


def cheapest(rows: Iterable[Row]) -> Row | None:
    """The row with the lowest cost per useful GPU-hour (ties: the lower total)."""
    priced = [r for r in rows if r["per_useful_gpu_hour"] is not None]
    return min(priced, key=lambda r: (r["per_useful_gpu_hour"], r["total"]), default=None)


def convert(rows: Iterable[Row], rate: float) -> list[Row]:
    """The rows with their money (total, per useful GPU-hour) multiplied by an FX `rate`."""
    return [
        r
        | {
            "total": r["total"] * rate,
            "per_useful_gpu_hour": None
            if r["per_useful_gpu_hour"] is None
            else r["per_useful_gpu_hour"] * rate,
        }
        for r in rows
    ]


def short(value: float, currency: str) -> str:
    """A number as briefly as `:g` writes it, with the currency's decimal mark (0.5, 0,5)."""
    text = f"{value:g}"
    return text if "e" in text else text.replace(".", number_style(currency).decimal)


def label(row: Mapping[str, Any], lang: Language) -> str:
    """'self-hosted, 16 servers' for owned options, the cloud option's name otherwise."""
    if row["servers"] is None:
        return str(row["option"])
    return f"{row['option']}{t('capacity.list_sep', lang)}{_servers(row['servers'], lang)}"


def _servers(n: int, lang: Language) -> str:
    return t("capacity.servers_one" if n == 1 else "capacity.servers_many", lang, n=f"{n:,}")


def sentence(rows: Sequence[Row], target_h: float, currency: str, lang: Language) -> str:
    """The answer in one sentence in `lang`: the smallest cluster meeting the target, the
    cheapest option; money in `currency`."""
    best = smallest_meeting(rows, target_h)
    target = short(target_h, currency)
    if best is not None:
        first = t(
            "capacity.smallest",
            lang,
            target=target,
            servers=_servers(best["servers"], lang),
            total=fmt_money(best["total"], currency, 0),
            years=short(best["years"], currency),
            per_hour=fmt_money(best["per_useful_gpu_hour"], currency),
        )
    else:
        first = t("capacity.none_meets", lang, target=target)
    low = cheapest(rows)
    if low is None:
        return first + t("capacity.full_stop", lang)
    return t(
        "capacity.and_cheapest",
        lang,
        first=first,
        label=label(low, lang),
        per_hour=fmt_money(low["per_useful_gpu_hour"], currency),
        total=fmt_money(low["total"], currency, 0),
    )


def table(rows: Sequence[Row], years: float, currency: str, lang: Language) -> pd.DataFrame:
    """The points for display, in `lang`, money and waits written in `currency`'s style."""
    return pd.DataFrame(
        {
            t("capacity.col.option", lang): [r["option"] for r in rows],
            t("capacity.col.servers", lang): pd.array([r["servers"] for r in rows], "Int64"),
            t("capacity.col.total", lang, years=short(years, currency)): [
                fmt_money(r["total"], currency, 0) for r in rows
            ],
            t("capacity.col.per_hour", lang): [
                fmt_money(r["per_useful_gpu_hour"], currency) for r in rows
            ],
            t("capacity.col.wait", lang): [fmt_number(r["p95_wait_h"], 2, currency) for r in rows],
        }
    )


def chart(
    rows: Sequence[Row], target_h: float, currency: str, years: float, lang: Language
) -> go.Figure:
    """Total cost against p95 wait: one labelled point per server count for each owned
    option, the cloud options at wait 0, the target as a vertical line, and the smallest
    cluster meeting it and the cheapest option marked; texts in `lang`."""
    names = list(dict.fromkeys(r["option"] for r in rows))
    colors = option_colors(names)
    fig = go.Figure(layout={"template": TEMPLATE})
    for name in names:
        points = [r for r in rows if r["option"] == name]
        owned = name in OWNED
        fig.add_scatter(
            x=[r["p95_wait_h"] or 0.0 for r in points],
            y=[r["total"] for r in points],
            mode="lines+markers+text" if owned else "markers+text",
            text=[f"{r['servers']:,}" if owned else "" for r in points],
            textposition="top center",
            name=name,
            marker={"color": colors[name], "size": 9 if owned else 12},
            line={"color": colors[name]},
            hovertext=[_hover(r, currency, lang) for r in points],
            hoverinfo="text",
        )
    for row, key, symbol in (
        (smallest_meeting(rows, target_h), "capacity.mark_smallest", "star"),
        (cheapest(rows), "capacity.mark_cheapest", "diamond-open"),
    ):
        if row is not None:
            name = t(key, lang)
            fig.add_scatter(
                x=[row["p95_wait_h"] or 0.0],
                y=[row["total"]],
                mode="markers",
                name=name,
                marker={"symbol": symbol, "size": 20, "color": "#1F2937", "line": {"width": 2}},
                hovertext=[f"{name}: {label(row, lang)}"],
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
    fig.update_xaxes(title=t("capacity.x_title", lang), rangemode="tozero", tickformat=",.1f")
    fig.update_yaxes(
        title=t("capacity.y_title", lang, years=span, currency=currency), tickformat=",.0f"
    )
    return fig


def _hover(row: Row, currency: str, lang: Language) -> str:
    return t(
        "capacity.hover",
        lang,
        label=label(row, lang),
        wait=fmt_number(row["p95_wait_h"] or 0.0, 2, currency),
        total=fmt_money(row["total"], currency, 0),
        per_hour=fmt_money(row["per_useful_gpu_hour"], currency),
    )
