"""`planner tco`: demand (a utilization, or a replay of the trace), every option priced on it,
each horizon compared, and the sensitivities; one `TcoReport` (`planner.core.serialize`
writes it as `planner tco --json`).

The price book is read once into `Inputs` (`planner.service.tco_inputs`), a value no step
changes; each step returns what it found with what it noted (a `Trail`), and the report's
notes and prices used are those trails in the order the steps ran. The cloud bills and the
replays' summaries are results too, handed on to `planner.service.tco_record`.

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

from planner.core.config import NodeSpec
from planner.core.errors import ScenarioError
from planner.core.file_access import FileAccess
from planner.core.model import Job
from planner.core.notes import note
from planner.cost import tco
from planner.cost.baremetal import HOURS_PER_MONTH, BareMetal, installed_gpus, keep_servers
from planner.cost.chargeback_usage import RAN, chargeback_data, job_table, team_hours
from planner.cost.comparison import Runs, option_report, report
from planner.cost.inputs import CloudInputs, OwnedInputs
from planner.cost.ledger import Hours, PricedBill, demanded, rented_ledger, replay_outcome
from planner.cost.results import Horizon, TcoReport
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.cost.scope import CPU_POOL, LeftOut, scoped_jobs
from planner.engine import ReplayResult, simulate
from planner.engine.calibration import error_bar_text
from planner.engine.policy import Policy
from planner.engine.summary import ReplaySummary
from planner.ingest import IngestOptions
from planner.service.growth import grown_report
from planner.service.replay import load_jobs, resolve_trace, with_volcano_queues
from planner.service.tco_bills import burst_bill, cloud_bill, flat_bill
from planner.service.tco_inputs import Inputs, bare_metal, load_inputs, per_gpu_hour
from planner.service.tco_priced import PricedOptions, Replays
from planner.service.tco_record import record, replay_facts
from planner.service.tco_rent import bill_jobs, rent
from planner.service.tco_trail import Trail, said
from planner.service.tco_window import (
    Window,
    carried_gpu_hours,
    counted_shares,
    replay_demand,
    team_hours_within,
    window,
)
from planner.store import Connection


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
    jobs = None if ref is None else load_jobs(con, resolve_trace(con, ref, options, files=files))
    return tco_of_jobs(con, scenario, jobs, today=today)


def tco_of_jobs(
    con: Connection,
    scenario: TcoScenario,
    jobs: list[Job] | None,
    *,
    today: date | None = None,
    summaries: dict[str, ReplaySummary] | None = None,
) -> TcoReport:
    """The TCO report on `jobs` already loaded (None: the demand is a utilization); only the
    jobs in the scenario's scope are priced, the same ones by every option. `summaries`, if
    given, receives each owned option's replay summary (for `planner sweep`'s percentiles);
    with `growth`, each one's worst year (`planner.service.growth` prices each year)."""
    if scenario.growth is None:
        result, replays = _tco(con, scenario, jobs, today)
    else:
        result, replays = _grown(con, scenario, jobs, today)
    if summaries is not None:
        summaries |= replays
    return result


