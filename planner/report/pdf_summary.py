"""The figures of the PDF's one-page summary, taken from the TCO report as the model
computed them: the decision (the option with the lowest cost per useful GPU-hour), the NPV
and break-even month of buying against the cloud option it is weighed against, and the
monthly savings behind both, so the appendix can show how they are recomputed.

Pure: no fpdf, no files. Month numbers count from 1, as the model's `break_even_month`
and the appendix's cash-flow table do.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from planner.core.i18n import Language, fmt_money, fmt_number, fmt_percent
from planner.core.notes import Note, note, worded
from planner.cost.finance import discount_factors
from planner.cost.pair import OWNED, as_built, pair_of
from planner.cost.results import Horizon, TcoReport
from planner.cost.tco import Comparison, OptionReport
from planner.report.cells import Cell
from planner.report.headline import Named, cheapest, option_name
from planner.report.model import Table
from planner.report.pdf_busy import busy_rows
from planner.report.pdf_service import service_assumptions
from planner.report.text import text


@dataclass(frozen=True, slots=True)
class Decision:
    scenario: str
    currency: str
    horizon: Horizon
    chosen: OptionReport | None
    """The option as built with the lowest cost per useful GPU-hour (None: none has one)."""
    owned: OptionReport | None
    """The headline pair's owned option, else the first owned option as built (None: a
    cloud-only report)."""
    against: Comparison | None
    """The headline pair: buying it against the cheapest cloud option (`planner.cost.pair`)."""
    rate: float | None

    @property
    def buy(self) -> bool:
        return self.chosen is not None and self.chosen.name in OWNED

    @property
    def months(self) -> int:
        return round(self.horizon.years * 12)

    @property
    def break_even_month(self) -> int | None:
        """Counted from 1, as the model and the cash-flow table count months; None: never."""
        return None if self.against is None else self.against.break_even_month


def pick_horizon(report: TcoReport, index: int) -> Horizon:
    """The horizon `index`, or the last one (as the report model picks it)."""
    return report.horizons[min(index, len(report.horizons) - 1)]


def decide(named: Named, index: int) -> Decision:
    """The decision of one scenario over its horizon `index`."""
    name, report = named
    horizon = pick_horizon(report, index)
    chosen = cheapest(horizon.options)
    against = pair_of(horizon)
    built = as_built(horizon.options)
    owned = next((o for o in built if o.name == (against.owned if against else None)), None)
    owned = owned or next((o for o in built if o.name in OWNED), None)
    return Decision(name, report.currency, horizon, chosen, owned, against, report.discount_rate)


def option(horizon: Horizon, name: str) -> OptionReport | None:
    return next((o for o in horizon.options if o.name == name), None)


def discounted_savings(decision: Decision) -> tuple[float, ...]:
    """Month by month, the cumulative discounted cash buying saves against renting
    (`against`): its first month at or above zero is the break-even month, its last value
    the NPV of buying. Empty when there is no comparison or no known rate."""
    d = decision
    if d.against is None or d.rate is None:
        return ()
    owned, rented = option(d.horizon, d.against.owned), option(d.horizon, d.against.rented)
    if owned is None or rented is None or len(owned.monthly_cash) != len(rented.monthly_cash):
        return ()
    savings = [r - o for r, o in zip(rented.monthly_cash, owned.monthly_cash, strict=True)]
    factors = discount_factors(len(savings), d.rate)
    return tuple(accumulate(s * f for s, f in zip(savings, factors, strict=True)))


# --- the summary's figures as text -------------------------------------------------------------


SENSITIVITY_OUTPUT = re.compile(r"NPV of buying vs (?P<option>.+), (?P<years>[0-9.]+) years")
"""How the model names its sensitivity output in English (a JSON file saved before notes
kept their codes has only this text)."""


def output_text(output: str, lang: Language) -> str:
    """The sensitivity's output in `lang` (as given when it is not the model's wording)."""
    found = None if isinstance(output, Note) else SENSITIVITY_OUTPUT.fullmatch(output)
    if found is not None:
        output = note("sensitivity_output", **found.groupdict())
    return worded(output, lang)


def decision_text(d: Decision, lang: Language) -> str:
    if d.chosen is None:
        return text("report.pdf.decision.none", lang)
    key = "report.pdf.decision.buy" if d.buy else "report.pdf.decision.rent"
    return text(key, lang, name=option_name(d.chosen.name, lang))


def npv_text(d: Decision, lang: Language) -> str:
    npv = None if d.against is None else d.against.npv_of_buying
    return fmt_money(npv, d.currency, 0, text("report.na", lang))


def break_even_text(d: Decision, lang: Language) -> str:
    if d.against is None:
        return text("report.na", lang)
    month = d.break_even_month
    if month is None:
        return text("report.pdf.break_even.never", lang, months=d.months)
    return text("report.pdf.break_even.month", lang, month=month)


def per_useful_text(d: Decision, lang: Language) -> str:
    cost = None if d.chosen is None else d.chosen.cost_per_useful_gpu_hour
    return fmt_money(cost, d.currency, 2, text("report.na", lang))


def rate_text(d: Decision, lang: Language) -> str:
    return fmt_percent(d.rate, 1, d.currency, text("report.na", lang))


def figures(d: Decision, lang: Language) -> Sequence[tuple[str, str, str]]:
    """The summary's four tiles: (label, value, what it is measured against)."""
    years = f"{d.horizon.years:g}"
    priced = [o for o in as_built(d.horizon.options) if o.cost_per_useful_gpu_hour is not None]
    key = "only" if len(priced) == 1 else "why"
    why = text(f"report.pdf.decision.{key}", lang, count=len(priced), years=years)
    rival = "" if d.against is None else d.against.rented
    npv_sub = text("report.pdf.tile.npv_sub", lang, name=rival, rate=rate_text(d, lang))
    be_sub = text("report.pdf.tile.break_even_sub", lang, name=rival)
    none = text(f"report.pdf.tile.{'no_comparison' if d.owned is None else 'no_cloud'}", lang)
    per_sub = "" if d.chosen is None else option_name(d.chosen.name, lang)
    if d.owned is not None and d.chosen is not None and d.owned is not d.chosen:
        owned_cost = fmt_money(d.owned.cost_per_useful_gpu_hour, d.currency, 2)
        owned = option_name(d.owned.name, lang)
        per_sub = text(
            "report.pdf.tile.per_useful_sub", lang, name=per_sub, owned=owned, cost=owned_cost
        )
    return (
        (text("report.pdf.tile.decision", lang), decision_text(d, lang), why),
        (text("report.pdf.tile.npv", lang), npv_text(d, lang), npv_sub if rival else none),
        (
            text("report.pdf.tile.break_even", lang),
            break_even_text(d, lang),
            be_sub if rival else none,
        ),
        (text("report.pdf.tile.per_useful", lang), per_useful_text(d, lang), per_sub),
    )


