"""The TCO report from priced demand: every option over every horizon, with its ledger, the
comparisons of buying against each cloud option, the headline pair (`planner.cost.pair`), its
sensitivities and what would flip its verdict (`planner.cost.flip`).

Nothing here prices anything: `planner.service.tco_run` gives the demand, the rented options and the
ledger runs; this module lays them over the horizons.
"""

from dataclasses import dataclass, replace

from planner.core.notes import note
from planner.cost import flip, tco
from planner.cost.baremetal import (
    BareMetal,
    fixed_per_installed_gpu_hour,
    in_service_from,
    installed_gpus,
    variable_per_busy_gpu_hour,
)
from planner.cost.elsewhere import (
    OFF,
    ServedElsewhere,
    Unserved,
    owned_unserved,
    rented_unserved,
    served_share,
    with_elsewhere,
)
from planner.cost.ledger import Hours, Ledger, owned_ledger, rented_ledger
from planner.cost.pair import headline_pair
from planner.cost.pair_model import PairModel, bridge_of
from planner.cost.results import Horizon, Sensitivity, SensitivityBar, TcoReport
from planner.cost.scenario import TcoScenario
from planner.cost.scope import LeftOut
from planner.cost.tco import Comparison, OptionReport


@dataclass(frozen=True, slots=True)
class Runs:
    """The ledger's runs, per month: the demand in scope and where each option serves it."""

    demand: Hours
    owned: Hours
    rented: list[Hours]
    hybrid: Hours | None = None


@dataclass(frozen=True, slots=True)
class Priced:
    """Demand and the options priced on it."""

    owned: tco.Demand
    rented: list[tco.Rented]
    hybrid: tuple[tco.Demand, BareMetal] | None
    converted: set[str]
    runs: Runs
    elsewhere: ServedElsewhere = OFF
    """The rates unserved demand and waiting are priced at (off: not priced)."""


RESALE_SWING = 0.30
"""The resale share's sensitivity moves it by this much of CapEx either way (within 0 and 1),
not by a share of itself: its base is usually 0, which a relative swing would leave at 0.
0.30 is the middle of the reference's typical range (25-35 % of CapEx after 36 months), so
the bar shows what a plausible resale value would do to the verdict."""


def resale_range(share: float) -> tuple[float, float]:
    """The resale share's low and high in the sensitivity (`RESALE_SWING`)."""
    return max(0.0, share - RESALE_SWING), min(1.0, share + RESALE_SWING)


