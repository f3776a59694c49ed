"""PDF page 1's busy-share assumption (`planner.cost.busy`): the measured share, its coverage
and the decision's options' cost per busy GPU-hour; nothing when the share is unknown."""

from planner.core.i18n import Language, fmt_money, fmt_percent
from planner.cost.results import TcoReport
from planner.cost.tco import OptionReport
from planner.report.headline import option_name
from planner.report.text import text


def busy_rows(
    report: TcoReport, years: float, options: list[OptionReport | None], lang: Language
) -> list[tuple[str, str]]:
    """The share and its coverage, then the options' cost per busy GPU-hour (two rows), or
    nothing without a measured busy share."""
    busy = report.busy
    if busy is None:
        return []
    cur, na = report.currency, text("report.na", lang)
    shown = dict.fromkeys(o.name for o in options if o is not None)
    costs = [(name, busy.cost(years, name)) for name in shown]
    listed = ", ".join(
        f"{option_name(name, lang)} {fmt_money(c.cost_per_busy_gpu_hour, cur, 2, na)}"
        for name, c in costs
        if c is not None
    )
    value = text(
        "report.pdf.assume.busy_value",
        lang,
        share=fmt_percent(busy.share, 1, cur, na),
        known=f"{busy.jobs_known:,}",
        jobs=f"{busy.jobs:,}",
        hours=fmt_percent(busy.known_hours_share, 1, cur, na),
    )
    return [
        (text("report.pdf.assume.busy", lang), value),
        (text("report.pdf.assume.per_busy", lang), listed or na),
    ]