def assumptions(named: Named, d: Decision, lang: Language) -> list[tuple[str, str]]:
    """The inputs the decision rests on, as (label, value); the appendix lists the same."""
    _, report = named
    cur, na = d.currency, text("report.na", lang)
    years = f"{d.horizon.years:g}"
    rows = [
        (
            text("report.pdf.assume.horizon", lang),
            text("report.pdf.assume.horizon_value", lang, years=years, rate=rate_text(d, lang)),
        ),
        (text("report.fact.scope", lang), text(f"report.scope.{report.scope}", lang)),
        (
            text("report.fact.useful_per_month", lang),
            fmt_number(report.useful_gpu_hours_per_month, 0, cur, na),
        ),
        *busy_rows(report, d.horizon.years, [d.owned, d.chosen], lang),
        *packing_row(report, d, lang),
    ]
    if report.owns_servers:
        share = fmt_percent(report.allocation, 1, cur, na)
        rows += [
            (
                text("report.pdf.assume.owned", lang),
                text(
                    "report.pdf.assume.owned_value", lang, gpus=report.installed_gpus, share=share
                ),
            ),
            (
                text("report.pdf.assume.fixed", lang),
                fmt_money(report.fixed_per_installed_gpu_hour, cur, 2, na),
            ),
            (
                text("report.pdf.assume.variable", lang),
                fmt_money(report.variable_per_busy_gpu_hour, cur, 2, na),
            ),
            (text("report.pdf.assume.resale", lang), resale_text(report, d, lang)),
            *service_assumptions(report, lang),
        ]
        rows += refresh_rows(report, d, lang)
    return rows + escalation_rows(report, d, lang)


def refresh_rows(report: TcoReport, d: Decision, lang: Language) -> list[tuple[str, str]]:
    """The servers bought again when the horizon outlasts their life (the first owned
    option's refresh line), or nothing."""
    amount = d.owned.totals.get("refresh", 0.0) if d.owned is not None else 0.0
    inputs = report.inputs
    if not amount or inputs is None or not inputs.owned:
        return []
    life = inputs.owned[0].bare_metal.life_years
    value = text(
        "report.pdf.assume.refresh_value",
        lang,
        life=f"{life:g}",
        month=round(life * 12) + 1,
        amount=fmt_money(amount, d.currency, 0, text("report.na", lang)),
    )
    return [(text("report.pdf.assume.refresh", lang), value)]


