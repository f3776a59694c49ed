"""The Assumptions sheet: every input the options are priced from, one row each with its unit,
source, date and confidence, each a workbook defined name the formula sheets use.

Inputs come from `TcoReport.inputs` (the model's own values): the bare-metal assumptions,
the server pools, each cloud price once, and the replay's monthly quantities (useful
GPU-hours, allocation by hour of day, instance-hours by SKU). What the model computes in ways a
formula cannot follow (overflow above a commitment, spot overhead, CPU instances, storage,
egress) is a stated monthly amount here, marked as the model's.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from openpyxl.worksheet.worksheet import Worksheet

from planner.cost.baremetal import HOURS_PER_MONTH, BareMetal
from planner.cost.inputs import CloudBillInputs, PricedQuantity, TcoInputs
from planner.cost.results import PriceUsed
from planner.report.cells import Kind
from planner.report.text import text
from planner.report.workbook.book import (
    BOLD,
    INPUT,
    TITLE,
    Book,
    header,
    option_label,
    put,
    put_formula,
    put_text,
    widths,
)

# BareMetal field -> (defined name, kind, unit key)
_SCALARS: tuple[tuple[str, str, Kind, str], ...] = (
    ("network_share", "NetworkShare", "percent", "share_of_servers"),
    ("storage_share", "StorageShare", "percent", "share_of_servers"),
    ("installation", "Installation", "money", "money"),
    ("life_years", "LifeYears", "decimal", "years"),
    ("residual_share", "ResidualShare", "percent", "share_of_capex"),
    ("tax_life_years", "TaxLifeYears", "decimal", "years"),
    ("pue", "PUE", "decimal", "ratio"),
    ("colo_per_kw_month", "ColoPerKwMonth", "money", "per_kw_month"),
    ("rack_fee_month", "RackFeeMonth", "money", "per_rack_month"),
    ("servers_per_rack", "ServersPerRack", "int", "servers"),
    ("support_share_year", "SupportShareYear", "percent", "share_per_year"),
    ("fte", "StaffFte", "decimal", "fte"),
    ("fte_per_server", "StaffFtePerServer", "decimal", "fte_per_server"),
    ("fte_cost_year", "FteCostYear", "money", "per_fte_year"),
    ("software_per_gpu_year", "SoftwarePerGpuYear", "money", "per_gpu_year"),
    ("spares_share_year", "SparesShareYear", "percent", "share_of_capex_year"),
    ("lead_time_months", "LeadTimeMonths", "int", "months"),
    ("availability", "Availability", "percent", "share_of_hours"),
)
POOL_COLUMNS = ("servers", "gpus", "price", "idle", "load", "max", "hybrid")
_POOL_KINDS: tuple[Kind, ...] = ("int", "int", "money", "decimal", "decimal", "decimal", "int")


@dataclass
class BillNames:
    """A cloud bill's names: quantity x price lines, the commitment and stated amounts."""

    lines: list[tuple[str, str]] = field(default_factory=list)
    """(quantity name, price name) per SKU."""
    committed: tuple[str, str] | None = None
    """(committed GPUs, price per committed GPU-hour)."""
    other: dict[str, str] = field(default_factory=dict)

    def formula(self, hours: str) -> str:
        """The bill a month as a formula."""
        terms = [f"{q}*{p}" for q, p in self.lines]
        if self.committed is not None:
            terms.append(f"{self.committed[0]}*{hours}*{self.committed[1]}")
        terms += list(self.other.values())
        return "+".join(terms) or "0"


@dataclass
class OwnedNames:
    servers: str
    util: str
    util_hours: int
    useful: str
    burst: BillNames | None


@dataclass
class CloudNames:
    bill: BillNames
    useful: str


@dataclass
class Names:
    """One scenario's defined names."""

    rate: str
    months: str
    hours: str
    tax: str
    scalars: dict[str, str] = field(default_factory=dict)
    methods: tuple[str, str] = ("straight_line", "straight_line")
    pools: dict[str, str] = field(default_factory=dict)
    tariff: str = ""
    tariff_hours: int = 1
    owned: list[OwnedNames] = field(default_factory=list)
    clouds: list[CloudNames] = field(default_factory=list)


