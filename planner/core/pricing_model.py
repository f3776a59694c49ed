"""How a cloud price is paid: the one vocabulary the cost model and the price book share.

It lives in the core so `pricing` can name it without importing the cost model.
"""

from typing import Literal

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
