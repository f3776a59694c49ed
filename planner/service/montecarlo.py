"""`planner montecarlo`: every option's NPV as a distribution over seeded price paths, and the
probability that owning beats renting, for one scenario or for every stored point of a sweep.

A scenario is replayed and priced once (`run_tco`); its report's inputs (`TcoReport.inputs`)
are then re-priced under each draw's prices (`planner.cost.montecarlo`), never replayed. A
sweep's stored points keep their inputs (`sweep_point_inputs`), so the Monte Carlo of a sweep
reads them and replays nothing; every point is priced on the same paths, so points differ by
their own choices, not by luck.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from planner.core.errors import ScenarioError
from planner.core.file_access import FileAccess
from planner.core.model import Job
from planner.core.notes import note
from planner.cost import tco
from planner.cost.inputs import TcoInputs
from planner.cost.montecarlo import McHorizon, monte_carlo
from planner.cost.montecarlo_paths import (
    DEFAULT_DEMAND_SD,
    Driver,
    Paths,
    PathSpec,
    demand_from_twin,
    draw_paths,
)
from planner.cost.montecarlo_twin import twin_error
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.ingest import IngestOptions
from planner.service.mc_inputs import read_inputs
from planner.service.sweep_run import Sweep, sweep_key
from planner.service.tco_run import run_tco, tco_of_jobs
from planner.store import Connection
from planner.store.sweep_inputs import load_inputs, sweep_point_keys


@dataclass(frozen=True, slots=True)
class McSettings:
    draws: int = 1000
    seed: int = 0
    paths: PathSpec = field(default_factory=PathSpec)

    def __post_init__(self) -> None:
        if not 1 <= self.draws <= MAX_DRAWS:
            raise ScenarioError(
                f"draws must be between 1 and {MAX_DRAWS:,} (got {self.draws:,}): the draws "
                "are held in memory at once, 8 bytes per month per option each"
            )


MAX_DRAWS = 100_000
"""The most price paths one run draws (the app's and the CLI's cap): past it the NPV's
percentiles move by less than a cent while memory grows by a row of months per draw."""


@dataclass(frozen=True, slots=True)
class McReport:
    """One scenario's (or one sweep point's) Monte Carlo (`planner montecarlo --json`)."""

    scenario: str
    currency: str
    draws: int
    seed: int
    paths: PathSpec
    horizons: tuple[McHorizon, ...]
    notes: tuple[str, ...] = ()
    point: dict[str, object] | None = None
    """The sweep point's values (None: not a sweep point)."""


@dataclass(frozen=True, slots=True)
class SweepMc:
    """Every stored point of a sweep, each one's Monte Carlo on the same paths."""

    points: tuple[McReport, ...]
    without_inputs: int
    """Stored points that keep no inputs (stored before they were kept): left out."""
    notes: tuple[str, ...] = ()


def run_montecarlo(
    con: Connection,
    scenario: TcoScenario,
    settings: McSettings,
    *,
    files: FileAccess,
    trace: str | None = None,
    today: date | None = None,
    options: IngestOptions | None = None,
) -> McReport:
    """The scenario's report (one replay, or one a year with `growth:`), then
    `settings.draws` re-pricings of it."""
    report = run_tco(con, scenario, files=files, trace=trace, today=today, options=options)
    return of_inputs(_recorded(report), report, scenario, settings)


def montecarlo_of_jobs(
    con: Connection,
    scenario: TcoScenario,
    jobs: list[Job],
    settings: McSettings,
    *,
    today: date | None = None,
) -> McReport:
    """As `run_montecarlo` on jobs already loaded. With `growth:`, each year's report is
    priced as `planner tco` prices it and its inputs kept (`TcoInputs.later_years`), so a draw
    prices year k's months from year k's replay and bills."""
    report = tco_of_jobs(con, scenario, jobs, today=today)
    return of_inputs(_recorded(report), report, scenario, settings)


def _recorded(report: TcoReport) -> TcoInputs | tuple[TcoInputs, ...]:
    if report.inputs is None:
        raise ScenarioError("the TCO report kept no inputs to re-price")
    return report.inputs


