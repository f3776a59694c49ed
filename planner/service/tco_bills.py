"""Each cloud bill of a TCO report as monthly quantities at prices (`CloudBillInputs`), for
the workbook's formulas: a replayed bill through `planner.cost.bill_quantities`, a flat one
(a utilization, no trace) as its GPU-hours at the option's price, or with a commitment as
one level of demand whose GPU-hours above the committed ones are billed on demand; storage
and egress as the scenario states them.

Nothing is priced again: a flat commitment's overflow is billed at the price the model
looked up (on demand, or the option its `overflow` names).
"""

from dataclasses import replace

from planner.cost import tco
from planner.cost.baremetal import HOURS_PER_MONTH
from planner.cost.bill_quantities import bill_quantities
from planner.cost.inputs import CloudBillInputs, DemandLevel, PricedQuantity
from planner.cost.ledger import PricedBill
from planner.cost.scenario import CloudSpec, TcoScenario


def cloud_bill(spec: CloudSpec, priced: PricedBill, scale: float) -> CloudBillInputs:
    """A replayed option's bill a month (`scale`: months per trace span)."""
    bill = bill_quantities(priced, scale, committed_gpus=spec.committed_gpus or 0.0)
    return _with_data(bill, spec)


def burst_bill(scenario: TcoScenario, priced: PricedBill, scale: float | None) -> CloudBillInputs:
    """The hybrid's burst bill a month, on the cloud option it bursts to."""
    wanted = scenario.hybrid.cloud if scenario.hybrid else None
    spec = next((c for c in scenario.cloud if wanted is None or c.label() == wanted), None)
    committed = spec.committed_gpus if spec is not None else None
    return bill_quantities(priced, scale or 0.0, committed_gpus=committed or 0.0)


def flat_bill(
    specs: tuple[CloudSpec, CloudSpec],
    rented: tco.Rented,
    useful: float,
    overflow_price: float | None,
) -> CloudBillInputs:
    """A steady `useful` GPU-hours a month: at the option's price, or committed GPUs paid
    every hour and the rest (one level of demand, useful / hours GPUs) at the overflow
    option's `overflow_price` (`specs`: the option and its overflow option; the price is
    None without a commitment)."""
    spec, overflow = specs
    per_month = rented.per_month
    commitment = per_month.get("commitment", 0.0)
    committed = spec.committed_gpus or 0.0
    if overflow_price is None or not (commitment and committed):
        compute = per_month.get("cloud_compute", 0.0)
        if not (compute and useful):
            return _with_data(CloudBillInputs(), spec)
        line = PricedQuantity(rented.name, "GPU-hour", useful, compute / useful)
        return _with_data(CloudBillInputs((line,)), spec)
    # the line names what is billed: the overflow option, or this one on demand (unnamed)
    billed = overflow if spec.overflow else overflow.model_copy(update={"name": None})
    line = PricedQuantity(billed.label(), "GPU-hour", useful, overflow_price)
    levels = (DemandLevel(useful / HOURS_PER_MONTH, (useful,)),) if useful else ()
    bill = CloudBillInputs(
        (line,),
        committed_gpus=committed,
        commit_price=commitment / (committed * HOURS_PER_MONTH),
        levels=levels,
    )
    return _with_data(bill, spec)


def _with_data(bill: CloudBillInputs, spec: CloudSpec) -> CloudBillInputs:
    """Storage (GB kept at a price per GB-month) and egress (GB out at a price per GB)."""
    data = []
    if spec.storage_gb or spec.storage_price_gb_month:
        data.append(
            PricedQuantity("storage", "GB-month", spec.storage_gb, spec.storage_price_gb_month)
        )
    if spec.egress_gb_month or spec.egress_price_gb:
        data.append(PricedQuantity("egress", "GB", spec.egress_gb_month, spec.egress_price_gb))
    return replace(bill, data=tuple(data))
