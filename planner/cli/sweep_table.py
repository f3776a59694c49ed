"""`planner sweep`'s table of points: one row per point, one option over the first horizon."""

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from planner.service.sweep_point import PointOption, PointResult

HEADER = (
    "point",
    "util",
    "wait mean",
    "p50",
    "p95",
    "p99 (h)",
    "per useful GPU-h",
    "twin bar",
    "total",
    "NPV vs cloud",
    "never ran",
)


def point_lines(results: Sequence["PointResult"], option: str) -> list[str]:
    """A table: one row per point, `option` over the first horizon."""
    rows = [HEADER] + [_cells(r, option) for r in results]
    widths = [max(len(row[k]) for row in rows) for k in range(len(HEADER))]
    return [
        "  ".join(
            c.rjust(w) if k else c.ljust(w)
            for k, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]


def _cells(result: "PointResult", option: str) -> tuple[str, ...]:
    from planner.service.sweep_keys import shown

    point = " ".join(f"{k}={shown(v)}" for k, v in result.point)
    found = result.option(option)
    if found is None:
        return (point, f"no option {option}", *[""] * (len(HEADER) - 2))
    cur = result.currency

    def hours(s: float | None) -> str:
        return "–" if s is None else f"{s / 3600:,.2f}"

    def money(v: float | None, digits: int = 0) -> str:
        return "–" if v is None else f"{v:,.{digits}f} {cur}"

    return (
        point,
        "–" if found.utilization is None else f"{found.utilization:.1%}",
        hours(found.wait_mean_s),
        hours(found.wait_p50_s),
        hours(found.wait_p95_s),
        hours(found.wait_p99_s),
        money(found.per_useful_gpu_hour, 2),
        _bar(found, cur),
        money(found.total),
        money(found.npv_vs_cloud),
        "–" if found.never_ran is None else f"{found.never_ran:,}",
    )


def _bar(found: "PointOption", currency: str) -> str:
    """The twin error bar of the cost per useful GPU-hour: x (1 - e) to x (1 + e) with the
    twin check's error e, 'not calibrated' without one, '–' for a cloud option (no replay)."""
    if found.utilization is None:
        return "–"
    if found.twin_error is None or found.per_hour_low is None or found.per_hour_high is None:
        return "not calibrated"
    low, high = found.per_hour_low, found.per_hour_high
    return f"{low:,.2f}-{high:,.2f} {currency} (±{found.twin_error:.0%})"
