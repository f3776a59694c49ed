"""The Assumptions sheet: every input the options are priced from, one row each with its unit,
source, date and confidence, each a workbook defined name the formula sheets use.

Inputs come from `TcoReport.inputs` (the model's own values): the bare-metal assumptions,
the server pools, the replay's monthly quantities (useful GPU-hours, allocation by hour of
day) and the cloud bills' quantities, rates and prices (`planner.report.workbook.
cloud_inputs`).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from planner.core.i18n import Language
from planner.cost.baremetal import HOURS_PER_MONTH, BareMetal
from planner.cost.busy import BusyShare
from planner.cost.inputs import TcoInputs
from planner.cost.lines import ASSUMPTIONS
from planner.cost.results import PriceUsed
from planner.report.cells import Kind
from planner.report.text import text
from planner.report.workbook.book import (
    INPUT,
    NOTE,
    TITLE,
    Book,
    header,
    option_label,
    put,
    put_text,
    widths,
)
from planner.report.workbook.cloud_inputs import (
    BillNames,
    Pending,
    Prices,
    bill_rows,
    cloud_prices,
    level_tables,
)
from planner.report.workbook.rows import Writer

_SCALARS: tuple[tuple[str, str, Kind, str], ...] = tuple(
    (a.field, a.name, a.kind, a.unit)
    for a in ASSUMPTIONS
    if a.name and a.kind in ("percent", "money", "decimal", "int")
)
"""BareMetal field, defined name, kind, unit key (`planner.cost.lines.ASSUMPTIONS` that have
a defined name)."""
POOL_COLUMNS = ("servers", "gpus", "price", "idle", "load", "max", "hybrid")
_POOL_KINDS: tuple[Kind, ...] = ("int", "int", "money", "decimal", "decimal", "decimal", "int")


@dataclass
class OwnedNames:
    servers: str
    util: str
    util_hours: int
    useful: str
    burst: BillNames | None
    unserved: str = "0"
    """GPU-hours a month in service it leaves unserved (bought elsewhere)."""
    waited: str = "0"
    """GPU-hours waited a month in service."""


@dataclass
class CloudNames:
    bill: BillNames
    useful: str


@dataclass
class YearNames:
    """A later year's quantities (growing demand): per owned and cloud option, as year 1's."""

    year: int
    owned: list[OwnedNames]
    clouds: list[CloudNames]


@dataclass
class Names:
    """One scenario's defined names."""

    rate: str
    months: str
    hours: str
    tax: str
    swing: str
    """The sensitivity's swing (low = base x (1 - swing), high = base x (1 + swing))."""
    cloud_escalation: str = "0"
    """Cloud prices' yearly escalation (`planner.cost.escalation`)."""
    scalars: dict[str, str] = field(default_factory=dict)
    methods: tuple[str, str] = ("straight_line", "straight_line")
    pools: dict[str, str] = field(default_factory=dict)
    tariff: str = ""
    tariff_hours: int = 1
    owned: list[OwnedNames] = field(default_factory=list)
    clouds: list[CloudNames] = field(default_factory=list)
    years: list[YearNames] = field(default_factory=list)
    """Years 2, 3, ... of growing demand (`TcoInputs.later_years`; empty without growth)."""
    elsewhere_rate: str = "0"
    """Per GPU-hour bought elsewhere (0: the line is off)."""
    wait_rate: str = "0"
    unserved_lead: str = "0"
    """GPU-hours a month left unserved while the servers are on order."""
    busy_share: str = ""
    """The priced jobs' busy share (`planner.cost.busy`); "": not known."""


