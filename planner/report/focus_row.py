"""The columns of a FOCUS export (`planner.report.focus`) and how one charge fills them:
FOCUS 1.0's columns, the later versions' that apply, and ours (`x_`)."""

import json
from dataclasses import dataclass
from datetime import date

from planner.report.csv_tidy import money_text

COLUMNS = (
    "AvailabilityZone", "BilledCost", "BillingAccountId", "BillingAccountName",
    "BillingCurrency", "BillingPeriodEnd", "BillingPeriodStart", "ChargeCategory",
    "ChargeClass", "ChargeType", "ChargeDescription", "ChargeFrequency", "ChargePeriodEnd",
    "ChargePeriodStart", "CommitmentDiscountCategory", "CommitmentDiscountId",
    "CommitmentDiscountName", "CommitmentDiscountStatus", "CommitmentDiscountType",
    "CommitmentDiscountQuantity", "CommitmentDiscountUnit", "ConsumedQuantity", "ConsumedUnit",
    "ContractedCost", "ContractedUnitPrice", "EffectiveCost", "InvoiceIssuer", "ListCost",
    "ListUnitPrice", "PricingCategory", "PricingQuantity", "PricingUnit", "Provider",
    "Publisher", "RegionId", "RegionName", "ResourceId", "ResourceID", "ResourceName",
    "ResourceType", "ServiceCategory", "ServiceName", "ServiceSubcategory", "SkuId",
    "SkuPriceId", "SubAccountId", "SubAccountName", "Tags",
    "x_Scenario", "x_HorizonYears", "x_Option", "x_OptionKind", "x_Month", "x_CostCategory",
    "x_ServedShare",
)  # fmt: skip
"""FOCUS 1.0's columns (CommitmentDiscountQuantity/Unit and ServiceSubcategory are 1.1's),
then ours. `ResourceID` repeats `ResourceId` and `ChargeType` repeats `ChargeCategory`: the
validator 1.0.0 checks those names (a rule of its 1.0 set still reads `ChargeType`)."""

GPU_HOURS = "GPU-Hours"


@dataclass(frozen=True, slots=True)
class Charge:
    """One FOCUS row before its text columns are filled: amounts in the report currency."""

    category: str
    """`x_CostCategory`: a cost category of the report, or ours (`capex_purchase`, ...)."""
    charge: str
    """ChargeCategory: Usage, Purchase, Tax, Credit or Adjustment."""
    billed: float
    effective: float
    description: str
    frequency: str = "Recurring"
    gpu_hours: float | None = None
    commitment: str | None = None
    """CommitmentDiscountStatus (Used, Unused) on a commitment's Usage rows; "" on its
    Purchase row; None off a commitment."""
    committed_gpu_hours: float | None = None


@dataclass(frozen=True, slots=True)
class Option:
    """What the rows of one option repeat."""

    scenario: str
    years: float
    key: str
    name: str
    owned: bool
    served_share: float | None
    currency: str
    service: str
    """ServiceName, Provider, Publisher and InvoiceIssuer: the owned servers, or the cloud
    option's name."""


def focus_row(option: Option, c: Charge, start: date, month: int) -> list[object]:
    """The row's cells in `COLUMNS` order."""
    begin, end = _month(start, month), _month(start, month + 1)
    resource = f"{option.scenario}/{option.key}"
    committed = c.commitment is not None
    status = c.commitment or None
    quantity = _number(c.gpu_hours)
    price = round(c.effective / c.gpu_hours, 6) if c.gpu_hours and c.billed else None
    service = option.service
    cells: dict[str, object] = {
        "BilledCost": _money(c.billed),
        "BillingAccountId": option.scenario,
        "BillingAccountName": option.scenario,
        "BillingCurrency": option.currency,
        "BillingPeriodStart": begin,
        "BillingPeriodEnd": end,
        "ChargeCategory": c.charge,
        "ChargeType": c.charge,
        "ChargeDescription": c.description,
        "ChargeFrequency": c.frequency,
        "ChargePeriodStart": begin,
        "ChargePeriodEnd": end,
        "CommitmentDiscountCategory": "Usage" if committed else None,
        "CommitmentDiscountId": f"{resource}/commitment" if committed else None,
        "CommitmentDiscountName": f"{option.name}: commitment" if committed else None,
        "CommitmentDiscountStatus": status,
        "CommitmentDiscountType": "Committed GPUs" if committed else None,
        "CommitmentDiscountQuantity": _number(c.committed_gpu_hours),
        "CommitmentDiscountUnit": GPU_HOURS if committed else None,
        "ConsumedQuantity": quantity,
        "ConsumedUnit": GPU_HOURS if quantity is not None else None,
        "ContractedCost": _money(c.billed or c.effective),
        "ContractedUnitPrice": price,
        "EffectiveCost": _money(c.effective),
        "InvoiceIssuer": service,
        "ListCost": _money(c.billed or c.effective),
        "ListUnitPrice": price,
        "PricingCategory": "Committed"
        if committed
        else ("Standard" if c.charge == "Usage" else None),
        "PricingQuantity": quantity,
        "PricingUnit": GPU_HOURS if quantity is not None else None,
        "Provider": service,
        "Publisher": service,
        "ResourceId": resource,
        "ResourceID": resource,
        "ResourceName": option.name,
        "ResourceType": "GPU servers" if option.owned else "GPU instances",
        "ServiceCategory": "Compute",
        "ServiceName": service,
        "ServiceSubcategory": "Other (Compute)" if option.owned else "Virtual Machines",
        "SkuId": f"{option.key}/{c.category}",
        "SkuPriceId": f"{option.key}/{c.category}/{c.charge}",
        "SubAccountId": option.key,
        "SubAccountName": option.name,
        "Tags": json.dumps({"x_Option": option.name}, ensure_ascii=False),
        "x_Scenario": option.scenario,
        "x_HorizonYears": repr(option.years),
        "x_Option": option.name,
        "x_OptionKind": "owned" if option.owned else "rented",
        "x_Month": month + 1,
        "x_CostCategory": c.category,
        "x_ServedShare": _number(option.served_share),
    }
    return [cells.get(k) for k in COLUMNS]


def _month(start: date, add: int) -> str:
    """The first instant of month `add` after `start`'s, as FOCUS writes a date-time (UTC)."""
    k = start.year * 12 + start.month - 1 + add
    return f"{k // 12:04d}-{k % 12 + 1:02d}-01T00:00:00Z"


def _money(amount: float) -> str:
    return money_text(round(amount * 100))


def _number(value: float | None) -> str | None:
    return None if value is None else repr(round(value, 6))
