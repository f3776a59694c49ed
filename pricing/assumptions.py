"""Named assumption sets: PUE, electricity and colocation prices, staff, life, discounts.

"reference-defaults" is seeded from the reference; a user copies it under a new name (or
edits it) to make their own. Discounts are fractions off on-demand named
`discount.<model>[.<term>m][@<provider>[/<GPU>]]`, e.g. `discount.reserved.12m@aws`; the
unqualified ones are rules of thumb (confidence L), never quoted prices.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date

from planner.core.pricing_model import PricingModel
from planner.store import Connection, doing, fetch_all, transaction
from pricing.errors import PricingError
from pricing.freshness import DEFAULT_SET
from pricing.gpus import gpu_model
from pricing.models import AssumptionQuote, slug
from pricing.problems import validated
from pricing.rows import ASSUMPTIONS, Change, row_values, select_list, write_user_row
from pricing.seed import ensure_seeded

# Commitments of any kind fall back to the generic `discount.commit...` rules.
COMMITMENTS = frozenset({"reserved", "savings_plan", "cud", "subscription"})


@dataclass(frozen=True, slots=True)
class Assumption:
    set_name: str
    name: str
    value: float
    unit: str
    currency: str | None
    source: str
    confidence: str
    notes: str
    origin: str
    as_of: date | None = None
    """When the value was seen (prices such as electricity); None when the set gives no date."""


def assumption_sets(con: Connection) -> list[str]:
    ensure_seeded(con)
    with doing("read the assumption sets", invalid=PricingError):
        rows = fetch_all(con, "SELECT DISTINCT set_name FROM assumptions ORDER BY set_name")
    return [str(name) for (name,) in rows]


def assumption_set(con: Connection, set_name: str = DEFAULT_SET) -> dict[str, Assumption]:
    """name -> assumption of one set, by name."""
    ensure_seeded(con)
    with doing(f"read the assumption set {set_name!r}", invalid=PricingError):
        rows = fetch_all(
            con,
            f"SELECT {select_list(ASSUMPTIONS)} FROM assumptions WHERE set_name = ? ORDER BY name",
            [set_name],
        )
    if not rows:
        known = ", ".join(assumption_sets(con))
        raise PricingError(f"No assumption set {set_name!r}; the sets are: {known}.")
    found = {}
    for _key, origin, *values in rows:
        fields = dict(zip(ASSUMPTIONS.columns, values, strict=True))
        found[str(fields["name"])] = Assumption(**fields, origin=origin)
    return found


def set_assumption(
    con: Connection, item: AssumptionQuote | Mapping[str, object]
) -> tuple[str, Change]:
    """Add or change one assumption as the user's: (key, change)."""
    ensure_seeded(con)
    if not isinstance(item, AssumptionQuote):
        item = validated(AssumptionQuote, item, "assumption")
    with doing(f"save the assumption {item.key}", invalid=PricingError), transaction(con):
        change = write_user_row(con, ASSUMPTIONS, item.key, row_values(ASSUMPTIONS, item))
    return item.key, change


def edit_assumptions(
    con: Connection, set_name: str, values: Mapping[str, object]
) -> list[Assumption]:
    """Change the values of named assumptions of a set (name -> value), all or none; they
    become the user's, so a re-seed keeps them. A missing name, a value that is not a number
    or one out of its range (a fraction outside 0..1, a PUE below 1, anything else below 0)
    raises `PricingError` naming the assumption, and nothing is written."""
    current = assumption_set(con, set_name)
    items = []
    for name, value in values.items():
        if name not in current:
            raise PricingError(f"No assumption {name!r} in set {set_name!r}.")
        fields = {column: getattr(current[name], column) for column in ASSUMPTIONS.columns}
        item = validated(AssumptionQuote, {**fields, "value": value}, f"assumption {name}")
        _check_range(item)
        items.append(item)
    step = f"save the assumptions of set {set_name!r}"
    with doing(step, invalid=PricingError), transaction(con):
        for item in items:
            write_user_row(con, ASSUMPTIONS, item.key, row_values(ASSUMPTIONS, item))
    edited = assumption_set(con, set_name)
    return [edited[item.name] for item in items]


def _check_range(item: AssumptionQuote) -> None:
    if item.unit.startswith("fraction"):
        low, high, expected = 0.0, 1.0, "a fraction from 0 to 1"
    elif item.name == "pue":
        low, high, expected = 1.0, float("inf"), "a PUE >= 1"
    else:
        low, high, expected = 0.0, float("inf"), f"a number >= 0 ({item.unit})"
    if not low <= item.value <= high:
        raise PricingError(
            f"Invalid assumption {item.name}: value: expected {expected}, got {item.value:g}."
        )


def copy_assumption_set(con: Connection, source: str, target: str) -> int:
    """Copy every assumption of `source` into a new user set `target`; how many were copied."""
    if target in assumption_sets(con):
        raise PricingError(f"Assumption set {target!r} exists already; choose another name.")
    items = assumption_set(con, source).values()
    for item in items:
        fields = {name: getattr(item, name) for name in ASSUMPTIONS.columns}
        set_assumption(con, {**fields, "set_name": target})
    return len(items)


def discount_for(
    con: Connection,
    provider: str,
    pricing_model: PricingModel,
    *,
    term_months: int | None = None,
    gpu: str | None = None,
    set_name: str = DEFAULT_SET,
) -> Assumption:
    """The most specific discount rule (fraction off on-demand) for an offer.

    Tried in order: provider and GPU, provider, then the generic rule; at each, the pricing
    model before the `commit` family, and the term before no term.
    """
    rules = assumption_set(con, set_name)
    for name in _discount_names(slug(provider), pricing_model, term_months, gpu):
        if name in rules:
            return rules[name]
    term = f".{term_months}m" if term_months else ""
    raise PricingError(
        f"No discount rule for {pricing_model}{term} at {provider} in assumption set "
        f"{set_name!r}; add `discount.{pricing_model}{term}` (a fraction off on-demand)."
    )


def _discount_names(
    provider: str, pricing_model: str, term_months: int | None, gpu: str | None
) -> Iterator[str]:
    scopes = [f"@{provider}/{gpu_model(gpu)}"] if gpu else []
    families = [pricing_model, "commit"] if pricing_model in COMMITMENTS else [pricing_model]
    terms = [f".{term_months}m", ""] if term_months else [""]
    for scope in [*scopes, f"@{provider}", ""]:
        for family in families:
            for term in terms:
                yield f"discount.{family}{term}{scope}"
