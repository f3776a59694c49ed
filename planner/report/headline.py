"""The report's headline for one scenario: the facts a reader looks for first (cheapest
option, cost per useful, installed and allocated GPU-hour, break-even utilizations) and the
plain conclusion, in the chosen language."""

from collections.abc import Sequence
from dataclasses import dataclass

from planner.core.i18n import Language, fmt_money, fmt_percent
from planner.core.notes import worded
from planner.cost import pair
from planner.cost.pair import OWNED, as_built, pair_of
from planner.cost.results import Horizon, TcoReport
from planner.cost.tco import Comparison, OptionReport
from planner.report import flips
from planner.report.cells import Cell, Kind
from planner.report.text import text

Named = tuple[str, TcoReport]
"""A scenario's name and its TCO report."""


@dataclass(frozen=True, slots=True)
class Fact:
    label: str
    value: Cell
    kind: Kind


@dataclass(frozen=True, slots=True)
class Headline:
    scenario: str
    years: float
    facts: tuple[Fact, ...]
    conclusion: str


def headline(name: str, report: TcoReport, horizon: Horizon, lang: Language) -> Headline:
    """The facts and conclusion of `report` over `horizon` (one of its horizons)."""
    best = cheapest(horizon.options)
    facts = [
        Fact(text("report.fact.scenario", lang), name, "text"),
        Fact(text("report.fact.currency", lang), str(report.currency), "text"),
        Fact(text("report.fact.horizon", lang), float(horizon.years), "years"),
        Fact(text("report.fact.scope", lang), _scope(report, lang), "text"),
        *_left_out(report, lang),
        Fact(text("report.fact.cheapest", lang), None if best is None else best.name, "text"),
        Fact(
            text("report.fact.cheapest_cost", lang),
            None if best is None else best.cost_per_useful_gpu_hour,
            "rate",
        ),
    ]
    if owns_servers(report):
        facts += _owned_facts(report, lang)
    else:
        facts.append(
            Fact(
                text("report.fact.useful_per_month", lang),
                report.useful_gpu_hours_per_month,
                "number",
            )
        )
    for cloud, share in report.break_even_utilization.items():
        facts.append(Fact(text("report.fact.break_even", lang, name=cloud), share, "percent"))
    for c in horizon.comparisons:
        facts.append(Fact(text("report.fact.npv", lang, name=c.rented), c.npv_of_buying, "money"))
    facts += _pair_facts(report, horizon, lang)
    return Headline(name, float(horizon.years), tuple(facts), conclusion(report, horizon, lang))


def _pair_facts(report: TcoReport, horizon: Horizon, lang: Language) -> list[Fact]:
    """The headline pair, its NPV of buying and where each main driver flips its verdict."""
    c = pair_of(horizon)
    if c is None:
        return []
    named = text("report.fact.pair_value", lang, owned=option_name(c.owned, lang), rented=c.rented)
    facts = [
        Fact(text("report.fact.pair", lang), named, "text"),
        Fact(text("report.fact.pair_npv", lang), c.npv_of_buying, "money"),
    ]
    for driver, _, at in flips.rows(report, lang):
        facts.append(Fact(text("report.fact.flip", lang, driver=driver), at, "text"))
    return facts


def _scope(report: TcoReport, lang: Language) -> str:
    """Which jobs the report prices."""
    return text(f"report.scope.{report.scope}", lang)


def _left_out(report: TcoReport, lang: Language) -> list[Fact]:
    """The CPU-only jobs and CPU-hours no option prices, when there are any."""
    left_out = report.left_out
    if not left_out.cpu_only_jobs:
        return []
    return [
        Fact(text("report.fact.left_out_jobs", lang), left_out.cpu_only_jobs, "number"),
        Fact(text("report.fact.left_out_cpu_hours", lang), left_out.cpu_hours, "number"),
    ]


def owns_servers(report: TcoReport) -> bool:
    """False for a cloud-only report (no owned servers, no allocation)."""
    return report.owns_servers


def _owned_facts(report: TcoReport, lang: Language) -> list[Fact]:
    return [
        Fact(text("report.fact.installed_gpus", lang), report.installed_gpus, "int"),
        Fact(text("report.fact.allocation", lang), report.allocation, "percent"),
        Fact(
            text("report.fact.useful_per_month", lang),
            report.useful_gpu_hours_per_month,
            "number",
        ),
        Fact(text("report.fact.per_useful", lang), report.cost_per_useful_gpu_hour, "rate"),
        Fact(text("report.fact.per_installed", lang), report.cost_per_installed_gpu_hour, "rate"),
        Fact(text("report.fact.per_allocated", lang), report.cost_per_allocated_gpu_hour, "rate"),
    ]