class _Writer:
    """Rows of the Assumptions sheet: input, value, unit, source, as of, confidence, name."""

    def __init__(self, book: Book, sheet: Worksheet, prefix: str) -> None:
        self.book, self.sheet, self.prefix, self.row = book, sheet, prefix, 1

    def section(self, key: str) -> None:
        self.row += 1
        put_text(self.sheet.cell(self.row, 1), text(key, self.book.lang)).font = BOLD
        self.row += 1

    def input(
        self,
        label: str,
        value: float | str,
        kind: Kind,
        name: str,
        *,
        unit: str = "",
        source: tuple[str, str, str] = ("", "", ""),
    ) -> str:
        """One input row, its value cell named `prefix + name`; returns the defined name."""
        r, sheet = self.row, self.sheet
        put_text(sheet.cell(r, 1), label)
        put(sheet.cell(r, 2), value, kind, self.book.currency).font = INPUT
        for k, item in enumerate((unit, *source), start=3):
            put_text(sheet.cell(r, k), item)
        defined = self.book.define(self.prefix + name, sheet, sheet.cell(r, 2))
        put_text(sheet.cell(r, 7), defined)
        self.row += 1
        return defined


def assumptions_sheet(
    book: Book,
    title: str,
    inputs: TcoInputs,
    months: int,
    *,
    prices: Sequence[PriceUsed],
    prefix: str = "",
) -> Names:
    """Write the sheet; the names its inputs are defined as."""
    sheet = book.sheet(title)
    lang = book.lang
    out = _Writer(book, sheet, prefix)
    put_text(sheet.cell(1, 1), text("report.wb.assumptions_title", lang)).font = TITLE
    out.row = 3
    header(sheet, out.row, [text(f"report.wb.col.{k}", lang) for k in _COLUMNS])
    sheet.freeze_panes = "B4"
    out.row += 1
    model = (text("report.wb.source.model", lang), "", "")
    general: tuple[tuple[str, float, Kind, str, str], ...] = (
        ("discount_rate", inputs.discount_rate, "percent", "DiscountRate", "per_year"),
        ("months", months, "int", "Months", "months"),
        ("hours", HOURS_PER_MONTH, "decimal", "HoursPerMonth", "hours"),
        ("tax_rate", inputs.tax_rate, "percent", "TaxRate", "share"),
    )
    sources = {
        "discount_rate": (text("report.wb.source.scenario", lang), "", ""),
        "tax_rate": _source(inputs, "tax_rate"),
    }
    defined = [
        out.input(
            text(f"report.wb.in.{key}", lang),
            value,
            kind,
            name,
            unit=_unit(unit, book),
            source=sources.get(key, model),
        )
        for key, value, kind, name, unit in general
    ]
    names = Names(rate=defined[0], months=defined[1], hours=defined[2], tax=defined[3])
    if inputs.owned:
        _bare_metal(out, inputs, names)
        _pools(out, inputs, names)
    named, committed = _cloud_prices(out, inputs, prices)
    _quantities(out, inputs, names, named, committed)
    widths(sheet, {1: 46, 2: 16, 3: 26, 4: 48, 5: 12, 6: 11, 7: 26, 8: 14})
    return names


_COLUMNS = ("input", "value", "unit", "source", "as_of", "confidence", "name")


def _unit(key: str, book: Book) -> str:
    return text(f"report.wb.unit.{key}", book.lang, currency=book.currency)


def _source(inputs: TcoInputs, name: str) -> tuple[str, str, str]:
    found = inputs.sources.get(name)
    return ("", "", "") if found is None else (found.source, found.as_of, found.confidence)


def _bare_metal(out: _Writer, inputs: TcoInputs, names: Names) -> None:
    bm = inputs.owned[0].bare_metal
    lang = out.book.lang
    out.section("report.wb.section.owned")
    values: dict[str, float | None] = {f: getattr(bm, f) for f, *_ in _SCALARS}
    values["tax_life_years"] = bm.tax_life_years or bm.life_years
    if bm.fte_per_server is not None:
        values["fte"] = None  # staff follows the servers; the total is not used
    for field_name, name, kind, unit in _SCALARS:
        value = values[field_name]
        if value is None:
            continue
        label = text(f"report.wb.bm.{field_name}", lang)
        source = _source(inputs, field_name)
        names.scalars[field_name] = out.input(
            label, float(value), kind, name, unit=_unit(unit, out.book), source=source
        )
    for field_name, name in (("depreciation_method", "BookMethod"), ("tax_method", "TaxMethod")):
        label = text(f"report.wb.bm.{field_name}", lang)
        out.input(
            label,
            str(getattr(bm, field_name)),
            "text",
            name,
            unit="",
            source=_source(inputs, field_name),
        )
    names.methods = (bm.depreciation_method, bm.tax_method)
    _tariff(out, inputs, names, bm)


