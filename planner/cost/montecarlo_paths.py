"""Seeded price paths for the Monte Carlo: per draw and month, a multiplier on today's price of
each driver (cloud GPU prices, electricity, the demand), and one on the servers' price paid at
purchase.

Each driver is a geometric Brownian motion in months, with an uncertain starting level:

    M(d, m) = exp(sd z_d - sd^2 / 2 + (ln(1 + trend) - vol^2 / 2) t + vol W_d(t)),  t = m / 12

(sd: the level's spread), so the expected multiplier after t years is (1 + trend)^t (1 in
month 0), and with trend, volatility and level all 0 every multiplier is exactly 1.0 (the
model's own prices: the Monte Carlo then gives the report's NPVs to the cent).

Defaults (user-editable; confidence L unless said, sources in docs/montecarlo.md
and `../shared/reference/pricing-and-tco.md`):

  cloud        trend -20 %/yr, volatility 15 %/yr. Issue 16 cites H100 rental falling from
               above $8 to about $2.35 an hour in three years (about -33 %/yr); the reference
               (section 1.1, [A1][A2], H) records AWS cutting p5 from $98.32 to $55.04 an hour
               in 2025 (-44 % at once). -20 %/yr is the slower planning case.
  electricity  trend +3 %/yr, volatility 10 %/yr, around the EIA state prices (reference
               section 2.1, [B8], H for the level; the trend is an estimate).
  server       one level draw, 10 % spread: 8xH100 server quotes range $270k-$350k around
               the $300k default (reference section 2.1, [B2][B3][B6], M).
  demand       one level draw; its spread is the replay's calibration error: with a twin
               check (`planner twin --save-scenario`: `calibration.validation.
               allocation_level_error` e, |replayed - observed| allocated GPU-hours over the
               validation window / observed) e x sqrt(pi/2), the standard deviation of a
               normal error whose mean absolute size is e (`demand_from_twin`). The level
               is what a cost over the horizon inherits; the per-hour error
               (`allocation_error`) also counts work that only ran earlier or later. Without
               a twin check 10 % (`DEFAULT_DEMAND_SD`, L: a calibrated twin of the Alibaba
               openb export missed its allocated GPU-hours by 1.6 %, docs/twin.md, so
               10 % is the cautious case). No trend (growth needs a replay per year).
"""

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from planner.core.errors import ScenarioError

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Driver:
    """How one price moves: expected change a year, volatility a year (of its log), and the
    spread (log standard deviation) of its level today."""

    trend: float = 0.0
    volatility: float = 0.0
    level_sd: float = 0.0

    def __post_init__(self) -> None:
        for name in BOUNDS:
            _check(name, getattr(self, name))


def _check(name: str, value: float) -> None:
    if not within(name, value):
        raise ScenarioError(f"a price's {name} must be {bounds_text(name)} (got {value})")


def within(name: str, value: float) -> bool:
    """Whether `value` is in the driver input's sane range (NaN never is)."""
    low, high = BOUNDS[name]
    return low < value <= high if name == "trend" else low <= value <= high


BOUNDS = {"trend": (-1.0, 10.0), "volatility": (0.0, 5.0), "level_sd": (0.0, 5.0)}
"""Sane ranges a year (trend above -100 %, at most +1,000 %; volatility and spread at most
500 %): beyond them every path is 0 or overflows, and the NPVs print as NaN."""


def bounds_text(name: str) -> str:
    """'between 0 and 5', or for the trend 'above -1 and at most 10' (fractions a year)."""
    low, high = BOUNDS[name]
    if name == "trend":
        return f"above {low:g} and at most {high:g} (a fraction a year)"
    return f"between {low:g} and {high:g} (a fraction a year)"


DEFAULT_DEMAND_SD = 0.10
"""The demand's spread without a twin check measuring the replay's error (module docstring)."""


def demand_from_twin(level_error: float) -> Driver:
    """The demand's spread from a twin check's error e in allocated GPU-hours: one observed
    |error| is taken as a normal error's mean absolute size, whose standard deviation is
    e x sqrt(pi / 2)."""
    return Driver(level_sd=level_error * math.sqrt(math.pi / 2))


@dataclass(frozen=True, slots=True)
class PathSpec:
    """The drivers of a Monte Carlo (defaults: the module's docstring); `demand` None: from
    the scenario's twin check, else `DEFAULT_DEMAND_SD` (`planner.service.montecarlo`)."""

    cloud: Driver = field(default_factory=lambda: Driver(trend=-0.20, volatility=0.15))
    electricity: Driver = field(default_factory=lambda: Driver(trend=0.03, volatility=0.10))
    server: Driver = field(default_factory=lambda: Driver(level_sd=0.10))
    demand: Driver | None = None


FLAT = PathSpec(Driver(), Driver(), Driver(), Driver())
"""No uncertainty: every multiplier 1 (the model's own prices)."""


@dataclass(frozen=True, slots=True)
class Paths:
    """Multipliers by draw (rows) and month (columns); `server` by draw (purchase, month 0)."""

    cloud: Array
    electricity: Array
    demand: Array
    server: Array

    @property
    def draws(self) -> int:
        return int(self.server.shape[0])


def draw_paths(spec: PathSpec, draws: int, months: int, seed: int) -> Paths:
    """`draws` paths of `months` months from `numpy.random.default_rng(seed)`: the same
    arguments give the same numbers, a different seed different ones."""
    if draws < 1 or months < 1:
        raise ScenarioError(f"need at least one draw and one month (got {draws}, {months})")
    rng = np.random.default_rng(seed)
    cloud = _path(rng, spec.cloud, draws, months)
    electricity = _path(rng, spec.electricity, draws, months)
    given = spec.demand or Driver(level_sd=DEFAULT_DEMAND_SD)
    demand = _path(rng, given, draws, months)
    server = _path(rng, spec.server, draws, 1)[:, 0]
    return Paths(cloud, electricity, demand, server)


def _path(rng: np.random.Generator, driver: Driver, draws: int, months: int) -> Array:
    """One driver's multipliers (draws x months); the normals are drawn even for a flat
    driver, so changing one driver leaves the others' numbers as they were."""
    level = rng.standard_normal(draws)
    steps = rng.standard_normal((draws, months - 1)) if months > 1 else np.zeros((draws, 0))
    years = np.arange(months) / 12.0
    vol, sd = driver.volatility, driver.level_sd
    walk = np.zeros((draws, months))
    walk[:, 1:] = np.cumsum(steps, axis=1) * np.sqrt(1.0 / 12.0)
    log = (np.log1p(driver.trend) - vol * vol / 2) * years + vol * walk
    log += (sd * level - sd * sd / 2)[:, None]
    if not (driver.trend or vol or sd):
        return np.ones((draws, months))  # exactly 1, not exp of a rounding
    moved: Array = np.exp(log)
    return moved