def report(scenario: TcoScenario, bm: BareMetal, priced: Priced, left_out: LeftOut) -> TcoReport:
    """The report of an owning scenario; `left_out` is what its scope leaves out."""
    owned, rented, hybrid_run = priced.owned, priced.rented, priced.hybrid
    rate = scenario.discount_rate
    horizons: list[Horizon] = []
    bridge = _bridge(owned, rented)
    kept_bm = hybrid_run[1] if hybrid_run else None
    for months in tco.horizons_months(scenario.horizons_years):
        lines = _unserved(priced, months, bm, kept_bm)
        mine = tco.owned_option(
            "self-hosted", bm, owned, months, rate, bridge=bridge, unserved=lines[0]
        )
        options = [mine]
        if hybrid_run is not None:
            demand, kept = hybrid_run
            if installed_gpus(kept) == installed_gpus(bm):  # the hybrid keeps every server
                options[0] = mine = replace(mine, part_of="hybrid")
            options.append(
                tco.owned_option(
                    "hybrid", kept, demand, months, rate, bridge=bridge, unserved=lines[1]
                )
            )
        clouds = [
            _rented(r, owned, months, rate, bm, unserved=u)
            for r, u in zip(rented, lines[len(options) :], strict=True)
        ]
        comparisons = [
            tco.compare(mine, c, bm, r.per_gpu_hour, rate)
            for c, r in zip(clouds, rented, strict=True)
        ]
        ledgers = _ledgers(priced.runs, months, bm, kept_bm)
        horizons.append(
            Horizon(
                years=months / 12,
                options=tuple(
                    _with_ledger(o, ledger, priced.elsewhere)
                    for o, ledger in zip(options + clouds, ledgers, strict=True)
                ),
                comparisons=tuple(comparisons),
                pair=_pair(options, clouds, comparisons, priced, rate),
            )
        )
    first = horizons[0].options[0]
    notes = _demand_notes(owned, rented, hybrid_run[0] if hybrid_run else None)
    model = _pair_model(scenario, bm, priced, horizons[0].pair)
    return TcoReport(
        scope=scenario.scope,
        left_out=left_out,
        scenario=scenario.name,
        currency=scenario.currency.upper(),
        installed_gpus=installed_gpus(bm),
        allocation=owned.allocation,
        useful_gpu_hours_per_month=owned.useful_gpu_hours,
        cost_per_installed_gpu_hour=first.cost_per_installed_gpu_hour,
        cost_per_allocated_gpu_hour=first.cost_per_allocated_gpu_hour,
        cost_per_useful_gpu_hour=first.cost_per_useful_gpu_hour,
        fixed_per_installed_gpu_hour=fixed_per_installed_gpu_hour(bm),
        variable_per_busy_gpu_hour=variable_per_busy_gpu_hour(bm),
        break_even_utilization={
            c.rented: c.break_even_utilization for c in horizons[0].comparisons
        },
        horizons=tuple(horizons),
        sensitivity=None if model is None else _sensitivity(model, scenario.sensitivity_swing),
        notes=tuple(notes + _bridge_notes(bm, rented)),
        served_elsewhere=priced.elsewhere,
        verdict=None if model is None else flip.verdict(model),
    )


def _pair(
    owned: list[OptionReport],
    clouds: list[OptionReport],
    comparisons: list[Comparison],
    priced: Priced,
    rate: float,
) -> Comparison | None:
    """Buying the headline pair's owned option against its cloud option
    (`planner.cost.pair`): self-hosted's is among `comparisons`, the hybrid's is made here."""
    names = headline_pair(owned + clouds)
    if names is None:
        return None
    mine, theirs = names
    if mine == "self-hosted":
        return next(c for c in comparisons if c.rented == theirs)
    assert priced.hybrid is not None  # a hybrid option is priced from it
    k = [c.name for c in clouds].index(theirs)
    hybrid = next(o for o in owned if o.name == mine)
    return tco.compare(hybrid, clouds[k], priced.hybrid[1], priced.rented[k].per_gpu_hour, rate)


def _pair_model(
    scenario: TcoScenario, bm: BareMetal, priced: Priced, pair: Comparison | None
) -> PairModel | None:
    """The first horizon's headline pair as the tornado and the flips re-price it."""
    if pair is None:
        return None
    months = tco.horizons_months(scenario.horizons_years)[0]
    hybrid = pair.owned == "hybrid" and priced.hybrid is not None
    demand, servers = priced.hybrid if priced.hybrid is not None and hybrid else (priced.owned, bm)
    lines = _unserved(priced, months, bm, priced.hybrid[1] if priced.hybrid else None)
    cloud = next(r for r in priced.rented if r.name == pair.rented)
    return PairModel(
        owned=pair.owned,
        servers=servers,
        demand=demand,
        cloud=cloud,
        bridge=priced.rented[0],
        months=months,
        rate=scenario.discount_rate,
        converted=frozenset(priced.converted),
        unserved=lines[1 if hybrid else 0],
        cloud_escalation_year=bm.cloud_escalation_year,
    )


def _unserved(
    priced: Priced, months: int, bm: BareMetal, kept: BareMetal | None
) -> list[Unserved | None]:
    """Each option's served-elsewhere and waiting lines over `months`, in the report's order
    of options (None: the scenario prices neither, or a cloud option leaves nothing)."""
    prices, runs = priced.elsewhere, priced.runs
    if not prices.enabled:
        return [None] * (1 + (kept is not None) + len(runs.rented))
    owned = [(bm, priced.owned)]
    if kept is not None and priced.hybrid is not None:
        owned.append((kept, priced.hybrid[0]))
    lines: list[Unserved | None] = [
        owned_unserved(
            prices,
            demand.unserved_gpu_hours,
            demand.waited_gpu_hours,
            (months, in_service_from(s, months)),
        )
        for s, demand in owned
    ]
    for run in runs.rented:
        line = rented_unserved(prices, run, months)
        lines.append(line if line.gpu_hours else None)
    return lines


