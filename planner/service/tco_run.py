"""`planner tco`: demand (a utilization, or a replay of the trace), every option priced on it,
each horizon compared, and the sensitivities; one `TcoReport` (`planner.core.serialize`
writes it as `planner tco --json`).

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
from planner.cost.baremetal import (
    HOURS_PER_MONTH,
    BareMetal,
    installed_gpus,
    keep_servers,
)
from planner.cost.chargeback import ChargebackData
from planner.cost.chargeback_usage import RAN, chargeback_data, job_table, team_hours
from planner.cost.comparison import Priced, Runs, report
from planner.cost.ledger import Hours, PricedBill, demanded, rented_ledger, replay_outcome
from planner.cost.results import Horizon, TcoReport
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.cost.scope import CPU_POOL, LeftOut, Scoped, scoped_jobs
from planner.engine import ReplayResult, simulate
from planner.engine.calibration import error_bar_text
from planner.engine.policy import Policy
from planner.engine.summary import ReplaySummary
from planner.ingest import IngestOptions
from planner.service.growth import grown_report
from planner.service.replay import load_jobs, resolve_trace, with_volcano_queues
from planner.service.tco_inputs import Inputs, bare_metal, load_inputs, per_gpu_hour
from planner.service.tco_record import HYBRID_BURST, record
from planner.service.tco_rent import bill_jobs, rent
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
    if scenario.growth is not None:
        return _grown(con, scenario, jobs, today=today, summaries=summaries)
    inputs = load_inputs(con, scenario, today)
    if summaries is not None:
        inputs.replays = summaries  # filled as the options are replayed
    left_out = Scoped([]).left_out()
    if jobs is not None:
        scoped = scoped_jobs(scenario, jobs)
        jobs, left_out = scoped.jobs, scoped.left_out()
        inputs.notes.extend(scoped.notes(scenario.scope))
    if not scenario.self_hosted:
        return _cloud_only(con, scenario, inputs, jobs, left_out)
    bm = bare_metal(con, scenario, inputs)
    charged: ChargebackData | None = None
    if jobs is None:
        owned, rented, hybrid, runs = _explicit(con, scenario, inputs, bm)
    else:
        owned, rented, hybrid, runs, charged = _replayed(con, scenario, inputs, bm, jobs)
    hybrid_run = (hybrid, _hybrid_servers(scenario, bm)) if hybrid is not None else None
    result = report(
        scenario, bm, Priced(owned, rented, hybrid_run, inputs.converted, runs), left_out
    )
    notes = tuple(dict.fromkeys([*inputs.notes, *result.notes]))
    sources = tuple(inputs.sources)
    owning = [("self-hosted", bm, owned)]
    if hybrid_run is not None:
        owning.append(("hybrid", hybrid_run[1], hybrid_run[0]))
    scale = None if jobs is None else window(jobs).scale
    return replace(
        result,
        notes=notes,
        prices_used=sources,
        discount_rate=scenario.discount_rate,
        chargeback=charged,
        inputs=record(con, scenario, inputs, owned=owning, rented=rented, scale=scale),
    )


def _grown(
    con: Connection,
    scenario: TcoScenario,
    jobs: list[Job] | None,
    *,
    today: date | None,
    summaries: dict[str, ReplaySummary] | None,
) -> TcoReport:
    if jobs is None:
        raise ScenarioError(
            "`growth` needs a trace (`trace:` or --trace): it grows the trace's jobs year by year"
        )

    def price_year(
        plain: TcoScenario, year_jobs: list[Job], kept: dict[str, ReplaySummary]
    ) -> TcoReport:
        return tco_of_jobs(con, plain, year_jobs, today=today, summaries=kept)

    return grown_report(scenario, jobs, price_year, summaries)


# --- demand without a trace --------------------------------------------------------------------


def _explicit(
    con: Connection, scenario: TcoScenario, inputs: Inputs, bm: BareMetal
) -> tuple[tco.Demand, list[tco.Rented], tco.Demand | None, Runs]:
    if scenario.hybrid is not None:
        raise ScenarioError("a hybrid option needs a trace: bursts are decided in the replay")
    u = scenario.utilization
    if u is None:
        u = inputs.assumptions.get("allocation_utilization", 0.35)
        inputs.notes.append(note("default_allocation", share=f"{u:.0%}"))
    useful = u * installed_gpus(bm) * HOURS_PER_MONTH
    demand = tco.Demand(useful_gpu_hours=useful, utilization_by_hour=(u,))
    rented = [
        _rent_flat(con, spec, scenario.overflow_of(spec), inputs, useful) for spec in scenario.cloud
    ]
    runs = Runs(
        Hours({"demanded": useful}),
        Hours({"owned": useful}),
        [Hours({"rented": useful}) for _ in rented],
    )
    return demand, rented, None, runs


def _rent_flat(
    con: Connection, spec: CloudSpec, overflow: CloudSpec, inputs: Inputs, useful: float
) -> tco.Rented:
    """A steady demand of `useful` GPU-hours a month: committed GPUs at the option's price,
    the rest at the `overflow` option's (all of it at the option's price without a
    commitment)."""
    price = per_gpu_hour(con, spec, inputs)
    per_month: dict[str, float] = {}
    if spec.committed_gpus:
        covered = min(useful, spec.committed_gpus * HOURS_PER_MONTH)
        per_month["commitment"] = spec.committed_gpus * HOURS_PER_MONTH * price
        per_month["overflow"] = (useful - covered) * per_gpu_hour(con, overflow, inputs)
    else:
        per_month["cloud_compute"] = useful * price
    per_month |= spec.data_costs()
    total = sum(per_month.values()) - sum(spec.data_costs().values())
    return tco.Rented(spec.label(), per_month, total / useful if useful else price)


# --- demand from the replay ----------------------------------------------------------------


def _replayed(
    con: Connection,
    scenario: TcoScenario,
    inputs: Inputs,
    bm: BareMetal,
    jobs: list[Job],
) -> tuple[tco.Demand, list[tco.Rented], tco.Demand | None, Runs, ChargebackData]:
    nodes = _nodes(bm, scenario)
    win = window(jobs)
    scale = win.scale
    result = simulate(jobs, nodes, _policy(scenario, nodes, inputs))
    within = counted_shares(result, win)
    owned = _demand(result, bm, win, scenario, within=within, inputs=inputs, name="self-hosted")
    clouds = [rent(con, spec, inputs, jobs, scenario, scale=scale) for spec in scenario.cloud]
    rented = [r for r, _ in clouds]
    runs = Runs(
        demanded(jobs).scaled(scale),
        replay_outcome(result, within=within).scaled(scale),
        [run.outcome("rented").scaled(scale) for _, run in clouds],
    )
    usage = {"self-hosted": team_hours_within(result, within, RAN, scale)}
    usage |= {r.name: team_hours(run.jobs, scale) for r, run in clouds}
    source = "volcano" if scenario.scheduling and scenario.scheduling.volcano else "kueue"
    if scenario.hybrid is None:
        lines = job_table(result, within)
        charged = chargeback_data(usage, result.policy.queues, source, lines)
        return owned, rented, None, runs, charged
    kept = _hybrid_servers(scenario, bm)
    hybrid_result, burst = _hybrid_replay(con, scenario, inputs, kept, jobs)
    per_month = burst.bill.total * scale if burst else 0.0
    kept_within = counted_shares(hybrid_result, win)
    demand = _demand(
        hybrid_result, kept, win, scenario, within=kept_within, inputs=inputs, name="hybrid"
    )
    hybrid = replace(demand, burst_per_month=per_month)
    outcome = replay_outcome(hybrid_result, burst, kept_within)
    runs = replace(runs, hybrid=outcome.scaled(scale))
    usage["hybrid"] = team_hours_within(hybrid_result, kept_within, (*RAN, "burst"), scale)
    lines = job_table(result, within, hybrid_result, kept_within)
    charged = chargeback_data(usage, result.policy.queues, source, lines)
    return owned, rented, hybrid, runs, charged


def _hybrid_replay(
    con: Connection,
    scenario: TcoScenario,
    inputs: Inputs,
    kept: BareMetal,
    jobs: list[Job],
) -> tuple[ReplayResult, PricedBill | None]:
    """The hybrid's replay on the servers it keeps, and the bill of the jobs that burst."""
    assert scenario.hybrid is not None
    nodes = _nodes(kept, scenario)
    policy = replace(_policy(scenario, nodes, inputs), burst_after_s=scenario.hybrid.burst_after_s)
    result = simulate(jobs, nodes, policy)
    burst_jobs = [j for i, j in enumerate(result.jobs) if result.status[i] == "burst"]
    if not burst_jobs:
        return result, None
    bill = bill_jobs(con, _burst_cloud(scenario), inputs, burst_jobs, scenario)
    inputs.bills[HYBRID_BURST] = bill
    return result, bill


