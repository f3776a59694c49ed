"""Turn pydantic's validation errors into short messages that name the field and what it wants.

`planner prices add` reports them in one line; CSV import reports them per row and column.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from planner.core.pricing_model import PRICING_MODELS
from planner.core.shown import shorten
from pricing.errors import PricingError
from pricing.models import (
    CURRENCIES,
    MAX_BILLING_S,
    MAX_GPU_MEM_GB,
    MAX_GPUS_PER_SERVER,
    MAX_HOURLY_PRICE,
    MAX_SERVER_PRICE,
    MAX_TERM_MONTHS,
    SOURCE_KINDS,
    future_date,
)

M = TypeVar("M", bound=BaseModel)

_DATE = "a date YYYY-MM-DD"
_PRICE = f"a price >= 0 and below {MAX_HOURLY_PRICE:,} (the price book's limit)"
_CURRENCY = f"one of {', '.join(CURRENCIES)} (ISO 4217)"
EXPECTED = {
    "key": "a text key",
    "provider": "a provider name",
    "region": "a region name",
    "instance_type": "an instance type",
    "gpu_model": "a GPU model such as A100 or H100",
    "gpu_mem_gb": f"a whole number of GB from 1 to {MAX_GPU_MEM_GB:,}",
    "gpu_form": "SXM, PCIe or NVL",
    "gpus_per_instance": "a number of GPUs > 0",
    "price_per_instance_hour": _PRICE,
    "price_per_gpu_hour": _PRICE,
    "currency": _CURRENCY,
    "pricing_model": f"one of {', '.join(PRICING_MODELS)}",
    "term_months": f"a whole number of months from 1 to {MAX_TERM_MONTHS}",
    "upfront_fraction": "a fraction from 0 to 1",
    "billing_granularity_s": f"whole seconds from 1 to {MAX_BILLING_S:,} (a year)",
    "min_billing_s": f"whole seconds from 0 to {MAX_BILLING_S:,} (a year)",
    "as_of": _DATE,
    "source_kind": f"one of {', '.join(SOURCE_KINDS)}",
    "confidence": "H, M or L",
    "power_confidence": "H, M or L",
    "gpus_per_server": f"a whole number of GPUs from 1 to {MAX_GPUS_PER_SERVER}",
    "price": f"a price >= 0 and below {MAX_SERVER_PRICE:,} (the price book's limit)",
    "max_kw": "kW > 0",
    "idle_kw": "kW >= 0",
    "load_kw": "kW > 0",
    "rate_date": _DATE,
    "base": _CURRENCY,
    "quote": _CURRENCY,
    "rate": "a rate > 0 (1 base = rate quote)",
    "set_name": "a name of letters, digits, '.', '_' or '-'",
    "name": "a name of letters, digits, '.', '_', '@', '/' or '-'",
    "value": "a number",
    "unit": "a unit such as USD/kWh",
}


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong with one field: `message` reads "expected ..., got ..."."""

    field: str
    value: str
    message: str


def problems(err: ValidationError) -> list[Problem]:
    """One `Problem` per pydantic error, in the order pydantic reports them."""
    return [_problem(detail) for detail in err.errors(include_url=False)]


def _problem(detail: ErrorDetails) -> Problem:
    field = str(detail["loc"][0]) if detail["loc"] else ""
    value = detail.get("input")
    shown = "" if isinstance(value, dict) else shorten(str(value))
    kind = detail["type"]
    if kind == "value_error":
        text = detail["msg"].removeprefix("Value error, ")
        if not field and ": " in text:  # model-level checks name their field first
            field, text = text.split(": ", 1)
        return Problem(field, shown, text)
    if kind == "missing":
        return Problem(field, "", f"missing; expected {EXPECTED.get(field, 'a value')}")
    if kind == "extra_forbidden":
        return Problem(field, shown, f"unknown field; expected one of {', '.join(EXPECTED)}")
    expected = EXPECTED.get(field, "a valid value")
    got = f"'{shown}'" if isinstance(value, str) else shorten(repr(value))
    return Problem(field, shown, f"expected {expected}, got {got}")


_KINDS = ("FX rate", "server", "assumption", "price")
"""What `validated` is told it checks, first word(s) of `what` (a key may follow)."""


def validated(model: type[M], data: Mapping[str, object], what: str) -> M:
    """`model` built from `data`, or a `PricingError` naming every bad field in one line."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as err:
        found = [(p.field, p.message) for p in problems(err)]
        raise _invalid(what, found) from None


def refuse_future(row: BaseModel, what: str) -> None:
    """`PricingError` when a row a user adds or edits is dated in the future."""
    problem = future_date(row)
    if problem is not None:
        raise _invalid(what, [problem])


def _invalid(what: str, found: list[tuple[str, str]]) -> PricingError:
    """ "Invalid price: field: message; ...", coded so the app words each problem as it
    words a price CSV's rejected cells (`price_row_words`)."""
    shown = "; ".join(f"{field}: {message}" for field, message in found)
    kind = next((k for k in _KINDS if what == k or what.startswith(f"{k} ")), what)
    return PricingError(f"Invalid {what}: {shown}.").coded(
        "price_row_invalid", kind=kind, name=what[len(kind) :].strip(), problems=tuple(found)
    )