def _tariff(out: _Writer, inputs: TcoInputs, names: Names, bm: BareMetal) -> None:
    """One electricity price, or 24 by hour of day (one name over the 24 cells)."""
    lang, sheet = out.book.lang, out.sheet
    unit, source = _unit("per_kwh", out.book), _source(inputs, "kwh_price")
    if len(bm.kwh_price) == 1:
        label = text("report.wb.bm.kwh_price", lang)
        names.tariff = out.input(label, bm.kwh_price[0], "rate", "Tariff", unit=unit, source=source)
        return
    first = out.row
    for hour, price in enumerate(bm.kwh_price):
        label = text("report.wb.bm.kwh_price_hour", lang, hour=hour)
        out.input(label, price, "rate", f"Tariff_h{hour:02d}", unit=unit, source=source)
    names.tariff = out.book.define(
        out.prefix + "Tariff", sheet, sheet.cell(first, 2), sheet.cell(out.row - 1, 2)
    )
    names.tariff_hours = len(bm.kwh_price)


def _pools(out: _Writer, inputs: TcoInputs, names: Names) -> None:
    """The server pools as a table; each column a named range, each server count named."""
    book, sheet, lang = out.book, out.sheet, out.book.lang
    out.section("report.wb.section.pools")
    header(sheet, out.row, [text(f"report.wb.pool.{k}", lang) for k in ("pool", *POOL_COLUMNS)])
    out.row += 1
    pools = inputs.owned[0].bare_metal.pools
    kept = {p.name: p.servers for o in inputs.owned[1:] for p in o.bare_metal.pools}
    first = out.row
    for pool in pools:
        r = out.row
        put_text(sheet.cell(r, 1), pool.name)
        values = (
            pool.servers,
            pool.gpus_per_server,
            pool.price,
            pool.idle_kw,
            pool.load_kw,
            pool.max_kw,
            kept.get(pool.name, 0),
        )
        for k, (value, kind) in enumerate(zip(values, _POOL_KINDS, strict=True), start=2):
            put(sheet.cell(r, k), value, kind, book.currency).font = INPUT
        book.define(f"{out.prefix}Servers_{pool.name}", sheet, sheet.cell(r, 2))
        book.define(f"{out.prefix}ServerPrice_{pool.name}", sheet, sheet.cell(r, 4))
        out.row += 1
    for k, column in enumerate(POOL_COLUMNS, start=2):
        if column == "hybrid" and len(inputs.owned) < 2:
            continue
        wanted = f"{out.prefix}Pool_{column.capitalize()}"
        names.pools[column] = book.define(
            wanted, sheet, sheet.cell(first, k), sheet.cell(out.row - 1, k)
        )


Prices = dict[tuple[str, float], str]
Commitments = dict[int, tuple[str, str]]


def _cloud_prices(
    out: _Writer, inputs: TcoInputs, prices: Sequence[PriceUsed]
) -> tuple[Prices, Commitments]:
    """Each SKU price once (the bills share them), then each option's commitment: the
    prices' names by (SKU, price) and the commitments' names by cloud option."""
    bills = [c.bill for c in inputs.clouds] + [o.burst for o in inputs.owned if o.burst]
    named: Prices = {}
    committed: Commitments = {}
    if not any(b.compute or b.committed_gpus for b in bills):
        return named, committed
    out.section("report.wb.section.cloud")
    found = {p.price: p for p in prices}
    for line in (q for b in bills for q in b.compute):
        key = (line.sku, line.price)
        if key not in named:
            named[key] = _price_row(out, line, found.get(line.sku))
    for k, cloud in enumerate(inputs.clouds, start=1):
        bill = cloud.bill
        if not bill.committed_gpus:
            continue
        label = text("report.wb.in.committed", out.book.lang, name=cloud.rented.name)
        gpus = out.input(label, bill.committed_gpus, "decimal", f"CommittedGpus_{k}", unit="GPUs")
        label = text("report.wb.in.commit_price", out.book.lang, name=cloud.rented.name)
        unit = _unit("per_gpu_hour", out.book)
        price = out.input(label, bill.commit_price, "rate", f"CommitPrice_{k}", unit=unit)
        committed[k] = (gpus, price)
    return named, committed


