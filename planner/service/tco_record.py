"""The TCO report's resolved inputs (`TcoReport.inputs`): the assumptions the options were
priced from, with where each came from, and what each cloud bill was made of (instance-hours
by SKU a month at each SKU's price), so the workbook can rebuild the cash flows as formulas.

Nothing is priced again here: every amount is read off the model's own results, given by
the steps that priced them (the cloud bills' quantities and prices by
`planner.service.tco_bills`), and the set's sources off the resolved `Inputs`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import fields

from planner.core.notes import note
from planner.cost.baremetal import BareMetal
from planner.cost.inputs import (
    AssumptionSource,
    CloudInputs,
    OwnedInputs,
    ReplayFacts,
    TcoInputs,
)
from planner.cost.scenario import TcoScenario
from planner.engine.calibration import error_bar_text
from planner.engine.summary import ReplaySummary
from planner.service.tco_inputs import Inputs


def record(
    scenario: TcoScenario,
    inputs: Inputs,
    owned: Sequence[OwnedInputs],
    clouds: Sequence[CloudInputs],
) -> TcoInputs:
    """The inputs of a report whose owned options are `owned` (self-hosted, then the hybrid;
    none in a cloud-only report) and cloud options `clouds`, as they were priced."""
    tax = owned[0].bare_metal.tax_rate if owned else scenario.overrides.get("tax_rate", 0.0)
    tax_rate = tax if isinstance(tax, float | int) else 0.0
    rising = (
        owned[0].bare_metal.cloud_escalation_year
        if owned
        else scenario.overrides.get("cloud_escalation_year", 0.0)
    )
    return TcoInputs(
        discount_rate=scenario.discount_rate,
        tax_rate=float(tax_rate),
        sensitivity_swing=scenario.sensitivity_swing,
        assumption_set=inputs.set_name,
        fx_date=str(inputs.on_date),
        owned=tuple(owned),
        clouds=tuple(clouds),
        sources=_sources(scenario, inputs),
        calibration=_calibration(scenario),
        cloud_escalation_year=float(rising) if isinstance(rising, float | int) else 0.0,
    )


def replay_facts(summary: ReplaySummary | None) -> ReplayFacts | None:
    """What the report keeps of an owned option's replay."""
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


def _sources(scenario: TcoScenario, inputs: Inputs) -> Mapping[str, AssumptionSource]:
    """Each bare-metal assumption's origin: the scenario's override, the price book set (with
    its source, date, confidence and unit) or the model's default (coded notes: the workbook
    says them in its language)."""
    book = {entry.field: value for entry, value in inputs.owning}
    out: dict[str, AssumptionSource] = {}
    for f in fields(BareMetal):
        if f.name in {"pools", "notes"}:
            continue
        given = book.get(f.name)
        if f.name in scenario.overrides:
            out[f.name] = AssumptionSource(note("source_override"), confidence="H")
        elif given is not None:
            item = given.item
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
