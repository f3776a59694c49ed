"""Equal service on the PDF: each option's cost beside its served share, p95 wait and the
demand it bought elsewhere, each cloud option's packing figures (`planner.cost.
packing_facts`), and the rates unserved demand and waiting are priced at, as named
assumptions. Every figure is the report's own (`planner tco --json`), formatted.
"""

from collections.abc import Sequence

from planner.core.i18n import Language, fmt_money, fmt_number, fmt_percent
from planner.cost.inputs import CloudInputs
from planner.cost.packing_facts import PackingFacts
from planner.cost.results import Horizon, TcoReport
from planner.report.headline import option_name
from planner.report.pdf_charts import Pen
from planner.report.pdf_tables import grid
from planner.report.text import text

WIDTHS = (44.0, 24.0, 18.0, 18.0, 26.0, 20.0, 25.0)


def service_assumptions(report: TcoReport, lang: Language) -> list[tuple[str, str]]:
    """The served-elsewhere and waiting rates as (label, value); none for a cloud-only
    report (nothing owned leaves demand unserved) or one saved before they were priced."""
    prices, cur = report.served_elsewhere, str(report.currency)
    if prices is None:
        return []
    if prices.rate is None:
        value = text("report.pdf.assume.elsewhere_off", lang)
    else:
        source = prices.priced_at or text("report.pdf.assume.elsewhere_scenario", lang)
        rate = fmt_money(prices.rate, cur, 3)
        value = text("report.pdf.assume.elsewhere_value", lang, source=source, rate=rate)
    waiting = text(
        "report.pdf.assume.waiting_value", lang, rate=fmt_money(prices.wait_rate, cur, 2)
    )
    return [
        (text("report.pdf.assume.elsewhere", lang), value),
        (text("report.pdf.assume.waiting", lang), waiting),
    ]


def service_block(pen: Pen, report: TcoReport, horizon: Horizon) -> None:
    """The table of every option's service and cost, then a line per cloud option."""
    lang, cur, na = pen.lang, str(report.currency), text("report.na", pen.lang)
    pen.title(text("report.pdf.service.title", lang))
    headers = (
        text("report.col.option", lang),
        text("report.pdf.service.per_useful", lang),
        text("report.col.served_share", lang),
        text("report.col.wait_p95", lang),
        text("report.pdf.service.elsewhere", lang),
        text("report.pdf.service.overhead", lang),
        text("report.pdf.service.floor", lang),
    )
    packing = {c.rented.name: c.packing for c in _clouds(report)}
    rows = []
    for o in horizon.options:
        facts = packing.get(o.name)
        p95 = None if o.wait_p95_s is None else o.wait_p95_s / 3600
        rows.append(
            (
                option_name(o.name, lang),
                fmt_money(o.cost_per_useful_gpu_hour, cur, 2, na),
                fmt_percent(o.served_share, 1, cur, na),
                fmt_number(p95, 1, cur, na),
                fmt_money(o.totals.get("served_elsewhere", 0.0), cur, 0, na),
                _overhead(facts, cur, na),
                fmt_money(None if facts is None else facts.price_floor, cur, 0, "-"),
            )
        )
    grid(pen, headers, rows, WIDTHS, left="L")
    pen.font(6.2)
    for line in cloud_lines(report, lang):
        pen.pdf.multi_cell(0, 3.2, pen.safe(line), new_x="LMARGIN", new_y="NEXT")
    prices = report.served_elsewhere
    if prices is not None and prices.rate is None:
        pen.pdf.multi_cell(
            0, 3.2, pen.safe(text("report.pdf.service.off", lang)), new_x="LMARGIN", new_y="NEXT"
        )
    pen.pdf.ln(1)


def _clouds(report: TcoReport) -> Sequence[CloudInputs]:
    return () if report.inputs is None else report.inputs.clouds


def _overhead(facts: PackingFacts | None, cur: str, na: str) -> str:
    if facts is None:
        return "-"
    return na if facts.overhead is None else f"{fmt_number(facts.overhead, 2, cur)}x"


def cloud_lines(report: TcoReport, lang: Language) -> list[str]:
    """Each cloud option's packing: GPU-hours billed and held, price floor, waits."""
    cur, na = str(report.currency), text("report.na", lang)
    out = []
    for cloud in _clouds(report):
        facts = cloud.packing
        if facts is None:
            continue
        out.append(
            text(
                "report.pdf.service.cloud_line",
                lang,
                name=cloud.rented.name,
                packing=text(f"report.pdf.service.packing.{facts.packing}", lang),
                billed=fmt_number(facts.billed_gpu_hours, 0, cur),
                held=fmt_number(facts.held_gpu_hours, 0, cur),
                overhead=_overhead(facts, cur, na),
                floor=fmt_money(facts.price_floor, cur, 0),
                bill=fmt_money(cloud.rented.monthly_total, cur, 0),
                provisioning=_hours(facts.provisioning_wait_p95_s, cur, na),
                cap=_hours(facts.cap_wait_p95_s, cur, na),
            )
        )
    return out


def _hours(seconds: float | None, cur: str, na: str) -> str:
    return fmt_number(None if seconds is None else seconds / 3600, 2, cur, na)
