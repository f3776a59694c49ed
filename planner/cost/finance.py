"""Financial maths for the TCO engine: pure functions on plain numbers.

Conventions (``../shared/reference/pricing-and-tco.md`` §3.4 and §5):

* **Monthly grid.** A horizon of M months has months m = 0 … M−1; month m covers the years
  [m/12, (m+1)/12). Rates are effective yearly rates (10 % is ``0.10``), nominal unless the
  caller says otherwise; a month is discounted by ``(1 + r) ** (t)`` with t in years.
* **Timing.** ``"start"`` (the default) books all of month m's cash at its start, t = m/12, so
  a purchase in month 0 is undiscounted and NPV is exactly the reference's
  Σ CF_m / (1+r)^(m/12). ``"end"`` books it at t = (m+1)/12 (payment in arrears).
* **Exit.** Selling the equipment at the end of the horizon happens at t = M/12: an extra
  month M under ``"start"`` timing, part of month M−1 under ``"end"``; ``with_exit_flow`` puts it
  in the right place.
* **Signs.** Cash in is positive, cash out negative. The buy-vs-rent stream is the saving
  ``cloud − on-prem cash`` per month; its NPV, IRR and break-even month judge the purchase.
  Payback and break-even months are numbered from 1 (month 1 is month m = 0, the month of
  purchase), the one convention every report shows.
* **Depreciation** (`planner.cost.depreciation`) starts in the purchase month and runs for the
  life in whole months.
* **IRR** is searched between −99 % and +100,000 % a year on a grid of ln(1 + r) with a
  step of 0.01, then bisected; two rates closer than that step may be missed.

Errors (all ``ScenarioError``, so pages show them as input problems):

* FinanceError          an amount, share or swing is out of range
  - HorizonError        a horizon or cash-flow series has no months, or series disagree in length
  - RateError           a discount rate is −100 % or below, or not a number
  - DepreciationError   an asset or depreciation rule cannot be depreciated as given
"""

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal, get_args

from planner.core.errors import ScenarioError

Timing = Literal["start", "end"]
Model = Callable[[dict[str, float]], float]

IRR_LOWEST = -0.99
IRR_HIGHEST = 1000.0
_IRR_STEP = 0.01  # grid step in ln(1 + yearly rate)
_TOLERANCE = 1e-9  # relative to the largest monthly flow: a cumulative this close to 0 is 0


class FinanceError(ScenarioError):
    """An amount, share or swing is out of range; the message names it and the fix."""


class HorizonError(FinanceError):
    """A horizon or cash-flow series has no months, or two series disagree in length."""


class RateError(FinanceError):
    """A discount rate is −100 % or below, or not a number."""


class DepreciationError(FinanceError):
    """An asset or a depreciation rule cannot be depreciated as given."""


def _check_rate(annual_rate: float) -> None:
    if not math.isfinite(annual_rate) or annual_rate <= -1.0:
        raise RateError(
            f"the discount rate {annual_rate!r} is not usable; give a yearly rate above -100%, "
            "e.g. 0.10 for 10%"
        )


def check_horizon(months: int) -> None:
    if months <= 0:
        raise HorizonError(
            f"the horizon is {months} months; give at least one month (36 = 3 years)"
        )


def check_amount(name: str, value: float) -> None:
    if not math.isfinite(value) or value < 0:
        raise FinanceError(f"{name} is {value!r}; it must be a number of zero or more")


def _series(values: Sequence[float], name: str) -> list[float]:
    flows = [float(v) for v in values]
    if not flows:
        raise HorizonError(f"{name} has no months; give one value per month of the horizon")
    for m, value in enumerate(flows):
        if not math.isfinite(value):
            raise FinanceError(f"month {m} of {name} is {value!r}; every month needs a number")
    return flows


def _offset(timing: Timing) -> int:
    if timing not in get_args(Timing):
        raise FinanceError(f"cash-flow timing {timing!r} is unknown; use 'start' or 'end'")
    return 1 if timing == "end" else 0


# --- discounting ---------------------------------------------------------------------------


def monthly_rate(annual_rate: float) -> float:
    """The monthly rate equivalent to an effective yearly rate: (1 + r)^(1/12) − 1."""
    _check_rate(annual_rate)
    return math.expm1(math.log1p(annual_rate) / 12)


def discount_factors(months: int, annual_rate: float, timing: Timing = "start") -> list[float]:
    """The factor each month's cash is multiplied by: (1 + r)^−(m/12), or ^−((m+1)/12) at end."""
    check_horizon(months)
    _check_rate(annual_rate)
    offset = _offset(timing)
    return [(1.0 + annual_rate) ** (-(m + offset) / 12) for m in range(months)]


def npv(cash_flows: Sequence[float], annual_rate: float, timing: Timing = "start") -> float:
    """Net present value, at the start of month 0, of monthly cash flows."""
    flows = _series(cash_flows, "the cash flows")
    factors = discount_factors(len(flows), annual_rate, timing)
    return math.fsum(cf * f for cf, f in zip(flows, factors, strict=True))


