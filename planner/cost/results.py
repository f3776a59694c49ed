"""The TCO report's types: what `planner.service.tco_run.run_tco` returns and the CLI, the
report writers and the Compare, Overview and Capacity pages read by attribute.

Frozen, slotted and plain: field names and order are the keys of `planner tco --json`
(written by `planner.core.serialize.to_json`, never by hand here). The ledger's types are in
`planner.cost.ledger`; each option's figures (`OptionReport`) and the comparison of buying
against renting (`Comparison`) are in `planner.cost.tco`, which builds them. Nothing here
computes anything.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from planner.core.serialize import OMIT
from planner.cost.busy import BusyShare
from planner.cost.chargeback import ChargebackData
from planner.cost.elsewhere import ServedElsewhere
from planner.cost.inputs import TcoInputs
from planner.cost.scope import LeftOut
from planner.cost.tco import Comparison, OptionReport
from planner.cost.year_demand import YearDemand


@dataclass(frozen=True, slots=True)
class Horizon:
    years: float
    options: tuple[OptionReport, ...]
    """Owned options first (self-hosted, then hybrid), then the cloud options."""
    comparisons: tuple[Comparison, ...]
    """Buying against each cloud option (none without owned servers)."""
    pair: Comparison | None = field(default=None, metadata=OMIT)
    """The headline pair (`planner.cost.pair`): the owned option as built against the
    cheapest cloud option; every surface's NPV, break-even month and tornado are of it."""


@dataclass(frozen=True, slots=True)
class SensitivityBar:
    driver: str
    low: float
    high: float
    swing: float


@dataclass(frozen=True, slots=True)
class Sensitivity:
    """NPV of buying for the headline pair (`planner.cost.pair`), each driver moved alone."""

    output: str
    base: float
    bars: tuple[SensitivityBar, ...]


@dataclass(frozen=True, slots=True)
class Flip:
    """The value of one driver at which the headline pair's NPV of buying is 0."""

    driver: str
    base: float
    """Its value today: 1 for a multiplier, else the share, the rate or the life in years."""
    value: float | None
    """Where the verdict flips; None: never within [low, high]."""
    low: float
    high: float
    """The range searched (same unit as `base`)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What would flip the verdict: buying `owned` against renting `rented` over the first
    horizon, each main driver moved alone until the NPV of buying is 0 (`planner.cost.flip`)."""

    owned: str
    rented: str
    years: float
    npv_of_buying: float
    flips: tuple[Flip, ...]
    allocation: float = 0.0
    """The owned option's allocation today (the demand's flip is also read as one)."""


@dataclass(frozen=True, slots=True)
class PriceUsed:
    """A price-book entry the report used: a cloud price per GPU-hour or a server's price."""

    price: str
    per_gpu_hour: float | None = field(default=None, metadata=OMIT)
    per_server: float | None = field(default=None, metadata=OMIT)
    currency: str = ""
    as_of: str = ""
    source: str = ""
    confidence: str = ""
    stale: bool = False


@dataclass(frozen=True, slots=True)
class TcoReport:
    """Own, rent or both: every option over every horizon (`planner tco --json`)."""

    scope: str
    left_out: LeftOut
    scenario: str
    currency: str
    installed_gpus: int
    allocation: float | None
    """Allocated share of the owned GPUs; None when nothing is owned (cloud only)."""
    useful_gpu_hours_per_month: float
    cost_per_installed_gpu_hour: float | None
    cost_per_allocated_gpu_hour: float | None
    cost_per_useful_gpu_hour: float | None
    fixed_per_installed_gpu_hour: float | None
    variable_per_busy_gpu_hour: float | None
    break_even_utilization: Mapping[str, float | None]
    """By cloud option: the allocation above which owning is cheaper (None: never)."""
    horizons: tuple[Horizon, ...]
    sensitivity: Sensitivity | None
    notes: tuple[str, ...]
    verdict: Verdict | None = field(default=None, metadata=OMIT)
    """What would flip the headline pair's verdict (None: no owned or no cloud option)."""
    prices_used: tuple[PriceUsed, ...] = ()
    discount_rate: float | None = field(default=None, metadata=OMIT)
    """The annual rate the NPVs and break-even months are discounted at (None: not known)."""
    scenarios: "tuple[TcoReport, ...] | None" = field(default=None, metadata=OMIT)
    """A report over several saved scenarios (the Compare page's): each one's own report."""
    chargeback: ChargebackData | None = field(default=None, metadata=OMIT)
    """Each team's GPU-hours on each option and quota, for the chargeback (None: no trace)."""
    inputs: TcoInputs | None = field(default=None, metadata=OMIT)
    """What the options were priced from (assumptions, replay quantities, bills), for the
    workbook's formulas; None in a hand-made report or one saved before it was recorded."""
    demand_by_year: tuple[YearDemand, ...] | None = field(default=None, metadata=OMIT)
    """Each year's demand when the scenario grows it (`growth:`); None: year 1 repeated."""
    served_elsewhere: ServedElsewhere | None = field(default=None, metadata=OMIT)
    """The rates the owned options' unserved demand and waiting are priced at (None: a
    cloud-only report, or one saved before)."""
    busy: BusyShare | None = field(default=None, metadata=OMIT)
    """How busy the priced jobs' GPUs were and each option's cost per busy GPU-hour
    (`planner.cost.busy`); None: no trace, or no job of it has a busy share."""

    @property
    def owns_servers(self) -> bool:
        return self.allocation is not None


def plain_report(
    horizons: tuple[Horizon, ...],
    *,
    scenario: str = "",
    currency: str = "USD",
    scope: str = "",
    allocation: float | None = None,
    break_even_utilization: Mapping[str, float | None] | None = None,
) -> TcoReport:
    """A report of `horizons` whose other figures are empty (no cost per GPU-hour, no
    sensitivity, no notes): what a report over several saved scenarios, or a hand-made one,
    starts from (`dataclasses.replace` fills in more)."""
    return TcoReport(
        scope=scope,
        left_out=LeftOut(),
        scenario=scenario,
        currency=currency,
        installed_gpus=0,
        allocation=allocation,
        useful_gpu_hours_per_month=0.0,
        cost_per_installed_gpu_hour=None,
        cost_per_allocated_gpu_hour=None,
        cost_per_useful_gpu_hour=None,
        fixed_per_installed_gpu_hour=None,
        variable_per_busy_gpu_hour=None,
        break_even_utilization=break_even_utilization or {},
        horizons=horizons,
        sensitivity=None,
        notes=(),
    )
