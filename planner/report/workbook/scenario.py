"""One scenario's live part of the workbook: its Assumptions sheet, a sheet per option with the
monthly P&L and cash flow as formulas, its depreciation columns and the comparison of buying
against each cloud option, for the report's horizon and, on sheets of their own (their titles
carry the horizon), for each other horizon, so every horizon's figures are formulas over the
same Assumptions. With growing demand (`TcoInputs.later_years`) each year's months are priced
from that year's quantities."""

from dataclasses import dataclass, replace

from openpyxl.worksheet.worksheet import Worksheet

from planner.cost.inputs import TcoInputs
from planner.cost.results import Horizon, TcoReport
from planner.report.text import text
from planner.report.workbook.assumptions import Names, assumptions_sheet
from planner.report.workbook.book import Book, option_label, ref
from planner.report.workbook.compare import comparison_sheet
from planner.report.workbook.owned import COL as OWN
from planner.report.workbook.owned import Bridge, owned_sheet
from planner.report.workbook.rented import COL as RENT
from planner.report.workbook.rented import rented_figure, rented_sheet
from planner.report.workbook.service import Served, packing_block


@dataclass(frozen=True, slots=True)
class Live:
    """What the other sheets refer to: each option's sheet and cash column, the comparison
    sheet (None without owned servers and a cloud option), the defined names, and the
    self-hosted and first cloud option's sheets (None without them)."""

    options: tuple[tuple[str, Worksheet, int], ...]
    comparison: Worksheet | None
    months: int
    names: Names | None = None
    owned: Worksheet | None = None
    cloud: Worksheet | None = None
    clouds: int = 0
    cloud_sheets: tuple[Worksheet, ...] = ()
    """Every cloud option's sheet, in the options' order (the headline pair's may be any)."""
    pair_comparison: Worksheet | None = None
    """The hybrid of a headline pair against its cloud option (one cloud column), or None:
    the pair is self-hosted's, on `comparison`."""
    years: int = 1
    """Years of demand the sheets price (more than 1 with growth)."""
    horizon_years: float = 0.0
    """The horizon these sheets price."""
    others: tuple["Live", ...] = ()
    """The other horizons' sheets (each with no `others` of its own)."""

    def at(self, years: float) -> "Live | None":
        """The sheets pricing the horizon of `years` (None: the workbook has none)."""
        found = [p for p in (self, *self.others) if abs(p.horizon_years - years) < 1e-9]
        return found[0] if found else None


def live_sheets(
    book: Book,
    *,
    index: int,
    many: bool,
    report: TcoReport,
    inputs: TcoInputs,
    horizon: Horizon,
    depreciation: Worksheet,
) -> Live:
    """Write scenario `index`'s live sheets (prefixed when the report has `many`): its
    Assumptions and `horizon`'s sheets, then every other horizon's (`Live.others`)."""
    lang = book.lang
    months = round(horizon.years * 12)
    tag = f"S{index + 1} " if many else ""
    prefix = f"S{index + 1}_" if many else ""
    names = assumptions_sheet(
        book,
        tag + text("report.wb.sheet.assumptions", lang),
        inputs,
        months,
        prices=report.prices_used,
        prefix=prefix,
        busy=report.busy,
    )
    main = horizon_sheets(book, names, inputs, horizon, (tag, depreciation))
    others = [
        horizon_sheets(
            book,
            # the other horizons' length is their sheets' number of rows, not an input
            replace(names, months=str(round(other.years * 12))),
            inputs,
            other,
            (
                tag + text("report.wb.sheet.horizon_tag", lang, years=f"{other.years:g}"),
                depreciation,
            ),
        )
        for other in report.horizons
        if other is not horizon
    ]
    return replace(main, others=tuple(others))


def horizon_sheets(
    book: Book,
    names: Names,
    inputs: TcoInputs,
    horizon: Horizon,
    where: tuple[str, Worksheet],
) -> Live:
    """`horizon`'s option sheets and comparison over the Assumptions' `names`; `where`: the
    sheets' title tag and the Depreciation sheet."""
    lang = book.lang
    tag, depreciation = where
    months = round(horizon.years * 12)
    owned = {o.name: o for o in inputs.owned}
    sheets = [(o.name, book.sheet(tag + option_label(o.name, lang))) for o in horizon.options]
    clouds = [(n, s) for n, s in sheets if n not in owned]
    bridges = [Bridge()] * (1 + len(names.years))
    if clouds and names.clouds:
        first = clouds[0][1]
        bridges = [
            Bridge(rented_figure(first, "monthly_total", year=k), useful)
            for k, useful in enumerate(
                [names.clouds[0].useful, *(y.clouds[0].useful for y in names.years)], start=1
            )
        ]
    bridge = bridges[0]
    for k, (_, sheet) in enumerate(clouds):
        later = [y.clouds[k] for y in names.years]
        rented_sheet(book, sheet, names, names.clouds[k], months, later=later)
        packing_block(book, sheet, inputs.clouds[k].packing if k < len(inputs.clouds) else None)
    column = 1 + 8 * len(_owned_columns(depreciation))
    for name, sheet in ((n, s) for n, s in sheets if n in owned):
        index = [o.name for o in inputs.owned].index(name)
        mine = names.owned[index]
        owned_sheet(
            book,
            sheet,
            names=names,
            mine=mine,
            hybrid=name == "hybrid",
            months=months,
            bridge=bridge,
            depreciation=(depreciation, column),
            later=[(y.owned[index], b) for y, b in zip(names.years, bridges[1:], strict=True)],
        )
        column += 8
    comparison = None
    own = [s for n, s in sheets if n == "self-hosted"]
    if own and clouds:
        comparison = book.sheet(tag + text("report.wb.sheet.comparison", lang))
        comparison_sheet(
            book,
            comparison,
            names=names,
            owned=own[0],
            clouds=[s for _, s in clouds],
            labels=[option_label(n, lang) for n, _ in clouds],
            model=horizon.comparisons,
            months=months,
            served=[
                Served(option_label(o.name, lang), s, o.name in owned, o)
                for o, (_, s) in zip(horizon.options, sheets, strict=True)
            ],
        )
    pair = horizon.pair
    pair_comparison = None
    if pair is not None and pair.owned == "hybrid":
        by_name = dict(sheets)
        pair_comparison = book.sheet(tag + text("report.wb.sheet.comparison_hybrid", lang))
        comparison_sheet(
            book,
            pair_comparison,
            names=names,
            owned=by_name["hybrid"],
            clouds=[by_name[pair.rented]],
            labels=[option_label(pair.rented, lang)],
            model=(pair,),
            months=months,
            title="report.wb.compare_hybrid_title",
        )
    options = tuple(
        (name, sheet, OWN["cash"] if name in owned else RENT["cash"]) for name, sheet in sheets
    )
    return Live(
        options,
        comparison,
        months,
        names=names,
        owned=own[0] if own else None,
        cloud=clouds[0][1] if clouds else None,
        clouds=len(clouds),
        cloud_sheets=tuple(s for _, s in clouds),
        pair_comparison=pair_comparison,
        years=1 + len(names.years),
        horizon_years=horizon.years,
    )


def _owned_columns(sheet: Worksheet) -> list[int]:
    """Depreciation blocks already on the sheet (8 columns each: 7 and a gap)."""
    return [c for c in range(1, sheet.max_column + 1, 8) if sheet.cell(1, c).value is not None]


def cash_ref(sheet: Worksheet, column: int, month: int) -> str:
    """An option sheet's cash in `month` (1-based)."""
    return ref(sheet, month + 1, column)
