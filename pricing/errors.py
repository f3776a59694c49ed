"""The one error the price book raises: price data that is missing or invalid."""

from planner.core.errors import PlannerError


class PricingError(PlannerError):
    """A price, FX rate or assumption is missing or invalid; the message says what to do."""
