"""A report's inputs as the JSON text a sweep point keeps (`sweep_point_inputs`), so
`planner montecarlo --sweep` re-prices the point without replaying it."""

import json
from dataclasses import replace

from planner.core.serialize import from_json, to_json
from planner.cost.inputs import CloudBillInputs, CloudInputs, OwnedInputs, TcoInputs
from planner.cost.results import TcoReport


def inputs_text(report: TcoReport) -> str:
    """The report's inputs as JSON for `sweep_point_inputs` (with `growth:`, a list of each
    year's); the cloud bills' quantity tables (demand levels, SKU lines) are left out: the
    Monte Carlo reads only the monthly figures. "" when the report kept none."""
    if report.inputs is not None:
        return json.dumps(to_json(_slim(report.inputs)), default=str)
    if report.inputs_by_year:
        return json.dumps([to_json(_slim(y)) for y in report.inputs_by_year], default=str)
    return ""


def _slim(inputs: TcoInputs) -> TcoInputs:
    return replace(
        inputs,
        owned=tuple(_slim_owned(o) for o in inputs.owned),
        clouds=tuple(CloudInputs(c.rented, CloudBillInputs()) for c in inputs.clouds),
        sources={},
    )


def _slim_owned(owned: OwnedInputs) -> OwnedInputs:
    return replace(owned, burst=None, replay=None)


def read_inputs(text: str) -> TcoInputs | list[TcoInputs]:
    """`inputs_text`'s JSON back: one report's inputs, or each year's."""
    data = json.loads(text)
    if isinstance(data, list):
        return [from_json(TcoInputs, year) for year in data]
    return from_json(TcoInputs, data)
