"""Demand growth on the Capacity page: the scenario's `growth:`, or a yearly factor on the
trace's arrival rate (and the resampling's seed) set on the page, and which years every point
then replays (`planner.service.growth`: one replay a year, each year's months priced from
its own replay)."""

from typing import Any

import streamlit as st
from pydantic import ValidationError

from planner.cost.growth import years_of
from planner.cost.scenario import GrowthSpec, TcoScenario
from planner.cost.tco import horizons_months
from planner.ui.capacity_view import short
from planner.ui.i18n import Language, reporting_currency, t
from planner.ui.safe import md

RATE, SEED = "capacity_growth_rate", "capacity_growth_seed"
DEFAULTS = "capacity_growth_defaults"  # the scenario's growth the inputs were last filled from


def grown_or_stop(scenario: TcoScenario, rate_col: Any, seed_col: Any) -> TcoScenario:
    """The scenario with the growth the inputs ask for (the scenario's own while they are
    left as it has them); stops with the reason on a growth it refuses."""
    growth = scenario.growth
    _fill_defaults(growth)
    rate = rate_col.number_input(
        t("capacity.growth_rate"), min_value=0.01, max_value=100.0, step=0.1,
        placeholder=t("capacity.growth_rate_none"), help=t("capacity.growth_rate_help"),
        key=RATE,
    )  # fmt: skip
    seed = seed_col.number_input(
        t("capacity.growth_seed"), min_value=0, step=1, help=t("capacity.growth_seed_help"),
        key=SEED,
    )  # fmt: skip
    try:
        return with_growth(scenario, rate, int(seed))
    except ValidationError as err:
        problems = "; ".join(e["msg"] for e in err.errors(include_url=False))
        st.error(t("capacity.growth_refused", error=md(problems)), icon=":material/error:")
        st.stop()


def _fill_defaults(growth: GrowthSpec | None) -> None:
    """Start the inputs from the scenario's growth when another scenario changes it; the
    user's own edits stay while it does not."""
    own = (_own_rate(growth), growth.seed if growth is not None else 0)
    if st.session_state.get(DEFAULTS) != own or RATE not in st.session_state:
        st.session_state[RATE], st.session_state[SEED] = own
    st.session_state[DEFAULTS] = own


def _own_rate(growth: GrowthSpec | None) -> float | None:
    """The factor a year the rate input shows for the scenario's growth (None: none, or one
    given year by year, which the input cannot show)."""
    return None if growth is None else growth.arrival_rate_per_year


def with_growth(scenario: TcoScenario, rate: float | None, seed: int) -> TcoScenario:
    """The scenario growing by `rate` a year with `seed` (None: as the scenario has it, its
    seed replaced); ValidationError for a growth the scenario refuses."""
    growth = scenario.growth
    if rate is None and (growth is None or growth.seed == seed):
        return scenario
    data = growth.model_dump(exclude_unset=True) if growth is not None else {}
    data["seed"] = seed
    if rate is not None:
        data |= {"arrival_rate_per_year": rate, "arrival_rate": ()}
    spec = GrowthSpec.model_validate(data)
    return scenario.model_copy(update={"growth": spec})


def replayed(scenario: TcoScenario, lang: Language) -> str:
    """Which years each point replays: one per year of the longest horizon with its factor on
    the trace's arrival rate (and time-warp, added team), or the trace once without growth."""
    growth = scenario.growth
    years = years_of(horizons_months(scenario.horizons_years))
    if growth is None:
        return t("capacity.growth_none", lang)
    steps = [
        t(
            "capacity.growth_year",
            lang,
            year=k,
            factor=short(round(growth.factor(k), 2), reporting_currency()),
        )
        for k in range(1, years + 1)
    ]
    text = t(
        "capacity.growth_years",
        lang,
        years=years,
        steps=t("capacity.list_sep", lang).join(steps),
        seed=growth.seed,
    )
    if growth.time_warp:
        warps = ", ".join(f"×{growth.warp(k):g}" for k in range(1, years + 1))
        text += t("capacity.growth_warp", lang, warps=warps)
    if growth.add_team is not None:
        team = growth.add_team
        text += t("capacity.growth_team", lang, profile=md(team.profile), year=team.from_year)
    return text