def with_exit_flow(
    cash_flows: Sequence[float], amount: float, timing: Timing = "start"
) -> list[float]:
    """The series with `amount` (e.g. sale proceeds) added at the end of its horizon."""
    flows = _series(cash_flows, "the cash flows")
    if _offset(timing) == 0:
        return [*flows, amount]
    return [*flows[:-1], flows[-1] + amount]


def annuity_factor(annual_rate: float, years: float) -> float:
    """Present value of 1 a year paid at the end of each of `years` years: (1 − (1+r)^−n) / r."""
    _check_rate(annual_rate)
    if not years > 0:
        raise HorizonError(f"the life is {years!r} years; give a positive number of years")
    if annual_rate == 0:
        return float(years)
    return -math.expm1(-years * math.log1p(annual_rate)) / annual_rate


def capital_recovery_factor(annual_rate: float, years: float) -> float:
    """The level yearly amount worth 1 today: r / (1 − (1+r)^−n), the annuity factor's inverse."""
    return 1.0 / annuity_factor(annual_rate, years)


def equivalent_annual_cost(present_value: float, annual_rate: float, years: float) -> float:
    """EAC: the level end-of-year amount with the same NPV over `years` (NPV × r/(1−(1+r)^−n))."""
    return present_value * capital_recovery_factor(annual_rate, years)


# --- IRR, payback, break-even --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Irr:
    """An internal rate of return, or None with the reason there is none."""

    annual_rate: float | None
    roots: tuple[float, ...] = ()
    """Every yearly rate found at which NPV is zero, lowest first."""
    ambiguous: bool = False
    """The flows change sign more than once, so the rate need not be unique."""
    reason: str = ""
    """Why there is no rate, or why it may mislead; empty for a clean, unique rate."""


def _npv_at_log_rate(flows: Sequence[float], log_rate: float) -> float:
    """Σ CF_m (1+r)^(−m/12) with ln(1+r) = log_rate, by Horner's rule in (1+r)^(−1/12)."""
    x = math.exp(-log_rate / 12)
    total = 0.0
    for cf in reversed(flows):
        total = total * x + cf
    return total


def _bisect(flows: Sequence[float], low: float, high: float) -> float:
    f_low = _npv_at_log_rate(flows, low)
    mid = 0.5 * (low + high)
    while low < mid < high:
        f_mid = _npv_at_log_rate(flows, mid)
        if f_mid == 0:
            return mid
        if (f_mid < 0) == (f_low < 0):
            low, f_low = mid, f_mid
        else:
            high = mid
        mid = 0.5 * (low + high)
    return mid


def _irr_roots(flows: Sequence[float]) -> list[float]:
    lowest, highest = math.log1p(IRR_LOWEST), math.log1p(IRR_HIGHEST)
    steps = math.ceil((highest - lowest) / _IRR_STEP)
    grid = [lowest + (highest - lowest) * k / steps for k in range(steps + 1)]
    values = [_npv_at_log_rate(flows, u) for u in grid]
    roots = [u for u, f in zip(grid, values, strict=True) if f == 0]
    for (a, fa), (b, fb) in pairwise(zip(grid, values, strict=True)):
        if fa != 0 and fb != 0 and (fa < 0) != (fb < 0):
            roots.append(_bisect(flows, a, b))
    return sorted(math.expm1(u) for u in roots)


def irr(cash_flows: Sequence[float]) -> Irr:
    """The yearly rate at which the monthly flows' NPV is zero (independent of timing)."""
    flows = _series(cash_flows, "the cash flows")
    signs = [cf > 0 for cf in flows if cf != 0]
    changes = sum(a != b for a, b in pairwise(signs))
    if changes == 0:
        return Irr(
            None,
            reason="the cash flows never change sign (all costs or all savings), "
            "so no discount rate makes their NPV zero",
        )
    roots = tuple(_irr_roots(flows))
    if not roots:
        return Irr(
            None,
            ambiguous=changes > 1,
            reason="no yearly rate between -99% and +100,000% makes the NPV zero",
        )
    best = min(roots, key=abs)
    if changes == 1:
        return Irr(best, roots)
    found = ", ".join(f"{r:.2%}" for r in roots)
    reason = (
        f"the cash flows change sign {changes} times, so several rates can make NPV "
        f"zero; found {found} and report the one nearest 0%"
    )
    return Irr(best, roots, ambiguous=True, reason=reason)


def payback_month(
    cash_flows: Sequence[float], annual_rate: float = 0.0, timing: Timing = "start"
) -> int | None:
    """First month whose cumulative (discounted, if a rate is given) flow is ≥ 0, or None.

    Months are numbered from 1, the first month of the series (the month of purchase), as
    every report shows them. Leading months with no cash are before the decision and are
    skipped; a stream with no cash at all pays back at once (month 1).
    """
    flows = _series(cash_flows, "the cash flows")
    factors = discount_factors(len(flows), annual_rate, timing)
    tolerance = _TOLERANCE * max(abs(cf) for cf in flows)
    started = False
    cumulative = 0.0
    for m, (cf, factor) in enumerate(zip(flows, factors, strict=True)):
        cumulative += cf * factor
        started = started or cf != 0
        if started and cumulative >= -tolerance:
            return m + 1
    return None if started else 1


