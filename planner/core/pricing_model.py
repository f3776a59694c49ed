"""How a cloud price is paid: the one vocabulary the cost model and the price book share.

It lives in the core so `pricing` can name it without importing the cost model, and the
command line can list it without loading DuckDB.
"""

from typing import Literal, get_args

PricingModel = Literal[
    "on_demand",
    "spot",
    "reserved",
    "savings_plan",
    "cud",
    "subscription",
    "capacity_block",
    "quote",
]
"""How a cloud price is paid (the price book stores every one of them)."""
PRICING_MODELS: tuple[str, ...] = get_args(PricingModel)
"""Every pricing model, in order: the choices the command line and the price book offer."""
