"""The resolved inputs of a TCO report: every number the model priced the options from, so a
workbook can state them as assumptions and rebuild the cash flows with live formulas.

`planner.service.tco_run` fills them (`TcoReport.inputs`); the report writers read them. They
are the model's own values (`BareMetal`, `Demand`, `Rented`) plus what the cloud bills were
made of, each part a monthly quantity at a price: instance-hours by SKU (with the share spot
interruptions re-run), the instance-hours by SKU at each level of demand (so the demand above
a commitment can be priced for any committed size), vCPU-hours and GiB-hours of CPU-only
jobs, storage and egress. Plain frozen dataclasses: `planner.core.serialize` writes and
reads them.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from planner.core.serialize import OMIT
from planner.cost.baremetal import HOURS_PER_MONTH, BareMetal
from planner.cost.elsewhere import ServedElsewhere
from planner.cost.packing_facts import PackingFacts
from planner.cost.tco import Demand, Rented


@dataclass(frozen=True, slots=True)
class PricedQuantity:
    """One SKU of a cloud bill: how much of it a month, at what price each."""

    sku: str
    unit: str
    """"instance-hour" (a replayed bill) or "GPU-hour" (a flat price on a utilization)."""
    quantity_per_month: float
    price: float
    """Per unit, reporting currency."""
    gpus_per_unit: float = 1.0
    rerun_share: float = 0.0
    """Spot: units re-run after interruptions per unit billed (0 off spot)."""


@dataclass(frozen=True, slots=True)
class DemandLevel:
    """A level of the bill's demand: while its jobs hold `gpus` GPUs at once (instances x
    GPUs each), each `compute` line's units a month, in `hours` (same order)."""

    gpus: float
    hours: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class CloudBillInputs:
    """A cloud bill a month, every part quantity x price:

    compute     sum over `compute` of quantity x price (without a commitment)
    commitment  a node pool's: sum over `kept` of quantity x price
    spot        sum over `compute` of quantity x re-run share x price
    commitment  committed GPUs x `commit_hours` x commit price
    overflow    with a commitment: sum over `levels` and lines of the units x
                max(0, 1 - committed / level GPUs) x price (the demand above it, on demand)
    cpu, data   sum of quantity x price (vCPU-hours, GiB-hours; storage GB, egress GB)
    other       amounts the model computed that are none of these (reports saved before)
    """

    compute: tuple[PricedQuantity, ...] = ()
    committed_gpus: float = 0.0
    commit_price: float = 0.0
    """Per committed GPU-hour."""
    other: Mapping[str, float] = field(default_factory=dict)
    commit_hours: float = HOURS_PER_MONTH
    """Hours a month the commitment is paid (the bill's span scaled to a month)."""
    levels: tuple[DemandLevel, ...] = ()
    cpu: tuple[PricedQuantity, ...] = ()
    """CPU-only jobs: vCPU-hours and GiB-hours a month at their rates."""
    data: tuple[PricedQuantity, ...] = ()
    """Storage (GB kept, price per GB-month) and egress (GB out, price per GB)."""
    kept: tuple[PricedQuantity, ...] | None = field(default=None, metadata=OMIT)
    """A node pool's committed instances (`packing: pool`): instance-hours a month they
    are up, used or not, at the committed price per instance-hour; the commitment part is
    their sum, and `compute` holds the instances the pool launched on demand."""


@dataclass(frozen=True, slots=True)
class CloudInputs:
    """A rented option: the model's monthly figures and the bill they come from."""

    rented: Rented
    bill: CloudBillInputs
    packing: PackingFacts | None = field(default=None, metadata=OMIT)
    """Its packing overhead, price floor and waits, a month (None: reports saved before)."""


@dataclass(frozen=True, slots=True)
class ReplayFacts:
    """What the replay of an owned option said (utilization, waits, why jobs waited)."""

    jobs: int
    completed: int
    unschedulable: int
    unfinished: int
    utilization: float | None
    wait_mean_s: float | None
    wait_p95_s: float | None
    waiting_gpu_hours_by_reason: Mapping[str, float]
    unschedulable_by_reason: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class OwnedInputs:
    """An owned option (self-hosted, or the hybrid's kept servers): its assumptions and the
    month of demand it serves (with the hybrid's burst bill)."""

    name: str
    bare_metal: BareMetal
    demand: Demand
    burst: CloudBillInputs | None = field(default=None, metadata=OMIT)
    replay: ReplayFacts | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True, slots=True)
class AssumptionSource:
    """Where an assumption's value came from."""

    source: str
    as_of: str = ""
    confidence: str = ""
    unit: str = ""


@dataclass(frozen=True, slots=True)
class YearInputs:
    """With growing demand (`growth:`), what a later year's months were priced from where it
    differs from year 1: each owned option's demand (and burst bill) and each cloud option's
    bill, from that year's replay. The assumptions are year 1's (`TcoInputs`)."""

    year: int
    owned: tuple[OwnedInputs, ...]
    clouds: tuple[CloudInputs, ...]


@dataclass(frozen=True, slots=True)
class TcoInputs:
    """Everything the report's options were priced from (`TcoReport.inputs`)."""

    discount_rate: float
    tax_rate: float
    sensitivity_swing: float
    assumption_set: str
    fx_date: str
    owned: tuple[OwnedInputs, ...]
    """Self-hosted first, then the hybrid; none in a cloud-only report."""
    clouds: tuple[CloudInputs, ...]
    sources: Mapping[str, AssumptionSource] = field(default_factory=dict)
    """By BareMetal field name: the price book set, the scenario's override or the default."""
    calibration: str = ""
    """The replay's twin check (error bar) when the scenario is calibrated."""
    later_years: tuple[YearInputs, ...] | None = field(default=None, metadata=OMIT)
    """With `growth:`, years 2, 3, ... of the horizon (None: every year is year 1's)."""
    served_elsewhere: ServedElsewhere | None = field(default=None, metadata=OMIT)
    """The rates unserved demand and waiting were priced at (None: cloud only, or saved
    before they were)."""
    cloud_escalation_year: float = 0.0
    """Yearly escalation of every cloud price (the owned servers' `BareMetal` carries the
    same; a cloud-only report has none)."""

    def by_year(self) -> "tuple[TcoInputs, ...]":
        """Each year's inputs, year 1 first (this one alone without growth)."""
        later = tuple(
            replace(self, owned=y.owned, clouds=y.clouds, later_years=None)
            for y in self.later_years or ()
        )
        return (replace(self, later_years=None), *later)
