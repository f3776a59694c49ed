"""The lines of owning cost and the assumptions they are priced from, one entry each.

Everything that lists cost lines or bare-metal assumptions is derived from these two tables:
`BareMetal`'s checks, `baremetal.monthly`'s running costs, the categories a TCO report
totals, the price-book keys a scenario reads (`planner.service.tco_inputs`), where each
assumption came from (`planner.service.tco_record`), the report's category columns, and
the workbook's monthly columns, key figures, named assumptions and sensitivities. A new
running cost is one `CostLine` here, its rate a field of `BareMetal` with an `Assumption`
here, and its labels in `planner.report.text_workbook`.

A running line costs `rate x basis` a month (`/ 12` for a yearly rate) while the servers are
in service; `basis` says what the rate multiplies. "book_value" is the net book value at the
start of the month (the book schedule of `planner.cost.depreciation`), so such a line
shrinks as the servers depreciate.
"""

from dataclasses import dataclass
from typing import Literal

Basis = Literal["server_price", "capex", "gpus", "staff", "contracted_kw", "racks", "book_value"]
"""What a line's rate multiplies: the servers' price (no network, storage or installation),
CapEx, installed GPUs, staff FTEs, contracted kW (servers x max kW), racks, book value."""

MOVES_WITH_CAPEX: frozenset[Basis] = frozenset({"capex", "book_value"})
"""Bases that scale with CapEx: a change of server price moves them by the servers' share
of the CapEx change (the workbook's server-price sensitivity)."""

Kind = Literal["percent", "money", "decimal", "int", "tariff", "method"]
"""How an assumption is shown and read: a share, an amount in the reporting currency, a
plain number, a whole number, one or 24 electricity prices, a depreciation method."""

Check = Literal["non_negative", "none"]
"""`non_negative`: refused below 0 (the rules that need more say so in `baremetal._check`)."""


@dataclass(frozen=True, slots=True)
class Assumption:
    """One input of owning: a `BareMetal` field."""

    field: str
    kind: Kind
    name: str = ""
    """The workbook's defined name ("" for inputs the Assumptions sheet lays out itself)."""
    unit: str = ""
    """The workbook's unit key (`report.wb.unit.*`)."""
    book: str = ""
    """The price-book assumption it is read from ("" for none); `{local}` is `us`, or `cn`
    for a report in CNY."""
    dated: bool = False
    """A price the book may date: a stale one is noted when it is used."""
    check: Check = "non_negative"


@dataclass(frozen=True, slots=True)
class CostLine:
    """A running cost of owning: `rate x basis` a month in service (`/ 12` if yearly)."""

    key: str
    """The category, as reports total it (`report.cat.<key>` labels it)."""
    rate: str
    """The `BareMetal` field holding the rate."""
    basis: Basis
    yearly: bool = True
    instead: tuple[str, Basis] | None = None
    """Another rate and basis used when that field is set (not None): a rack fee instead of
    a price per contracted kW."""
    escalation: str | None = None
    """The `BareMetal` field of the line's yearly escalation rate (None: it does not
    escalate): month m costs (1 + rate) ^ (m // 12) times year 1's."""


