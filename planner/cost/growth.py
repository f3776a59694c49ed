"""A TCO report over growing demand, spliced from one report per year of the horizon.

Year k's report prices the whole horizon on year k's demand (its own replay and cloud
bills); the spliced report takes months 12(k-1) .. 12k - 1 of every option from it. Monthly
P&L and cash are sliced from each year's report over the same horizon (so the book value
returned at the end is the last year's, the same in all of them). Quantities summed over a
horizon (totals by category, useful GPU-hours, the ledger, allocated GPU-hours, idle cost)
are the difference of year k's report over 12k months and over 12(k-1) months: every month's
cost depends on the month and the demand, never on the horizon's length, so the differences
are exactly the year's months. Ratios (cost per useful, installed, allocated GPU-hour),
equivalent annual cost and each comparison of buying against renting are recomputed from the
spliced series; waits are the worst year's (by p95, then mean: `worst_year`). Break-even
utilization, the sensitivity, the flip values, the headline pair (chosen on year 1's costs)
and the chargeback stay year 1's (the report's notes say so).

Pure: reports in, a report out. Which horizons each year's report needs: `year_horizons`.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from planner.cost import finance
from planner.cost.elsewhere import served_share
from planner.cost.ledger import Balance, Ledger
from planner.cost.results import Horizon, TcoReport
from planner.cost.tco import EQUAL_SERVICE, Comparison, OptionReport

MONTHS_PER_YEAR = 12


def years_of(horizons_months: Sequence[int]) -> int:
    """How many years of demand the longest horizon spans (a part year counts)."""
    return -(-max(horizons_months) // MONTHS_PER_YEAR)


def year_horizons(horizons_months: Sequence[int], year: int) -> list[int]:
    """The horizons (months) year `year`'s report is priced over: the scenario's own (first
    stays first, for the sensitivity) and the year's start and end within each."""
    start = (year - 1) * MONTHS_PER_YEAR
    wanted = list(horizons_months)
    for months in horizons_months:
        for edge in (start, min(start + MONTHS_PER_YEAR, months)):
            if 0 < edge <= months and edge not in wanted:
                wanted.append(edge)
    return wanted


def splice(
    reports: Sequence[TcoReport], horizons_months: Sequence[int], rate: float
) -> tuple[Horizon, ...]:
    """The horizons of growing demand: `reports[k - 1]` is year k's, over `year_horizons`."""
    by_year = [{round(h.years * MONTHS_PER_YEAR): h for h in r.horizons} for r in reports]
    out = []
    for months in horizons_months:
        first = by_year[0][months]
        options = tuple(
            _option(by_year, months, index, rate) for index in range(len(first.options))
        )
        comparisons = tuple(_spliced(c, options, rate) for c in first.comparisons)
        pair = None if first.pair is None else _spliced(first.pair, options, rate)
        out.append(Horizon(first.years, options, comparisons, pair=pair))
    return tuple(out)


def _segments(months: int, years: int) -> list[tuple[int, int, int]]:
    """(year index, first month, end month) of each year within `months`."""
    return [
        (k, k * MONTHS_PER_YEAR, min((k + 1) * MONTHS_PER_YEAR, months))
        for k in range(years)
        if k * MONTHS_PER_YEAR < months
    ]


def _option(
    by_year: Sequence[Mapping[int, Horizon]], months: int, index: int, rate: float
) -> OptionReport:
    segments = _segments(months, len(by_year))

    def summed(value: Callable[[OptionReport], float]) -> float:
        """Year k's months of a quantity summed over a horizon, k by k."""
        total = 0.0
        for k, a, b in segments:
            total += value(by_year[k][b].options[index])
            total -= value(by_year[k][a].options[index]) if a else 0.0
        return total

    whole = [by_year[k][months].options[index] for k, _, _ in segments]
    base = whole[0]
    pnl = [v for (_, a, b), o in zip(segments, whole, strict=True) for v in o.monthly_pnl[a:b]]
    cash = [v for (_, a, b), o in zip(segments, whole, strict=True) for v in o.monthly_cash[a:b]]
    total = sum(pnl)
    useful = summed(lambda o: o.useful_gpu_hours)
    elsewhere = summed(lambda o: o.served_elsewhere_gpu_hours)
    keys = dict.fromkeys(key for o in whole for key in o.totals)  # a later year's line too
    totals = {key: summed(_total_of(key)) for key in keys}
    own = total - totals.get("bridge", 0.0) - sum(totals.get(k, 0.0) for k in EQUAL_SERVICE)
    allocated = summed(_allocated)
    # installed GPU-hours do not depend on the demand: year 1's
    per_installed = base.cost_per_installed_gpu_hour
    installed = _own(base) / per_installed if per_installed else 0.0
    idle = None if base.idle_cost is None else summed(lambda o: o.idle_cost or 0.0)
    worst = whole[worst_year([(o.wait_p95_s, o.wait_mean_s) for o in whole])]
    return replace(
        base,
        total=total,
        totals=totals,
        monthly_pnl=tuple(pnl),
        monthly_cash=tuple(cash),
        useful_gpu_hours=useful,
        cost_per_useful_gpu_hour=total / (useful + elsewhere) if useful + elsewhere else None,
        cost_per_installed_gpu_hour=own / installed if installed else None,
        cost_per_allocated_gpu_hour=own / allocated if allocated else None,
        idle_cost=idle,
        equivalent_annual_cost=finance.equivalent_annual_cost(
            finance.npv(cash, rate), rate, months / MONTHS_PER_YEAR
        ),
        wait_mean_s=worst.wait_mean_s,
        wait_p95_s=worst.wait_p95_s,
        ledger=(ledger := _ledger(by_year, segments, index)),
        served_share=served_share(ledger),
        served_elsewhere_gpu_hours=elsewhere,
        pnl_by_category=_by_category(whole, segments, lambda o: o.pnl_by_category),
        cash_by_category=_by_category(whole, segments, lambda o: o.cash_by_category),
    )


