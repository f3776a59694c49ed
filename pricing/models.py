"""Validated input rows of the price book: a cloud price, a server, an FX rate, an assumption.

Every way a row arrives (seed files, `planner prices add`, CSV import, the Python API) goes
through these pydantic models, so the rules and the messages are the same everywhere. They
normalise (GPU names, currency codes, the stable `key`) and never touch the database.
"""

import re
from datetime import date, timedelta
from typing import Annotated, Literal, Self, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from planner.core.pricing_model import PricingModel
from pricing.gpus import GpuForm, parse_gpu

SourceKind = Literal["provider_api", "provider_page", "dataset", "blog", "estimate", "quote"]
SOURCE_KINDS: tuple[str, ...] = get_args(SourceKind)
Confidence = Literal["H", "M", "L"]
CONFIDENCE_ORDER = "HML"  # H > M > L: a figure derived from others has the lowest of theirs


def lowest_confidence(*confidences: str) -> str:
    """The weakest of `confidences` (H > M > L); a blank or unknown one is not counted."""
    known = [c for c in confidences if c and c in CONFIDENCE_ORDER]
    return max(known, key=CONFIDENCE_ORDER.index, default="")


# ISO 4217 codes we can price and convert; others are rejected so a typo never prices at 1:1.
CURRENCIES = ("USD", "CNY", "EUR", "GBP", "JPY", "HKD", "SGD", "KRW", "TWD", "INR", "AUD", "CAD")
# How much a stored per-GPU price may differ from instance price / GPUs (rounding in sources).
PER_GPU_TOLERANCE = 0.01
# What the price-book columns hold: hourly prices are DECIMAL(14, 6), server prices
# DECIMAL(14, 2), counts INTEGER. A row beyond them is refused on its own, so it never
# fails the statement that writes a whole file.
MAX_HOURLY_PRICE = 100_000_000
MAX_SERVER_PRICE = 1_000_000_000_000
MAX_GPU_MEM_GB = 100_000
MAX_TERM_MONTHS = 120
MAX_BILLING_S = 366 * 86_400
MAX_GPUS_PER_SERVER = 1024
# A date ahead of today by more than this is in the future (not a time zone ahead).
DATE_SLACK = timedelta(days=1)


def slug(text: str) -> str:
    """Lower-case words joined by '-': "AWS China" -> "aws-china"."""
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-")


def _currency(code: str) -> str:
    upper = code.strip().upper()
    if upper not in CURRENCIES:
        raise ValueError(f"expected one of {', '.join(CURRENCIES)} (ISO 4217), got {code!r}")
    return upper


Currency = Annotated[str, AfterValidator(_currency)]


