"""`planner tco`: demand (a utilization, or a replay of the trace), every option priced on it,
each horizon compared, and the sensitivities; one `TcoReport` (`planner.core.serialize`
writes it as `planner tco --json`).

A run is a line of steps, each handing the next what it made: the price book read once
into `Inputs` (`planner.service.tco_inputs`), the jobs in the scenario's scope
(`planner.cost.scope`), the owned servers priced (`tco_inputs.bare_metal`), every option
priced on a month of demand (`PricedOptions`: `planner.service.tco_explicit` without a
trace, `planner.service.tco_replayed` with one, `planner.service.tco_cloud_only` when
renting only), laid over the horizons (`planner.cost.comparison`), and recorded
(`planner.service.tco_record`). Each step returns what it noted (a `Trail`); the report's
notes and prices used are those trails in the order the steps ran.

With a trace, the self-hosted cluster is the scenario's servers, the hybrid is the same
cluster bursting jobs that wait past the threshold (decided inside the replay), and the
cloud prices every job of the trace. Every option prices the same jobs: those in the
scenario's scope (`planner.cost.scope`), and its ledger (`planner.cost.ledger`) shows where it
serves them. Useful GPU-hours are counted the same way on every side (`planner.core.model.
is_useful`: jobs' GPUs x run time, over the trace's span), and the report says if they differ:
an owned cluster is credited only the work it did within that span (`planner.service.
tco_window`); what it still had queued or running at its end is `carried` in the ledger.
"""

from dataclasses import replace
from datetime import date

from planner.core.errors import ScenarioError
from planner.core.file_access import FileAccess
from planner.core.model import Job
from planner.cost.busy import UNKNOWN_NOTE, busy_share, with_costs
from planner.cost.comparison import report
from planner.cost.results import TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.scope import LeftOut, scoped_jobs
from planner.engine.summary import ReplaySummary
from planner.ingest import IngestOptions
from planner.service.growth import grown_report
from planner.service.job_rows import load_jobs
from planner.service.replay import resolve_trace
from planner.service.tco_cloud_only import cloud_report, rented_only
from planner.service.tco_elsewhere import served_elsewhere
from planner.service.tco_explicit import explicit
from planner.service.tco_inputs import bare_metal, load_inputs
from planner.service.tco_priced import Replays
from planner.service.tco_record import record
from planner.service.tco_replayed import replayed
from planner.service.tco_trail import Trail
from planner.store import Connection
from planner.store.traces import busy_shares


def run_tco(
    con: Connection,
    scenario: TcoScenario,
    *,
    files: FileAccess,
    trace: str | None = None,
    today: date | None = None,
    options: IngestOptions | None = None,
) -> TcoReport:
    """The TCO report; `files` says which files `trace` (or the scenario's) may name."""
    ref = trace or scenario.trace
    if ref is None:
        return tco_of_jobs(con, scenario, None, today=today)
    trace_id = resolve_trace(con, ref, options, files=files)
    jobs = load_jobs(con, trace_id)
    result = tco_of_jobs(con, scenario, jobs, today=today)
    return with_busy(result, scoped_jobs(scenario, jobs).jobs, busy_shares(con, trace_id))


def with_busy(result: TcoReport, jobs: list[Job], utils: dict[str, float]) -> TcoReport:
    """`result` with the busy share of the jobs it priced (`planner.cost.busy`) and each
    option's cost per busy GPU-hour; without any job's share, a note saying how to add them."""
    busy = busy_share(jobs, utils)
    if busy is None:
        return replace(result, notes=(*result.notes, UNKNOWN_NOTE))
    priced = ((h.years, o) for h in result.horizons for o in h.options)
    return replace(result, busy=with_costs(busy, priced))


def tco_of_jobs(
    con: Connection,
    scenario: TcoScenario,
    jobs: list[Job] | None,
    *,
    today: date | None = None,
    summaries: dict[str, ReplaySummary] | None = None,
    job_lines: bool = True,
) -> TcoReport:
    """The TCO report on `jobs` already loaded (None: the demand is a utilization); only the
    jobs in the scenario's scope are priced, the same ones by every option. `summaries`, if
    given, receives each owned option's replay summary (for `planner sweep`'s percentiles);
    with `growth`, each one's worst year (`planner.service.growth` prices each year).
    `job_lines=False` leaves the chargeback's per-job lines out (a sweep point shows none)."""
    if scenario.growth is None:
        result, replays = _tco(con, scenario, jobs, today, job_lines=job_lines)
    else:
        result, replays = _grown(con, scenario, jobs, today, job_lines=job_lines)
    if summaries is not None:
        summaries |= replays
    return result


def _tco(
    con: Connection,
    scenario: TcoScenario,
    jobs: list[Job] | None,
    today: date | None,
    *,
    job_lines: bool = True,
) -> tuple[TcoReport, Replays]:
    """The report of a scenario without growth, and its owned options' replays. Each step
    returns its trail; they are added up in the order the steps ran."""
    inputs, trail = load_inputs(con, scenario, today)
    left_out = LeftOut()
    if jobs is not None:
        scoped = scoped_jobs(scenario, jobs)
        jobs, left_out = scoped.jobs, scoped.left_out()
        trail += Trail(tuple(scoped.notes(scenario.scope)))
    if scenario.self_hosted:
        bm, found = bare_metal(con, scenario, inputs)
        trail += found
        if jobs is None:
            options = explicit(con, scenario, inputs, bm)
        else:
            options = replayed(con, scenario, inputs, bm, jobs, job_lines=job_lines)
        trail += options.trail
        prices, named = served_elsewhere(scenario, options)
        trail += named
        priced = replace(options.priced(trail.converted), elsewhere=prices)
        result = report(scenario, bm, priced, left_out)
    else:
        options = rented_only(con, scenario, inputs, jobs)
        trail += options.trail
        result = cloud_report(scenario, options, left_out)
    return replace(
        result,
        notes=tuple(dict.fromkeys([*trail.notes, *result.notes])),
        prices_used=tuple(dict.fromkeys(trail.sources)),
        discount_rate=scenario.discount_rate,
        chargeback=options.chargeback,
        inputs=replace(
            record(scenario, inputs, options.owned, options.clouds),
            served_elsewhere=result.served_elsewhere,
        ),
    ), options.replays


def _grown(
    con: Connection,
    scenario: TcoScenario,
    jobs: list[Job] | None,
    today: date | None,
    *,
    job_lines: bool = True,
) -> tuple[TcoReport, Replays]:
    if jobs is None:
        raise ScenarioError(
            "`growth` needs a trace (`trace:` or --trace): it grows the trace's jobs year by year"
        )

    def price_year(plain: TcoScenario, year_jobs: list[Job]) -> tuple[TcoReport, Replays]:
        return _tco(con, plain, year_jobs, today, job_lines=job_lines)

    return grown_report(scenario, jobs, price_year)
