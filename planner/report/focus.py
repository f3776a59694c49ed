"""The report as FOCUS cost-and-usage rows (`planner report --out FILE.focus.csv`): each
option's months of the chosen horizon as the FinOps Foundation's FOCUS 1.0 columns, plus
the later versions' columns that apply and `x_` columns for what FOCUS has no column for.

One source of truth: every amount is one the TCO report already holds (an option's monthly
P&L by category, its monthly cash, its totals); nothing is re-priced. Two views, as FOCUS
means them:

    BilledCost     the cash a month: CapEx as a Purchase row in month 1, running costs as
                   Usage rows, cash that is not in the P&L as rows of its own (the refresh a
                   Purchase, the tax shield and disposal tax Tax, the resale a Credit; a
                   report saved before they were kept by month: one row for the month's
                   rest); an option's BilledCost adds up to the workbook's cumulative cash
    EffectiveCost  the P&L a month: the CapEx amortized (depreciation) on a Usage row whose
                   BilledCost is 0, the Purchase row at 0; adds up to the option's total

A commitment is paid as a Purchase row a month and amortized over two Usage rows, the share
of the committed GPU-hours the demand used (`Used`) and the rest (`Unused`). Amounts are in
whole cents, rounded along each option's running sum, so they add up to the totals rounded
to the cent. Text cells are spreadsheet-safe; the file is UTF-8 without a byte-order mark (a
FOCUS reader is a program).
"""

import csv
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from io import StringIO

from planner.core.i18n import Language
from planner.core.spreadsheet_text import safe_row
from planner.cost.inputs import CloudInputs
from planner.cost.results import TcoReport
from planner.cost.tco import CASH_ONLY, OptionReport
from planner.report.csv_tidy import pnl_by_category
from planner.report.focus_row import COLUMNS, Charge, Option, focus_row
from planner.report.headline import Named, option_name
from planner.report.model import category_label, ordered
from planner.report.text import text

__all__ = ["COLUMNS", "next_month", "write_focus"]


def write_focus(
    reports: Sequence[Named],
    start: date,
    *,
    horizon_index: int = 0,
    lang: Language = "en",
) -> bytes:
    """The FOCUS CSV of every scenario's options over horizon `horizon_index` (a scenario
    with fewer horizons: its last), month 1 being the month `start` is in."""
    out = StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for scenario, report in reports:
        horizon = report.horizons[min(horizon_index, len(report.horizons) - 1)]
        for option in horizon.options:
            owned = "depreciation" in option.totals
            name = option_name(option.name, lang)
            head = Option(
                scenario=scenario,
                years=float(horizon.years),
                key=option.name,
                name=name,
                owned=owned,
                served_share=option.served_share,
                currency=str(report.currency),
                service=text("report.focus.owned_service", lang) if owned else name,
            )
            months = _charges(option, report, owned, lang)
            for m, charges in enumerate(_in_cents(months)):
                writer.writerows(safe_row(focus_row(head, c, start, m)) for c in charges)
    return out.getvalue().encode("utf-8")