ASSUMPTIONS: tuple[Assumption, ...] = (
    Assumption("network_share", "percent", "NetworkShare", "share_of_servers", "network_share"),
    Assumption("storage_share", "percent", "StorageShare", "share_of_servers", "storage_share"),
    Assumption("installation", "money", "Installation", "money"),
    Assumption("life_years", "decimal", "LifeYears", "years", "life_years", check="none"),
    Assumption(
        "residual_share",
        "percent",
        "ResidualShare",
        "share_of_capex",
        "residual_share",
        check="none",
    ),
    Assumption(
        "resale_share", "percent", "ResaleShare", "share_of_capex", "resale_share", check="none"
    ),
    Assumption("tax_life_years", "decimal", "TaxLifeYears", "years", check="none"),
    Assumption("pue", "decimal", "PUE", "ratio", "pue", check="none"),
    Assumption(
        "colo_per_kw_month", "money", "ColoPerKwMonth", "per_kw_month", "colo_per_kw_month", True
    ),
    Assumption("rack_fee_month", "money", "RackFeeMonth", "per_rack_month", check="none"),
    Assumption("servers_per_rack", "int", "ServersPerRack", "servers", check="none"),
    Assumption(
        "support_share_year", "percent", "SupportShareYear", "share_per_year", "support_share_year"
    ),
    Assumption("fte", "decimal", "StaffFte", "fte"),
    Assumption(
        "fte_per_server", "decimal", "StaffFtePerServer", "fte_per_server", "fte_per_server"
    ),
    Assumption(
        "fte_cost_year", "money", "FteCostYear", "per_fte_year", "fte_cost_year.{local}", True
    ),
    Assumption("software_per_gpu_year", "money", "SoftwarePerGpuYear", "per_gpu_year"),
    Assumption("spares_share_year", "percent", "SparesShareYear", "share_of_capex_year"),
    Assumption(
        "insurance_share_year",
        "percent",
        "InsuranceShareYear",
        "share_of_capex_year",
        "insurance_share_year",
    ),
    Assumption(
        "property_tax_share_year",
        "percent",
        "PropertyTaxShareYear",
        "share_of_book_value_year",
        "property_tax_share_year",
    ),
    Assumption("lead_time_months", "int", "LeadTimeMonths", "months", "lead_time_months"),
    Assumption(
        "availability", "percent", "Availability", "share_of_hours", "availability", check="none"
    ),
    Assumption("power_escalation_year", "percent", "PowerEscalationYear", "per_year", check="none"),
    Assumption("staff_escalation_year", "percent", "StaffEscalationYear", "per_year", check="none"),
    Assumption("colo_escalation_year", "percent", "ColoEscalationYear", "per_year", check="none"),
    # named with the scenario's general inputs (a cloud-only report has it too)
    Assumption("cloud_escalation_year", "percent", unit="per_year", check="none"),
    Assumption("kwh_price", "tariff", book="kwh_price.{local}", dated=True, check="none"),
    Assumption("depreciation_method", "method", check="none"),
    Assumption("tax_method", "method", check="none"),
    Assumption("tax_rate", "percent", check="none"),
)
"""Every scalar input of `BareMetal`, in the order the Assumptions sheet lists them."""

LINES: tuple[CostLine, ...] = (
    CostLine(
        "colocation",
        "colo_per_kw_month",
        "contracted_kw",
        yearly=False,
        instead=("rack_fee_month", "racks"),
        escalation="colo_escalation_year",
    ),
    CostLine("support", "support_share_year", "server_price"),
    CostLine("staff", "fte_cost_year", "staff", escalation="staff_escalation_year"),
    CostLine("software", "software_per_gpu_year", "gpus"),
    CostLine("spares", "spares_share_year", "capex"),
    CostLine("insurance", "insurance_share_year", "capex"),
    CostLine("property_tax", "property_tax_share_year", "book_value"),
)
"""The running costs of owning, in the order reports show them (after energy)."""

LINE_KEYS = tuple(line.key for line in LINES)

CATEGORIES = (
    "capex",
    "refresh",
    "depreciation",
    "energy",
    *LINE_KEYS,
    "bridge",
    "tax_shield",
)
"""An owned option's cost categories a month: CapEx (cash), the CapEx of replacement servers
when the horizon outlasts their life (cash), depreciation (P&L), energy, the running lines,
the cloud bridging the lead time, the tax saved (cash)."""

END_CATEGORIES = ("resale", "disposal_tax")
"""An owned option's cash from selling its servers (`planner.cost.tco` totals them): at the
horizon's end, and each retired generation's at the end of its life; the resale value
(negative: cash in) and the tax on the gain or loss on disposal against the tax book value
(a gain pays tax, a loss saves it)."""


CLOUD_CATEGORIES = (
    "cloud_compute",
    "cloud_cpu",
    "commitment",
    "overflow",
    "spot_overhead",
    "storage",
    "egress",
)
"""A cloud bill's categories (`planner.service.tco_bills` prices them): instance-hours x
price, CPU instances for CPU-only jobs, committed GPUs x hours x price, the demand above a
commitment, spot re-runs, storage and egress."""