def break_even_month(
    cloud: Sequence[float],
    onprem_cash: Sequence[float],
    annual_rate: float,
    timing: Timing = "start",
) -> int | None:
    """First m with Σ_{k≤m} (Cloud_k − OnPrem_cash_k)/(1+r)^(k/12) ≥ 0, as month m + 1
    (months numbered from 1, as in `payback_month`), or None if never."""
    cloud_flows = _series(cloud, "the cloud costs")
    onprem_flows = _series(onprem_cash, "the on-prem cash costs")
    if len(cloud_flows) != len(onprem_flows):
        raise HorizonError(
            f"the cloud costs cover {len(cloud_flows)} months but the on-prem costs "
            f"{len(onprem_flows)}; price both options over the same horizon"
        )
    savings = [c - o for c, o in zip(cloud_flows, onprem_flows, strict=True)]
    return payback_month(savings, annual_rate, timing)


# --- unit economics ------------------------------------------------------------------------


def break_even_utilization(
    fixed_per_gpu_hour: float, variable_per_busy_gpu_hour: float, cloud_per_gpu_hour: float
) -> float | None:
    """u* = F / (C − V): the allocation at which owning costs what renting does.

    F is the fixed on-prem cost per installed GPU-hour, V the variable (energy) cost per busy
    GPU-hour, C the effective cloud price per useful GPU-hour. None when the cloud price does
    not exceed V (owning never pays); above 1.0 means it does not pay even at full use.
    """
    check_amount("the fixed cost per GPU-hour", fixed_per_gpu_hour)
    check_amount("the variable cost per busy GPU-hour", variable_per_busy_gpu_hour)
    check_amount("the cloud price per GPU-hour", cloud_per_gpu_hour)
    margin = cloud_per_gpu_hour - variable_per_busy_gpu_hour
    if margin <= 0:
        return None
    return fixed_per_gpu_hour / margin


def cost_per_installed_gpu_hour(
    total_cost: float, gpus: int, hours: float, availability: float = 1.0
) -> float:
    """Total cost ÷ (installed GPUs × hours × availability)."""
    check_amount("the total cost", total_cost)
    if gpus <= 0:
        raise FinanceError(f"the cluster has {gpus} GPUs; give the number installed (8 per 8x box)")
    if not hours > 0:
        raise HorizonError(f"the period is {hours!r} hours; give a positive number (8760 a year)")
    if not 0 < availability <= 1:
        raise FinanceError(f"availability is {availability!r}; give a share in (0, 1], e.g. 0.95")
    return total_cost / (gpus * hours * availability)


def cost_per_used_gpu_hour(total_cost: float, used_gpu_hours: float) -> float | None:
    """Total cost ÷ GPU-hours actually used; None when nothing was used."""
    check_amount("the total cost", total_cost)
    check_amount("the used GPU-hours", used_gpu_hours)
    return total_cost / used_gpu_hours if used_gpu_hours > 0 else None


# --- sensitivity ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TornadoBar:
    """The output with one driver moved down and up, the others at base."""

    driver: str
    low_input: float
    high_input: float
    low_output: float
    high_output: float
    swing: float
    """|high_output − low_output|: the bar's width."""


@dataclass(frozen=True, slots=True)
class Tornado:
    base_output: float
    bars: tuple[TornadoBar, ...]
    """Widest swing first; equal swings in driver-name order."""


def tornado(
    model: Model,
    base: Mapping[str, float],
    swing: float = 0.2,
    ranges: Mapping[str, tuple[float, float]] | None = None,
) -> Tornado:
    """Move each driver to base × (1 ∓ swing), or to its (low, high) in `ranges`, one at a time."""
    if not base:
        raise FinanceError("the sensitivity has no drivers; give at least one base value")
    if not 0 < swing <= 1:
        raise FinanceError(f"the swing is {swing!r}; give a share in (0, 1], e.g. 0.2 for ±20%")
    ranges = ranges or {}
    unknown = sorted(set(ranges) - set(base))
    if unknown:
        raise FinanceError(f"ranges name drivers with no base value: {', '.join(unknown)}")
    bars = []
    for name, value in base.items():
        low, high = ranges.get(name, (value * (1 - swing), value * (1 + swing)))
        low_output = model({**base, name: low})
        high_output = model({**base, name: high})
        bars.append(
            TornadoBar(name, low, high, low_output, high_output, abs(high_output - low_output))
        )
    bars.sort(key=lambda bar: (-bar.swing, bar.driver))
    return Tornado(model(dict(base)), tuple(bars))
