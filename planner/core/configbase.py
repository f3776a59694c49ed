"""The one pydantic base of every configuration a user writes: scenarios, clusters, TCO
inputs, Volcano queues, calibrations.

Subclasses only declare fields and validators; how strict validation is lives here, so the
scenario models cannot drift apart (a Volcano base once lacked `allow_inf_nan=False` and took
`overcommit_factor: .inf`).
"""

from pydantic import BaseModel, ConfigDict


class ConfigModel(BaseModel):
    """Frozen and strict: unknown keys are errors, numbers finite (no `.nan` or `.inf`), and
    values never change once validated."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