def _with_ledger(
    option: tco.OptionReport, ledger: Ledger, prices: ServedElsewhere
) -> tco.OptionReport:
    """`option` with its ledger, the GPU-hours it buys elsewhere and its served share."""
    if prices.enabled:
        ledger = with_elsewhere(ledger, option.served_elsewhere_gpu_hours)
    return replace(option, ledger=ledger, served_share=served_share(ledger))


def _rented(
    rented: tco.Rented,
    demand: tco.Demand,
    months: int,
    rate: float,
    bm: BareMetal,
    *,
    unserved: Unserved | None = None,
) -> tco.OptionReport:
    """A cloud option beside owned servers: their tax rate, cloud prices escalating at the
    scenario's rate, and its served-elsewhere lines (`unserved`)."""
    return tco.rented_option(
        rented,
        demand,
        months,
        rate,
        tax_rate=bm.tax_rate,
        escalation_year=bm.cloud_escalation_year,
        unserved=unserved,
    )


def _ledgers(runs: Runs, months: int, bm: BareMetal, kept: BareMetal | None) -> list[Ledger]:
    """Each option's ledger over `months`, in the report's order of options."""
    bridge = runs.rented[0] if runs.rented else None
    owned = [(bm, runs.owned)]
    if kept is not None and runs.hybrid is not None:
        owned.append((kept, runs.hybrid))
    return [
        owned_ledger(runs.demand, after, bridge, months, in_service_from(servers, months))
        for servers, after in owned
    ] + [rented_ledger(runs.demand, run, months) for run in runs.rented]


def _sensitivity(model: PairModel, swing: float) -> Sensitivity:
    """NPV of buying for the headline pair over the first horizon, each driver moved
    +/- the swing alone (the demand's shape is kept; utilization scales it), the resale
    share by `RESALE_SWING` of CapEx. The served-elsewhere and waiting lines stay the
    base's under every driver (the workbook's live tornado moves the same columns)."""
    ranges = {"resale_share": resale_range(model.servers.resale_share)}
    result = tco.sensitivity(model.npv, model.base(), swing, ranges)
    code = "sensitivity_output" if model.owned == "self-hosted" else "sensitivity_output_hybrid"
    return Sensitivity(
        output=note(code, option=model.cloud.name, years=f"{model.months / 12:g}"),
        base=result.base_output,
        bars=tuple(
            SensitivityBar(b.driver, b.low_output, b.high_output, b.swing) for b in result.bars
        ),
    )


def _bridge(demand: tco.Demand, rented: list[tco.Rented]) -> tco.Bridge:
    """The first cloud option serves the demand while the servers are on order."""
    return bridge_of(demand, rented[0]) if rented else tco.NO_BRIDGE


def _bridge_notes(bm: BareMetal, rented: list[tco.Rented]) -> list[str]:
    lead = bm.lead_time_months
    if not lead:
        return []
    if not rented:
        return [note("bridge_none", months=lead)]
    return [note("bridge_cloud", months=lead, option=rented[0].name)]


def _demand_notes(
    owned: tco.Demand, rented: list[tco.Rented], hybrid: tco.Demand | None
) -> list[str]:
    notes: list[str] = []
    if hybrid is not None and abs(hybrid.useful_gpu_hours - owned.useful_gpu_hours) > 1e-6 * max(
        1.0, owned.useful_gpu_hours
    ):
        owned_h, hybrid_h = f"{owned.useful_gpu_hours:,.1f}", f"{hybrid.useful_gpu_hours:,.1f}"
        notes.append(note("useful_differ", owned=owned_h, hybrid=hybrid_h))
    return notes