def _total_of(key: str) -> Callable[[OptionReport], float]:
    return lambda option: option.totals.get(key, 0.0)


def _own(option: OptionReport) -> float:
    """What owning costs without the bridge and the equal-service lines (the base of the
    cost per installed GPU-hour)."""
    left_out = ("bridge", *EQUAL_SERVICE)
    return option.total - sum(option.totals.get(k, 0.0) for k in left_out)


def _allocated(option: OptionReport) -> float:
    """Allocated GPU-hours over the option's horizon (0 before delivery or when not owned)."""
    if not option.cost_per_allocated_gpu_hour:
        return 0.0
    return _own(option) / option.cost_per_allocated_gpu_hour


def worst_year(waits: Sequence[tuple[float | None, float | None]]) -> int:
    """The index of the year with the longest (p95, mean) wait; the first of equals."""
    keys = [(p95 or 0.0, mean or 0.0) for p95, mean in waits]
    return keys.index(max(keys))


ByCategory = Mapping[str, tuple[float, ...]]


def _by_category(
    whole: Sequence[OptionReport],
    segments: Sequence[tuple[int, int, int]],
    kept: Callable[[OptionReport], ByCategory | None],
) -> dict[str, tuple[float, ...]] | None:
    """Monthly amounts by category (`kept` reads them: P&L or cash-only), each year's months
    from its own horizon; a category only a later year has (demand served elsewhere once it
    outgrows the servers) is 0 in the years without it."""
    if kept(whole[0]) is None:
        return None
    keys = dict.fromkeys(key for o in whole for key in (kept(o) or {}))
    return {
        key: tuple(
            v
            for (_, a, b), o in zip(segments, whole, strict=True)
            for v in ((kept(o) or {}).get(key) or (0.0,) * len(o.monthly_pnl))[a:b]
        )
        for key in keys
    }


def _ledger(
    by_year: Sequence[Mapping[int, Horizon]],
    segments: Sequence[tuple[int, int, int]],
    index: int,
) -> Ledger | None:
    parts: list[tuple[Ledger, float]] = []
    for k, a, b in segments:
        end = by_year[k][b].options[index].ledger
        if end is None:
            return None
        parts.append((end, 1.0))
        if a:
            begin = by_year[k][a].options[index].ledger
            assert begin is not None  # the same option's report keeps a ledger at every horizon
            parts.append((begin, -1.0))
    gpu = _balance([(p.gpu_hours, w) for p, w in parts])
    cpus = [(p.cpu_hours, w) for p, w in parts if p.cpu_hours is not None]
    cpu = _balance(cpus) if cpus else None
    return Ledger(gpu, cpu, sum(p.cloud_per_job_sum * w for p, w in parts))


def _balance(parts: Sequence[tuple[Balance, float]]) -> Balance:
    def mapped(pick: Callable[[Balance], Mapping[str, float]]) -> dict[str, float]:
        keys = dict.fromkeys(k for b, _ in parts for k in pick(b))
        return {key: sum(pick(b).get(key, 0.0) * w for b, w in parts) for key in keys}

    return Balance(
        demanded=sum(b.demanded * w for b, w in parts),
        owned=sum(b.owned * w for b, w in parts),
        cloud=mapped(lambda b: b.cloud),
        unserved=mapped(lambda b: b.unserved),
        imbalance=sum(b.imbalance * w for b, w in parts),
        elsewhere=sum(b.elsewhere * w for b, w in parts),
    )


def _spliced(year_one: Comparison, options: Sequence[OptionReport], rate: float) -> Comparison:
    """`year_one`'s comparison on the spliced options of the same names."""
    names = [o.name for o in options]
    owned, rented = options[names.index(year_one.owned)], options[names.index(year_one.rented)]
    return _compare(year_one, owned, rented, rate)


def _compare(
    year_one: Comparison, owned: OptionReport, rented: OptionReport, rate: float
) -> Comparison:
    """Buying against renting on the spliced cash; break-even utilization stays year 1's."""
    own, rent = owned.monthly_cash, rented.monthly_cash
    savings = [r - o for r, o in zip(rent, own, strict=True)]
    found = finance.irr(savings)
    return replace(
        year_one,
        npv_of_buying=finance.npv(savings, rate),
        irr=found.annual_rate,
        irr_note=found.reason,
        payback_month=finance.payback_month(savings),
        break_even_month=finance.break_even_month(list(rent), list(own), rate),
    )
