"""The price book: cloud prices, bare-metal servers, FX rates and assumption sets in DuckDB.

Functions take a connection from `planner.store` (they never open the file), seed the
tables on first use, validate input with pydantic and return plain frozen dataclasses.
The cost model in `planner` never imports this package: a caller reads prices here and
passes plain values on.
"""

from planner.core.pricing_model import PRICING_MODELS, PricingModel
from pricing.assumptions import (
    Assumption,
    assumption_set,
    assumption_sets,
    copy_assumption_set,
    discount_for,
    set_assumption,
)
from pricing.errors import PricingError
from pricing.freshness import (
    DEFAULT_SET,
    DEFAULT_STALE_DAYS,
    STALE_DAYS_ENV,
    Freshness,
    freshness,
)
from pricing.fx import Conversion, FxRate, FxTable, add_fx_rate, convert, fx_table, list_fx_rates
from pricing.gpus import GpuName, gpu_model, parse_gpu
from pricing.models import (
    CURRENCIES,
    AssumptionQuote,
    FxQuote,
    PriceQuote,
    ServerQuote,
)
from pricing.offers import Offer, OfferRequest, offers_for, price_for
from pricing.points import PriceFilter, PricePoint, add_price, edit_price, list_prices, price_point
from pricing.prices_csv import ImportReport, export_prices, import_prices
from pricing.seed import SEED_VERSION, SeedSet, ensure_seeded, shipped_seeds
from pricing.servers import ServerPrice, add_server, list_servers, server_for

__all__ = [
    "CURRENCIES",
    "DEFAULT_SET",
    "DEFAULT_STALE_DAYS",
    "PRICING_MODELS",
    "SEED_VERSION",
    "STALE_DAYS_ENV",
    "Assumption",
    "AssumptionQuote",
    "Conversion",
    "Freshness",
    "FxQuote",
    "FxRate",
    "FxTable",
    "GpuName",
    "ImportReport",
    "Offer",
    "OfferRequest",
    "PriceFilter",
    "PricePoint",
    "PriceQuote",
    "PricingError",
    "PricingModel",
    "SeedSet",
    "ServerPrice",
    "ServerQuote",
    "add_fx_rate",
    "add_price",
    "add_server",
    "assumption_set",
    "assumption_sets",
    "convert",
    "copy_assumption_set",
    "discount_for",
    "edit_price",
    "ensure_seeded",
    "export_prices",
    "freshness",
    "fx_table",
    "gpu_model",
    "import_prices",
    "list_fx_rates",
    "list_prices",
    "list_servers",
    "offers_for",
    "parse_gpu",
    "price_for",
    "price_point",
    "server_for",
    "set_assumption",
    "shipped_seeds",
]
