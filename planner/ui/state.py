"""What the pages share within one session: the working scenario.

The Cluster & policy page edits it, the Replay page runs it on a trace, saved scenarios are
loaded into it. It is a validated `planner.scenario.Scenario` (the same model the CLI reads
from YAML), so whatever a page stores here runs as `planner replay --scenario`.
"""

import streamlit as st

from planner.scenario import Scenario
from planner.ui.replay_view import default_scenario

SCENARIO_KEY = "working_scenario"
SCENARIO_NAME_KEY = "working_scenario_name"  # the saved scenario it came from, if any


def working_scenario() -> Scenario:
    """The session's scenario; the bundled sample's until a page sets one."""
    scenario = st.session_state.get(SCENARIO_KEY)
    if not isinstance(scenario, Scenario):
        scenario = default_scenario()
        st.session_state[SCENARIO_KEY] = scenario
    return scenario


def set_working_scenario(scenario: Scenario, name: str | None = None) -> None:
    st.session_state[SCENARIO_KEY] = scenario
    if name is not None:
        st.session_state[SCENARIO_NAME_KEY] = name


def working_scenario_name() -> str | None:
    name = st.session_state.get(SCENARIO_NAME_KEY)
    return name if isinstance(name, str) and name else None
