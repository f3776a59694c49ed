"""How a TCO scenario prices unserved demand and waiting (`served_elsewhere:` in its YAML);
`planner.cost.elsewhere` prices them, `planner.service.tco_elsewhere` resolves the rate."""

from pydantic import Field

from planner.core.configbase import ConfigModel


class ServedElsewhereSpec(ConfigModel):
    """Equal service: demand an option leaves unserved is bought elsewhere at `rate`, and a
    GPU-hour waited may cost `wait_per_gpu_hour`, so every option is priced at the same
    served demand."""

    enabled: bool = Field(
        default=True,
        description="false: no served-elsewhere line (the options then serve different demand)",
    )
    rate: float | None = Field(
        default=None,
        ge=0,
        description="per GPU-hour, reporting currency (default: the cheapest on-demand cloud "
        "option's list price per GPU-hour)",
    )
    wait_per_gpu_hour: float = Field(
        default=0.0, ge=0, description="what a GPU-hour waited costs, reporting currency"
    )