class BookRow(BaseModel):
    """A row of a price-book table; `key` is its stable identity (derived when empty)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    key: str = ""


class PriceQuote(BookRow):
    """One cloud price: an instance type under one pricing model, in its native currency."""

    provider: str = Field(min_length=1)
    region: str = ""
    instance_type: str = Field(min_length=1)
    gpu_model: str = Field(min_length=1)
    gpu_mem_gb: int | None = Field(default=None, gt=0, le=MAX_GPU_MEM_GB)
    gpu_form: GpuForm | None = None
    gpus_per_instance: float = Field(gt=0, allow_inf_nan=False)
    price_per_instance_hour: float = Field(ge=0, lt=MAX_HOURLY_PRICE, allow_inf_nan=False)
    price_per_gpu_hour: float | None = Field(
        default=None, ge=0, lt=MAX_HOURLY_PRICE, allow_inf_nan=False
    )
    currency: Currency
    pricing_model: PricingModel
    term_months: int | None = Field(default=None, gt=0, le=MAX_TERM_MONTHS)
    upfront_fraction: float | None = Field(default=None, ge=0, le=1)
    billing_granularity_s: int = Field(default=3600, gt=0, le=MAX_BILLING_S)
    min_billing_s: int = Field(default=0, ge=0, le=MAX_BILLING_S)
    includes: str = ""
    as_of: date
    source_url: str = ""
    source_kind: SourceKind = "quote"
    confidence: Confidence = "M"
    notes: str = ""

    @model_validator(mode="after")
    def _normalise(self) -> Self:
        self.gpu_model, self.gpu_mem_gb, self.gpu_form = _gpu_fields(
            self.gpu_model, self.gpu_mem_gb, self.gpu_form
        )
        self.price_per_instance_hour = round(self.price_per_instance_hour, 6)
        self.price_per_gpu_hour = _per_gpu(
            self.price_per_instance_hour, self.gpus_per_instance, self.price_per_gpu_hour
        )
        if not self.key:
            self.key = price_key(self)
        return self


def price_key(quote: PriceQuote) -> str:
    """provider/region/instance/pricing model[/term]: one row per offer, stable across seeds."""
    parts = [slug(quote.provider), slug(quote.region) or "-", slug(quote.instance_type)]
    parts.append(quote.pricing_model)
    if quote.term_months:
        parts.append(f"{quote.term_months}m")
    return "/".join(parts)


def _gpu_fields(
    text: str, mem_gb: int | None, form: GpuForm | None
) -> tuple[str, int | None, GpuForm | None]:
    name = parse_gpu(text)
    if not name.model:
        raise ValueError(f"gpu_model: expected a GPU model such as A100 or H100, got {text!r}")
    if mem_gb is not None and name.mem_gb is not None and mem_gb != name.mem_gb:
        raise ValueError(f"gpu_mem_gb: {mem_gb} contradicts gpu_model {text!r}")
    if form is not None and name.form is not None and form != name.form:
        raise ValueError(f"gpu_form: {form} contradicts gpu_model {text!r}")
    return name.model, mem_gb or name.mem_gb, form or name.form


def _per_gpu(per_instance: float, gpus: float, given: float | None) -> float:
    computed = per_instance / gpus
    if given is None and round(computed, 6) >= MAX_HOURLY_PRICE:
        raise ValueError(
            f"price_per_gpu_hour: price_per_instance_hour / gpus_per_instance = {computed:,.6g} "
            f"is not below the price book's limit of {MAX_HOURLY_PRICE:,}"
        )
    if given is None:
        return round(computed, 6)
    if abs(given - computed) > PER_GPU_TOLERANCE * max(computed, 0.01):
        raise ValueError(
            f"price_per_gpu_hour: {given} is not price_per_instance_hour / gpus_per_instance "
            f"= {computed:.6g}; leave it empty to compute it"
        )
    return round(given, 6)


class ServerQuote(BookRow):
    """A bare-metal server: its price and its power draw (max, idle, full load) in kW."""

    gpu_model: str = Field(min_length=1)
    gpu_mem_gb: int | None = Field(default=None, gt=0, le=MAX_GPU_MEM_GB)
    gpu_form: GpuForm | None = None
    gpus_per_server: int = Field(gt=0, le=MAX_GPUS_PER_SERVER)
    price: float = Field(ge=0, lt=MAX_SERVER_PRICE, allow_inf_nan=False)
    currency: Currency
    max_kw: float = Field(gt=0, allow_inf_nan=False)
    idle_kw: float = Field(ge=0, allow_inf_nan=False)
    load_kw: float = Field(gt=0, allow_inf_nan=False)
    as_of: date | None = None
    """When the price was seen; None for an estimate nobody quoted (flagged unsourced)."""
    source: str = ""
    confidence: Confidence = "M"
    power_source: str = ""
    power_confidence: Confidence = "L"
    notes: str = ""

    @model_validator(mode="after")
    def _normalise(self) -> Self:
        self.gpu_model, self.gpu_mem_gb, self.gpu_form = _gpu_fields(
            self.gpu_model, self.gpu_mem_gb, self.gpu_form
        )
        if not self.idle_kw <= self.load_kw <= self.max_kw:
            raise ValueError(
                f"idle_kw: expected idle_kw <= load_kw <= max_kw, got {self.idle_kw}, "
                f"{self.load_kw}, {self.max_kw}"
            )
        self.price = round(self.price, 2)
        if not self.key:
            memory = f"-{self.gpu_mem_gb}gb" if self.gpu_mem_gb else ""
            self.key = f"{self.gpus_per_server}x{self.gpu_model.lower()}{memory}"
        return self


class FxQuote(BookRow):
    """1 `base` = `rate` `quote` on `rate_date` (e.g. USD CNY 7.2); key "USD/CNY@2026-11-30"."""

    rate_date: date
    base: Currency
    quote: Currency
    rate: float = Field(gt=0, allow_inf_nan=False)
    source: str = ""
    confidence: Confidence = "M"
    notes: str = ""

    @model_validator(mode="after")
    def _normalise(self) -> Self:
        if self.base == self.quote:
            raise ValueError(f"quote: expected a currency other than the base {self.base}")
        self.key = f"{self.base}/{self.quote}@{self.rate_date.isoformat()}"  # one per pair and day
        return self


class AssumptionQuote(BookRow):
    """One named value of an assumption set (PUE, electricity price, a discount, ...)."""

    set_name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.@/\-]+$")
    value: float = Field(allow_inf_nan=False)
    unit: str = Field(min_length=1)
    currency: Currency | None = None
    source: str = ""
    confidence: Confidence = "M"
    notes: str = ""
    as_of: date | None = None
    """When a price (electricity, staff, ...) was seen; None for rules and ratios, or unknown."""

    @model_validator(mode="after")
    def _normalise(self) -> Self:
        self.key = f"{self.set_name}/{self.name}"
        return self


def future_date(row: BaseModel, today: date | None = None) -> tuple[str, str] | None:
    """(field, message) when the row's `as_of` is later than tomorrow, else None.

    Seeds are read without this check (a machine whose clock is behind still starts); what a
    user adds, edits or imports is checked, and stored rows dated ahead are flagged stale.
    """
    as_of = getattr(row, "as_of", None)
    now = today or date.today()
    if isinstance(as_of, date) and as_of > now + DATE_SLACK:
        return "as_of", f"{as_of} is in the future (today is {now}); give the date it was seen"
    return None
