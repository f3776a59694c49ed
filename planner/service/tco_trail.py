"""What a step of a TCO run says about the numbers it found: a `Trail`.

A step that looks a price up, converts an amount or replays a cluster returns its result
together with a `Trail` (notes for the reader, the price-book entries it used, which amounts
it converted) instead of writing them into an object every step shares.
`planner.service.tco_run` adds the trails up in the order the steps ran, so a report's notes
and prices read in that order; a note or price found twice is listed once, where it was
first found.
"""

from dataclasses import dataclass

from planner.cost.results import PriceUsed


@dataclass(frozen=True, slots=True)
class Trail:
    """Notes, prices used and conversions, in the order they were found."""

    notes: tuple[str, ...] = ()
    sources: tuple[PriceUsed, ...] = ()
    converted: frozenset[str] = frozenset()
    """What was converted from another currency: "server", "cloud" (what the FX driver of the
    sensitivity moves)."""

    def __add__(self, other: "Trail") -> "Trail":
        """This trail, then `other`."""
        return Trail(
            self.notes + other.notes,
            self.sources + other.sources,
            self.converted | other.converted,
        )


def said(*notes: str) -> Trail:
    """A trail of notes alone."""
    return Trail(notes=notes)
