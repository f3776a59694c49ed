"""`planner sweep --target ... --mix`'s output: the cheapest mix in a sentence (with growing
demand, each year's commitment and cloud figures), what was held, and the frontier (every
count tried: its commitment, what the cloud serves, wait and cost); `--json` gives the same
and the answer written as a TCO scenario."""

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from planner.service.sweep_mix import Mix, MixPoint, YearCloud
    from planner.service.sweep_point import PointResult
    from planner.service.sweep_search import Target

HEADER = (
    "servers",
    "committed GPUs",
    "committed GPU-h/mo",
    "on-demand GPU-h/mo",
    "spot GPU-h/mo",
    "wait p95 (h)",
    "never ran",
    "total",
    "NPV vs cloud",
    "meets",
)


def tried_line(point: "MixPoint", target: "Target", started: float) -> str:
    """Progress: one count tried."""
    from planner.service.sweep_search import STATS

    wait = getattr(point.hybrid, STATS[target.stat])
    shown = "no waits" if wait is None else f"{target.stat} {wait / 3600:,.2f} h"
    verdict = "meets" if point.meets else "misses"
    spent = time.monotonic() - started
    return (
        f"mix: {point.servers} servers, {committed(point)} GPUs committed: {shown}, "
        f"{point.total:,.0f} {point.result.currency}, {verdict} ({spent:,.1f} s)"
    )


def alone_line(result: "PointResult", met: bool, started: float) -> str:
    """Progress: one count owning alone tried (the mix's ceiling)."""
    point = " ".join(f"{k}={v}" for k, v in result.point)
    verdict = "meets" if met else "misses"
    return f"owning alone: {point}: {verdict} ({time.monotonic() - started:,.1f} s)"


def held(mix: "Mix") -> list[str]:
    """The hybrid's other pools, kept as the scenario has them ('16 x H800')."""
    scenario = mix.terms.scenario
    kept = {k.upper(): v for k, v in (scenario.hybrid.servers if scenario.hybrid else {}).items()}
    sized = mix.terms.servers_key.split(".", 2)[2].upper()
    return [
        f"{kept.get(p.gpu.upper(), p.servers)} x {p.gpu}"
        for p in scenario.self_hosted
        if p.gpu.upper() != sized
    ]


def mix_lines(mix: "Mix", target: str) -> list[str]:
    """The answer in a sentence, the ceiling and what was held, then the frontier."""
    terms = mix.terms
    pool = terms.servers_key.split(".", 2)[2]
    paid = f"{terms.commit_model}, {terms.term_months} months"
    years = mix.frontier[0].hybrid.years if mix.frontier else 0.0
    if mix.answer is None:
        head = f"no mix of up to {mix.ceiling} {pool} servers meets {target}"
    else:
        a = mix.answer
        cur = a.result.currency
        cloud = f"{a.on_demand_gpu_hours:,.0f} GPU-h a month on demand"
        if a.spot_gpu_hours:
            cloud = f"{a.spot_gpu_hours:,.0f} GPU-h a month on spot"
        head = (
            f"cheapest mix meeting {target}: keep {a.servers} x {pool}, commit "
            f"{committed(a)} GPUs ({paid}), {cloud}: {a.total:,.0f} {cur} over {years:g} "
            "years"
        )
    alone = mix.alone.answer
    ceiling = (
        f"owning alone meets it with {mix.ceiling} servers: no mix keeps more"
        if alone is not None
        else f"owning alone does not meet it with up to {mix.ceiling} servers"
    )
    lines = [head, ceiling]
    if mix.answer is not None and len(mix.answer.by_year) > 1:
        lines += year_lines(mix.answer)
    if others := held(mix):
        lines.append(f"held fixed (kept by the hybrid): {', '.join(others)}")
    return [*lines, *_table(mix.frontier)]


