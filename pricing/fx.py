"""Dated FX rates and currency conversion.

A conversion uses the latest rate on or before the date: the pair as stored (1 base = rate
quote), else its inverse, else through USD (two legs). A missing rate is an error that
says which rate to add and for which date. `FxTable` is pure; the functions around it read
and write the `fx_rates` table.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from planner.store import Connection, doing, fetch_all, transaction
from pricing.errors import PricingError
from pricing.models import FxQuote
from pricing.problems import validated
from pricing.rows import FX_RATES, Change, row_values, write_user_row
from pricing.seed import ensure_seeded

PIVOT = "USD"


@dataclass(frozen=True, slots=True)
class FxRate:
    """1 `base` = `rate` `quote` on `rate_date`."""

    base: str
    quote: str
    rate_date: date
    rate: float
    source: str = ""
    confidence: str = "M"
    notes: str = ""
    origin: str = "user"


@dataclass(frozen=True, slots=True)
class Conversion:
    """The rate used for one conversion: the product of `legs` (each possibly inverted)."""

    rate: float
    legs: tuple[FxRate, ...]

    @property
    def confidence(self) -> str:
        """The weakest leg's confidence ("H" when no conversion was needed)."""
        return max((leg.confidence for leg in self.legs), key="HML".index, default="H")


@dataclass(frozen=True, slots=True)
class FxTable:
    """Every stored rate, for conversions without a database."""

    rates: tuple[FxRate, ...]

    def conversion(self, from_currency: str, to_currency: str, on_date: date) -> Conversion:
        source, target = from_currency.upper(), to_currency.upper()
        if source == target:
            return Conversion(1.0, ())
        direct = self._leg(source, target, on_date)
        if direct:
            return direct
        if PIVOT not in (source, target):
            first, second = self._leg(source, PIVOT, on_date), self._leg(PIVOT, target, on_date)
            if first and second:
                return Conversion(first.rate * second.rate, first.legs + second.legs)
        raise PricingError(self._missing(source, target, on_date))

    def convert(self, amount: float, from_currency: str, to_currency: str, on_date: date) -> float:
        return amount * self.conversion(from_currency, to_currency, on_date).rate

    def _leg(self, source: str, target: str, on_date: date) -> Conversion | None:
        # Latest date wins; on the same date a stored pair beats an inverted one.
        found = [
            (r.rate_date, r.base == source, r)
            for r in self.rates
            if {r.base, r.quote} == {source, target} and r.rate_date <= on_date
        ]
        if not found:
            return None
        _, is_direct, best = max(found, key=lambda item: (item[0], item[1]))
        return Conversion(best.rate if is_direct else 1 / best.rate, (best,))

    def _missing(self, source: str, target: str, on_date: date) -> str:
        later = sorted(r.rate_date for r in self.rates if {r.base, r.quote} == {source, target})
        hint = f" (the earliest stored {source}/{target} rate is {later[0]})" if later else ""
        return (
            f"No {source}/{target} FX rate on or before {on_date}{hint}; add one with "
            f"`planner prices fx add {source} {target} RATE --date {on_date}`."
        )


def fx_table(con: Connection) -> FxTable:
    """All stored rates."""
    return FxTable(tuple(list_fx_rates(con)))


def list_fx_rates(con: Connection) -> list[FxRate]:
    """Every stored rate, by pair then date."""
    ensure_seeded(con)
    with doing("read the FX rates", invalid=PricingError):
        rows = fetch_all(
            con,
            "SELECT base, quote, rate_date, rate, source, confidence, notes, origin "
            "FROM fx_rates ORDER BY base, quote, rate_date",
        )
    return [FxRate(*row) for row in rows]


def add_fx_rate(con: Connection, rate: FxQuote | Mapping[str, object]) -> tuple[str, Change]:
    """Store a rate as the user's (one per pair and date): (key, change)."""
    ensure_seeded(con)
    if not isinstance(rate, FxQuote):
        rate = validated(FxQuote, rate, "FX rate")
    with doing(f"add the FX rate {rate.key}", invalid=PricingError), transaction(con):
        change = write_user_row(con, FX_RATES, rate.key, row_values(FX_RATES, rate))
    return rate.key, change


def convert(
    con: Connection,
    amount: float,
    from_currency: str,
    to_currency: str,
    on_date: date,
) -> float:
    """`amount` in `from_currency` expressed in `to_currency` at the rate of `on_date`."""
    return fx_table(con).convert(amount, from_currency, to_currency, on_date)
