"""Demand from a replay of the trace: the self-hosted cluster replayed on the scenario's
servers, every cloud option renting the same jobs, and the hybrid replayed on the servers it
keeps, bursting the jobs that wait past its threshold to the cloud (decided inside the
replay). Each owned option is credited the work it did within the trace's window
(`planner.service.tco_window`).
"""

from dataclasses import replace

from planner.core.config import NodeSpec
from planner.core.model import Job
from planner.cost.baremetal import BareMetal, keep_servers
from planner.cost.chargeback import JobTable
from planner.cost.chargeback_usage import chargeback_data, job_table
from planner.cost.comparison import Runs
from planner.cost.inputs import OwnedInputs
from planner.cost.ledger import PricedBill
from planner.cost.scenario import CloudSpec, TcoScenario
from planner.cost.scope import CPU_POOL
from planner.engine import ReplayResult, simulate
from planner.engine.calibration import error_bar_text
from planner.service.replay import with_volcano_queues
from planner.service.tco_bills import burst_bill
from planner.service.tco_inputs import Inputs
from planner.service.tco_priced import PricedOptions
from planner.service.tco_record import replay_facts
from planner.service.tco_rent import bill_jobs, demand_of, rent_all
from planner.service.tco_trail import Trail, said
from planner.service.tco_window import credit, short_span, window
from planner.store import Connection


def replayed(
    con: Connection,
    scenario: TcoScenario,
    inputs: Inputs,
    bm: BareMetal,
    jobs: list[Job],
    *,
    job_lines: bool = True,
) -> PricedOptions:
    """Every option priced on a month of the trace's jobs; `job_lines=False`: without the
    chargeback's per-job lines (at 1M jobs about 150 MB beside the replay's result, a sweep
    worker's peak: issue 33)."""
    win = window(jobs)
    # the cloud first: its bills' per-job lists are gone (or kept, in a sweep) before the
    # replay's per-job state is built, not beside it (a sweep worker's peak: issue 33)
    rentals = rent_all(con, scenario, inputs, jobs, win.scale)
    result, trail = _replay(scenario, bm, jobs)
    trail = short_span(jobs, scenario.horizons_years) + trail
    mine = credit(result, bm, win, scenario, name="self-hosted")
    trail += mine.trail + rentals.trail
    runs = Runs(demand_of(jobs).scaled(win.scale), mine.outcome, rentals.runs)
    usage = {"self-hosted": mine.team_hours} | rentals.usage
    owned = [OwnedInputs("self-hosted", bm, mine.demand, replay=replay_facts(mine.summary))]
    replays = {"self-hosted": mine.summary}
    lines = job_table(result, mine.within) if job_lines else JobTable()
    if scenario.hybrid is not None:
        kept = hybrid_servers(scenario, bm)
        theirs, burst, found = _hybrid_replay(con, scenario, inputs, kept, jobs)
        hybrid = credit(theirs, kept, win, scenario, name="hybrid", burst=burst)
        trail += found + hybrid.trail
        runs = replace(runs, hybrid=hybrid.outcome)
        usage["hybrid"] = hybrid.team_hours
        per_month = burst.bill.total * win.scale if burst else 0.0
        owned.append(
            OwnedInputs(
                "hybrid",
                kept,
                replace(hybrid.demand, burst_per_month=per_month),
                burst=burst_bill(scenario, burst, win.scale) if burst else None,
                replay=replay_facts(hybrid.summary),
            )
        )
        replays["hybrid"] = hybrid.summary
        if job_lines:
            lines = job_table(result, mine.within, theirs, hybrid.within)
    source = "volcano" if scenario.scheduling and scenario.scheduling.volcano else "kueue"
    charged = chargeback_data(usage, result.policy.queues, source, lines)
    return PricedOptions(tuple(owned), rentals.clouds, runs, charged, replays, trail)


def _hybrid_replay(
    con: Connection,
    scenario: TcoScenario,
    inputs: Inputs,
    kept: BareMetal,
    jobs: list[Job],
) -> tuple[ReplayResult, PricedBill | None, Trail]:
    """The hybrid's replay on the servers it keeps, and the bill of the jobs that burst. On
    a node pool a burst pod is pending from when it left the queue (its start in the
    replay), so bursts at different times share the pool's instances as they would."""
    assert scenario.hybrid is not None
    result, trail = _replay(scenario, kept, jobs, burst_after_s=scenario.hybrid.burst_after_s)
    spec = _burst_cloud(scenario)
    burst_jobs = [
        _burst_at(j, result.start_s[i]) if spec.packing == "pool" else j
        for i, j in enumerate(result.jobs)
        if result.status[i] == "burst"
    ]
    if not burst_jobs:
        return result, None, trail
    bill, found = bill_jobs(con, spec, inputs, burst_jobs, scenario)
    return result, bill, trail + found


def _burst_at(job: Job, start_s: float | None) -> Job:
    return job if start_s is None else replace(job, submit_s=start_s)


def hybrid_servers(scenario: TcoScenario, bm: BareMetal) -> BareMetal:
    """The self-hosted assumptions with the servers the hybrid keeps."""
    keep = {k.upper(): v for k, v in (scenario.hybrid.servers if scenario.hybrid else {}).items()}
    return keep_servers(bm, [replace(p, servers=keep.get(p.name, p.servers)) for p in bm.pools])


def _replay(
    scenario: TcoScenario, bm: BareMetal, jobs: list[Job], burst_after_s: float | None = None
) -> tuple[ReplayResult, Trail]:
    """`jobs` replayed on `bm`'s servers under the scenario's policy and its scheduling set-up
    (Volcano shares sized to the servers); `burst_after_s`: the hybrid's threshold."""
    nodes = _nodes(bm, scenario)
    replay = scenario.replay_scenario()
    trail = Trail()
    if replay.volcano is not None:
        replay, notes = with_volcano_queues(replay, nodes)
        trail = said(*notes)
    if replay.calibration is not None and (bar := replay.calibration.error_bar()) is not None:
        trail += said(error_bar_text(bar))
    policy = replay.to_policy()
    if burst_after_s is not None:
        policy = replace(policy, burst_after_s=burst_after_s)
    return simulate(jobs, nodes, policy), trail


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


def _burst_cloud(scenario: TcoScenario) -> CloudSpec:
    assert scenario.hybrid is not None
    wanted = scenario.hybrid.cloud
    return next(c for c in scenario.cloud if wanted is None or c.label() == wanted)
