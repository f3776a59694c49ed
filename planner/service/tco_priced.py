"""Every option of a scenario priced on a month of demand: `PricedOptions`, what
`planner.service.tco_explicit` (a utilization), `planner.service.tco_replayed` (a replay of
the trace) and `planner.service.tco_cloud_only` (renting only) give `planner.service.tco_run`,
which lays it over the horizons and records it (`planner.service.tco_record`).
"""

from dataclasses import dataclass

from planner.cost.chargeback import ChargebackData
from planner.cost.comparison import Priced, Runs
from planner.cost.inputs import CloudInputs, OwnedInputs
from planner.engine.summary import ReplaySummary
from planner.service.tco_trail import Trail

Replays = dict[str, ReplaySummary]
"""Each owned option's replay summary, by name."""


@dataclass(frozen=True, slots=True)
class PricedOptions:
    """The owned options (self-hosted, then the hybrid; none when renting only) and the cloud
    options, each a month of demand with its bill, as the report records them
    (`TcoInputs.owned`, `.clouds`); the ledger's runs, the chargeback, and the trail of the
    steps that priced them."""

    owned: tuple[OwnedInputs, ...]
    clouds: tuple[CloudInputs, ...]
    runs: Runs
    chargeback: ChargebackData | None
    replays: Replays
    """Each replayed owned option's summary (none without a trace)."""
    trail: Trail

    def priced(self, converted: frozenset[str]) -> Priced:
        """What the comparison lays over the horizons (an owning scenario's; `converted`: what
        the run converted from another currency)."""
        mine, *hybrid = self.owned
        kept = (hybrid[0].demand, hybrid[0].bare_metal) if hybrid else None
        rented = [c.rented for c in self.clouds]
        return Priced(mine.demand, rented, kept, set(converted), self.runs)
