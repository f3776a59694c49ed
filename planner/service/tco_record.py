"""The TCO report's resolved inputs (`TcoReport.inputs`): the assumptions the options were
priced from, with where each came from, and what each cloud bill was made of (instance-hours
by SKU a month at each SKU's price), so the workbook can rebuild the cash flows as formulas.

Nothing is priced again here: every amount is read off the model's own results. Where a bill
part is not quantity x price (overflow above a commitment, spot overhead, CPU instances,
storage, egress) it is kept as the monthly amount the model computed.
"""

from collections.abc import Mapping, Sequence
from dataclasses import fields

from planner.cost import tco
from planner.cost.baremetal import HOURS_PER_MONTH, BareMetal
from planner.cost.inputs import (
    AssumptionSource,
    CloudBillInputs,
    CloudInputs,
    OwnedInputs,
    PricedQuantity,
    ReplayFacts,
    TcoInputs,
)
from planner.cost.ledger import PricedBill
from planner.cost.scenario import TcoScenario
from planner.engine.calibration import error_bar_text
from planner.engine.summary import ReplaySummary
from planner.service.tco_inputs import Inputs
from planner.store import Connection
from pricing import assumption_set

HYBRID_BURST = "hybrid burst"
"""`Inputs.bills` key of the hybrid's burst bill."""

_BOOK_KEYS = {
    "pue": "pue",
    "network_share": "network_share",
    "storage_share": "storage_share",
    "life_years": "life_years",
    "residual_share": "residual_share",
    "support_share_year": "support_share_year",
    "lead_time_months": "lead_time_months",
    "availability": "availability",
    "fte_per_server": "fte_per_server",
    "colo_per_kw_month": "colo_per_kw_month",
    "fte_cost_year": "fte_cost_year.{local}",
    "kwh_price": "kwh_price.{local}",
}
"""BareMetal field -> the price book assumption it is taken from (`tco_inputs.bare_metal`)."""


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
            _cloud_bill(
                r,
                spec.committed_gpus or 0.0,
                inputs.bills.get(r.name),
                scale,
                demanded if r.useful_gpu_hours is None else r.useful_gpu_hours,
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
                burst=_burst(burst, scale) if name == "hybrid" and burst else None,
                replay=_facts(inputs.replays.get(name)),
            )
            for name, bm, demand in owned
        ),
        clouds=clouds,
        sources=_sources(con, scenario, inputs),
        calibration=_calibration(scenario),
    )


def _cloud_bill(
    rented: tco.Rented,
    committed: float,
    priced: PricedBill | None,
    scale: float | None,
    useful: float,
) -> CloudBillInputs:
    """A rented option's bill a month: SKU quantities when it was replayed, else the flat
    price on the `useful` GPU-hours; the rest as the model's monthly amounts."""
    per_month = dict(rented.per_month)
    compute = per_month.get("cloud_compute", 0.0)
    lines: tuple[PricedQuantity, ...] = ()
    if priced is not None and scale is not None:
        lines = _sku_lines(priced, scale) if priced.bill.compute else ()
    elif compute and useful:
        lines = (PricedQuantity(rented.name, "GPU-hour", useful, compute / useful),)
    commitment = per_month.pop("commitment", 0.0)
    if lines:
        per_month.pop("cloud_compute", None)
    committed = committed if commitment else 0.0
    price = commitment / (committed * HOURS_PER_MONTH) if committed else 0.0
    other = {k: v for k, v in per_month.items() if v}
    return CloudBillInputs(lines, committed, price, other)


def _burst(priced: PricedBill, scale: float | None) -> CloudBillInputs:
    """The hybrid's burst bill a month (its committed part, if any, stays an amount)."""
    bill = priced.bill
    factor = scale or 0.0
    lines = _sku_lines(priced, factor) if bill.compute else ()
    other = {
        "commitment": bill.commitment * factor,
        "overflow": bill.overflow * factor,
        "spot_overhead": bill.spot_overhead * factor,
        "cloud_cpu": bill.cpu_compute * factor,
    }
    if not lines:
        other["cloud_compute"] = bill.compute * factor
    return CloudBillInputs(lines, other={k: v for k, v in other.items() if v})


def _sku_lines(priced: PricedBill, scale: float) -> tuple[PricedQuantity, ...]:
    """Instance-hours a month by SKU, each at its price per instance-hour."""
    hours: dict[int, float] = {}
    for p in priced.bill.jobs:
        hours[p.sku] = hours.get(p.sku, 0.0) + p.instances * p.billed_hours
    return tuple(
        PricedQuantity(
            priced.skus[s].name,
            "instance-hour",
            h * scale,
            priced.skus[s].price_per_hour,
            priced.skus[s].gpus_per_instance,
        )
        for s, h in sorted(hours.items())
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
    its source, date, confidence and unit) or the model's default."""
    book = assumption_set(con, inputs.set_name)
    local = "cn" if inputs.currency == "CNY" else "us"
    out: dict[str, AssumptionSource] = {}
    for f in fields(BareMetal):
        if f.name in {"pools", "notes"}:
            continue
        key = _BOOK_KEYS.get(f.name, "").format(local=local)
        if f.name in scenario.overrides:
            out[f.name] = AssumptionSource("scenario override", confidence="H")
        elif key in book:
            item = book[key]
            as_of = "" if item.as_of is None else str(item.as_of)
            source = f"{inputs.set_name}: {item.source}"
            out[f.name] = AssumptionSource(source, as_of, item.confidence, item.unit)
        else:
            out[f.name] = AssumptionSource("model default (reference 2.1)", confidence="L")
    return out


def _calibration(scenario: TcoScenario) -> str:
    calibration = scenario.scheduling.calibration if scenario.scheduling else None
    bar = calibration.error_bar() if calibration is not None else None
    return error_bar_text(bar) if bar is not None else ""
