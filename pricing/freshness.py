"""How old a price may be before it is flagged stale, and what "today" is.

The limit is, in order: the caller's argument, $PLANNER_PRICE_STALE_DAYS, the
`price_stale_days` assumption of the default set, else 90 days (the reference's advice).
Today is the system clock's date unless the caller passes one (tests do).
"""

import os
from dataclasses import dataclass
from datetime import date

from planner.core.notes import note
from planner.store import Connection, doing, fetch_one
from pricing.errors import PricingError
from pricing.models import DATE_SLACK

STALE_DAYS_ENV = "PLANNER_PRICE_STALE_DAYS"
DEFAULT_STALE_DAYS = 90
DEFAULT_SET = "reference-defaults"


@dataclass(frozen=True, slots=True)
class Freshness:
    today: date
    stale_days: int

    def age_days(self, as_of: date) -> int:
        return (self.today - as_of).days

    def is_stale(self, as_of: date) -> bool:
        """Older than the limit, or dated in the future (beyond a time zone ahead): a date
        that cannot be right is not trusted as fresh."""
        age = self.age_days(as_of)
        return age > self.stale_days or age < -DATE_SLACK.days

    def warning(self, name: str, as_of: date | None) -> str | None:
        """What a report says of a price dated `as_of`: its age against the limit when stale,
        "unsourced estimate" when it has no source date, None when it is fresh; a coded note
        (`planner.core.notes`), so the app and the reports can say it in Chinese."""
        if as_of is None:
            return note("unsourced_price", price=name)
        if not self.is_stale(as_of):
            return None
        age = self.age_days(as_of)
        if age < 0:
            return note("future_price", price=name, as_of=str(as_of), today=str(self.today))
        return note("stale_price", price=name, as_of=str(as_of), age=age, limit=self.stale_days)


def freshness(
    con: Connection, *, today: date | None = None, stale_days: int | None = None
) -> Freshness:
    """Today's date and the staleness limit in force."""
    days = stale_days if stale_days is not None else _configured_days(con)
    if days < 0:
        raise PricingError(f"The staleness limit must be 0 days or more, got {days}.")
    return Freshness(today=today or date.today(), stale_days=days)


def _configured_days(con: Connection) -> int:
    text = os.environ.get(STALE_DAYS_ENV, "").strip()
    if text:
        try:
            return int(text)
        except ValueError:
            raise PricingError(
                f"${STALE_DAYS_ENV} must be a whole number of days, got {text!r}."
            ) from None
    with doing("read the staleness limit", invalid=PricingError):
        row = fetch_one(
            con,
            "SELECT value FROM assumptions WHERE set_name = ? AND name = 'price_stale_days'",
            [DEFAULT_SET],
        )
    return int(row[0]) if row else DEFAULT_STALE_DAYS