def _price_row(out: _Writer, line: PricedQuantity, used: PriceUsed | None) -> str:
    unit_key = "per_instance_hour" if line.unit == "instance-hour" else "per_gpu_hour"
    unit = _unit(unit_key, out.book)
    if line.unit == "instance-hour":
        unit += f" ({line.gpus_per_unit:g} GPUs)"
    source = ("", "", "") if used is None else (used.source, used.as_of, used.confidence)
    row = out.row
    name = out.input(line.sku, line.price, "rate", f"Price_{line.sku}", unit=unit, source=source)
    if line.unit == "instance-hour":
        per_gpu = f"B{row}/{line.gpus_per_unit!r}"
        put_formula(out.sheet.cell(row, 8), per_gpu, "rate", out.book.currency)
    return name


def _quantities(
    out: _Writer, inputs: TcoInputs, names: Names, prices: Prices, committed: Commitments
) -> None:
    """The replay's quantities a month, and the model's stated amounts."""
    lang = out.book.lang
    out.section("report.wb.section.replay")
    replay = (text("report.wb.source.replay", lang), "", "")
    for k, owned in enumerate(inputs.owned, start=1):
        tag = option_label(owned.name, lang)
        label = text("report.wb.in.useful", lang, name=tag)
        useful = out.input(
            label,
            owned.demand.useful_gpu_hours,
            "hours",
            f"Useful_{k}",
            unit="GPU-h",
            source=replay,
        )
        util, hours = _utilization(out, tag, k, owned.demand.utilization_by_hour)
        burst = None
        if owned.burst is not None:
            burst = _bill(out, owned.burst, f"Burst_{k}", tag, prices=prices, committed=None)
        pool = names.pools["servers" if k == 1 else "hybrid"]
        names.owned.append(OwnedNames(pool, util, hours, useful, burst))
    for k, cloud in enumerate(inputs.clouds, start=1):
        tag = cloud.rented.name
        value = cloud.rented.useful_gpu_hours
        if value is None:
            value = inputs.owned[0].demand.useful_gpu_hours if inputs.owned else 0.0
        label = text("report.wb.in.useful", lang, name=tag)
        useful = out.input(label, value, "hours", f"UsefulCloud_{k}", unit="GPU-h", source=replay)
        bill = _bill(out, cloud.bill, f"Cloud_{k}", tag, prices=prices, committed=committed.get(k))
        names.clouds.append(CloudNames(bill, useful))


def _utilization(out: _Writer, tag: str, k: int, hours: Sequence[float]) -> tuple[str, int]:
    lang, sheet = out.book.lang, out.sheet
    replay = (text("report.wb.source.replay", lang), "", "")
    unit = _unit("share", out.book)
    if len(hours) == 1:
        label = text("report.wb.in.allocation", lang, name=tag)
        return out.input(label, hours[0], "percent", f"Util_{k}", unit=unit, source=replay), 1
    first = out.row
    for hour, share in enumerate(hours):
        label = text("report.wb.in.allocation_hour", lang, name=tag, hour=hour)
        out.input(label, share, "percent", f"Util_{k}_h{hour:02d}", unit=unit, source=replay)
    name = out.book.define(
        f"{out.prefix}Util_{k}", sheet, sheet.cell(first, 2), sheet.cell(out.row - 1, 2)
    )
    return name, len(hours)


def _bill(
    out: _Writer,
    bill: CloudBillInputs,
    name: str,
    tag: str,
    *,
    prices: Prices,
    committed: tuple[str, str] | None,
) -> BillNames:
    lang = out.book.lang
    replay = (text("report.wb.source.replay", lang), "", "")
    model = (text("report.wb.source.model_amount", lang), "", "")
    names = BillNames(committed=committed)
    for j, line in enumerate(bill.compute, start=1):
        label = text("report.wb.in.quantity", lang, name=tag, sku=line.sku, unit=line.unit)
        unit = f"{line.unit}s"
        quantity = out.input(
            label, line.quantity_per_month, "hours", f"{name}_qty{j}", unit=unit, source=replay
        )
        names.lines.append((quantity, prices[(line.sku, line.price)]))
    for category, amount in bill.other.items():
        what = text(f"report.cat.{category}", lang) if category in _CATS else category
        label = text("report.wb.in.stated", lang, name=tag, what=what)
        unit = _unit("per_month", out.book)
        names.other[category] = out.input(
            label, amount, "money", f"{name}_{category}", unit=unit, source=model
        )
    return names


_CATS = {
    "cloud_compute",
    "commitment",
    "overflow",
    "spot_overhead",
    "cloud_cpu",
    "storage",
    "egress",
}
