"""A report's inputs as the JSON text a sweep point keeps (`sweep_point_inputs`), so
`planner montecarlo --sweep` re-prices the point without replaying it."""

import json
from dataclasses import replace

from planner.core.serialize import from_json, to_json
from planner.cost.inputs import CloudBillInputs, CloudInputs, OwnedInputs, TcoInputs
from planner.cost.results import TcoReport


def inputs_text(report: TcoReport) -> str:
    """The report's inputs as JSON for `sweep_point_inputs` (with `growth:`, each later year's
    in `later_years`; points stored before kept a list of each year's); the cloud bills'
    quantity tables (demand levels, SKU lines) are left out: the Monte Carlo reads only the
    monthly figures. "" when the report kept none."""
    if report.inputs is None:
        return ""
    return json.dumps(to_json(_slim(report.inputs)), default=str)


def _slim(inputs: TcoInputs) -> TcoInputs:
    later = inputs.later_years
    return replace(
        inputs,
        owned=_slim_owned(inputs.owned),
        clouds=_slim_clouds(inputs.clouds),
        sources={},
        later_years=None
        if later is None
        else tuple(
            replace(y, owned=_slim_owned(y.owned), clouds=_slim_clouds(y.clouds)) for y in later
        ),
    )


def _slim_clouds(clouds: tuple[CloudInputs, ...]) -> tuple[CloudInputs, ...]:
    return tuple(CloudInputs(c.rented, CloudBillInputs()) for c in clouds)


def _slim_owned(owned: tuple[OwnedInputs, ...]) -> tuple[OwnedInputs, ...]:
    return tuple(replace(o, burst=None, replay=None) for o in owned)


def read_inputs(text: str) -> TcoInputs | list[TcoInputs]:
    """`inputs_text`'s JSON back: one report's inputs, or each year's (stored before)."""
    data = json.loads(text)
    if isinstance(data, list):
        return [from_json(TcoInputs, year) for year in data]
    return from_json(TcoInputs, data)
