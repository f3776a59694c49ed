"""Yearly escalation of the owned servers' prices and of cloud prices: month m (from 0, the
month of purchase) pays year 1's price x (1 + rate) ^ (m // 12). Pure; the rates are
`BareMetal` fields (`planner.cost.baremetal`), the running lines' named by
`CostLine.escalation` (`planner.cost.lines`).
"""

from typing import TYPE_CHECKING

from planner.cost.lines import LINES

if TYPE_CHECKING:
    from planner.cost.baremetal import BareMetal

ESCALATES = {"power": "power_escalation_year", "cloud": "cloud_escalation_year"}
"""Prices that escalate besides the running lines' (`CostLine.escalation`): the BareMetal
field of each one's yearly rate."""


def escalation(bm: "BareMetal", price: str, m: int) -> float:
    """Month `m`'s factor on year 1's `price` ("power", "cloud" or a field name): (1 + the
    yearly rate) ^ (m // 12), so months 0-11 are at year 1's price and month 12 at one
    escalation more (1.0 exactly at a rate of 0)."""
    rate: float = getattr(bm, ESCALATES.get(price, price))
    return (1 + rate) ** (m // 12) if rate else 1.0


def escalated(bm: "BareMetal", lines: tuple[float, ...], m: int) -> tuple[float, ...]:
    """The running lines of month `m`, those that escalate at their yearly rate."""
    if m < 12 or not any(line.escalation and getattr(bm, line.escalation) for line in LINES):
        return lines
    return tuple(
        amount * escalation(bm, line.escalation, m) if line.escalation else amount
        for line, amount in zip(LINES, lines, strict=True)
    )
