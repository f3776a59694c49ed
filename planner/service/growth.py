"""`planner tco` over growing demand: one replay and set of bills per year, spliced.

Each year k of the longest horizon gets its own jobs (`planner.synth.growth.grow_year`: the
trace with the arrival rate scaled, its clock time-warped, and a synthetic team from its year
on) and a whole TCO
report on them (`price_year`, the usual `tco_of_jobs`), over the horizons the splice needs
(`planner.cost.growth.year_horizons`); `planner.cost.growth.splice` takes year k's months from
year k's report for every option, so the owned replay, the hybrid's and every cloud bill move
with the demand, and each month's ledger balances as it does without growth. A year with
factor 1, no warp and no team is the trace itself: its months are exactly the report without
growth, and when every year is, the report is today's to the bit. Costs one replay per year.
"""

from collections.abc import Callable
from dataclasses import replace

from planner.core.errors import ScenarioError
from planner.core.model import Job
from planner.core.notes import note
from planner.cost import tco
from planner.cost.baremetal import HOURS_PER_MONTH
from planner.cost.growth import splice, worst_year, year_horizons, years_of
from planner.cost.inputs import TcoInputs, YearInputs
from planner.cost.results import TcoReport
from planner.cost.scenario import CloudSpec, GrowthSpec, TcoScenario
from planner.cost.scope import is_cpu_only, scoped_jobs
from planner.cost.year_demand import YearDemand
from planner.service.tco_priced import Replays
from planner.synth.growth import TeamPlan, YearJobs, YearPlan, grow_year

PriceYear = Callable[[TcoScenario, list[Job]], tuple[TcoReport, Replays]]
"""Prices one year's jobs under a scenario without growth: the report, and each owned
option's replay summary."""


def grown_report(
    scenario: TcoScenario, jobs: list[Job], price_year: PriceYear
) -> tuple[TcoReport, Replays]:
    """The TCO report of `scenario` (with `growth`) on `jobs`, year by year, and each owned
    option's replay summary of its worst year (the waits the report gives it)."""
    growth = scenario.growth
    assert growth is not None  # the caller routes only growing scenarios here
    horizons = tco.horizons_months(scenario.horizons_years)
    years = [year_jobs(scenario, jobs, k) for k in range(1, years_of(horizons) + 1)]
    by_year = tuple(_year_demand(scenario, y) for y in years)
    if all(y.jobs is jobs for y in years) and _same_commitments(scenario, len(years)):
        # no year differs: today's report, to the bit
        today, replays = price_year(year_scenario(scenario, 1), jobs)
        return replace(today, demand_by_year=by_year), replays
    priced = []
    for grown in years:
        months = year_horizons(horizons, grown.year)
        plain = year_scenario(scenario, grown.year).model_copy(
            update={"horizons_years": tuple(m / 12 for m in months)}
        )
        priced.append(price_year(plain, grown.jobs))
    reports = [r for r, _ in priced]
    spliced = splice(reports, horizons, scenario.discount_rate)
    first = reports[0]
    head = spliced[0].options[0]
    notes = [*first.notes, *_notes(growth, years)]
    notes += [
        note("growth_year_note", year=k, text=n)
        for k, r in enumerate(reports[1:], start=2)
        for n in r.notes
        if n not in first.notes
    ]
    report = replace(
        first,
        horizons=spliced,
        cost_per_useful_gpu_hour=head.cost_per_useful_gpu_hour,
        cost_per_installed_gpu_hour=head.cost_per_installed_gpu_hour,
        cost_per_allocated_gpu_hour=head.cost_per_allocated_gpu_hour,
        notes=tuple(dict.fromkeys(notes)),
        demand_by_year=by_year,
        inputs=_grown_inputs(reports),
    )
    return report, _worst_replays([r for _, r in priced])


def year_scenario(scenario: TcoScenario, year: int) -> TcoScenario:
    """The scenario year `year` is priced under: no growth, and each cloud option's
    `committed_gpus_by_year` its year's commitment (0: none, the year's demand on demand;
    the option keeps its name, so every year's report names it alike)."""
    clouds = [_year_cloud(c, year) for c in scenario.cloud]
    return scenario.model_copy(update={"growth": None, "cloud": tuple(clouds)})


def _year_cloud(cloud: CloudSpec, year: int) -> CloudSpec:
    committed = cloud.committed_in(year)
    if committed is None:
        return cloud
    if committed:
        return cloud.model_copy(update={"committed_gpus_by_year": (), "committed_gpus": committed})
    return cloud.model_copy(
        update={
            "committed_gpus_by_year": (),
            "name": cloud.label(),
            "pricing_model": "on_demand",
            "term_months": None,
        }
    )


