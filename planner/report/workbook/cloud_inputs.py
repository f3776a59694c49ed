"""The cloud part of the Assumptions sheet: each SKU price once, then per bill (a cloud
option's, or the hybrid's bursts) its monthly quantities, rates and commitment, and at the
end of the sheet each committed bill's demand by level. `BillNames` turns them into the
bill's formulas (`planner.cost.inputs.CloudBillInputs` says what each part is):

    cloud compute  sum of instance-hours x price (none under a commitment)
    commitment     committed GPUs x hours paid a month x price per committed GPU-hour
    overflow       sum over SKUs of SUMPRODUCT(instance-hours by level, share above the
                   commitment) x price, the share max(0, 1 - committed / level) a formula
    spot overhead  sum of instance-hours x re-run share x price; under a commitment, of
                   each SKU's overflow only (committed capacity is not interrupted)
    CPU instances  vCPU-hours x rate + GiB-hours x rate
    storage        GB kept x price per GB-month; egress GB out x price per GB
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from planner.cost.baremetal import HOURS_PER_MONTH
from planner.cost.inputs import CloudBillInputs, PricedQuantity
from planner.cost.lines import CLOUD_CATEGORIES
from planner.cost.results import PriceUsed
from planner.report.text import text
from planner.report.workbook.book import INPUT, header, put, put_formula
from planner.report.workbook.rows import NO_SOURCE, Writer

PARTS = (*CLOUD_CATEGORIES, "other")
"""A bill's parts, in the order the cloud sheets show them: `planner.cost.lines.
CLOUD_CATEGORIES` (the report's order), then what the model states as a sum."""
Prices = dict[tuple[str, float], str]


def _sum(terms: Iterable[str]) -> str:
    return "+".join(terms) or "0"


@dataclass
class BillNames:
    """A cloud bill's defined names (quantity, rate and price names per part)."""

    hours: str
    """Hours a month (the commitment's, when it is paid other hours than the month's)."""
    lines: list[tuple[str, str, str]] = field(default_factory=list)
    """(instance-hours, re-run share or "", price) per SKU."""
    committed: tuple[str, str] | None = None
    """(committed GPUs, price per committed GPU-hour)."""
    kept: list[tuple[str, str]] = field(default_factory=list)
    """A node pool's committed instances: (instance-hours, price) per SKU."""
    levels: list[str] = field(default_factory=list)
    """Per SKU, its instance-hours by level of demand (a column of the level table)."""
    above: str = ""
    """The level table's share above the commitment."""
    cpu: list[tuple[str, str]] = field(default_factory=list)
    data: dict[str, tuple[str, str]] = field(default_factory=dict)
    other: dict[str, str] = field(default_factory=dict)

    def parts(self) -> dict[str, str]:
        """Each part's monthly formula, by `PARTS`."""
        committed = self.committed
        prices = [p for _, _, p in self.lines]
        return {
            "cloud_compute": "0" if committed else _sum(f"{q}*{p}" for q, _, p in self.lines),
            "commitment": (
                f"{committed[0]}*{self.hours}*{committed[1]}"
                if committed
                else _sum(f"{q}*{p}" for q, p in self.kept)
            ),
            "overflow": _sum(
                f"SUMPRODUCT({h},{self.above})*{p}"
                for h, p in zip(self.levels, prices, strict=False)
            ),
            "spot_overhead": self._reruns(),
            "cloud_cpu": _sum(f"{q}*{p}" for q, p in self.cpu),
            "storage": self._data("storage"),
            "egress": self._data("egress"),
            "other": _sum(self.other.values()),
        }

    def _reruns(self) -> str:
        """Spot re-runs: of every instance-hour, or under a commitment (which is never
        interrupted) of each SKU's overflow only (`cloud.with_commitment`)."""
        if not self.committed:
            return _sum(f"{q}*{s}*{p}" for q, s, p in self.lines if s)
        return _sum(
            f"SUMPRODUCT({h},{self.above})*{p}*{s}"
            for (_, s, p), h in zip(self.lines, self.levels, strict=False)
            if s
        )

    def _data(self, key: str) -> str:
        found = self.data.get(key)
        return "0" if found is None else f"{found[0]}*{found[1]}"

    def formula(self) -> str:
        """The bill a month as one formula."""
        return _sum(f for f in self.parts().values() if f != "0")


def cloud_prices(
    out: Writer, bills: Sequence[CloudBillInputs], prices: Sequence[PriceUsed]
) -> Prices:
    """Each SKU price once (the bills share them): their names by (SKU, price)."""
    named: Prices = {}
    lines = [q for b in bills for q in (*b.compute, *(b.kept or ()))]
    if not lines:
        return named
    out.section("report.wb.section.cloud")
    found = {p.price: p for p in prices}
    for line in lines:
        key = (line.sku, line.price)
        if key not in named:
            named[key] = _price_row(out, line, found.get(line.sku))
    return named


def _price_row(out: Writer, line: PricedQuantity, used: PriceUsed | None) -> str:
    unit_key = "per_instance_hour" if line.unit == "instance-hour" else "per_gpu_hour"
    unit = out.unit(unit_key)
    if line.unit == "instance-hour":
        unit += f" ({line.gpus_per_unit:g} GPUs)"
    source = NO_SOURCE if used is None else (used.source, used.as_of, used.confidence)
    row = out.row
    name = out.input(line.sku, line.price, "rate", f"Price_{line.sku}", unit=unit, source=source)
    if line.unit == "instance-hour":
        per_gpu = f"B{row}/{line.gpus_per_unit!r}"
        put_formula(out.sheet.cell(row, 8), per_gpu, "rate", out.book.currency)
    return name


@dataclass
class Pending:
    """A committed bill whose level table is written at the end of the sheet."""

    bill: CloudBillInputs
    names: BillNames
    name: str
    tag: str


def bill_rows(
    out: Writer, bill: CloudBillInputs, name: str, tag: str, *, prices: Prices, hours: str
) -> tuple[BillNames, Pending | None]:
    """The bill's inputs as rows (`name` prefixes their names, `tag` labels them)."""
    names = BillNames(hours=hours)
    for j, line in enumerate(bill.compute, start=1):
        quantity, share = _sku_rows(out, line, f"{name}_qty{j}", f"{name}_rerun{j}", tag)
        names.lines.append((quantity, share, prices[(line.sku, line.price)]))
    if bill.committed_gpus:
        names.committed = _commitment(out, bill, name, tag, names)
    for j, line in enumerate(bill.kept or (), start=1):
        quantity, _ = _sku_rows(out, line, f"{name}_kept{j}", "", tag)
        names.kept.append((quantity, prices[(line.sku, line.price)]))
    for j, line in enumerate(bill.cpu, start=1):
        names.cpu.append(_cpu_rows(out, line, f"{name}_cpu{j}", tag))
    for line in bill.data:
        names.data[line.sku] = _data(out, line, name, tag)
    for category, amount in bill.other.items():
        what = category
        if category in PARTS[:-1]:
            what = text(f"report.cat.{category}", out.book.lang)
        label = text("report.wb.in.stated", out.book.lang, name=tag, what=what)
        unit, source = out.unit("per_month"), out.source("model_amount")
        names.other[category] = out.input(
            label, amount, "money", f"{name}_{category}", unit=unit, source=source
        )
    pending = Pending(bill, names, name, tag) if bill.committed_gpus and bill.levels else None
    return names, pending


def _sku_rows(
    out: Writer, line: PricedQuantity, quantity_name: str, share_name: str, tag: str
) -> tuple[str, str]:
    """A SKU's units a month and (on spot) the share re-run; their names ("" for none)."""
    lang, replay = out.book.lang, out.source("replay")
    unit = text(f"report.wb.qtys.{line.unit}", lang)
    label = text("report.wb.in.quantity", lang, name=tag, sku=line.sku, units=unit)
    quantity = out.input(
        label, line.quantity_per_month, "hours", quantity_name, unit=unit, source=replay
    )
    if not line.rerun_share:
        return quantity, ""
    label = text("report.wb.in.rerun", lang, name=tag, sku=line.sku)
    unit = out.unit("share")
    share = out.input(label, line.rerun_share, "percent", share_name, unit=unit, source=replay)
    return quantity, share


def _cpu_rows(out: Writer, line: PricedQuantity, name: str, tag: str) -> tuple[str, str]:
    """CPU-only jobs' vCPU-hours (or GiB-hours) a month and the rate per unit."""
    lang = out.book.lang
    unit, replay = text(f"report.wb.qtys.{line.unit}", lang), out.source("replay")
    label = text("report.wb.in.cpu_qty", lang, name=tag, units=unit)
    quantity = out.input(label, line.quantity_per_month, "hours", name, unit=unit, source=replay)
    one = text(f"report.wb.qty.{line.unit}", lang)
    label = text("report.wb.in.cpu_price", lang, name=tag, unit=one)
    unit, source = f"{out.book.currency} / {one}", out.source("cloud_terms")
    price = out.input(label, line.price, "rate", f"{name}_price", unit=unit, source=source)
    return quantity, price


def _commitment(
    out: Writer, bill: CloudBillInputs, name: str, tag: str, names: BillNames
) -> tuple[str, str]:
    lang = out.book.lang
    label = text("report.wb.in.committed", lang, name=tag)
    gpus = out.input(
        label,
        bill.committed_gpus,
        "decimal",
        f"{name}_Committed",
        unit="GPUs",
        source=out.source("scenario"),
    )
    label = text("report.wb.in.commit_price", lang, name=tag)
    price = out.input(
        label,
        bill.commit_price,
        "rate",
        f"{name}_CommitPrice",
        unit=out.unit("per_gpu_hour"),
        source=out.source("cloud_terms"),
    )
    if abs(bill.commit_hours - HOURS_PER_MONTH) > 1e-9 * HOURS_PER_MONTH:
        label = text("report.wb.in.commit_hours", lang, name=tag)
        names.hours = out.input(
            label,
            bill.commit_hours,
            "hours",
            f"{name}_CommitHours",
            unit=out.unit("hours"),
            source=out.source("replay"),
        )
    return gpus, price


def _data(out: Writer, line: PricedQuantity, name: str, tag: str) -> tuple[str, str]:
    """Storage (GB kept, per GB-month) or egress (GB a month, per GB)."""
    lang, what = out.book.lang, line.sku
    scenario = out.source("scenario")
    label = text(f"report.wb.in.{what}_qty", lang, name=tag)
    quantity = out.input(
        label, line.quantity_per_month, "decimal", f"{name}_{what}_gb", unit="GB", source=scenario
    )
    label = text(f"report.wb.in.{what}_price", lang, name=tag)
    unit = out.unit(f"per_{line.unit.replace('-', '_').lower()}")
    price = out.input(label, line.price, "rate", f"{name}_{what}_price", unit=unit, source=scenario)
    return quantity, price


def level_tables(out: Writer, pending: Sequence[Pending]) -> None:
    """Each committed bill's demand by level: the GPUs its jobs hold at once, each SKU's
    instance-hours a month at that level (the replay's), and the share of them above the
    commitment (a formula); each column a defined name."""
    for item in pending:
        _level_table(out, item)


def _level_table(out: Writer, item: Pending) -> None:
    book, sheet, lang = out.book, out.sheet, out.book.lang
    bill, names = item.bill, item.names
    assert names.committed is not None  # only committed bills have levels
    committed = names.committed[0]
    out.section("report.wb.section.levels", name=item.tag)
    heads = [text("report.wb.level.gpus", lang)]
    heads += [
        text("report.wb.level.hours", lang, sku=q.sku, units=text(f"report.wb.qtys.{q.unit}", lang))
        for q in bill.compute
    ]
    heads.append(text("report.wb.level.above", lang))
    header(sheet, out.row, heads)
    out.row += 1
    first, share_col = out.row, len(bill.compute) + 2
    for level in bill.levels:
        r = out.row
        put(sheet.cell(r, 1), level.gpus, "decimal", book.currency).font = INPUT
        for k, hours in enumerate(level.hours, start=2):
            put(sheet.cell(r, k), hours, "hours", book.currency).font = INPUT
        share = f"IF(A{r}>{committed},1-{committed}/A{r},0)"
        put_formula(sheet.cell(r, share_col), share, "percent", book.currency)
        out.row += 1
    ranges = [
        book.define(
            f"{out.prefix}{item.name}_{what}",
            sheet,
            sheet.cell(first, k),
            sheet.cell(out.row - 1, k),
        )
        for k, what in enumerate(
            ["Level", *(f"LevelHours{j}" for j in range(1, share_col - 1)), "Above"], start=1
        )
    ]
    names.levels, names.above = ranges[1:-1], ranges[-1]
