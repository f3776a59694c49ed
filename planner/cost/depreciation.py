"""Depreciation of owned equipment on the book and tax ledgers: pure functions on plain numbers.

Depreciation starts in the purchase month (full-month convention) and runs for the life in
whole months. Double-declining balance and sum-of-years-digits work on years of the asset's
life; each year's charge is spread evenly over its twelve months. Errors are
`planner.cost.finance.DepreciationError`s (the monthly grid and signs are finance's).
"""

import math
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal, get_args

from planner.cost.finance import DepreciationError, FinanceError, check_amount, check_horizon

Method = Literal["straight_line", "double_declining", "sum_of_years_digits"]
Ledger = Literal["book", "tax"]


# --- depreciation --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DepreciationRule:
    """How one ledger (book or tax) writes an asset down."""

    life_years: float
    method: Method = "straight_line"
    residual: float = 0.0
    """Value left on this ledger at the end of the life (the salvage estimate for book)."""

    def __post_init__(self) -> None:
        months = self.life_years * 12
        if not math.isfinite(months) or months < 1:
            raise DepreciationError(
                f"a depreciation life of {self.life_years!r} years is not positive; "
                "give the useful life in years, e.g. 5"
            )
        if abs(months - round(months)) > 1e-9:
            raise DepreciationError(
                f"a life of {self.life_years} years is not a whole number of months; "
                "round it to a month (e.g. 5.5 years = 66 months)"
            )
        if self.method not in get_args(Method):
            raise DepreciationError(
                f"depreciation method {self.method!r} is unknown; use "
                + ", ".join(get_args(Method))
            )
        if self.method != "straight_line" and months % 12:
            raise DepreciationError(
                f"{self.method} needs a whole number of years, not "
                f"{self.life_years}; use straight_line or round the life"
            )
        check_amount("the residual value", self.residual)

    @property
    def life_months(self) -> int:
        return round(self.life_years * 12)


@dataclass(frozen=True, slots=True)
class Asset:
    """Equipment bought at the start of `purchase_month`, with its book and tax rules."""

    cost: float
    book: DepreciationRule = DepreciationRule(5)
    tax: DepreciationRule | None = None
    """The tax ledger's rule; None means it follows the book rule."""
    purchase_month: int = 0

    def __post_init__(self) -> None:
        check_amount("the asset's cost", self.cost)
        if self.purchase_month < 0:
            raise DepreciationError(
                f"the purchase month is {self.purchase_month}; months count from 0"
            )
        for ledger, rule in (("book", self.book), ("tax", self.tax)):
            if rule is not None and rule.residual > self.cost:
                raise DepreciationError(
                    f"the {ledger} residual value {rule.residual:,.2f} exceeds the asset's cost "
                    f"{self.cost:,.2f}; the residual is what is left after depreciation, so give "
                    "a value between 0 and the cost"
                )


@dataclass(frozen=True, slots=True)
class DepreciationSchedule:
    """One ledger's monthly depreciation of one asset over the horizon."""

    cost: float
    charge: tuple[float, ...]
    """Depreciation expensed in month m (P&L)."""
    net_book_value: tuple[float, ...]
    """Book value at the end of month m; 0 before the purchase."""

    @property
    def accumulated(self) -> tuple[float, ...]:
        """Depreciation charged up to and including month m."""
        return tuple(accumulate(self.charge))


@dataclass(frozen=True, slots=True)
class Disposal:
    """The sale of an asset at the end of the horizon."""

    proceeds: float
    book_value: float
    gain: float
    """proceeds − book value; negative is a loss on disposal."""


def _declining_years(cost: float, residual: float, years: int) -> list[float]:
    """Double-declining balance, switching to straight-line when that charges more."""
    value, charges = cost, []
    for year in range(years):
        charge = max(value * 2 / years, (value - residual) / (years - year))
        charge = max(0.0, min(charge, value - residual))  # never below the residual
        charges.append(charge)
        value -= charge
    return charges


def _monthly_charges(cost: float, rule: DepreciationRule) -> list[float]:
    base = cost - rule.residual
    months = rule.life_months
    if rule.method == "straight_line":
        return [base / months] * months
    years = months // 12
    if rule.method == "double_declining":
        yearly = _declining_years(cost, rule.residual, years)
    else:
        digits = years * (years + 1) / 2
        yearly = [base * (years - k) / digits for k in range(years)]
    return [charge / 12 for charge in yearly for _ in range(12)]


def depreciation_schedule(
    asset: Asset, months: int, ledger: Ledger = "book"
) -> DepreciationSchedule:
    """Monthly charge and net book value of `asset` on the book or tax ledger."""
    check_horizon(months)
    if ledger not in get_args(Ledger):
        raise FinanceError(f"ledger {ledger!r} is unknown; use 'book' or 'tax'")
    rule = asset.tax if ledger == "tax" and asset.tax is not None else asset.book
    charge = [0.0] * months
    for k, amount in enumerate(_monthly_charges(asset.cost, rule)):
        if asset.purchase_month + k >= months:
            break
        charge[asset.purchase_month + k] = amount
    value = [
        0.0 if m < asset.purchase_month else asset.cost - acc
        for m, acc in enumerate(accumulate(charge))
    ]
    return DepreciationSchedule(asset.cost, tuple(charge), tuple(value))


def dispose(schedule: DepreciationSchedule, proceeds: float) -> Disposal:
    """Sell the asset for `proceeds` at the end of the schedule's horizon."""
    check_amount("the sale proceeds", proceeds)
    book_value = schedule.net_book_value[-1]
    return Disposal(proceeds, book_value, proceeds - book_value)
