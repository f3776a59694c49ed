"""Server generations over a horizon longer than their life: when each is ordered, in
service and sold, and how old the one in service is. Pure; months count from 0.

The first generation is ordered in month 0 and in service from delivery (`lead` months
later) for its book life of `life` months. When that life ends inside the horizon, a
replacement is ordered `lead` months before (month `g x life` for generation g), so it is
delivered the month the one before it retires, and the servers serve without a gap. Each
generation is sold the month it leaves service (retired at the end of its life, or the last
one at the horizon's end, `planner.cost.tco.sale`).
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Generations:
    """The generations of one set of servers: `lead` months from order to service, a book
    life of `life` months, `months` in the horizon."""

    lead: int
    life: int
    months: int

    def __post_init__(self) -> None:
        if self.life < 1:
            raise ValueError(f"a server life of {self.life} months is not positive")

    def replaced(self, m: int) -> bool:
        """A replacement generation is ordered (its CapEx paid) in month `m`: month g x life
        (g >= 1) whose generation is delivered inside the horizon."""
        return m >= self.life and m % self.life == 0 and m + self.lead < self.months

    def retired(self, m: int) -> bool:
        """A generation reaches the end of its life and is sold in month `m` (its
        replacement goes into service the same month)."""
        k = m - self.lead
        return k >= self.life and k % self.life == 0 and m < self.months

    def age(self, m: int) -> int | None:
        """The month of its life the generation in service is in (0 at delivery); None
        before the first is delivered."""
        k = m - self.lead
        return k % self.life if k >= 0 else None

    @property
    def count(self) -> int:
        """Generations bought over the horizon (1 when the life outlasts it)."""
        return 1 + sum(1 for m in range(self.months) if self.replaced(m))