def _hybrid_servers(scenario: TcoScenario, bm: BareMetal) -> BareMetal:
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


def _policy(scenario: TcoScenario, nodes: list[NodeSpec], inputs: Inputs) -> Policy:
    """The scenario's policy with its scheduling set-up (Volcano shares sized to `nodes`)."""
    replay = scenario.replay_scenario()
    if replay.volcano is not None:
        replay, notes = with_volcano_queues(replay, nodes)
        inputs.notes.extend(notes)
    if replay.calibration is not None and (bar := replay.calibration.error_bar()) is not None:
        inputs.notes.append(error_bar_text(bar))
    return replay.to_policy()


# --- cloud only ----------------------------------------------------------------------------


def _cloud_only(
    con: Connection,
    scenario: TcoScenario,
    inputs: Inputs,
    jobs: list[Job] | None,
    left_out: LeftOut,
) -> TcoReport:
    """Renting only: every cloud option priced on the trace's jobs; no break-even, no
    sensitivity (both measure buying)."""
    if jobs is None:
        raise ScenarioError(
            "a cloud-only scenario needs a trace (`trace:` or --trace): without owned servers "
            "there is no utilization to size the demand"
        )
    scale = window(jobs).scale
    clouds = [rent(con, spec, inputs, jobs, scenario, scale=scale) for spec in scenario.cloud]
    rented = [r for r, _ in clouds]
    wanted = demanded(jobs).scaled(scale)
    runs = [run.outcome("rented").scaled(scale) for _, run in clouds]
    tax_rate = scenario.overrides.get("tax_rate", 0.0)
    tax = tax_rate if isinstance(tax_rate, float | int) else 0.0
    demand = tco.Demand(useful_gpu_hours=rented[0].useful_gpu_hours or 0.0)
    horizons = tuple(
        Horizon(
            years=months / 12,
            options=tuple(
                replace(
                    tco.rented_option(r, demand, months, scenario.discount_rate, tax_rate=tax),
                    ledger=rented_ledger(wanted, run, months),
                )
                for r, run in zip(rented, runs, strict=True)
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
        notes=tuple(dict.fromkeys(inputs.notes)),
        prices_used=tuple(inputs.sources),
        discount_rate=scenario.discount_rate,
        chargeback=chargeback_data(
            {r.name: team_hours(run.jobs, scale) for r, run in clouds}, None, ""
        ),
        inputs=record(con, scenario, inputs, owned=[], rented=rented, scale=scale),
    )


def _demand(
    result: ReplayResult,
    bm: BareMetal,
    win: Window,
    scenario: TcoScenario,
    *,
    within: list[float],
    inputs: Inputs,
    name: str,
) -> tco.Demand:
    """One month of the replayed workload within the window; a note when the cluster left
    work waiting or running at the window's end (it is `carried` in the ledger)."""
    demand = replay_demand(result, bm, win, scenario, within, replays=inputs.replays, name=name)
    if (carried := carried_gpu_hours(result, within)) > 0:
        hours = f"{carried * win.scale:,.0f}"
        option = note(f"option_{name.replace('-', '_')}")  # worded in the reader's language
        inputs.notes.append(note("carried_past_window", option=option, hours=hours))
    return demand


def _burst_cloud(scenario: TcoScenario) -> CloudSpec:
    assert scenario.hybrid is not None
    wanted = scenario.hybrid.cloud
    return next(c for c in scenario.cloud if wanted is None or c.label() == wanted)