def next_month(today: date) -> date:
    """The first day of the month after `today`: the default start of a FOCUS export."""
    return date(today.year + today.month // 12, today.month % 12 + 1, 1)


def _charges(
    option: OptionReport, report: TcoReport, owned: bool, lang: Language
) -> list[list[Charge]]:
    """The option's charges, month by month."""
    by_category = pnl_by_category(option)
    keys = ordered(set(by_category))
    months = len(option.monthly_cash)
    hours = _gpu_hours(option, by_category)
    cloud = None if owned else _cloud_inputs(report, option.name)
    committed = _committed(cloud, option.useful_gpu_hours / months if months else 0.0)
    out = []
    for m in range(months):
        charges = _cash(option, owned, m, lang)
        for k in keys:
            amount = by_category[k][m]
            if amount:
                charges += _usage(k, amount, hours[m].get(k), committed, lang)
        billed = sum(c.billed for c in charges)
        rest = option.monthly_cash[m] - billed
        if abs(rest) > 1e-6:
            charges.append(_cash_only(rest, option, owned, lang))
        out.append(charges)
    return out


COMPUTE = ("depreciation", "bridge", "cloud_compute", "overflow", "cloud_burst", "commitment")
"""The categories whose row may carry a month's useful GPU-hours: the first one it has."""


def _gpu_hours(
    option: OptionReport, by_category: Mapping[str, Sequence[float]]
) -> list[dict[str, float]]:
    """GPU-hours by category, month by month: the option's useful GPU-hours spread evenly
    over the months that have a compute row (on the first of `COMPUTE`), its GPU-hours
    served elsewhere over the months that buy them."""
    months = len(option.monthly_cash)
    found = [
        next((k for k in COMPUTE if by_category.get(k, (0.0,) * months)[m]), None)
        for m in range(months)
    ]
    elsewhere = by_category.get("served_elsewhere", (0.0,) * months)
    useful = option.useful_gpu_hours / max(1, sum(k is not None for k in found))
    bought = option.served_elsewhere_gpu_hours / max(1, sum(1 for v in elsewhere if v))
    return [
        ({k: useful} if k else {}) | ({"served_elsewhere": bought} if elsewhere[m] else {})
        for m, k in enumerate(found)
    ]


_CASH_CHARGE = {
    "capex": ("Purchase", "One-Time"),
    "refresh": ("Purchase", "One-Time"),
    "tax_shield": ("Tax", "Recurring"),
    "resale": ("Credit", "One-Time"),
    "disposal_tax": ("Tax", "One-Time"),
}
"""ChargeCategory and ChargeFrequency of an owned option's cash that is not in its P&L."""


def _cash(option: OptionReport, owned: bool, m: int, lang: Language) -> list[Charge]:
    """Month `m`'s cash that is not in the P&L, by category: CapEx, refresh, tax shield,
    resale, disposal tax (a report saved before they were kept by month: the CapEx in month
    1, and `_cash_only` takes the rest)."""
    if not owned:
        return []
    by_month = option.cash_by_category
    if by_month is None:
        capex = option.totals.get("capex", 0.0)
        return [_paid("capex", capex, lang)] if m == 0 and capex else []
    return [_paid(k, by_month[k][m], lang) for k in CASH_ONLY if k in by_month and by_month[k][m]]


def _paid(key: str, amount: float, lang: Language) -> Charge:
    charge, frequency = _CASH_CHARGE[key]
    return Charge(key, charge, amount, 0.0, category_label(key, lang), frequency)


def _usage(
    key: str,
    amount: float,
    hours: float | None,
    committed: tuple[float, float] | None,
    lang: Language,
) -> list[Charge]:
    """A P&L category's charge(s) for a month; a commitment is a Purchase and its Used and
    Unused shares (`committed`: GPU-hours a month committed and used), the month's useful
    GPU-hours on the Used row when no other compute row has them (`_gpu_hours`)."""
    label = category_label(key, lang)
    if key == "depreciation":  # the CapEx amortized: billed as it was paid (`_cash`)
        said = text("report.focus.amortized", lang)
        return [Charge(key, "Usage", 0.0, amount, said, gpu_hours=hours)]
    if key != "commitment" or committed is None:
        return [Charge(key, "Usage", amount, amount, label, gpu_hours=hours)]
    paid_hours, used_hours = committed
    used = min(1.0, used_hours / paid_hours)
    paid = Charge(key, "Purchase", amount, 0.0, label, commitment="")
    paid = replace(paid, committed_gpu_hours=paid_hours)
    shares = (
        ("Used", used, "report.focus.commitment_used"),
        ("Unused", 1.0 - used, "report.focus.commitment_unused"),
    )
    return [paid] + [
        Charge(
            key,
            "Usage",
            0.0,
            amount * share,
            text(said, lang),
            commitment=status,
            gpu_hours=hours if status == "Used" else None,
            committed_gpu_hours=paid_hours * share,
        )
        for status, share, said in shares
        if share > 0
    ]


def _committed(cloud: CloudInputs | None, useful: float) -> tuple[float, float] | None:
    """GPU-hours a month committed, and of those the demand used (None: no commitment).
    With the bill's demand levels (a replay, or a flat demand as one level): at each level L
    of GPUs held at once, its GPU-hours x min(1, C / L), the share of every running job the C
    committed GPUs cover (the rule its overflow is billed by, `planner.cost.commitment`);
    without them (a node pool's committed instances, `kept`), the `useful` GPU-hours a
    month, at most all committed: an upper bound when the demand varies."""
    if cloud is None:
        return None
    bill = cloud.bill
    paid = bill.committed_gpus * bill.commit_hours
    if not paid and bill.kept:
        paid = sum(q.quantity_per_month * q.gpus_per_unit for q in bill.kept)
    if not paid:
        return None
    if not bill.levels:
        return paid, min(paid, cloud.rented.useful_gpu_hours or useful)
    gpus = [line.gpus_per_unit for line in bill.compute]
    used = sum(
        sum(h * g for h, g in zip(level.hours, gpus, strict=True))
        * min(1.0, bill.committed_gpus / level.gpus)
        for level in bill.levels
    )
    return paid, min(paid, used)


def _cash_only(amount: float, option: OptionReport, owned: bool, lang: Language) -> Charge:
    """The month's cash that is not in its P&L: a rented option's tax saved, an owned
    option's tax shield, refresh, resale and disposal tax (their month's sum: the report
    keeps them by horizon, the workbook month by month)."""
    if not owned:
        return Charge("tax_shield", "Tax", amount, 0.0, text("report.focus.tax_saved", lang))
    found = [k for k in CASH_ONLY[1:] if option.totals.get(k)] or ["tax_shield"]
    kind = {"tax_shield": "Tax", "disposal_tax": "Tax", "resale": "Credit", "refresh": "Purchase"}
    charge = kind[found[0]] if len({kind[k] for k in found}) == 1 else "Adjustment"
    labels = ", ".join(category_label(k, lang) for k in found)
    said = text("report.focus.cash_only", lang, categories=labels)
    return Charge("+".join(found), charge, amount, 0.0, said)


def _cloud_inputs(report: TcoReport, name: str) -> CloudInputs | None:
    clouds = report.inputs.clouds if report.inputs else ()
    return next((c for c in clouds if c.rented.name == name), None)


def _in_cents(months: list[list[Charge]]) -> list[list[Charge]]:
    """Every amount in whole cents, rounded along the option's running sums of BilledCost and
    of EffectiveCost (0 stays 0), so each adds up to its exact total rounded to the cent."""
    totals = [0.0, 0.0]
    shown = [0, 0]
    out = []
    for charges in months:
        month = []
        for c in charges:
            cents = []
            for k, amount in enumerate((c.billed, c.effective)):
                if not amount:
                    cents.append(0.0)
                    continue
                totals[k] += amount
                upto = round(totals[k] * 100)
                cents.append((upto - shown[k]) / 100)
                shown[k] = upto
            month.append(replace(c, billed=cents[0], effective=cents[1]))
        out.append(month)
    return out
