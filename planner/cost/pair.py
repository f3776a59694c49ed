"""The headline pair: which owned option is weighed against which cloud option, by one rule
that the headline facts, the conclusion, PDF page 1, the tornado, the flip values, the
Compare page and the workbook all follow.

The rule: options are compared as built. A hybrid is one option: when it keeps every
self-hosted server, the self-hosted option is only its owned part (the same servers, jobs
waiting instead of bursting; `OptionReport.part_of`) and is never ranked. A hybrid keeping
fewer servers than the self-hosted option describes leaves self-hosted an option of its own
(buying them all). Of the
owned options as built, the one with the lowest cost per useful GPU-hour is weighed against
the cloud option with the lowest cost per useful GPU-hour (the first listed on a tie). Cost
per useful GPU-hour, not the total, because it is the figure page 1 ranks options by.

Pure: option reports in, names out.
"""

from collections.abc import Sequence

from planner.cost.results import Horizon
from planner.cost.tco import Comparison, OptionReport

OWNED = ("self-hosted", "hybrid")
"""The model's names of the options that own servers."""


def as_built(options: Sequence[OptionReport]) -> list[OptionReport]:
    """The options a reader chooses between: without those that are only a part of
    another (the hybrid's owned part)."""
    return [o for o in options if o.part_of is None]


def cheapest(options: Sequence[OptionReport]) -> OptionReport | None:
    """The option with the lowest cost per useful GPU-hour, the first on a tie (None if
    none has one)."""
    priced = [(o.cost_per_useful_gpu_hour, k) for k, o in enumerate(options)]
    known = [(cost, k) for cost, k in priced if cost is not None]
    return options[min(known)[1]] if known else None


def headline_pair(options: Sequence[OptionReport]) -> tuple[str, str] | None:
    """(owned, rented): the cheapest owned option as built against the cheapest cloud
    option; None without a priced one of each."""
    built = as_built(options)
    owned = cheapest([o for o in built if o.name in OWNED])
    rented = cheapest([o for o in options if o.name not in OWNED])
    if owned is None or rented is None:
        return None
    return owned.name, rented.name


def pair_of(horizon: Horizon) -> Comparison | None:
    """The horizon's headline pair as the model recorded it; for a report that has none
    recorded (saved before, or made by hand), the rule applied to its comparisons."""
    if horizon.pair is not None:
        return horizon.pair
    names = headline_pair(horizon.options)
    found = (c for c in horizon.comparisons if (c.owned, c.rented) == names)
    return next(found, None)
