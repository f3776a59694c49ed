"""A report's inputs as the JSON text a sweep point keeps (`sweep_point_inputs`), so
`planner montecarlo --sweep` re-prices the point without replaying it."""

import json
from dataclasses import replace

from planner.core.serialize import from_json, to_json
from planner.cost.inputs import CloudBillInputs, CloudInputs, OwnedInputs, TcoInputs
from planner.cost.results import TcoReport


def inputs_text(report: TcoReport) -> str:
    """The report's inputs as JSON for `sweep_point_inputs`; the cloud bills' quantity tables
    (demand levels, SKU lines) are left out: the Monte Carlo reads only the monthly figures."""
    if report.inputs is None:
        return ""
    inputs = report.inputs
    slim = replace(
        inputs,
        owned=tuple(_slim_owned(o) for o in inputs.owned),
        clouds=tuple(CloudInputs(c.rented, CloudBillInputs()) for c in inputs.clouds),
        sources={},
    )
    return json.dumps(to_json(slim), default=str)


def _slim_owned(owned: OwnedInputs) -> OwnedInputs:
    return replace(owned, burst=None, replay=None)


def read_inputs(text: str) -> TcoInputs:
    return from_json(TcoInputs, json.loads(text))