ESCALATIONS = (
    ("power", "power_escalation_year"),
    ("staff", "staff_escalation_year"),
    ("colo", "colo_escalation_year"),
    ("cloud", "cloud_escalation_year"),
)
"""The prices that may escalate (`planner.cost.baremetal`): label key, `BareMetal` field."""


def escalation_rows(report: TcoReport, d: Decision, lang: Language) -> list[tuple[str, str]]:
    """The yearly escalation rates that are not 0, as one named assumption (none: nothing)."""
    inputs = report.inputs
    if inputs is None:
        return []
    bm = inputs.owned[0].bare_metal if inputs.owned else None
    rates = {key: getattr(bm, field) if bm is not None else 0.0 for key, field in ESCALATIONS} | {
        "cloud": inputs.cloud_escalation_year
    }
    cur, na = d.currency, text("report.na", lang)
    shown = [
        text(
            f"report.pdf.assume.escalation.{key}",
            lang,
            rate=("+" if rate > 0 else "") + fmt_percent(rate, 1, cur, na),
        )
        for key, rate in rates.items()
        if rate
    ]
    if not shown:
        return []
    joined = text("report.pdf.assume.escalation.sep", lang).join(shown)
    return [(text("report.pdf.assume.escalation", lang), joined)]


def resale_text(report: TcoReport, d: Decision, lang: Language) -> str:
    """The resale value assumed for the owned servers: a share of CapEx and the cash it
    brings in the last month (the first owned option's), or none."""
    amount = -d.owned.totals.get("resale", 0.0) if d.owned is not None else 0.0
    inputs = report.inputs
    share = inputs.owned[0].bare_metal.resale_share if inputs and inputs.owned else None
    if d.owned is not None and d.owned.totals.get("refresh") and share is not None:
        # the total also sells each retired generation: the end's sale is one CapEx's share
        amount = share * d.owned.totals.get("capex", 0.0)
    if not amount and not share:
        return text("report.pdf.assume.resale_none", lang)
    cur, na = d.currency, text("report.na", lang)
    return text(
        "report.pdf.assume.resale_value",
        lang,
        share=fmt_percent(share, 0, cur, na),
        amount=fmt_money(amount, cur, 0, na),
    )


def packing_row(report: TcoReport, d: Decision, lang: Language) -> list[tuple[str, str]]:
    """How the cloud option weighed (else the first traced one) packs pods, a named
    assumption that moves its bill: a node pool's delays, or per job; none without a trace."""
    clouds = report.inputs.clouds if report.inputs is not None else ()
    traced = [c for c in clouds if c.packing is not None]
    weighed = d.against.rented if d.against is not None else None
    cloud = next((c for c in traced if c.rented.name == weighed), traced[0] if traced else None)
    if cloud is None or cloud.packing is None:
        return []
    facts = cloud.packing
    overhead = fmt_number(facts.overhead, 2, d.currency, text("report.na", lang))
    label = text("report.pdf.assume.packing", lang, option=cloud.rented.name)
    if facts.packing == "per-job":
        return [(label, text("report.pdf.assume.packing_per_job", lang, overhead=overhead))]
    up, down = (
        f"{s:g}" if s is not None else "-" for s in (facts.provisioning_s, facts.scale_down_s)
    )
    value = text("report.pdf.assume.packing_pool", lang, up=up, down=down, overhead=overhead)
    return [(label, value)]


PRICE_KEY = ("price", "per_gpu_hour", "per_server", "currency", "as_of", "source")


def unique_prices(table: Table) -> list[dict[str, Cell]]:
    """The prices used, each once (scenarios sharing a price list it once)."""
    keys = [c.key for c in table.columns]
    seen: dict[tuple[Cell, ...], dict[str, Cell]] = {}
    for row in table.rows:
        cell = dict(zip(keys, row, strict=True))
        seen.setdefault(tuple(cell[k] for k in PRICE_KEY), cell)
    return list(seen.values())


def price_text(cell: dict[str, Cell], lang: Language) -> str:
    """ "300,000.00 USD per server, 2024-08-01 (stale)"."""
    per_hour = cell["per_gpu_hour"]
    amount, unit = (
        (per_hour, "per_gpu_hour") if per_hour is not None else (cell["per_server"], "per_server")
    )
    shown = f"{float(amount):,.2f}" if isinstance(amount, int | float) else text("report.na", lang)
    as_of = cell["as_of"] or text("report.no_source_date", lang)
    stale = text("report.pdf.stale", lang) if cell["stale"] == text("report.yes", lang) else ""
    return text(
        f"report.pdf.price.{unit}",
        lang,
        amount=shown,
        currency=cell["currency"],
        as_of=as_of,
        stale=stale,
    )