def assumptions_sheet(
    book: Book,
    title: str,
    inputs: TcoInputs,
    months: int,
    *,
    prices: Sequence[PriceUsed],
    prefix: str = "",
    busy: BusyShare | None = None,
) -> Names:
    """Write the sheet; the names its inputs are defined as (`busy`: the measured busy
    share, a named input when known)."""
    sheet = book.sheet(title)
    lang = book.lang
    out = Writer(book, sheet, prefix)
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
        ("swing", inputs.sensitivity_swing, "percent", "SensitivitySwing", "share"),
        (
            "cloud_escalation",
            inputs.cloud_escalation_year,
            "percent",
            "CloudEscalationYear",
            "per_year",
        ),
    )
    sources = {
        "discount_rate": (text("report.wb.source.scenario", lang), "", ""),
        "swing": (text("report.wb.source.scenario", lang), "", ""),
        "tax_rate": _source(inputs, "tax_rate"),
        "cloud_escalation": _source(inputs, "cloud_escalation_year"),
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
    rate, months_name, hours, tax, swing, cloud_escalation = defined
    names = Names(rate, months_name, hours, tax, swing, cloud_escalation)
    if busy is not None:
        names.busy_share = _busy_share(out, busy)
    if inputs.owned:
        _bare_metal(out, inputs, names)
        _pools(out, inputs, names)
        _equal_service(out, inputs, names)
    years = inputs.by_year()
    bills = [c.bill for y in years for c in y.clouds]
    bills += [o.burst for y in years for o in y.owned if o.burst]
    named = cloud_prices(out, bills, prices)
    pending = [(prefix, _quantities(out, inputs, names, named))]
    for year, grown in enumerate(years[1:], start=2):
        # year k's quantities under names prefixed Y<k>_ (Y2_Useful_1, ...)
        out.prefix = f"{prefix}Y{year}_"
        mine = replace(names, owned=[], clouds=[])
        pending.append((out.prefix, _quantities(out, grown, mine, named, year=year)))
        names.years.append(YearNames(year, mine.owned, mine.clouds))
    for year_prefix, later in pending:
        out.prefix = year_prefix
        level_tables(out, later)
    out.prefix = prefix
    widths(sheet, {1: 46, 2: 16, 3: 26, 4: 48, 5: 12, 6: 11, 7: 26, 8: 14})
    return names


_COLUMNS = ("input", "value", "unit", "source", "as_of", "confidence", "name")


def _busy_share(out: Writer, busy: BusyShare) -> str:
    """The busy share the cost per busy GPU-hour divides by, with how it was measured."""
    lang = out.book.lang
    measured = text(
        "report.wb.source.busy",
        lang,
        jobs=f"{busy.jobs_known:,}",
        share=f"{busy.known_hours_share:.1%}",
    )
    label = text("report.wb.in.busy_share", lang)
    return out.input(
        label, busy.share, "percent", "BusyShare", unit=out.unit("share"), source=(measured, "", "")
    )


def _unit(key: str, book: Book) -> str:
    return text(f"report.wb.unit.{key}", book.lang, currency=book.currency)


def _source(inputs: TcoInputs, name: str) -> tuple[str, str, str]:
    found = inputs.sources.get(name)
    return ("", "", "") if found is None else (found.source, found.as_of, found.confidence)


def _bare_metal(out: Writer, inputs: TcoInputs, names: Names) -> None:
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
            # the method's name: the depreciation formulas follow `names.methods`, not the cell
            text(f"report.wb.method.{getattr(bm, field_name)}", lang),
            "text",
            name,
            unit="",
            source=_source(inputs, field_name),
        )
    names.methods = (bm.depreciation_method, bm.tax_method)
    _tariff(out, inputs, names, bm)


def _tariff(out: Writer, inputs: TcoInputs, names: Names, bm: BareMetal) -> None:
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


