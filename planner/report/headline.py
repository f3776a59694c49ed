"""The report's headline for one scenario: the facts a reader looks for first (cheapest
option, cost per useful, installed and allocated GPU-hour, break-even utilizations) and the
plain conclusion, in the chosen language."""

from collections.abc import Sequence
from dataclasses import dataclass

from planner.core.i18n import Language, fmt_money, fmt_percent
from planner.core.notes import worded
from planner.cost.results import Horizon, TcoReport
from planner.cost.tco import OptionReport
from planner.report.cells import Cell, Kind
from planner.report.text import text

Named = tuple[str, TcoReport]
"""A scenario's name and its TCO report."""
OWNED = ("self-hosted", "hybrid")
"""The report's names of the options that own servers."""


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
    return Headline(name, float(horizon.years), tuple(facts), conclusion(report, horizon, lang))


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
    """The option with the lowest cost per useful GPU-hour (None if none has one)."""
    priced = [(o.cost_per_useful_gpu_hour, k) for k, o in enumerate(options)]
    known = [(cost, k) for cost, k in priced if cost is not None]
    return options[min(known)[1]] if known else None


def conclusion(report: TcoReport, horizon: Horizon, lang: Language) -> str:
    """A few plain sentences from the numbers: what owning costs, the cheapest option, and
    when owning pays against the best cloud option (break-even allocation and NPV)."""
    cur, years, options = str(report.currency), f"{horizon.years:g}", horizon.options
    best = cheapest(options)
    sentences = []
    if owns_servers(report) and options and options[0].name in OWNED:
        sentences.append(
            text(
                "report.sentence.owning",
                lang,
                allocation=fmt_percent(report.allocation, 0, cur),
                cost=fmt_money(options[0].cost_per_useful_gpu_hour, cur, 2),
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
                name=best.name,
                cost=fmt_money(best.cost_per_useful_gpu_hour, cur, 2),
                total=fmt_money(best.total, cur, 0),
                wait=wait,
            )
        )
    rented = {c.rented for c in horizon.comparisons}
    if not owns_servers(report):
        return _joined(sentences, lang)
    owning_wins = best is None or best.name in OWNED
    rival = cheapest([o for o in options if o.name in rented]) if owning_wins else best
    if rival is not None:
        sentences += _against(report, horizon, str(rival.name), lang)
    return _joined(sentences, lang)


def _joined(sentences: Sequence[str], lang: Language) -> str:
    return ("" if lang == "zh" else " ").join(sentences)


def _against(report: TcoReport, horizon: Horizon, name: str, lang: Language) -> list[str]:
    cur = str(report.currency)
    be = report.break_even_utilization.get(name)
    if name not in report.break_even_utilization:
        return []
    share = fmt_percent(be, 0, cur)
    if be is None:
        key = "report.sentence.never"
    elif be > 1:
        key = "report.sentence.not_even_full"
    elif (report.allocation or 0.0) >= be:
        key = "report.sentence.pays_now"
    else:
        key = "report.sentence.pays_above"
    out = [text(key, lang, name=name, share=share)]
    comparison = next((c for c in horizon.comparisons if c.rented == name), None)
    if comparison is not None:
        npv = comparison.npv_of_buying
        out.append(
            text(
                "report.sentence.npv_gain" if npv >= 0 else "report.sentence.npv_loss",
                lang,
                years=f"{horizon.years:g}",
                amount=fmt_money(abs(npv), cur, 0),
            )
        )
    return out


def option_name(name: str, lang: Language) -> str:
    """The model's own option names in `lang`: self-hosted, hybrid, and the pricing model of
    a cloud option we named (`planner.core.notes.cloud_label`); a name the user gave stays."""
    return text(f"report.pdf.option.{name}", lang) if name in OWNED else worded(name, lang)