def cheapest(options: Sequence[OptionReport]) -> OptionReport | None:
    """The option as built (`planner.cost.pair.as_built`) with the lowest cost per useful
    GPU-hour (None if none has one)."""
    return pair.cheapest(as_built(options))


def conclusion(report: TcoReport, horizon: Horizon, lang: Language) -> str:
    """A few plain sentences from the numbers: what owning costs, the cheapest option as
    built, how buying fares against the cloud in the headline pair (break-even allocation,
    NPV) and the driver nearest to flipping that verdict."""
    cur, years = str(report.currency), f"{horizon.years:g}"
    best = cheapest(horizon.options)
    c = pair_of(horizon)
    owned = None if c is None else next(o for o in horizon.options if o.name == c.owned)
    sentences = []
    if owned is not None:
        key = "report.sentence.owning" if owned.name == "self-hosted" else "report.sentence.hybrid"
        sentences.append(
            text(
                key,
                lang,
                allocation=fmt_percent(report.allocation, 0, cur),
                cost=fmt_money(owned.cost_per_useful_gpu_hour, cur, 2),
                years=years,
            )
        )
    if best is not None:
        p95 = best.wait_p95_s
        wait = text("report.sentence.wait", lang, hours=f"{p95 / 3600:,.1f}") if p95 else ""
        sentences.append(
            text(
                "report.sentence.cheapest",
                lang,
                name=option_name(best.name, lang),
                cost=fmt_money(best.cost_per_useful_gpu_hour, cur, 2),
                total=fmt_money(best.total, cur, 0),
                wait=wait,
            )
        )
    if c is not None:
        sentences += _against(report, horizon, c, lang) + _flip(report, lang)
    return _joined(sentences, lang)


def _joined(sentences: Sequence[str], lang: Language) -> str:
    return ("" if lang == "zh" else " ").join(sentences)


def _against(report: TcoReport, horizon: Horizon, c: Comparison, lang: Language) -> list[str]:
    """The headline pair `c`: where owning its servers breaks even against the cloud option
    (at the owned option's allocation) and the NPV of buying."""
    cur, name = str(report.currency), c.rented
    amount = fmt_money(abs(c.npv_of_buying), cur, 0)
    years = f"{horizon.years:g}"
    hybrid = c.owned == "hybrid"
    out = []
    if hybrid or name in report.break_even_utilization:
        be = c.break_even_utilization if hybrid else report.break_even_utilization[name]
        allocation = _allocation(report) if hybrid else report.allocation
        key = _break_even_key(allocation, be)
        out.append(text(key, lang, name=name, share=fmt_percent(be, 0, cur)))
    if hybrid:
        gain = c.npv_of_buying >= 0
        key = "report.sentence.hybrid_gain" if gain else "report.sentence.hybrid_loss"
        return [*out, text(key, lang, years=years, amount=amount, name=name)]
    key = "report.sentence.npv_gain" if c.npv_of_buying >= 0 else "report.sentence.npv_loss"
    return [*out, text(key, lang, years=years, amount=amount)]


def _allocation(report: TcoReport) -> float | None:
    """The allocation of the headline pair's owned option (the hybrid's for a hybrid)."""
    return None if report.verdict is None else report.verdict.allocation


def _break_even_key(allocation: float | None, be: float | None) -> str:
    if be is None:
        return "report.sentence.never"
    if be > 1:
        return "report.sentence.not_even_full"
    if (allocation or 0.0) >= be:
        return "report.sentence.pays_now"
    return "report.sentence.pays_above"


def _flip(report: TcoReport, lang: Language) -> list[str]:
    """The driver nearest to flipping the verdict (on the first horizon's pair)."""
    f = flips.nearest(report)
    if f is None:
        return []
    cur = str(report.currency)
    return [
        text(
            "report.sentence.flip",
            lang,
            driver=text(f"report.driver.{f.driver}", lang),
            value=flips.flip_text(f, _allocation(report), cur, lang),
            base=flips.value_text(f, f.base, cur, lang),
        )
    ]


def option_name(name: str, lang: Language) -> str:
    """The model's own option names in `lang`: self-hosted, hybrid, and the pricing model of
    a cloud option we named (`planner.core.notes.cloud_label`); a name the user gave stays."""
    return text(f"report.pdf.option.{name}", lang) if name in OWNED else worded(name, lang)