def _equal_service(out: Writer, inputs: TcoInputs, names: Names) -> None:
    """The served-elsewhere and waiting rates (`planner.cost.elsewhere`) and what an owned
    option leaves unserved while its servers are on order."""
    prices, lang = inputs.served_elsewhere, out.book.lang
    if prices is None:
        return
    out.section("report.wb.section.equal_service")
    if prices.rate is None:
        said = text("report.wb.source.elsewhere_off", lang)
    elif prices.priced_at:
        said = text("report.wb.source.elsewhere_cheapest", lang, sku=prices.priced_at)
    else:
        said = text("report.wb.source.elsewhere_scenario", lang)
    rate = _unit("per_gpu_hour", out.book)
    scenario = (text("report.wb.source.scenario", lang), "", "")
    names.elsewhere_rate = out.input(
        text("report.wb.in.elsewhere_rate", lang),
        prices.rate or 0.0,
        "rate",
        "ServedElsewhereRate",
        unit=rate,
        source=(said, "", ""),
    )
    names.wait_rate = out.input(
        text("report.wb.in.wait_rate", lang),
        prices.wait_rate,
        "rate",
        "WaitCostRate",
        unit=rate,
        source=scenario,
    )
    names.unserved_lead = out.input(
        text("report.wb.in.unserved_lead", lang),
        prices.before_delivery_gpu_hours,
        "hours",
        "UnservedLead",
        unit="GPU-h",
        source=(text("report.wb.source.replay", lang), "", ""),
    )


def _pools(out: Writer, inputs: TcoInputs, names: Names) -> None:
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
    put_text(sheet.cell(out.row, 1), _count_note(inputs, lang)).font = NOTE
    out.row += 1


def _count_note(inputs: TcoInputs, lang: Language) -> str:
    """What a changed server count moves and what stays (the replay's quantities: a new
    count needs a new replay), next to the counts."""
    pools = inputs.owned[0].bare_metal.pools
    counts = " + ".join(f"{p.servers:g} {p.name}" for p in pools)
    replayed = inputs.owned[0].replay is not None
    key = "count_note_replay" if replayed else "count_note_given"
    return text(f"report.wb.pool.{key}", lang, counts=counts)


def _quantities(
    out: Writer, inputs: TcoInputs, names: Names, prices: Prices, *, year: int = 1
) -> list[Pending]:
    """The replay's quantities a month and each bill's rates (of a later `year` of growing
    demand, labelled so); the bills whose level tables are still to write."""
    lang = out.book.lang
    if year == 1:
        out.section("report.wb.section.replay")
    else:
        out.section("report.wb.section.replay_year", year=str(year))
    pending: list[Pending] = []
    replay = (text("report.wb.source.replay", lang), "", "")

    def tagged(name: str) -> str:
        return name if year == 1 else text("report.wb.in.year_tag", lang, name=name, year=year)

    for k, owned in enumerate(inputs.owned, start=1):
        tag = tagged(option_label(owned.name, lang))
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
            burst, later = bill_rows(
                out, owned.burst, f"Burst_{k}", tag, prices=prices, hours=names.hours
            )
            pending += [later] if later else []
        pool = names.pools["servers" if k == 1 else "hybrid"]
        unserved = out.input(
            text("report.wb.in.unserved", lang, name=tag),
            owned.demand.unserved_gpu_hours,
            "hours",
            f"Unserved_{k}",
            unit="GPU-h",
            source=replay,
        )
        waited = out.input(
            text("report.wb.in.waited", lang, name=tag),
            owned.demand.waited_gpu_hours,
            "hours",
            f"Waited_{k}",
            unit="GPU-h",
            source=replay,
        )
        names.owned.append(OwnedNames(pool, util, hours, useful, burst, unserved, waited))
    for k, cloud in enumerate(inputs.clouds, start=1):
        tag = tagged(cloud.rented.name)
        value = cloud.rented.useful_gpu_hours
        if value is None:
            value = inputs.owned[0].demand.useful_gpu_hours if inputs.owned else 0.0
        label = text("report.wb.in.useful", lang, name=tag)
        useful = out.input(label, value, "hours", f"UsefulCloud_{k}", unit="GPU-h", source=replay)
        bill, later = bill_rows(
            out, cloud.bill, f"Cloud_{k}", tag, prices=prices, hours=names.hours
        )
        pending += [later] if later else []
        names.clouds.append(CloudNames(bill, useful))
    return pending


def _utilization(out: Writer, tag: str, k: int, hours: Sequence[float]) -> tuple[str, int]:
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
