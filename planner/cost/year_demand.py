"""One year's demand as a grown TCO report prices it (`planner tco --json`'s `demand_by_year`).

A plain record: `planner.service.growth` fills it, `planner.cost.results` carries it.
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class YearDemand:
    """One year's demand as priced: jobs and GPU-hours (in the report's scope), a month of it,
    and what made it (so a user can recompute the year's cloud bill)."""

    year: int
    arrival_rate: float
    jobs: int
    gpu_hours: float
    """GPUs x run time of the year's jobs over the trace's span."""
    gpu_hours_per_month: float
    """`gpu_hours` scaled to a 730-hour month, as the costs are."""
    team_jobs: int = 0
    """Jobs of the synthetic team added (`growth.add_team`)."""
    time_warp: float = 1.0
    """How much faster the year's clock runs than the trace's (`growth.time_warp`)."""
