"""The TCO report's resolved inputs (`TcoReport.inputs`): the assumptions the options were
priced from, with where each came from, and what each cloud bill was made of (instance-hours
by SKU a month at each SKU's price), so the workbook can rebuild the cash flows as formulas.

Nothing is priced again here: every amount is read off the model's own results; the cloud
bills' quantities and prices come from `planner.service.tco_bills`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import fields

from planner.core.notes import note
from planner.cost import tco
from planner.cost.baremetal import BareMetal
from planner.cost.inputs import (
    AssumptionSource,
    CloudInputs,
    OwnedInputs,
    ReplayFacts,
    TcoInputs,
)
from planner.cost.lines import ASSUMPTIONS
from planner.cost.scenario import TcoScenario
from planner.engine.calibration import error_bar_text
from planner.engine.summary import ReplaySummary
from planner.service.tco_bills import burst_bill, cloud_bill
from planner.service.tco_inputs import Inputs
from planner.store import Connection
from pricing import assumption_set

HYBRID_BURST = "hybrid burst"
"""`Inputs.bills` key of the hybrid's burst bill."""


def record(
    con: Connection,
    scenario: TcoScenario,
    inputs: Inputs,
    *,
    owned: Sequence[tuple[str, BareMetal, tco.Demand]],
    rented: Sequence[tco.Rented],
    scale: float | None,
) -> TcoInputs:
    """The inputs of a report whose owned options are `owned` (name, servers, demand) and
    cloud options `rented`; `scale` is months per trace span (None without a trace)."""
    tax = scenario.overrides.get("tax_rate", 0.0)
    tax_rate = owned[0][1].tax_rate if owned else (tax if isinstance(tax, float | int) else 0.0)
    demanded = owned[0][2].useful_gpu_hours if owned else 0.0
    clouds = tuple(
        CloudInputs(
            r,
            cloud_bill(
                con,
                spec,
                inputs,
                r,
                scale=scale,
                useful=demanded if r.useful_gpu_hours is None else r.useful_gpu_hours,
                overflow=scenario.overflow_of(spec),
            ),
        )
        for r, spec in zip(rented, scenario.cloud, strict=True)
    )
    burst = inputs.bills.get(HYBRID_BURST)
    return TcoInputs(
        discount_rate=scenario.discount_rate,
        tax_rate=float(tax_rate),
        sensitivity_swing=scenario.sensitivity_swing,
        assumption_set=inputs.set_name,
        fx_date=str(inputs.on_date),
        owned=tuple(
            OwnedInputs(
                name,
                bm,
                demand,
                burst=burst_bill(scenario, burst, scale) if name == "hybrid" and burst else None,
                replay=_facts(inputs.replays.get(name)),
            )
            for name, bm, demand in owned
        ),
        clouds=clouds,
        sources=_sources(con, scenario, inputs),
        calibration=_calibration(scenario),
    )


def _facts(summary: ReplaySummary | None) -> ReplayFacts | None:
    if summary is None:
        return None
    return ReplayFacts(
        jobs=summary.jobs,
        completed=summary.completed,
        unschedulable=summary.unschedulable,
        unfinished=summary.unfinished,
        utilization=summary.utilization,
        wait_mean_s=summary.wait_s.mean,
        wait_p95_s=summary.wait_s.p95,
        waiting_gpu_hours_by_reason=dict(summary.waiting_gpu_hours_by_reason),
        unschedulable_by_reason=dict(summary.unschedulable_by_reason),
    )


def _sources(
    con: Connection, scenario: TcoScenario, inputs: Inputs
) -> Mapping[str, AssumptionSource]:
    """Each bare-metal assumption's origin: the scenario's override, the price book set (with
    its source, date, confidence and unit) or the model's default (coded notes: the workbook
    says them in its language)."""
    book = assumption_set(con, inputs.set_name)
    local = "cn" if inputs.currency == "CNY" else "us"
    out: dict[str, AssumptionSource] = {}
    book_keys = {a.field: a.book for a in ASSUMPTIONS}
    for f in fields(BareMetal):
        if f.name in {"pools", "notes"}:
            continue
        key = book_keys.get(f.name, "").format(local=local)
        if f.name in scenario.overrides:
            out[f.name] = AssumptionSource(note("source_override"), confidence="H")
        elif key in book:
            item = book[key]
            as_of = "" if item.as_of is None else str(item.as_of)
            source = note("source_book", set=inputs.set_name, source=item.source)
            out[f.name] = AssumptionSource(source, as_of, item.confidence, item.unit)
        else:
            out[f.name] = AssumptionSource(note("source_default"), confidence="L")
    return out


def _calibration(scenario: TcoScenario) -> str:
    calibration = scenario.scheduling.calibration if scenario.scheduling else None
    bar = calibration.error_bar() if calibration is not None else None
    return error_bar_text(bar) if bar is not None else ""