def _same_commitments(scenario: TcoScenario, years: int) -> bool:
    """Whether every year commits what year 1 does."""
    return all(len({c.committed_in(k) for k in range(1, years + 1)}) == 1 for c in scenario.cloud)


def _grown_inputs(reports: list[TcoReport]) -> TcoInputs | None:
    """Year 1's inputs with each later year's quantities (`TcoInputs.later_years`): what the
    workbook's formulas and the Monte Carlo re-price, year k's months from year k's."""
    kept = [r.inputs for r in reports if r.inputs is not None]
    if len(kept) < len(reports):
        return None
    later = tuple(
        YearInputs(year, inputs.owned, inputs.clouds)
        for year, inputs in enumerate(kept[1:], start=2)
    )
    return replace(kept[0], later_years=later)


def _worst_replays(replays: list[Replays]) -> Replays:
    """Each option's replay summary of the year with its longest waits (as the splice's)."""
    worst = {}
    for name in replays[0]:
        years = [r[name] for r in replays if name in r]
        waits = [(s.wait_s.p95, s.wait_s.mean) for s in years]
        worst[name] = years[worst_year(waits)]
    return worst


def year_jobs(scenario: TcoScenario, jobs: list[Job], year: int) -> YearJobs:
    """Year `year`'s jobs (1 = the trace's) under the scenario's `growth`. Only the jobs in
    its scope grow (the span they cover stays); CPU-only jobs left out are kept as they are,
    so each year's report says the same about them."""
    growth = scenario.growth
    assert growth is not None
    spec = growth.add_team
    team = None
    if spec is not None and year >= spec.from_year:
        team = TeamPlan(spec.name, spec.profile, spec.share, spec.gpu)
    plan = YearPlan(year, growth.factor(year), growth.warp(year), growth.seed, team)
    if plan.arrival_rate == 1.0 and plan.time_warp == 1.0 and team is None:
        return YearJobs(year, 1.0, jobs)  # the trace itself, in its own order
    kept = [j for j in jobs if not _left_out(scenario, j)]
    try:
        grown = grow_year(kept, plan)
    except ScenarioError as err:  # an unknown profile, or one with no short enough job
        raise ScenarioError(f"growth.add_team: {err}") from None
    rest = [j for j in jobs if _left_out(scenario, j)]
    return replace(grown, jobs=grown.jobs + rest)


def _left_out(scenario: TcoScenario, job: Job) -> bool:
    return scenario.scope == "gpu-jobs" and is_cpu_only(job)


def _year_demand(scenario: TcoScenario, grown: YearJobs) -> YearDemand:
    """The year's jobs in the scenario's scope, as every option prices them."""
    jobs = scoped_jobs(scenario, grown.jobs).jobs
    gpu_hours = sum(j.gpu_hours for j in jobs)
    span_h = _span_hours(jobs)
    return YearDemand(
        year=grown.year,
        arrival_rate=grown.arrival_rate,
        jobs=len(jobs),
        gpu_hours=gpu_hours,
        gpu_hours_per_month=gpu_hours * HOURS_PER_MONTH / span_h if span_h else 0.0,
        team_jobs=grown.team_jobs,
        time_warp=grown.time_warp,
    )


def _span_hours(jobs: list[Job]) -> float:
    """As the TCO's: first submit to last end, at least an hour (0 with no jobs)."""
    if not jobs:
        return 0.0
    start = min(j.submit_s for j in jobs)
    end = max(j.submit_s + j.duration_s for j in jobs)
    return max(end - start, 3600.0) / 3600.0


def _notes(growth: GrowthSpec, years: list[YearJobs]) -> list[str]:
    factors = ", ".join(f"x{y.arrival_rate:g}" for y in years)
    notes: list[str] = [note("growth_applied", factors=factors, seed=growth.seed)]
    if growth.time_warp:
        warps = ", ".join(f"x{y.time_warp:g}" for y in years)
        notes.append(note("growth_warp", factors=warps))
    team = growth.add_team
    if team is not None:
        added = sum(y.team_jobs for y in years)
        notes.append(
            note(
                "growth_team",
                team=team.name,
                profile=team.profile,
                year=team.from_year,
                share=f"{team.share:.0%}",
                jobs=f"{added:,}",
            )
        )
    return notes