def _tco(
    con: Connection, scenario: TcoScenario, jobs: list[Job] | None, today: date | None
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
            options = _explicit(con, scenario, inputs, bm)
        else:
            options = _replayed(con, scenario, inputs, bm, jobs)
        trail += options.trail
        result = report(scenario, bm, options.priced(trail.converted), left_out)
    else:
        options = _rented_only(con, scenario, inputs, jobs)
        trail += options.trail
        result = _cloud_report(scenario, options, left_out)
    return replace(
        result,
        notes=tuple(dict.fromkeys([*trail.notes, *result.notes])),
        prices_used=tuple(dict.fromkeys(trail.sources)),
        discount_rate=scenario.discount_rate,
        chargeback=options.chargeback,
        inputs=record(scenario, inputs, options.owned, options.clouds),
    ), options.replays


def _grown(
    con: Connection, scenario: TcoScenario, jobs: list[Job] | None, today: date | None
) -> tuple[TcoReport, Replays]:
    if jobs is None:
        raise ScenarioError(
            "`growth` needs a trace (`trace:` or --trace): it grows the trace's jobs year by year"
        )

    def price_year(plain: TcoScenario, year_jobs: list[Job]) -> tuple[TcoReport, Replays]:
        return _tco(con, plain, year_jobs, today)

    return grown_report(scenario, jobs, price_year)


# --- demand without a trace -----------------------------------------------------------------------


DEFAULT_ALLOCATION = 0.35
"""The allocated share of the owned GPUs when neither the scenario nor the set gives one."""


def _explicit(
    con: Connection, scenario: TcoScenario, inputs: Inputs, bm: BareMetal
) -> PricedOptions:
    """Every option priced on a steady month at the scenario's utilization."""
    if scenario.hybrid is not None:
        raise ScenarioError("a hybrid option needs a trace: bursts are decided in the replay")
    u = scenario.utilization
    trail = Trail()
    if u is None:
        given = inputs.allocation_utilization
        u = DEFAULT_ALLOCATION if given is None else given
        trail = said(note("default_allocation", share=f"{u:.0%}"))
    useful = u * installed_gpus(bm) * HOURS_PER_MONTH
    demand = tco.Demand(useful_gpu_hours=useful, utilization_by_hour=(u,))
    clouds: list[CloudInputs] = []
    for spec in scenario.cloud:
        cloud, found = _rent_flat(con, (spec, scenario.overflow_of(spec)), inputs, useful)
        clouds.append(cloud)
        trail += found
    runs = Runs(
        Hours({"demanded": useful}),
        Hours({"owned": useful}),
        [Hours({"rented": useful}) for _ in clouds],
    )
    mine = OwnedInputs("self-hosted", bm, demand)
    return PricedOptions((mine,), tuple(clouds), runs, None, {}, trail)


def _rent_flat(
    con: Connection, specs: tuple[CloudSpec, CloudSpec], inputs: Inputs, useful: float
) -> tuple[CloudInputs, Trail]:
    """A steady demand of `useful` GPU-hours a month: committed GPUs at the option's price,
    the rest at its overflow option's (all of it at the option's price without a
    commitment); `specs` is the option and its overflow option."""
    spec, overflow = specs
    price, trail = per_gpu_hour(con, spec, inputs)
    per_month: dict[str, float] = {}
    overflow_price = None
    if spec.committed_gpus:
        covered = min(useful, spec.committed_gpus * HOURS_PER_MONTH)
        per_month["commitment"] = spec.committed_gpus * HOURS_PER_MONTH * price
        overflow_price, found = per_gpu_hour(con, overflow, inputs)
        trail += found
        per_month["overflow"] = (useful - covered) * overflow_price
    else:
        per_month["cloud_compute"] = useful * price
    per_month |= spec.data_costs()
    total = sum(per_month.values()) - sum(spec.data_costs().values())
    rented = tco.Rented(spec.label(), per_month, total / useful if useful else price)
    return CloudInputs(rented, flat_bill(specs, rented, useful, overflow_price)), trail


# --- demand from the replay -----------------------------------------------------------------------


def _replayed(
    con: Connection, scenario: TcoScenario, inputs: Inputs, bm: BareMetal, jobs: list[Job]
) -> PricedOptions:
    """Every option priced on a month of the trace's jobs."""
    nodes = _nodes(bm, scenario)
    win = window(jobs)
    scale = win.scale
    policy, trail = _policy(scenario, nodes)
    result = simulate(jobs, nodes, policy)
    within = counted_shares(result, win)
    owned, summary, found = _demand(result, bm, win, scenario, within=within, name="self-hosted")
    trail += found
    clouds = [rent(con, spec, inputs, jobs, scenario, scale=scale) for spec in scenario.cloud]
    for _, _, found in clouds:
        trail += found
    runs = Runs(
        demanded(jobs).scaled(scale),
        replay_outcome(result, within=within).scaled(scale),
        [run.outcome("rented").scaled(scale) for _, run, _ in clouds],
    )
    usage = {"self-hosted": team_hours_within(result, within, RAN, scale)}
    usage |= {r.name: team_hours(run.jobs, scale) for r, run, _ in clouds}
    source = "volcano" if scenario.scheduling and scenario.scheduling.volcano else "kueue"
    bills = tuple(
        CloudInputs(r, cloud_bill(spec, run, scale))
        for (r, run, _), spec in zip(clouds, scenario.cloud, strict=True)
    )
    mine = OwnedInputs("self-hosted", bm, owned, replay=replay_facts(summary))
    if scenario.hybrid is None:
        charged = chargeback_data(usage, result.policy.queues, source, job_table(result, within))
        return PricedOptions((mine,), bills, runs, charged, {"self-hosted": summary}, trail)
    kept = hybrid_servers(scenario, bm)
    hybrid_result, burst, found = _hybrid_replay(con, scenario, inputs, kept, jobs)
    trail += found
    per_month = burst.bill.total * scale if burst else 0.0
    kept_within = counted_shares(hybrid_result, win)
    demand, kept_summary, found = _demand(
        hybrid_result, kept, win, scenario, within=kept_within, name="hybrid"
    )
    trail += found
    outcome = replay_outcome(hybrid_result, burst, kept_within)
    runs = replace(runs, hybrid=outcome.scaled(scale))
    usage["hybrid"] = team_hours_within(hybrid_result, kept_within, (*RAN, "burst"), scale)
    lines = job_table(result, within, hybrid_result, kept_within)
    charged = chargeback_data(usage, result.policy.queues, source, lines)
    theirs = OwnedInputs(
        "hybrid",
        kept,
        replace(demand, burst_per_month=per_month),
        burst=burst_bill(scenario, burst, scale) if burst else None,
        replay=replay_facts(kept_summary),
    )
    replays = {"self-hosted": summary, "hybrid": kept_summary}
    return PricedOptions((mine, theirs), bills, runs, charged, replays, trail)


def _hybrid_replay(
    con: Connection,
    scenario: TcoScenario,
    inputs: Inputs,
    kept: BareMetal,
    jobs: list[Job],
) -> tuple[ReplayResult, PricedBill | None, Trail]:
    """The hybrid's replay on the servers it keeps, and the bill of the jobs that burst."""
    assert scenario.hybrid is not None
    nodes = _nodes(kept, scenario)
    policy, trail = _policy(scenario, nodes)
    policy = replace(policy, burst_after_s=scenario.hybrid.burst_after_s)
    result = simulate(jobs, nodes, policy)
    burst_jobs = [j for i, j in enumerate(result.jobs) if result.status[i] == "burst"]
    if not burst_jobs:
        return result, None, trail
    bill, found = bill_jobs(con, _burst_cloud(scenario), inputs, burst_jobs, scenario)
    return result, bill, trail + found


def hybrid_servers(scenario: TcoScenario, bm: BareMetal) -> BareMetal:
    """The self-hosted assumptions with the servers the hybrid keeps."""
    keep = {k.upper(): v for k, v in (scenario.hybrid.servers if scenario.hybrid else {}).items()}
    return keep_servers(bm, [replace(p, servers=keep.get(p.name, p.servers)) for p in bm.pools])


def _nodes(bm: BareMetal, scenario: TcoScenario) -> list[NodeSpec]:
    """The owned servers as replay nodes (CPU and memory as the scenario's pools give them)."""
    shape = {p.gpu.upper(): (p.cpu, p.mem_gib) for p in reversed(scenario.self_hosted)}
    if scenario.cpu_servers is not None:
        shape[CPU_POOL] = (scenario.cpu_servers.cpu, scenario.cpu_servers.mem_gib)
    return [
        NodeSpec(
            f"{pool.name.lower()}-{k}",
            pool.name,
            pool.gpus_per_server,
            *shape.get(pool.name, (0, 0)),
        )
        for pool in bm.pools
        for k in range(pool.servers)
    ]


def _policy(scenario: TcoScenario, nodes: list[NodeSpec]) -> tuple[Policy, Trail]:
    """The scenario's policy with its scheduling set-up (Volcano shares sized to `nodes`)."""
    replay = scenario.replay_scenario()
    trail = Trail()
    if replay.volcano is not None:
        replay, notes = with_volcano_queues(replay, nodes)
        trail = said(*notes)
    if replay.calibration is not None and (bar := replay.calibration.error_bar()) is not None:
        trail += said(error_bar_text(bar))
    return replay.to_policy(), trail


def _demand(
    result: ReplayResult,
    bm: BareMetal,
    win: Window,
    scenario: TcoScenario,
    *,
    within: list[float],
    name: str,
) -> tuple[tco.Demand, ReplaySummary, Trail]:
    """One month of the replayed workload within the window, and the replay's summary; a note
    when the cluster left work waiting or running at the window's end (it is `carried` in the
    ledger)."""
    demand, summary = replay_demand(result, bm, win, scenario, within)
    trail = Trail()
    if (carried := carried_gpu_hours(result, within)) > 0:
        hours = f"{carried * win.scale:,.0f}"
        option = note(f"option_{name.replace('-', '_')}")  # worded in the reader's language
        trail = said(note("carried_past_window", option=option, hours=hours))
    return demand, summary, trail


def _burst_cloud(scenario: TcoScenario) -> CloudSpec:
    assert scenario.hybrid is not None
    wanted = scenario.hybrid.cloud
    return next(c for c in scenario.cloud if wanted is None or c.label() == wanted)


# --- cloud only -----------------------------------------------------------------------------------


def _rented_only(
    con: Connection, scenario: TcoScenario, inputs: Inputs, jobs: list[Job] | None
) -> PricedOptions:
    """Every cloud option renting the trace's jobs, a month each (no owned option)."""
    if jobs is None:
        raise ScenarioError(
            "a cloud-only scenario needs a trace (`trace:` or --trace): without owned servers "
            "there is no utilization to size the demand"
        )
    scale = window(jobs).scale
    clouds = [rent(con, spec, inputs, jobs, scenario, scale=scale) for spec in scenario.cloud]
    trail = Trail()
    for _, _, found in clouds:
        trail += found
    bills = tuple(
        CloudInputs(r, cloud_bill(spec, run, scale))
        for (r, run, _), spec in zip(clouds, scenario.cloud, strict=True)
    )
    rented = [run.outcome("rented").scaled(scale) for _, run, _ in clouds]
    runs = Runs(demanded(jobs).scaled(scale), Hours(), rented)
    charged = chargeback_data(
        {r.name: team_hours(run.jobs, scale) for r, run, _ in clouds}, None, ""
    )
    return PricedOptions((), bills, runs, charged, {}, trail)


def _cloud_report(scenario: TcoScenario, options: PricedOptions, left_out: LeftOut) -> TcoReport:
    """The report of renting only; its notes, prices and inputs are the caller's to add."""
    rented = [c.rented for c in options.clouds]
    tax_rate = scenario.overrides.get("tax_rate", 0.0)
    tax = tax_rate if isinstance(tax_rate, float | int) else 0.0
    demand = tco.Demand(useful_gpu_hours=rented[0].useful_gpu_hours or 0.0)
    horizons = tuple(
        Horizon(
            years=months / 12,
            options=tuple(
                option_report(
                    tco.rented_option(r, demand, months, scenario.discount_rate, tax_rate=tax),
                    rented_ledger(options.runs.demand, run, months),
                )
                for r, run in zip(rented, options.runs.rented, strict=True)
            ),
            comparisons=(),
        )
        for months in tco.horizons_months(scenario.horizons_years)
    )
    return TcoReport(
        scope=scenario.scope,
        left_out=left_out,
        scenario=scenario.name,
        currency=scenario.currency.upper(),
        installed_gpus=0,
        allocation=None,
        useful_gpu_hours_per_month=demand.useful_gpu_hours,
        cost_per_installed_gpu_hour=None,
        cost_per_allocated_gpu_hour=None,
        cost_per_useful_gpu_hour=horizons[0].options[0].cost_per_useful_gpu_hour,
        fixed_per_installed_gpu_hour=None,
        variable_per_busy_gpu_hour=None,
        break_even_utilization={},
        horizons=horizons,
        sensitivity=None,
        notes=(),
    )