def of_inputs(
    inputs: TcoInputs | Sequence[TcoInputs],
    report: TcoReport | None,
    scenario: TcoScenario,
    settings: McSettings,
) -> McReport:
    """The Monte Carlo of a report priced from `inputs` (one a year with growth) over the
    scenario's horizons."""
    settings, source = demand_spread(settings, scenario)
    horizons = tco.horizons_months(scenario.horizons_years)
    paths = draw_paths(settings.paths, settings.draws, max(horizons), settings.seed)
    currency = report.currency if report is not None else scenario.currency.upper()
    mc = _report(inputs, scenario, currency, settings, paths)
    return replace(mc, notes=(*mc.notes, source))


def demand_spread(settings: McSettings, scenario: TcoScenario) -> tuple[McSettings, str]:
    """The settings with the demand's spread resolved, and a note saying where it came from:
    as given, the scenario's twin check (its replay's error in allocated GPU-hours over the
    validation window), or the default."""
    paths = settings.paths
    if paths.demand is not None:
        return settings, note("mc_demand_given", sd=f"{paths.demand.level_sd:.1%}")
    calibration = scenario.scheduling.calibration if scenario.scheduling else None
    error = twin_error(scenario)
    if calibration is None or error is None:
        driver = Driver(level_sd=DEFAULT_DEMAND_SD)
        said = note("mc_demand_default", sd=f"{DEFAULT_DEMAND_SD:.0%}")
    else:
        driver = demand_from_twin(error)
        fitted_on = calibration.fitted_on or note("a_history")
        said = note(
            "mc_demand_twin", sd=f"{driver.level_sd:.1%}", error=f"{error:.1%}", fitted_on=fitted_on
        )
    return replace(settings, paths=replace(paths, demand=driver)), said


def _report(
    inputs: TcoInputs | Sequence[TcoInputs],
    scenario: TcoScenario,
    currency: str,
    settings: McSettings,
    paths: Paths,
    *,
    point: dict[str, object] | None = None,
) -> McReport:
    horizons = tco.horizons_months(scenario.horizons_years)
    return McReport(
        scenario=scenario.name,
        currency=currency,
        draws=settings.draws,
        seed=settings.seed,
        paths=settings.paths,
        horizons=monte_carlo(inputs, horizons, paths),
        notes=(method_note(settings),),
        point=point,
    )


def sweep_montecarlo(con: Connection, sweep: Sweep, settings: McSettings) -> SweepMc:
    """The Monte Carlo of every point of `sweep` stored in the database (`planner sweep`
    with the same scenario, trace, price book and day)."""
    stored = sweep_point_keys(con, sweep_key(con, sweep))
    if not stored:
        raise ScenarioError(
            "no stored points of this sweep: run `planner sweep` with the same scenario and "
            "trace first (points are keyed by the scenario, trace, price book and today's date)"
        )
    texts = load_inputs(con, [key for key, _ in stored])
    settings, source = demand_spread(settings, sweep.scenario)
    horizons = tco.horizons_months(sweep.scenario.horizons_years)
    paths = draw_paths(settings.paths, settings.draws, max(horizons), settings.seed)
    currency = sweep.scenario.currency.upper()
    reports = [
        _report(
            read_inputs(texts[key]),
            sweep.scenario,
            currency,
            settings,
            paths,
            point=dict(json.loads(v)),
        )
        for key, v in stored
        if key in texts
    ]
    missing = len(stored) - len(reports)
    notes = [method_note(settings), source]
    if missing:
        notes.append(note("mc_without_inputs", count=missing))
    return SweepMc(tuple(reports), missing, tuple(notes))


def method_note(settings: McSettings) -> str:
    p = settings.paths
    return note(
        "mc_method",
        draws=f"{settings.draws:,}",
        seed=settings.seed,
        cloud=_driver(p.cloud),
        electricity=_driver(p.electricity),
        server=f"{p.server.level_sd:.0%}",
        demand="?" if p.demand is None else f"{p.demand.level_sd:.1%}",
    )


def _driver(d: Driver) -> str:
    return f"{d.trend:+.0%}/yr, vol {d.volatility:.0%}"