def committed(p: "MixPoint") -> str:
    """The GPUs committed: one count, or year by year ('8/24') when they change."""
    levels = [y.committed_gpus for y in p.by_year]
    if len(set(levels)) > 1:
        return "/".join(str(n) for n in levels)
    return str(p.committed_gpus)


def year_lines(p: "MixPoint") -> list[str]:
    """Growing demand: each year's commitment and what the cloud serves a month."""
    head = "every year meets the target (the waits are the worst year's):"
    return [head, *(_year_line(y) for y in p.by_year)]


def _year_line(y: "YearCloud") -> str:
    return (
        f"  year {y.year} (arrivals x{y.arrival_rate:g}): {y.committed_gpus} GPUs committed, "
        f"{y.committed_gpu_hours:,.0f} GPU-h a month on them, "
        f"{y.on_demand_gpu_hours:,.0f} on demand, {y.spot_gpu_hours:,.0f} on spot"
    )


def _table(points: "tuple[MixPoint, ...]") -> list[str]:
    rows = [HEADER, *(_cells(p) for p in points)]
    widths = [max(len(row[k]) for row in rows) for k in range(len(HEADER))]
    return ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]


def _cells(p: "MixPoint") -> tuple[str, ...]:
    h, cur = p.hybrid, p.result.currency
    wait = "–" if h.wait_p95_s is None else f"{h.wait_p95_s / 3600:,.2f}"
    npv = "–" if h.npv_vs_cloud is None else f"{h.npv_vs_cloud:,.0f} {cur}"
    return (
        str(p.servers),
        committed(p),
        f"{p.committed_gpu_hours:,.0f}",
        f"{p.on_demand_gpu_hours:,.0f}",
        f"{p.spot_gpu_hours:,.0f}",
        wait,
        "–" if h.never_ran is None else f"{h.never_ran:,}",
        f"{h.total:,.0f} {cur}",
        npv,
        "yes" if p.meets else "no",
    )


def mix_json(mix: "Mix", target: str) -> dict[str, Any]:
    from planner.service.sweep_mix import mix_scenario

    terms = mix.terms
    answer = mix.answer
    return {
        "size": terms.servers_key,
        "target": target,
        "commitment": terms.commit_model,
        "term_months": terms.term_months,
        "spot_option": terms.spot,
        "owned_alone": None if mix.alone.answer is None else mix.ceiling,
        "ceiling": mix.ceiling,
        "held_fixed": held(mix),
        "answer": None if answer is None else point_json(answer),
        "scenario": None
        if answer is None
        else mix_scenario(terms, answer).model_dump(mode="json", exclude_unset=True),
        "frontier": [point_json(p) for p in mix.frontier],
    }


def point_json(p: "MixPoint") -> dict[str, Any]:
    h = p.hybrid
    return {
        "servers": p.servers,
        "committed_gpus": p.committed_gpus,
        "committed_gpu_hours_per_month": p.committed_gpu_hours,
        "on_demand_gpu_hours_per_month": p.on_demand_gpu_hours,
        "spot_gpu_hours_per_month": p.spot_gpu_hours,
        "years": h.years,
        "total": h.total,
        "npv_vs_cloud": h.npv_vs_cloud,
        "per_useful_gpu_hour": h.per_useful_gpu_hour,
        "wait_mean_s": h.wait_mean_s,
        "wait_p95_s": h.wait_p95_s,
        "wait_p99_s": h.wait_p99_s,
        "never_ran": h.never_ran,
        "meets": p.meets,
        "currency": p.result.currency,
        "point": dict(p.result.point),
        "by_year": [
            {
                "year": y.year,
                "arrival_rate": y.arrival_rate,
                "committed_gpus": y.committed_gpus,
                "committed_gpu_hours_per_month": y.committed_gpu_hours,
                "on_demand_gpu_hours_per_month": y.on_demand_gpu_hours,
                "spot_gpu_hours_per_month": y.spot_gpu_hours,
            }
            for y in p.by_year
        ],
    }
